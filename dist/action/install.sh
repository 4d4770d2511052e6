#!/usr/bin/env bash
# Installs a released pvlint for the runner (action.yml's first step): the archive for the
# runner's OS and architecture from the GitHub release, checked against the release's
# SHA256SUMS before it is unpacked; its directory (pvlint and pvlint_wasm.wasm side by side)
# goes on PATH. Nothing is compiled.
#
# Environment (action.yml sets it): PVLINT_VERSION (v0.1.0, latest or empty), ACTION_REF,
# ACTION_REPOSITORY, RUNNER_OS_NAME (Linux, macOS, Windows), RUNNER_ARCH_NAME (X64, ARM64),
# GH_TOKEN; GITHUB_OUTPUT, GITHUB_PATH and RUNNER_TEMP as on every runner.
# PVLINT_RELEASE_URL replaces https://github.com/OWNER/REPO/releases/download/VERSION (a
# mirror, or a local directory as file:///... in .ci/dist's test of this script).
set -euo pipefail

die() {
  echo "::error title=pvlint install::$*" >&2
  exit 1
}

repo=${ACTION_REPOSITORY:-}
# Used as a local action (`uses: ./`) there is no action repository: the upstream releases.
[ -n "$repo" ] || repo=pvlint/pvlint

version=${PVLINT_VERSION:-}
if [ -z "$version" ] && [[ "${ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
  # `uses: pvlint/pvlint@v0.1.0` runs the v0.1.0 binary: the action and the tool move together.
  version=$ACTION_REF
fi
if [ -z "$version" ] || [ "$version" = latest ]; then
  # The latest release's tag, from the redirect of /releases/latest (no API call, no token).
  url=$(curl -fsSLI -o /dev/null -w '%{url_effective}' "https://github.com/$repo/releases/latest") ||
    die "cannot reach https://github.com/$repo/releases/latest to find the latest release; set the version input"
  version=${url##*/}
  [[ "$version" =~ ^v[0-9] ]] || die "https://github.com/$repo has no release yet (latest resolved to '$url')"
fi
case "$version" in v*) ;; *) version="v$version" ;; esac

case "${RUNNER_OS_NAME:-}/${RUNNER_ARCH_NAME:-}" in
  Linux/X64) target=x86_64-unknown-linux-musl ;;
  Linux/ARM64) target=aarch64-unknown-linux-musl ;;
  macOS/X64) target=x86_64-apple-darwin ;;
  macOS/ARM64) target=aarch64-apple-darwin ;;
  # Windows on Arm runs the x86_64 build under emulation.
  Windows/X64 | Windows/ARM64) target=x86_64-pc-windows-msvc ;;
  *) die "no pvlint release build for runner ${RUNNER_OS_NAME:-?}/${RUNNER_ARCH_NAME:-?} (Linux, macOS and Windows on X64 or ARM64); build it with cargo install --locked pvlint" ;;
esac
case "$target" in
  *windows*) archive="pvlint-$version-$target.zip" exe=pvlint.exe ;;
  *) archive="pvlint-$version-$target.tar.gz" exe=pvlint ;;
esac

base=${PVLINT_RELEASE_URL:-https://github.com/$repo/releases/download/$version}
dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/pvlint-$version-$target"
rm -rf "$dir" && mkdir -p "$dir"
echo "pvlint $version for $target from $base/$archive"
curl -fsSL --retry 3 -o "$dir/$archive" "$base/$archive" || die "cannot download $base/$archive"
curl -fsSL --retry 3 -o "$dir/SHA256SUMS" "$base/SHA256SUMS" || die "cannot download $base/SHA256SUMS"

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$dir/SHA256SUMS")
[ -n "$want" ] || die "SHA256SUMS of $version does not list $archive"
if command -v sha256sum >/dev/null; then
  have=$(sha256sum "$dir/$archive" | awk '{print $1}')
else
  have=$(shasum -a 256 "$dir/$archive" | awk '{print $1}')
fi
[ "$have" = "$want" ] || die "checksum mismatch for $archive: SHA256SUMS says $want, the download is $have"
echo "sha256 $have OK"

case "$archive" in
  *.zip)
    if command -v unzip >/dev/null; then
      unzip -q -o "$dir/$archive" -d "$dir"
    else
      7z x -y -o"$dir" "$dir/$archive" >/dev/null
    fi
    ;;
  *) tar -xzf "$dir/$archive" -C "$dir" ;;
esac
rm -f "$dir/$archive"
[ -f "$dir/$exe" ] || die "$archive holds no $exe"
chmod +x "$dir/$exe" 2>/dev/null || true
"$dir/$exe" --version

echo "$dir" >> "${GITHUB_PATH:-/dev/null}"
{
  echo "version=$version"
  echo "path=$dir"
} >> "${GITHUB_OUTPUT:-/dev/null}"
