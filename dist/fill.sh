#!/usr/bin/env bash
# Fills the krew manifest and the Homebrew formula (dist/krew/pvlint.yaml,
# dist/homebrew/pvlint.rb) for one release from its SHA256SUMS, into OUT_DIR, and checks that
# no placeholder is left.
# usage: dist/fill.sh TAG SHA256SUMS OUT_DIR
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 TAG SHA256SUMS OUT_DIR" >&2
  exit 2
fi
tag=$1 sums=$2 out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
case "$tag" in v*) ;; *) tag="v$tag" ;; esac
version=${tag#v}
mkdir -p "$out"
for template in "$root/dist/krew/pvlint.yaml" "$root/dist/homebrew/pvlint.rb"; do
  dest="$out/$(basename "$template")"
  # The template's comment header says it is a template: it is left out of the filled file.
  awk 'NR == 1, !/^#/ { if (/^#/) next } { print }' "$template" > "$dest.tmp"
  text=$(cat "$dest.tmp")
  text=${text//@TAG@/$tag}
  text=${text//@VERSION@/$version}
  for target in $(grep -o '@SHA256:[a-z0-9_-]*@' "$dest.tmp" | sort -u | sed 's/@SHA256:\(.*\)@/\1/'); do
    archive="pvlint-$tag-$target.tar.gz"
    case "$target" in *windows*) archive="pvlint-$tag-$target.zip" ;; esac
    sum=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$sums")
    if ! [[ "$sum" =~ ^[0-9a-f]{64}$ ]]; then
      echo "$0: $sums has no sha256 for $archive" >&2
      exit 1
    fi
    text=${text//@SHA256:$target@/$sum}
  done
  printf '%s\n' "$text" > "$dest"
  rm -f "$dest.tmp"
  if grep -n '@TAG@\|@VERSION@\|@SHA256:' "$dest"; then
    echo "$0: placeholders left in $dest" >&2
    exit 1
  fi
  echo "filled $dest"
done
