#!/usr/bin/env python3
"""The README's performance table: every workload of `../shared/bench` and the `startup`
workload, this tool beside the reference and the yardstick, in one interleaved run.

    python3 benches/compare.py --ref path/to/reference-ytt \\
        [--bin target/x86_64-unknown-linux-gnu/release/ytt] [--bin-dynamic target/release/ytt] \\
        [--bench /tmp/bench] [--rounds-scale 1.0] [--only ROW,...] [--json out.json]

Each row runs its binaries in rounds, one run of each per round, the order reversed every
other round, so that the machine's drift falls on all of them alike; figures are medians.
Wall time is measured around a direct spawn (nothing between the measurement and the
process); peak memory is measured in runs of their own under `/usr/bin/time` (a process
spawned by this script would count the script's pages: Linux folds a forked child's
resident size before `exec` into its peak). Every run's output is hashed: this tool's must
be the hash `../shared/bench/README.md` gives for the workload (for `package-inspect`,
this project's), or, where it gives none, the reference's output in the same run.

The yardstick is `/bin/true`: the cost of starting a process on this machine, measured in
the same rounds. Every binary, the yardstick too, runs from a copy made at the start, side
by side (the page cache holds a file the linker wrote differently from a copy). The `startup` workload (written here, beside the generated ones: a file
`a.yml` holding `a: 1`) holds the start-up targets: `ytt version` within 0.3 ms of the
yardstick, `ytt -f a.yml` within 0.8 ms.

Python 3 standard library only; Linux.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED_BENCH = os.path.join(ROOT, "..", "shared", "bench")
YARDSTICK = "/bin/true"

# (row, workload folder, arguments (None: the folder's `args`), scale, rounds, memory
# runs, target)
ROWS = [
    ("startup: version", "startup", ["version"], 1, 201, 5, "yardstick + 0.3 ms"),
    ("startup: a: 1", "startup", ["-f", "a.yml"], 1, 201, 5, "yardstick + 0.8 ms"),
    ("package --scale 0.05", "package", None, 0.05, 41, 5, "≥ 8×, ≤ its memory"),
    ("package", "package", None, 1, 15, 3, "≥ 5×, ≤ its memory"),
    ("package-inspect", "package-inspect", None, 1, 21, 3, "≥ 5×, ≤ its memory"),
    ("compute", "compute", None, 1, 11, 3, "≥ 6×, ≤ 2× its memory"),
    ("fleet", "fleet", None, 1, 5, 2, "≥ 20×, ≤ 200 MiB"),
    ("validations", "validations", None, 1, 5, 2, "≥ 19×, ≤ 200 MiB"),
    ("overlays", "overlays", None, 1, 5, 2, "≥ 19×, ≤ 120 MiB"),
    ("many-files", "many-files", None, 1, 3, 1, "≥ 83×"),
]


def markdown(results, names):
    """The README's table of `results`."""
    ours = [n for n in names if n not in ("reference", "yardstick")]
    head = ours + ["reference", "yardstick (`/bin/true`)", "ratio", "target"]
    lines = ["| workload | " + " | ".join(head) + " |", "|---" * (len(head) + 1) + "|"]
    for r in results:
        f = r["figures"]

        def cell(n):
            return f"{f[n]['ms']:.2f} ms, {f[n]['mib']:.1f} MiB"

        y = f["yardstick"]["ms"]
        if r["row"].startswith("startup"):
            ours_cells = [f"{cell(n)} (+{f[n]['ms'] - y:.2f})" for n in ours]
            ref = f"{cell('reference')} (+{f['reference']['ms'] - y:.2f})"
        else:
            ours_cells = [cell(n) for n in ours]
            ref = cell("reference")
        ratio = f"1/{f['reference']['ms'] / f['ytt']['ms']:.1f}"
        lines.append(
            f"| `{r['row']}` | " + " | ".join(ours_cells + [ref, f"{y:.2f} ms", ratio, r["target"]]) + " |"
        )
    return "\n".join(lines)


def expected_hashes():
    """Workload -> the hash this tool's output must have, from the bench README."""
    path = os.path.join(SHARED_BENCH, "README.md")
    hashes = {}
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"\| `([a-z-]+)` \|", line)
            found = re.findall(r"`([0-9a-f]{64})`", line)
            if m and found:
                # the last hash of a row is this project's (package-inspect gives two)
                hashes[m.group(1)] = found[-1]
    return hashes


