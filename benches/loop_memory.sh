#!/usr/bin/env bash
# Time and peak memory of long loops, at a template's top level and in functions, where
# starlark-rust collects no garbage by itself (src/eval/gc.rs collects inside them). Prints, per
# workload, the elapsed time, the peak resident memory and the output's last line; with a
# second binary (the reference), its figures beside ours.
#
#   benches/loop_memory.sh [path/to/ytt [path/to/reference-ytt]]
#                                       (default: target/release/ytt, no reference)
#
# Goals: the loops are amortised linear (10^6 iterations take about ten times as long
# as 10^5); at 10^6 each takes no longer and peaks no higher than the reference; the
# first five (garbage that must be collected) stay under 100 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
ytt=${1:-target/release/ytt}
ref=${2:-}
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
# the same in a while loop
cat >"$dir/while.yml" <<'YAML'
#@ s = ""
#@ while len(s) < 200000:
#@   s = s + "abcdefghij"
#@ end
length: #@ len(s)
YAML
# the concatenations in a function, and the `compute` benchmark's loop (strings, a list
# and a dict entry made at every iteration) in a function
cat >"$dir/def-concat.yml" <<'YAML'
#@ def build(n):
#@   s = ""
#@   for i in range(n):
#@     s = s + "abcdefghij"
#@   end
#@   return s
#@ end
length: #@ len(build(20000))
YAML
cat >"$dir/def-compute.yml" <<'YAML'
#@ def work(n):
#@   acc = {}
#@   for i in range(n):
#@     k = "key-" + str(i % 997)
#@     acc[k] = acc.get(k, 0) + len("{}-{}".format(k, i).upper().split("-"))
#@   end
#@   return acc
#@ end
buckets: #@ len(work(1000000))
YAML
# N appends to a list, N dict inserts, N strings built and kept, N comprehensions
for n in 100000 1000000; do
  cat >"$dir/append-$n.yml" <<YAML
#@ l = []
#@ for i in range($n):
#@   l.append(i)
#@ end
length: #@ len(l)
YAML
  cat >"$dir/dict-$n.yml" <<YAML
#@ d = {}
#@ for i in range($n):
#@   d[i] = i * 2
#@ end
length: #@ len(d)
YAML
  cat >"$dir/strings-$n.yml" <<YAML
#@ parts = []
#@ for i in range($n):
#@   parts.append("item-" + str(i) + ";")
#@ end
length: #@ len("".join(parts))
YAML
  cat >"$dir/comprehension-$n.yml" <<YAML
#@ total = 0
#@ for i in range($n):
#@   total += len([j for j in range(i % 8) if j != 3])
#@ end
total: #@ total
YAML
done

# prints "SECONDS MiB LAST-LINE" of one run
measure() {
  /usr/bin/time -f "%e %M" -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err" || {
    echo "- - $(tail -1 "$dir/err")"
    return
  }
  read -r secs kib <"$dir/time"
  echo "$secs $((kib / 1024)) $(tail -1 "$dir/out")"
}

for w in triple concat while def-concat def-compute \
  append-100000 dict-100000 strings-100000 comprehension-100000 \
  append-1000000 dict-1000000 strings-1000000 comprehension-1000000; do
  read -r secs mib last < <(measure "$ytt" -f "$dir/$w.yml" --max-memory 16GiB)
  line=$(printf '%-21s %6s s %5s MiB' "$w" "$secs" "$mib")
  if [ -n "$ref" ]; then
    read -r rsecs rmib _ < <(measure "$ref" -f "$dir/$w.yml")
    line+=$(printf '   reference %6s s %5s MiB' "$rsecs" "$rmib")
  fi
  echo "$line   $last"
done
