#!/usr/bin/env python3
"""Inputs that grow: each shape at two sizes, so that a cost that grows faster than its
input shows (twice the input should take about twice the time and memory, never four
times). Prints elapsed time and peak resident memory per run; with a second binary (the
reference), its figures beside ours.

    python3 benches/cliffs.py [--bin target/release/ytt] [--ref path/to/reference-ytt]

The shapes (each was once quadratic or held memory per level; docs/performance.md):

- values-file: a `--data-values-file` of N keys (merged key by key into the values)
- overlay-merge: an overlay merging a map of N keys into one of N keys
- aliases: N aliases of one anchored scalar
- load-chain: N `.star` files, each loading the next
- nested-libraries: N libraries, each evaluating the one inside it

Python 3 standard library only; Linux (peak memory from wait4's rusage).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def values_file(d, n):
    with open(os.path.join(d, "t.yml"), "w") as f:
        f.write("#@ load(\"@ytt:data\", \"data\")\ncount: #@ len(data.values)\n")
    with open(os.path.join(d, "values.yml"), "w") as f:
        f.writelines(f"k{i}: {i}\n" for i in range(n))
    return ["-f", "t.yml", "--data-values-file", "values.yml"]


def overlay_merge(d, n):
    with open(os.path.join(d, "base.yml"), "w") as f:
        f.write("m:\n")
        f.writelines(f"  k{i}: {i}\n" for i in range(n))
    with open(os.path.join(d, "overlay.yml"), "w") as f:
        f.write('#@ load("@ytt:overlay", "overlay")\n#@overlay/match by=overlay.all\n---\nm:\n')
        f.writelines(f"  k{i}: x{i}\n" for i in range(n))
    return ["-f", "base.yml", "-f", "overlay.yml"]


def aliases(d, n):
    with open(os.path.join(d, "a.yml"), "w") as f:
        f.write("a: &x v\nb:\n")
        f.writelines("- *x\n" for _ in range(n))
    return ["-f", "a.yml"]


def load_chain(d, n):
    for i in range(n):
        body = f'load("m{i + 1}.star", x="w")\nw = x + 1\n' if i + 1 < n else "w = 0\n"
        with open(os.path.join(d, f"m{i}.star"), "w") as f:
            f.write(body)
    with open(os.path.join(d, "t.yml"), "w") as f:
        f.write('#@ load("m0.star", "w")\ndepth: #@ w\n')
    return ["-f", "."]


def nested_libraries(d, n):
    path = d
    for i in range(n + 1):
        os.makedirs(path, exist_ok=True)
        if i < n:
            body = (
                '#@ load("@ytt:library", "library")\n#@ load("@ytt:template", "template")\n'
                f'--- #@ template.replace(library.get("l{i + 1}").eval())\n'
            )
        else:
            body = "leaf: true\n"
        with open(os.path.join(path, "main.yml" if i == 0 else "t.yml"), "w") as f:
            f.write(body)
        # short directory names: 300 levels stay under the path limit
        path = os.path.join(path, "_ytt_lib", f"l{i + 1}")
    return ["-f", "."]


SHAPES = [
    ("values-file", values_file, (20_000, 40_000)),
    ("overlay-merge", overlay_merge, (10_000, 20_000)),
    ("aliases", aliases, (100_000, 200_000)),
    ("load-chain", load_chain, (250, 500)),
    ("nested-libraries", nested_libraries, (75, 150)),
]


def run(binary, args, cwd):
    start = time.perf_counter()
    proc = subprocess.Popen(
        [binary, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{binary} {' '.join(args)} failed ({code}):\n{err[:2000]}")
    return elapsed, usage.ru_maxrss / 1024


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "ytt"))
    p.add_argument("--ref", help="a second binary (the reference) measured beside")
    a = p.parse_args()
    bins = [("ours", os.path.abspath(a.bin))]
    if a.ref:
        bins.append(("reference", os.path.abspath(a.ref)))
    head = f"{'shape':18} {'size':>8}" + "".join(f" {n + ' s':>12} {n + ' MiB':>14}" for n, _ in bins)
    print(head)
    for name, make, sizes in SHAPES:
        for n in sizes:
            d = tempfile.mkdtemp(prefix=f"ytt-{name}-")
            try:
                args = make(d, n)
                row = f"{name:18} {n:>8}"
                for _, b in bins:
                    t, mib = run(b, args, d)
                    row += f" {t:>12.3f} {mib:>14.1f}"
                print(row, flush=True)
            finally:
                shutil.rmtree(d)


if __name__ == "__main__":
    main()