def generate(bench, scale):
    """The generated workloads at `scale` (once), and the `startup` workload."""
    out = bench if scale == 1 else f"{bench}-scale-{scale}"
    if not os.path.exists(os.path.join(out, "package", "args")):
        subprocess.run(
            [sys.executable, os.path.join(SHARED_BENCH, "gen.py"), out, "--scale", str(scale)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    startup = os.path.join(out, "startup")
    os.makedirs(startup, exist_ok=True)
    with open(os.path.join(startup, "a.yml"), "w") as f:
        f.write("a: 1\n")
    with open(os.path.join(startup, "args"), "w") as f:
        f.write("-f\na.yml\n")
    return out


def timed(argv, cwd):
    """Wall seconds of one run, its output discarded."""
    with open(os.devnull, "wb") as null:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, cwd=cwd, stdout=null, stderr=null, close_fds=False)
        code = p.wait()
        t = time.perf_counter() - t0
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} (in {cwd}) exited {code}")
    return t


def measured(argv, cwd):
    """(peak resident KiB, sha256 of stdout) of one run under /usr/bin/time."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as rss:
        code = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss.name] + argv,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.DEVNULL,
        ).returncode
        if code != 0:
            raise SystemExit(f"{' '.join(argv)} (in {cwd}) exited {code}")
        out.seek(0)
        digest = hashlib.sha256(out.read()).hexdigest()
        return int(rss.read().split()[-1]), digest


def interleaved(binaries, rounds, run):
    """{name: [result of each round]}, the binaries' order reversed every other round."""
    names = list(binaries)
    got = {n: [] for n in names}
    for r in range(rounds):
        for n in names if r % 2 == 0 else reversed(names):
            got[n].append(run(binaries[n]))
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", required=True, help="the reference ytt binary")
    ap.add_argument("--bin", default="target/x86_64-unknown-linux-gnu/release/ytt",
                    help="this tool as distributed (`cargo static --release`)")
    ap.add_argument("--bin-dynamic", help="this tool as the README builds it (`cargo build --release`)")
    ap.add_argument("--bench", default="/tmp/bench", help="where the workloads are generated")
    ap.add_argument("--rounds-scale", type=float, default=1.0, help="multiply every row's rounds")
    ap.add_argument("--only", help="rows to run, comma-separated (default: all)")
    ap.add_argument("--json", help="write every figure here")
    args = ap.parse_args()

    sources = {"ytt": args.bin}
    if args.bin_dynamic:
        sources["ytt (dynamic)"] = args.bin_dynamic
    sources["reference"] = args.ref
    sources["yardstick"] = YARDSTICK
    # Every binary runs from a copy made now, side by side: how fast a binary's pages map
    # depends on how its file came into the page cache (the same `ytt version` starts
    # 0.1 ms later from the file the linker wrote than from a copy of it).
    copies = tempfile.TemporaryDirectory(prefix="ytt-compare-")
    binaries = {}
    for i, (n, path) in enumerate(sources.items()):
        # each named as it was (a usage line names it), in a folder of its own
        os.mkdir(os.path.join(copies.name, str(i)))
        binaries[n] = os.path.join(copies.name, str(i), os.path.basename(path))
        shutil.copy2(path, binaries[n])
    hashes = expected_hashes()
    only = set(args.only.split(",")) if args.only else None
    results = []
    for row, folder, argv, scale, rounds, mem_runs, target in ROWS:
        if only and row not in only:
            continue
        cwd = os.path.join(generate(args.bench, scale), folder)
        if argv is None:
            argv = open(os.path.join(cwd, "args")).read().split()
        rounds = max(1, round(rounds * args.rounds_scale))

        def command(b):
            return [b] if b == binaries["yardstick"] else [b] + argv

        times = interleaved(binaries, rounds, lambda b: timed(command(b), cwd))
        mems = interleaved(binaries, mem_runs, lambda b: measured(command(b), cwd))
        # the output check: each binary's runs agree, and this tool's is the expected one
        digests = {n: {d for _, d in mems[n]} for n in binaries}
        want = hashes.get(folder) if scale == 1 else None
        want = want or next(iter(digests["reference"]))
        for n in binaries:
            if n in ("reference", "yardstick") or row == "startup: version":
                continue
            if digests[n] != {want}:
                raise SystemExit(f"{row}: {n}'s output {sorted(digests[n])} is not {want}")
        fig = {
            n: {
                "ms": statistics.median(times[n]) * 1000,
                "mib": statistics.median(k for k, _ in mems[n]) / 1024,
                "runs": len(times[n]),
            }
            for n in binaries
        }
        results.append({"row": row, "figures": fig, "target": target})
        y = fig["yardstick"]["ms"]
        cells = " | ".join(f"{n} {f['ms']:.2f} ms (+{f['ms'] - y:.2f}) {f['mib']:.1f} MiB" for n, f in fig.items())
        print(f"{row}: {cells} | ratio 1/{fig['reference']['ms'] / fig['ytt']['ms']:.1f}", flush=True)
    print()
    print(markdown(results, list(binaries)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"binaries": sources, "rows": results}, f, indent=1)


if __name__ == "__main__":
    main()
