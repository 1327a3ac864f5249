#!/usr/bin/env bash
# Fuzzing with libFuzzer on the stable toolchain (see fuzz/README.md).
#
#   fuzz/run.sh TARGET SECONDS       fuzz one target (yaml, compile or run) for SECONDS
#   fuzz/run.sh smoke                each target in turn, 60 s in all: what CI runs
#   fuzz/run.sh replay TARGET FILE…  run inputs once (paths from the project root),
#                                    printing the output and any error report
#
# Builds the targets with coverage instrumentation (first build: several minutes), builds
# the seeds (examples/, fuzz/seeds/, the conformance cases when ../shared is there), and
# fuzzes at the lowest priority, one process. The corpus grown so far stays in
# fuzz/corpus/TARGET for the next run; findings go to fuzz/artifacts/TARGET/.
# Prints per target the executions, the corpus size and the findings; exits 1 when there
# is a finding.
set -euo pipefail
cd "$(dirname "$0")"

host=$(rustc -vV | sed -n 's/^host: //p')
bin_dir="target/$host/release"
work="$PWD/work"

build() {
  # libfuzzer-sys compiles libFuzzer with the machine's C++ compiler
  if ! command -v c++ >/dev/null; then
    apt-get update -qq && apt-get install -y -qq g++ >/dev/null
  fi
  # What cargo-fuzz passes, on stable: SanitizerCoverage feeding libFuzzer (linked by
  # libfuzzer-sys); --target keeps the flags off build scripts and proc macros.
  RUSTFLAGS="-Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares \
--cfg fuzzing" \
    nice -n 19 cargo build --locked --release --target "$host" --bins
}

seeds() {
  rm -rf "$work/seeds"
  python3 seeds.py "$work/seeds"
}

# fuzz TARGET SECONDS: prints one summary line; returns 1 on a finding.
fuzz() {
  local t=$1 secs=$2
  local log="$work/$t.log"
  # absolute paths: the run target works in a directory of its own
  local corpus_dir="$PWD/corpus/$t" artifacts="$PWD/artifacts/$t"
  mkdir -p "$corpus_dir" "$artifacts" "$work/tmp"
  local before
  before=$(find "artifacts/$t" -type f | wc -l)
  # stdout and stderr of the runs closed (templates print); libFuzzer keeps its own.
  # The run target writes its files under TMPDIR.
  TMPDIR="$work/tmp" nice -n 19 "$bin_dir/$t" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=32768 \
    -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$artifacts/" -dict="$PWD/ytt.dict" \
    "$corpus_dir" "$work/seeds/$t" >"$log" 2>&1 || true
  rm -rf "$work/tmp"
  local runs corpus after
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "corpus/$t" -type f | wc -l)
  after=$(find "artifacts/$t" -type f | wc -l)
  echo "fuzz $t: ${runs:-?} executions in ${secs} s, corpus ${corpus}, findings $((after - before))"
  if [ "$after" -gt "$before" ] || [ -z "$runs" ]; then
    tail -n 30 "$log"
    for f in $(find "artifacts/$t" -type f -newer "$log.start"); do
      echo "--- finding $f (replay: fuzz/run.sh replay $t fuzz/$f)"
      YTT_FUZZ_SHOW_ERRORS=1 TMPDIR="$work" "$bin_dir/$t" "$f" 2>&1 | grep -v '^INFO:' | head -n 40 || true
    done
    return 1
  fi
}

case "${1:-}" in
  smoke)
    # 60 s in all; the run target gets half, its seeds alone take about 20 s
    build
    seeds
    status=0
    for t in yaml:15 compile:15 run:30; do
      mkdir -p "$work" && touch "$work/${t%:*}.log.start"
      fuzz "${t%:*}" "${t#*:}" || status=1
    done
    exit $status
    ;;
  replay)
    t=$2
    shift 2
    build
    for f in "$@"; do
      (cd .. && YTT_FUZZ_SHOW_ERRORS=1 "fuzz/$bin_dir/$t" "$f")
    done
    ;;
  yaml | compile | run)
    [ $# -eq 2 ] || { echo "usage: fuzz/run.sh TARGET SECONDS" >&2; exit 2; }
    build
    seeds
    mkdir -p "$work" && touch "$work/$1.log.start"
    fuzz "$1" "$2"
    ;;
  *)
    sed -n '2,15p' "$0" >&2
    exit 2
    ;;
esac
