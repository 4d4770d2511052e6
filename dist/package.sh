#!/usr/bin/env bash
# Packs one release build: pvlint (pvlint.exe), the WASI module pvlint_wasm.wasm beside it (so
# `--engine wasm` finds it with no flag), LICENSE and README.md, in a flat archive:
#   OUT/pvlint-VERSION-TARGET.tar.gz   (.zip for Windows targets)
#   OUT/pvlint-VERSION-TARGET.tar.gz.sha256
# Flat and without links: krew unpacks regular files only, Homebrew and the action take the
# files from the top. kubectl finds the tool as a plugin through a link named kubectl-pvlint,
# which krew and the Homebrew formula make (docs/distribution.md).
# The tar is reproducible: sorted names, owner 0, mtime of the release commit (SOURCE_DATE_EPOCH).
#
# usage: dist/package.sh VERSION TARGET BINARY WASM_MODULE OUT_DIR
set -euo pipefail
if [ $# -ne 5 ]; then
  echo "usage: $0 VERSION TARGET BINARY WASM_MODULE OUT_DIR" >&2
  exit 2
fi
version=$1 target=$2 binary=$3 module=$4 out=$5
root=$(cd "$(dirname "$0")/.." && pwd)
case "$version" in v*) ;; *) version="v$version" ;; esac
case "$target" in
  *windows*) exe=pvlint.exe ext=zip ;;
  *) exe=pvlint ext=tar.gz ;;
esac
for f in "$binary" "$module"; do
  [ -f "$f" ] || { echo "$0: $f does not exist" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
name="pvlint-$version-$target.$ext"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$binary" "$stage/$exe"
cp "$module" "$stage/pvlint_wasm.wasm"
cp "$root/LICENSE" "$root/README.md" "$stage/"
chmod 0755 "$stage/$exe"
chmod 0644 "$stage/pvlint_wasm.wasm" "$stage/LICENSE" "$stage/README.md"
files=("$exe" pvlint_wasm.wasm LICENSE README.md)
rm -f "$out/$name"
if [ "$ext" = zip ]; then
  if command -v zip >/dev/null; then
    (cd "$stage" && zip -q -X "$out/$name" "${files[@]}")
  else
    # Windows runners have 7-Zip, not zip.
    (cd "$stage" && 7z a -tzip -bso0 "$out/$name" "${files[@]}")
  fi
else
  epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
  # Not `| grep -q`: under pipefail its early exit can fail the pipe with SIGPIPE.
  if [[ "$(tar --version 2>/dev/null)" == *"GNU tar"* ]]; then
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
      -C "$stage" -cf - "${files[@]}" | gzip -9n > "$out/$name"
  else
    # bsdtar (macOS): no --sort; the names are listed in a fixed order.
    tar --uid 0 --gid 0 -C "$stage" -cf - "${files[@]}" | gzip -9n > "$out/$name"
  fi
fi
if command -v sha256sum >/dev/null; then
  (cd "$out" && sha256sum "$name" > "$name.sha256")
else
  (cd "$out" && shasum -a 256 "$name" > "$name.sha256")
fi
echo "$out/$name: $(wc -c < "$out/$name" | tr -d ' ') bytes, sha256 $(cut -d' ' -f1 "$out/$name.sha256")"
