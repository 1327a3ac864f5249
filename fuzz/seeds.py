#!/usr/bin/env python3
"""Builds the seed inputs of the fuzz targets into OUT/{yaml,compile,run}/.

Sources, read at run time (nothing of the conformance corpus is copied into the repo):
- the project's examples/ and the committed seeds in fuzz/seeds/<target>/;
- ../shared/conformance/cases (when present): every input file of every case, and for
  the `run` target every case as a run input (its args and files, see RunInput in
  fuzz/src/lib.rs).

Usage: seeds.py OUT
"""

import hashlib
import os
import sys

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)
CASES = os.path.join(ROOT, "..", "shared", "conformance", "cases")
MAX_SIZE = 32 * 1024

YAML_EXT = (".yml", ".yaml")
COMPILE_EXT = YAML_EXT + (".txt", ".star")


def write(out, target, data):
    if len(data) > MAX_SIZE:
        return
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def files_under(d):
    for base, dirs, names in os.walk(d):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(base, n)
            if os.path.isfile(p) and not os.path.islink(p):
                yield p


def run_input(args, files):
    """args: list of str; files: list of (relative path, bytes)."""
    parts = [b"@@@ args\n" + "".join(a + "\n" for a in args).encode()]
    for rel, data in files:
        if not data.endswith(b"\n"):
            data += b"\n"
        parts.append(b"@@@ " + rel.encode() + b"\n" + data)
    return b"".join(parts)


def main():
    out = sys.argv[1]
    for t in ("yaml", "compile", "run"):
        os.makedirs(os.path.join(out, t), exist_ok=True)
        committed = os.path.join(FUZZ, "seeds", t)
        if os.path.isdir(committed):
            for p in files_under(committed):
                write(out, t, read(p))

    examples = os.path.join(ROOT, "examples")
    for p in files_under(examples):
        data = read(p)
        if p.endswith(YAML_EXT):
            write(out, "yaml", data)
        if p.endswith(COMPILE_EXT):
            write(out, "compile", data)
    for ex in sorted(os.listdir(examples)):
        d = os.path.join(examples, ex)
        files = [(os.path.relpath(p, examples), read(p)) for p in files_under(d)]
        write(out, "run", run_input(["-f", ex], files))

    cases = 0
    if os.path.isdir(CASES):
        for base, dirs, names in os.walk(CASES):
            dirs.sort()
            if "args" not in names or not os.path.isdir(os.path.join(base, "files")):
                continue
            cases += 1
            args = read(os.path.join(base, "args")).decode("utf-8", "replace").splitlines()
            args = [a.replace("@OUTDIR@", "out") for a in args]
            files = []
            for p in files_under(os.path.join(base, "files")):
                data = read(p)
                files.append((os.path.relpath(p, base), data))
                if p.endswith(YAML_EXT):
                    write(out, "yaml", data)
                if p.endswith(COMPILE_EXT):
                    write(out, "compile", data)
            write(out, "run", run_input(args, files))
    counts = {t: len(os.listdir(os.path.join(out, t))) for t in ("yaml", "compile", "run")}
    print(f"seeds: {counts} (conformance cases read: {cases})")


if __name__ == "__main__":
    main()
