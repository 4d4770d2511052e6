// The playground in a real browser (Debian's Chromium, driven by playwright-core), and the
// browser module checked against the native CLI on every example and fixture.
//
// Needs: wasm/playground/dist (bash wasm/playground/build.sh) and target/debug/pvlint
// (cargo build -p pvlint); PVLINT_BIN and CHROMIUM override their paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..", "..");
const page_url = pathToFileURL(join(here, "..", "dist", "index.html")).href;
const pvlint = process.env.PVLINT_BIN || join(repo, "target", "debug", "pvlint");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

let browser;
before(async () => {
  for (const [what, p] of [["the playground build", fileURLToPath(page_url)], ["the pvlint binary", pvlint], ["Chromium", chromiumPath]]) {
    if (!existsSync(p)) throw new Error(`${what} is missing at ${p}`);
  }
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});
after(async () => browser && (await browser.close()));

/** A fresh page on the playground; records errors and every request it makes. */
async function open(url = page_url) {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const problems = [];
  const requests = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
  return { page, problems, requests };
}

/** The findings on screen, as "rule@line" strings. */
async function shown(page) {
  return page.$$eval("#findings li.finding", (lis) => lis.map((li) => `${li.dataset.rule}@${li.dataset.line}`));
}

async function typeManifest(page, text) {
  await page.fill("#input", text);
  await page.waitForFunction(
    (t) => document.getElementById("input").value === t && !document.querySelector("#findings li.parse-failed"),
    text,
  );
  await page.waitForTimeout(400); // debounce
}

const read = (rel) => readFileSync(join(repo, rel), "utf8");

test("pasting a seed manifest shows its findings at the right lines, and the gutter marks them", async () => {
  const { page, problems, requests } = await open();
  await typeManifest(page, read("examples/seed-000-dr-migration/broken.yaml"));
  const found = await shown(page);
  for (const want of ["stale-claim-ref-uid@46", "delete-policy-on-imported-volume@59", "server-populated-fields@16", "server-populated-fields@34"]) {
    assert.ok(found.includes(want), `${want} missing from ${found}`);
  }
  assert.equal(await page.getAttribute('#gutter div[data-line="46"]', "class"), "error");
  assert.equal(await page.getAttribute('#gutter div[data-line="16"]', "class"), "warning");
  assert.match(await page.textContent("#summary"), /^2 errors, 2 warnings, 1 info/);
  // Clicking a location selects that line in the editor.
  await page.click('#findings li[data-rule="stale-claim-ref-uid"] a.loc');
  const sel = await page.$eval("#input", (t) => t.value.slice(t.selectionStart, t.selectionEnd));
  assert.equal(sel, "3d65a636-f4c3-4c49-b957-c45673f48bc6");
  assert.deepEqual(problems, []);
  assert.ok(requests.every((u) => u.startsWith("file:") || u.startsWith("data:")), `network requests: ${requests}`);
  await page.close();
});

test("findings update as you type", async () => {
  const { page } = await open();
  const base = read("examples/seed-001-phase-transitions/fixed.yaml");
  await typeManifest(page, base);
  assert.deepEqual(await shown(page), []);
  assert.match(await page.textContent("#findings"), /No storage hazards found/);
  await page.focus("#input");
  await page.keyboard.press("Control+End");
  await page.keyboard.type("---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: typo}\nspec:\n  nfs: {server: 10.0.0.300, path: /x}\n");
  await page.waitForSelector('#findings li[data-rule="invalid-nfs-server"]', { timeout: 5000 });
  // The typed server line is the 6th line after the file's last line.
  const line = base.split("\n").length - 1 + 6;
  assert.ok((await shown(page)).includes(`invalid-nfs-server@${line}`), String(await shown(page)));
  await page.close();
});

test("severity filter and explain", async () => {
  const { page } = await open();
  await typeManifest(page, read("examples/seed-000-dr-migration/broken.yaml"));
  assert.ok((await page.$$('#findings li[data-severity="info"]')).length > 0);
  await page.uncheck("#sev-info");
  assert.equal((await page.$$('#findings li[data-severity="info"]')).length, 0);
  assert.ok((await page.$$('#findings li[data-severity="error"]')).length > 0);
  await page.uncheck("#sev-error");
  await page.uncheck("#sev-warning");
  assert.match(await page.textContent("#findings"), /Nothing at the selected severities/);
  await page.check("#sev-error");
  await page.click('#findings li[data-rule="stale-claim-ref-uid"] button.explain');
  const docs = await page.textContent('#findings li[data-rule="stale-claim-ref-uid"] .docs');
  for (const section of ["## What it does", "## Why is this bad?", "## Example", "## How to fix"]) assert.ok(docs.includes(section), section);
  await page.close();
});

