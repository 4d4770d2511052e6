#!/usr/bin/env bash
# Whole-process timings of `pvlint lint`, native against --engine wasm, with hyperfine
# (`apt-get install hyperfine`). Not a test: timings depend on the machine.
#
#   bash harness/benches/end-to-end.sh            # all of it
#   RUNS=20 bash harness/benches/end-to-end.sh    # more runs per command
#
# Targets (issue 7): one small file with --engine wasm within 30 ms of native (warm cache);
# the 20,000-object corpus under wasm within 1.3x native. The cold-cache run (compiling the
# module) is reported for reference.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
runs=${RUNS:-10}

cargo build -q --release -p pvlint
cargo build -q -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release
corpus="$root/target/corpus-20k"
[ -d "$corpus" ] || cargo run -q --release -p pvlint --example write_corpus "$corpus" >/dev/null

pvlint="$root/target/release/pvlint"
export PVLINT_WASM_MODULE="$root/target/wasm32-wasip1/wasi-release/pvlint_wasm.wasm"
export PVLINT_CACHE_DIR="$root/target/bench-cache"
small=lint-core/tests/fixtures/stale-claim-ref-uid/bad.yaml
# Exit status 1 (findings) is expected: -i.
hf=(hyperfine -N -i --style basic)

echo "== one small file: native, wasm with a warm cache"
"$pvlint" lint --engine wasm "$small" >/dev/null || true
"${hf[@]}" -w 5 -r $((runs * 5)) \
  "$pvlint lint $small" \
  "$pvlint lint --engine wasm $small"

echo "== one small file, wasm with a cold cache (the module compiled, then stored)"
"${hf[@]}" -r "$runs" --prepare "rm -rf $PVLINT_CACHE_DIR" \
  "$pvlint lint --engine wasm $small"

echo "== 20,000 objects (7 MiB of YAML in 50 files), human and JSON output"
"$pvlint" lint --engine wasm "$small" >/dev/null || true
"${hf[@]}" -w 1 -r "$runs" \
  "$pvlint lint --color never $corpus" \
  "$pvlint lint --color never --engine wasm $corpus" \
  "$pvlint lint --format json $corpus" \
  "$pvlint lint --format json --engine wasm $corpus"
