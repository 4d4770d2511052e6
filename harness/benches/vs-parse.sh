#!/usr/bin/env bash
# pvlint end to end against the bare parse of the same bytes, side by side in one run (issue 34):
# whole processes, start-up, reading the files and writing the report included. The floor is
# `parse-floor` (lint-core/benches/parse_floor.rs): a process that reads the same files and
# parses every document into serde_yaml values, and does nothing else.
#
#   bash harness/benches/vs-parse.sh             # the 20,000-object corpus (50 files, 7 MB)
#   RUNS=20 bash harness/benches/vs-parse.sh     # more runs per command
#
# Targets: `pvlint lint --format json` within 1.5x the floor; human and SARIF output within 2x;
# peak memory (maximum resident set size) within 4x the input. Needs hyperfine
# (`apt-get install hyperfine`). Not a test: timings depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
runs=${RUNS:-10}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
cargo build -q --release -p pvlint --no-default-features
cargo build -q --release -p pvlint-core --example parse-floor
corpus="$CARGO_TARGET_DIR/corpus-20k"
[ -d "$corpus" ] || cargo run -q --release -p pvlint --no-default-features --example write_corpus "$corpus" >/dev/null
pvlint="$CARGO_TARGET_DIR/release/pvlint"
floor="$CARGO_TARGET_DIR/release/examples/parse-floor"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Exit status 1 (findings) is expected: -i. Output goes to a file, as a CI job writes it.
hyperfine -N -i --style basic -w 2 -r "$runs" --export-json "$work/times.json" \
  --output "$work/out" \
  "$floor $corpus" \
  "$pvlint lint --format json $corpus" \
  "$pvlint lint --color never $corpus" \
  "$pvlint lint --format sarif $corpus" >/dev/null 2>"$work/hyperfine.err" ||
  { cat "$work/hyperfine.err" >&2; exit 1; }

bytes=$(find "$corpus" -type f -name '*.yaml' -printf '%s\n' | awk '{ s += $1 } END { print s }')
peak() { # peak KB of one run
  /usr/bin/time -f '%M' -o "$work/peak" "$@" >/dev/null 2>&1 || true
  tail -n 1 "$work/peak"
}
python3 - "$work/times.json" "$bytes" \
  "$(peak "$floor" "$corpus")" \
  "$(peak "$pvlint" lint --format json "$corpus")" \
  "$(peak "$pvlint" lint --color never "$corpus")" \
  "$(peak "$pvlint" lint --format sarif "$corpus")" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
size = int(sys.argv[2])
peaks = [int(k) * 1024 for k in sys.argv[3:]]
names = ["bare parse (serde_yaml)", "lint --format json", "lint (human)", "lint --format sarif"]
targets = [None, 1.5, 2.0, 2.0]
floor = results[0]["median"]
print(f"input: {size / 1e6:.1f} MB of YAML")
print(f"{'command':<26} {'median':>9} {'user':>9} {'x parse':>8} {'target':>7} {'peak MB':>8} {'x input':>8}")
for name, r, target, kb in zip(names, results, targets, peaks):
    ratio = r["median"] / floor
    t = "" if target is None else f"{target:.1f}"
    print(f"{name:<26} {r['median'] * 1e3:>7.0f}ms {r['user'] * 1e3:>7.0f}ms {ratio:>8.2f} {t:>7} "
          f"{kb / 1e6:>8.1f} {kb / size:>8.1f}")
EOF
