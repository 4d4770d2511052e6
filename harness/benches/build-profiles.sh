#!/usr/bin/env bash
# What building pvlint from source costs under each build profile, and what each binary does:
# a cold `cargo install --path harness` (an empty target directory; the crates already
# downloaded) timed in wall-clock and CPU seconds, the binary's size, and the median time of
# `pvlint lint --format json` on the 20,000-object corpus (harness/examples/write_corpus.rs).
# Not a test: timings depend on the machine and on what else runs on it.
#
#   bash harness/benches/build-profiles.sh                 # every variant below
#   bash harness/benches/build-profiles.sh release lean    # some of them
#
# Variants: release (the [profile.release] people build with), lean (the same with
# --no-default-features: lint only), dist ([profile.dist]: what the release workflow ships),
# fat-release (the profile release had before: fat LTO, one codegen unit).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work="${PVLINT_BUILD_BENCH_DIR:-/tmp/pvlint-build-profiles}"
runs=${RUNS:-5}
mkdir -p "$work"
corpus="$work/corpus-20k"
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(release lean dist fat-release)

cargo fetch --locked -q
if [ ! -d "$corpus" ]; then
  cargo run -q -p pvlint --example write_corpus "$corpus" > /dev/null
fi

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

printf '| variant | cold build (wall) | CPU | binary | lint of 20,000 objects (median of %s) |\n|---|---|---|---|---|\n' "$runs" > "$work/table.md"
for v in "${variants[@]}"; do
  args=(--path harness --locked --force --root "$work/install-$v")
  env=()
  case "$v" in
    release) ;;
    lean) args+=(--no-default-features) ;;
    dist) args+=(--profile dist) ;;
    fat-release) env=(CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1) ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
  esac
  rm -rf "$work/target-$v"
  echo "== $v: cargo install ${args[*]} ${env[*]}"
  /usr/bin/time -f "%e %U %S" -o "$work/time-$v" \
    env "${env[@]}" CARGO_TARGET_DIR="$work/target-$v" CARGO_INCREMENTAL=0 \
    cargo install -q "${args[@]}"
  read -r wall user sys < "$work/time-$v"
  bin="$work/install-$v/bin/pvlint"
  size=$(wc -c < "$bin")
  "$bin" lint --format json "$corpus" > /dev/null || true
  lint=$(for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e" -o "$work/run" "$bin" lint --format json "$corpus" > /dev/null || true
    cat "$work/run"
  done | median)
  line=$(printf '| %s | %.0f s (%d min %02d s) | %.0f s | %.1f MB | %s s |' "$v" "$wall" \
    "$(printf '%.0f' "$wall" | awk '{print int($1 / 60)}')" \
    "$(printf '%.0f' "$wall" | awk '{print $1 % 60}')" \
    "$(echo "$user + $sys" | bc)" "$(echo "scale=1; $size / 1000000" | bc)" "$lint")
  echo "$line"
  echo "$line" >> "$work/table.md"
  rm -rf "$work/target-$v"
done
echo
cat "$work/table.md"
