#!/usr/bin/env bash
# Peak memory of long loops in a template (issue: starlark-rust collects garbage only
# between top-level statements; see src/eval/gc.rs). Prints, per workload, the elapsed
# time, the peak resident memory and the output's last line.
#
#   benches/loop_memory.sh [path/to/ytt]     (default: target/release/ytt)
set -euo pipefail
cd "$(dirname "$0")/.."
ytt=${1:-target/release/ytt}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# an int tripled 200,000 times (95,425 digits in the end)
cat >"$dir/triple.yml" <<'YAML'
#@ x = 1
#@ for i in range(200000):
#@   x = x * 3
#@ end
digits: #@ len(str(x))
YAML
# 20,000 string concatenations (200 kB in the end)
cat >"$dir/concat.yml" <<'YAML'
#@ s = ""
#@ for i in range(20000):
#@   s = s + "abcdefghij"
#@ end
length: #@ len(s)
YAML
# the same in a while loop, and a loop over data values (frozen: collected too)
cat >"$dir/while.yml" <<'YAML'
#@ s = ""
#@ while len(s) < 200000:
#@   s = s + "abcdefghij"
#@ end
length: #@ len(s)
YAML

for w in triple concat while; do
  /usr/bin/time -f "%e %M" -o "$dir/time" "$ytt" -f "$dir/$w.yml" --max-memory 16GiB >"$dir/out"
  read -r secs kib <"$dir/time"
  printf '%-8s %6.2f s  %6d MiB  %s\n' "$w" "$secs" "$((kib / 1024))" "$(tail -1 "$dir/out")"
done
