#!/usr/bin/env bash
# Peak memory (maximum resident set size, /usr/bin/time -f %M) and wall time of the real
# CLI, `pvlint lint --format json FILE`, on the benchmark corpus at 1×, 2× and 4× its size
# (5,000, 10,000 and 20,000 groups of 4 objects). Target (issue 7): peak ≤ 8× the input,
# growing linearly.
#
#     bash lint-core/benches/memory.sh [SCALE...]     # default: 1 2 4
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cargo build --release -q -p pvlint
cargo build --release -q -p pvlint-core --example write-corpus
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '%-6s %10s %10s %8s %8s\n' scale input_MB peak_MB x_input wall_s
for scale in "${@:-1 2 4}"; do
  for s in $scale; do
    file="$dir/corpus-$s.yaml"
    target/release/examples/write-corpus $((5000 * s)) "$file" 2>/dev/null
    bytes=$(stat -c %s "$file")
    # Exit status 1 is expected: the corpus has errors on purpose.
    /usr/bin/time -f '%M %e' -o "$dir/time" target/release/pvlint lint --format json "$file" >/dev/null || true
    read -r kb wall < <(tail -n 1 "$dir/time")
    awk -v b="$bytes" -v kb="$kb" -v s="$s" -v w="$wall" \
      'BEGIN { printf "%-6s %10.1f %10.1f %8.1f %8.2f\n", s "x", b/1e6, kb*1024/1e6, kb*1024/b, w }'
  done
done
