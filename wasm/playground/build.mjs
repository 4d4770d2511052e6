// Assembles dist/index.html: the page template with its CSS, the wasm-bindgen glue, the
// module (base64), the seed examples and the app (text.js, picture.js, app.js) inlined, so it needs no server and makes no
// network request. Usage: node build.mjs <glue-dir> <out-dir>
import { readFileSync, writeFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const [glueDir, outDir] = process.argv.slice(2);
if (!glueDir || !outDir) {
  console.error("usage: node build.mjs <glue-dir> <out-dir>");
  process.exit(2);
}

const wasm = readFileSync(join(glueDir, "pvlint_wasm_bg.wasm"));
const glue = readFileSync(join(glueDir, "pvlint_wasm.js"), "utf8");

// Every example file, by folder, in a stable order.
const examples = [];
const exDir = join(repo, "examples");
for (const d of readdirSync(exDir).sort()) {
  const sub = join(exDir, d);
  if (!statSync(sub).isDirectory()) continue;
  for (const f of readdirSync(sub).sort()) {
    if (f.endsWith(".yaml")) examples.push({ name: `${d}/${f}`, text: readFileSync(join(sub, f), "utf8") });
  }
}

// JSON inside <script>: no "</script" may appear.
const script = (s) => s.replace(/<\/(script)/gi, "<\\/$1");
const json = (v) => script(JSON.stringify(v));

let html = readFileSync(join(here, "src", "index.html"), "utf8");
const parts = {
  "/*STYLE*/": readFileSync(join(here, "src", "style.css"), "utf8"),
  "/*GLUE*/": script(glue),
  "/*DATA*/": `const PVLINT_WASM_B64 = ${json(wasm.toString("base64"))};\nconst PVLINT_EXAMPLES = ${json(examples)};`,
  "/*APP*/": script(["text.js", "picture.js", "app.js"].map((f) => readFileSync(join(here, "src", f), "utf8")).join("\n")),
};
for (const [k, v] of Object.entries(parts)) {
  if (!html.includes(k)) throw new Error(`template lacks ${k}`);
  html = html.replace(k, () => v);
}
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "index.html"), html);
const gz = gzipSync(wasm, { level: 9 }).length;
console.log(`playground: ${join(outDir, "index.html")} (${(html.length / 1024).toFixed(0)} KiB)`);
const app = Buffer.from(parts["/*APP*/"] + parts["/*STYLE*/"]);
console.log(`module: ${wasm.length} bytes, ${gz} gzipped (budget 450560); the page's own script and style: ${app.length} bytes, ${gzipSync(app, { level: 9 }).length} gzipped`);
if (gz > 440 * 1024) {
  console.error("the gzipped module is over the 440 KB budget");
  process.exit(1);
}
