// The npm package as a user gets it: `npm pack wasm/pkg`, the tarball installed into a
// scratch project, then `lint` called from Node (the `node` export), from TypeScript
// (tsc --strict with Node's and a bundler's module resolution) and from a page in Chromium
// (the `browser` export, served over HTTP as a site would serve it).
//
// Needs: wasm/pkg (bash wasm/playground/build.sh), npm, target/debug/pvlint, Debian's chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { read, repo, target } from "./corpus.mjs";

const pkgDir = join(repo, "wasm", "pkg");
const pvlint = process.env.PVLINT_BIN || join(target, "debug", "pvlint");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const tsc = join(repo, "wasm", "playground", "node_modules", "typescript", "bin", "tsc");
const EXAMPLE = "examples/seed-000-dr-migration/broken.yaml";

let scratch, tarball;
const installed = () => join(scratch, "node_modules", "pvlint-wasm");
const cli = (...args) => JSON.parse(execFileSync(pvlint, args, { cwd: repo, encoding: "utf8" }));

before(() => {
  for (const [what, p] of [["the package (bash wasm/playground/build.sh)", join(pkgDir, "package.json")], ["the pvlint binary", pvlint]]) {
    if (!existsSync(p)) throw new Error(`${what} is missing at ${p}`);
  }
  scratch = mkdtempSync(join(tmpdir(), "pvlint-npm-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", scratch, pkgDir], { encoding: "utf8" }));
  tarball = join(scratch, packed[0].filename);
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], { cwd: scratch, encoding: "utf8", stdio: "pipe" });
});
after(() => scratch && rmSync(scratch, { recursive: true, force: true }));

test("the tarball is the package: name, the workspace's version, exactly its files", () => {
  const meta = JSON.parse(readFileSync(join(installed(), "package.json"), "utf8"));
  const version = readFileSync(join(repo, "Cargo.toml"), "utf8").match(/\[workspace\.package\][^[]*?\nversion\s*=\s*"([^"]+)"/)[1];
  assert.equal(meta.name, "pvlint-wasm");
  assert.equal(meta.version, version);
  assert.equal(meta.types, "./pvlint_wasm.d.ts");
  const listed = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n").map((f) => f.replace(/^package\//, "")).sort();
  assert.deepEqual(listed, [...meta.files, "package.json"].sort());
  // Every file the exports map points at is in the tarball.
  const targets = JSON.stringify(meta.exports).match(/"\.\/[^"]+"/g).map((s) => s.slice(3, -1));
  for (const t of targets) assert.ok(listed.includes(t), `exports points at ${t}, which the tarball lacks`);
});

