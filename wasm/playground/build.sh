#!/usr/bin/env bash
# Builds the npm package pvlint-wasm (wasm/pkg: an ES module for browsers and bundlers, an
# entry for Node, the TypeScript types, package.json; `npm pack wasm/pkg` packs it) and the
# playground (wasm/playground/dist/index.html: one self-contained page).
set -euo pipefail
cd "$(dirname "$0")/../.."
want=0.2.130
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "wasm-bindgen $want is needed (found: ${have:-none}): cargo install wasm-bindgen-cli --version $want" >&2
  exit 2
fi
# Cargo's output directory as cargo itself resolves it: $CARGO_TARGET_DIR (absolute, or relative
# to the repository root, where this script runs cargo), build.target-dir, else target/.
target=$(cargo metadata --format-version 1 --no-deps | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')
cargo build -p pvlint-wasm --target wasm32-unknown-unknown --profile wasm-release
wasm="$target/wasm32-unknown-unknown/wasm-release/pvlint_wasm.wasm"
if [ ! -f "$wasm" ]; then
  echo "cargo built no module at $wasm (CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-unset})" >&2
  exit 1
fi
rm -rf wasm/pkg
wasm-bindgen --target web --out-dir wasm/pkg "$wasm"
glue="$target/playground-glue"
rm -rf "$glue" && mkdir -p "$glue"
wasm-bindgen --target no-modules --out-dir "$glue" "$wasm"
opt=wasm/playground/node_modules/.bin/wasm-opt
if [ -x "$opt" ]; then
  for f in wasm/pkg/pvlint_wasm_bg.wasm "$glue/pvlint_wasm_bg.wasm"; do
    "$opt" -Oz --converge --enable-bulk-memory --enable-nontrapping-float-to-int --strip-debug --strip-producers "$f" -o "$f"
  done
else
  echo "note: wasm-opt not found (run npm ci in wasm/playground); the module is not size-optimised" >&2
fi
node wasm/npm/make-package.mjs wasm/pkg
node wasm/playground/build.mjs "$glue" wasm/playground/dist
