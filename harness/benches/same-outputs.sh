#!/usr/bin/env bash
# Compares every output of two pvlint binaries, byte for byte: a restructure or a speed-up must
# change none. Over the bundled examples, every rule fixture and lint-core test input, and the
# shared corpus (../shared/corpus, when present): lint in each format (human, json, sarif,
# concise), by directory and --each-file, simulate, migrate, rules and explain.
#
#   bash harness/benches/same-outputs.sh OLD_BINARY NEW_BINARY
#
# Name both binaries pvlint (in two directories): messages may carry the program's name.
# Prints the number of outputs compared and each one that differs (and exits 1 if any does).
set -uo pipefail
cd "$(dirname "$0")/../.."
old=$1 new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compared=0 differ=0

check() { # check NAME ARGS...: runs both binaries with ARGS, compares stdout, stderr, status
  local name=$1
  shift
  "$old" "$@" > "$work/old.out" 2> "$work/old.err"
  echo $? >> "$work/old.out"
  "$new" "$@" > "$work/new.out" 2> "$work/new.err"
  echo $? >> "$work/new.out"
  compared=$((compared + 1))
  if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err"; then
    differ=$((differ + 1))
    echo "DIFFERS: $name: pvlint $*"
    diff "$work/old.out" "$work/new.out" | head -n 10
  fi
}

inputs=(examples)
for d in lint-core/tests/fixtures/*/ lint-core/tests/ordinary/ lint-core/tests/oracle/; do
  [ -d "$d" ] && inputs+=("${d%/}")
done
corpus=../shared/corpus
if [ -d "$corpus" ]; then
  for d in "$corpus"/*/*/; do inputs+=("${d%/}"); done
else
  echo "(no ../shared/corpus here: the examples and fixtures only)"
fi

for input in "${inputs[@]}"; do
  for format in human json sarif concise; do
    check "$input $format" lint --fail-on never --color never --format "$format" "$input"
  done
  check "$input each-file" lint --fail-on never --color never --format json --each-file "$input"
  check "$input simulate" simulate --format json "$input"
done
for f in $(find examples -name '*.yaml' | sort); do
  check "$f migrate" migrate "$f"
  check "$f simulate" simulate "$f"
done
for format in table json markdown; do check "rules $format" rules --format "$format"; done
for r in $("$new" rules --format json 2> /dev/null | python3 -c 'import json,sys; [print(r["id"]) for r in json.load(sys.stdin)]' 2> /dev/null); do
  check "explain $r" explain "$r"
done

echo "same-outputs: $compared outputs compared, $differ differ"
[ "$differ" -eq 0 ]