test("Node: the installed package lints and simulates, equal to the CLI", () => {
  writeFileSync(join(scratch, "use.mjs"), `
import init, { lint, simulate, rules, explain, version } from "pvlint-wasm";
import { readFileSync } from "node:fs";
const [name, file] = process.argv.slice(2);
const sources = [{ name, text: readFileSync(file, "utf8") }];
const before = lint(sources); // ready at import in Node
await init();
process.stdout.write(JSON.stringify({ before, report: lint(sources), sim: simulate(sources), rules: rules().length, explain: explain("stale-claim-ref-uid"), version: version() }));
`);
  const got = JSON.parse(execFileSync(process.execPath, ["use.mjs", EXAMPLE, join(repo, EXAMPLE)], { cwd: scratch, encoding: "utf8" }));
  const native = cli("lint", "--format", "json", "--fail-on", "never", EXAMPLE);
  assert.deepStrictEqual(got.report, native);
  assert.deepStrictEqual(got.before, native);
  assert.deepStrictEqual(got.sim, cli("simulate", "--format", "json", EXAMPLE));
  assert.ok(got.report.findings.some((f) => f.rule === "stale-claim-ref-uid"));
  assert.equal(got.rules, cli("rules", "--format", "json").length);
  assert.match(got.explain, /^# stale-claim-ref-uid/m);
  assert.equal(got.version, native.version);
});

test("Node: a malformed request throws a TypeError that says what is wrong and what was meant", () => {
  writeFileSync(join(scratch, "bad.mjs"), `
import { lint, simulate } from "pvlint-wasm";
const out = [];
for (const f of [() => lint([{ name: "x" }]), () => lint([], { options: { kubeVersion: "two" } }),
                 () => lint([], { options: { compelte: true } }),
                 () => lint([], { options: { rules: { "rwo-roling-surge": "off" } } }),
                 () => lint([], "rwo"),
                 () => lint([], { profile: { nodes: "two" } }),
                 () => simulate([], { operations: [{ op: "deletePv", name: "nope" }] })]) {
  try { f(); out.push("no error"); } catch (e) { out.push(e.constructor.name + ": " + e.message); }
}
process.stdout.write(JSON.stringify(out));
`);
  const [missing, version, option, rule, string, nodes, op] = JSON.parse(execFileSync(process.execPath, ["bad.mjs"], { cwd: scratch, encoding: "utf8" }));
  assert.match(missing, /^TypeError: invalid request: sources\[0\]: text is missing/);
  assert.match(version, /^TypeError: invalid request: .*not a Kubernetes version/);
  assert.match(option, /^TypeError: invalid request: unknown option "compelte" \(did you mean complete\?\)/);
  assert.match(rule, /^TypeError: invalid request: .*"rwo-roling-surge".*\(did you mean rwo-rolling-surge\?\)/);
  assert.match(string, /^TypeError: invalid request: the second argument: expected an object/);
  assert.match(nodes, /^TypeError: invalid request: profile: .*"two" is not a node layout/);
  // A request well formed whose operation names nothing: an Error, not a TypeError.
  assert.match(op, /^Error: delete pv\/nope: there is no PersistentVolume nope/);
});

test("the README's usage example runs as written against the installed package", () => {
  const readme = readFileSync(join(installed(), "README.md"), "utf8");
  const code = readme.match(/```js\n([\s\S]*?)```/)[1];
  assert.ok(code.split("\n").filter(Boolean).length <= 10, "the usage example is longer than ten lines");
  writeFileSync(join(scratch, "readme.mjs"), code);
  const printed = execFileSync(process.execPath, ["readme.mjs"], { cwd: scratch, encoding: "utf8" });
  assert.match(printed, /error storage-class-not-found: /);
  assert.match(printed, /data Pending: /);
});

test("the README's malformed requests throw the TypeErrors it shows", () => {
  const readme = readFileSync(join(installed(), "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const examples = [];
  for (const block of blocks.slice(1)) {
    const lines = block.trim().split("\n");
    for (let i = 0; i + 1 < lines.length; i++) {
      const said = lines[i + 1].match(/^\/\/ (\w+): (.*)$/);
      if (/^lint\(/.test(lines[i]) && said) examples.push({ call: lines[i], type: said[1], message: said[2] });
    }
  }
  assert.ok(examples.length >= 3, `only ${examples.length} examples of errors in the README`);
  writeFileSync(join(scratch, "errors.mjs"), `
import { lint } from "pvlint-wasm";
const sources = [{ name: "claim.yaml", text: "apiVersion: v1\\nkind: PersistentVolumeClaim\\nmetadata: {name: data}\\n" }];
const out = [];
${examples.map((e) => `try { ${e.call} out.push(null); } catch (e) { out.push([e.constructor.name, e instanceof Error, e.message]); }`).join("\n")}
process.stdout.write(JSON.stringify(out));
`);
  const thrown = JSON.parse(execFileSync(process.execPath, ["errors.mjs"], { cwd: scratch, encoding: "utf8" }));
  examples.forEach((e, i) => {
    assert.ok(thrown[i], `${e.call} did not throw`);
    const [type, isError, message] = thrown[i];
    assert.equal(type, e.type, e.call);
    assert.ok(isError, `${e.call}: not an Error`);
    // "..." in the README stands for the rest.
    const pattern = new RegExp("^" + e.message.split("...").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$");
    assert.match(message, pattern, e.call);
  });
});

test("TypeScript: the types resolve through the exports map, for Node and for bundlers (tsc --strict)", () => {
  writeFileSync(join(scratch, "consumer.ts"), `
import init, { lint, simulate, type Report, type Finding, type Simulation, type Operation } from "pvlint-wasm";
await init();
const report: Report = lint([{ name: "a.yaml", text: "kind: List" }], { options: { kubeVersion: "1.31" } });
const first: Finding | undefined = report.findings[0];
const line: number | undefined = first?.location.line;
const op: Operation = { op: "deletePvc", namespace: "default", name: "data" };
const sim: Simulation = simulate([{ name: "a.yaml", text: "" }], { operations: [op] });
const phases: string[] = sim.claims.map((c) => c.phase);
// @ts-expect-error a source needs its text
lint([{ name: "a.yaml" }]);
// @ts-expect-error not an operation
simulate([], { operations: [{ op: "deleteEverything" }] });
export { line, phases };
`);
  for (const [resolution, module] of [["nodenext", "nodenext"], ["bundler", "esnext"]]) {
    writeFileSync(join(scratch, "tsconfig.json"), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module, moduleResolution: resolution, lib: ["es2022", "dom"], types: [], skipLibCheck: false },
      files: ["consumer.ts"],
    }));
    let output = "";
    try {
      execFileSync(process.execPath, [tsc, "-p", scratch], { cwd: scratch, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      output = (e.stdout || "") + (e.stderr || "");
    }
    assert.equal(output.split("\n").filter((l) => /error TS/.test(l)).join("\n"), "", `${resolution}: ${output.slice(0, 3000)}`);
    const files = execFileSync(process.execPath, [tsc, "-p", scratch, "--listFilesOnly"], { cwd: scratch, encoding: "utf8" });
    const want = resolution === "nodenext" ? "node.d.ts" : "pvlint_wasm.d.ts";
    assert.match(files, new RegExp(`node_modules/pvlint-wasm/${want.replace(".", "\\.")}`), `${resolution} should resolve ${want}`);
  }
});

/** Serves the scratch project over HTTP (as a site or a dev server would), nothing else. */
function serve(root) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": types[extname(file)] || "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("Chromium: a page imports the installed package through its browser export and lints, equal to the CLI", async () => {
  if (!existsSync(chromiumPath)) throw new Error(`Chromium is missing at ${chromiumPath}`);
  const meta = JSON.parse(readFileSync(join(installed(), "package.json"), "utf8"));
  const entry = meta.exports["."].browser.default; // what a bundler targeting browsers resolves
  writeFileSync(join(scratch, "index.html"), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{"imports": {"pvlint-wasm": "/node_modules/pvlint-wasm/${entry.replace(/^\.\//, "")}"}}</script>
<script type="module">
import init, { lint } from "pvlint-wasm";
window.ready = init().then(() => "ok", (e) => "init failed: " + e);
window.lintInPage = (sources) => lint(sources);
</script>`);
  const server = await serve(scratch);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    const problems = [], requests = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("request", (r) => requests.push(r.url()));
    const origin = `http://127.0.0.1:${server.address().port}`;
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => window.ready);
    assert.equal(await page.evaluate(() => window.ready), "ok");
    const got = await page.evaluate((s) => window.lintInPage(s), [{ name: EXAMPLE, text: read(EXAMPLE) }]);
    assert.deepStrictEqual(got, cli("lint", "--format", "json", "--fail-on", "never", EXAMPLE));
    assert.deepEqual(problems, []);
    assert.ok(requests.every((u) => u.startsWith(origin)), String(requests));
    assert.ok(requests.some((u) => u.endsWith("/node_modules/pvlint-wasm/pvlint_wasm_bg.wasm")), "the module was not fetched next to the glue");
  } finally {
    await browser.close();
    server.close();
  }
});