test("the examples menu holds every seed scenario and loads it", async () => {
  const { page } = await open();
  const options = await page.$$eval("#examples option", (os) => os.map((o) => o.value).filter(Boolean));
  for (const seed of ["seed-000", "seed-001", "seed-002", "seed-003", "seed-004"]) {
    assert.ok(options.some((o) => o.startsWith(seed)), `${seed} missing`);
  }
  await page.selectOption("#examples", "seed-002-statefulset-pool/broken-single-pv.yaml");
  await page.waitForSelector('#findings li[data-rule="static-pool-shortfall"]');
  assert.equal(await page.inputValue("#input"), read("examples/seed-002-statefulset-pool/broken-single-pv.yaml"));
  assert.ok((await shown(page)).includes("static-pool-shortfall@27"));
  // The simulation view shows the claims that stay Pending.
  await page.click("#tab-simulation");
  const claims = await page.$$eval("#claims tbody tr", (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.deepEqual(claims.map((r) => r.slice(0, 3)), [
    ["default/www-web-0", "Bound", "pv0003"],
    ["default/www-web-1", "Pending", "–"],
    ["default/www-web-2", "Pending", "–"],
  ]);
  assert.match(await page.textContent("#events"), /storageclass.storage.k8s.io "nfs" not found/);
  await page.close();
});

test("share by URL round-trips the manifest and the Kubernetes version", async () => {
  const { page } = await open();
  const text = read("examples/seed-004-pv-deleted-before-pvc/broken.yaml") + "# ünïcode survives\n";
  await typeManifest(page, text);
  await page.selectOption("#kube", "1.23");
  await page.waitForSelector('#findings li[data-rule="delete-policy-without-finalizer"][data-severity="warning"]');
  await page.click("#share");
  const url = await page.inputValue("#share-url");
  assert.match(url, /#v1=[A-Za-z0-9_-]+$/);
  await page.close();
  const again = await open(url);
  assert.equal(await again.page.inputValue("#input"), text);
  assert.equal(await again.page.inputValue("#kube"), "1.23");
  await again.page.waitForSelector('#findings li[data-rule="delete-policy-without-finalizer"][data-severity="warning"]');
  await again.page.close();
});

/** Every example and fixture, with its cluster state where it has one. */
function corpus() {
  const out = [];
  for (const dir of ["examples", "lint-core/tests/fixtures"]) {
    for (const sub of readdirSync(join(repo, dir)).sort()) {
      const d = join(repo, dir, sub);
      if (!statSync(d).isDirectory()) continue;
      for (const f of readdirSync(d).sort()) {
        if (!f.endsWith(".yaml") || f.endsWith(".cluster.yaml")) continue;
        const cluster = join(d, f.replace(/\.yaml$/, ".cluster.yaml"));
        out.push({ rel: `${dir}/${sub}/${f}`, cluster: existsSync(cluster) ? `${dir}/${sub}/${f.replace(/\.yaml$/, ".cluster.yaml")}` : null });
      }
    }
  }
  return out;
}

test("the browser module agrees with the native CLI on every example and fixture", async () => {
  const { page } = await open();
  const files = corpus();
  assert.ok(files.length > 60);
  for (const { rel, cluster } of files) {
    const args = ["lint", "--format", "json", "--fail-on", "never", rel];
    if (cluster) args.push("--cluster-state", cluster);
    const native = JSON.parse(execFileSync(pvlint, args, { cwd: repo, encoding: "utf8" }));
    const sources = [{ name: rel, text: read(rel) }];
    const extra = cluster ? { cluster: [{ name: cluster, text: read(cluster) }] } : undefined;
    const browserReport = await page.evaluate(([s, o]) => window.pvlint.lint(s, o), [sources, extra]);
    assert.deepStrictEqual(browserReport, native, `lint differs for ${rel}`);
  }
  for (const { rel } of files.filter((f) => f.rel.startsWith("examples/"))) {
    const native = JSON.parse(execFileSync(pvlint, ["simulate", "--format", "json", rel], { cwd: repo, encoding: "utf8" }));
    const sim = await page.evaluate((s) => window.pvlint.simulate(s), [{ name: rel, text: read(rel) }]);
    assert.deepStrictEqual(sim, native, `simulate differs for ${rel}`);
  }
  await page.close();
});
