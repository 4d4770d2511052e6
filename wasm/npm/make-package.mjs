// Turns wasm-bindgen's `--target web` output into the npm package pvlint-wasm: writes
// package.json (version from the workspace Cargo.toml) and adds the Node entry, the package
// README and the repository's LICENSE. Usage: node make-package.mjs <pkg-dir>
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const [pkgDir] = process.argv.slice(2);
if (!pkgDir) {
  console.error("usage: node make-package.mjs <pkg-dir>");
  process.exit(2);
}

/** A key of [workspace.package] in the workspace Cargo.toml. */
function workspaceKey(key) {
  const toml = readFileSync(join(repo, "Cargo.toml"), "utf8");
  const section = toml.split(/^\[/m).find((s) => s.startsWith("workspace.package]"));
  const m = section && section.match(new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m"));
  if (!m) throw new Error(`[workspace.package] ${key} not found in Cargo.toml`);
  return m[1];
}

const glue = ["pvlint_wasm.js", "pvlint_wasm.d.ts", "pvlint_wasm_bg.wasm", "pvlint_wasm_bg.wasm.d.ts"];
for (const f of glue) {
  if (!existsSync(join(pkgDir, f))) throw new Error(`${f} is missing in ${pkgDir}: run wasm-bindgen --target web first`);
}
const own = ["node.js", "node.d.ts", "README.md"];
for (const f of own) copyFileSync(join(here, f), join(pkgDir, f));
copyFileSync(join(repo, "LICENSE"), join(pkgDir, "LICENSE"));

const pkg = {
  name: "pvlint-wasm",
  version: workspaceKey("version"),
  description:
    "pvlint in JavaScript: lint Kubernetes storage manifests (PersistentVolumes, claims, StorageClasses, workloads) and simulate the PersistentVolume controller, in the browser or Node",
  license: workspaceKey("license"),
  homepage: `${workspaceKey("homepage")}#from-javascript-and-typescript-the-npm-package`,
  bugs: { url: `${workspaceKey("repository")}/issues` },
  repository: { type: "git", url: `git+${workspaceKey("repository")}.git`, directory: "wasm" },
  keywords: ["kubernetes", "persistentvolume", "lint", "storage", "wasm"],
  type: "module",
  // Browsers and bundlers get the ES module that fetches the .wasm next to it
  // (`new URL(..., import.meta.url)`, which webpack 5, Vite, Parcel and esbuild's file loader
  // understand); Node gets an entry that reads it from disk and is ready at import.
  exports: {
    ".": {
      browser: { types: "./pvlint_wasm.d.ts", default: "./pvlint_wasm.js" },
      node: { types: "./node.d.ts", default: "./node.js" },
      types: "./pvlint_wasm.d.ts",
      default: "./pvlint_wasm.js",
    },
    "./pvlint_wasm_bg.wasm": "./pvlint_wasm_bg.wasm",
    "./package.json": "./package.json",
  },
  // For tools that predate "exports".
  main: "./node.js",
  browser: "./pvlint_wasm.js",
  module: "./pvlint_wasm.js",
  types: "./pvlint_wasm.d.ts",
  files: [...glue, ...own, "LICENSE"],
  sideEffects: ["./node.js"],
  engines: { node: ">=18" },
};
writeFileSync(join(pkgDir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
console.log(`package: ${pkg.name}@${pkg.version} in ${pkgDir}`);
