#!/usr/bin/env bash
# Rebuilds the unseen sample (harness/tests/sample-sources.txt) in DIR: each repository is
# fetched once at its commit (shallow, no checkout), and the listed files are copied to
# DIR/<owner>__<repo>/<path>. Needs git and access to github.com. Then:
#   PVLINT_SAMPLE=DIR cargo test -p pvlint --test corpus
set -euo pipefail
dir=${1:?usage: get-sample.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$here/sample-sources.txt" | awk '{print $1, $2}' | sort -u | while read -r repo commit; do
  git_dir="$work/${repo/\//+}.git"
  git init -q --bare "$git_dir"
  git --git-dir="$git_dir" fetch -q --depth 1 "https://github.com/$repo" "$commit"
  grep -v '^#' "$here/sample-sources.txt" | awk -v r="$repo" '$1 == r {print $3}' | while read -r path; do
    out="$dir/${repo/\//__}/$path"
    mkdir -p "$(dirname "$out")"
    git --git-dir="$git_dir" show "$commit:$path" > "$out"
  done
  echo "$repo: $(grep -c "^$repo " "$here/sample-sources.txt") files"
done
