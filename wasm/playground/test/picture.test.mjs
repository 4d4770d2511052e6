// The binding picture as a person reads it, in Debian's Chromium (playwright-core): readable
// at the panel's width (12 px text and up, drawn at 1:1, nothing cut without the whole text on
// hover, claims and volumes told apart), words instead of the JSON's values, the hazards drawn
// (seed 003's surge pod waiting on Multi-Attach, a Lost claim, destroyed and leaked storage,
// Pending claims), assumptions worded for the page, Helm origins on findings; and screenshots
// of the picture for the seed examples compared with the reference PNGs in test/reference/.
//
// The references were taken at a 1440×900 viewport with Debian 12's chromium and its default
// fonts (system-ui is DejaVu Sans there: fonts-dejavu-core). Text is laid out by measuring that
// font, so another font moves the boxes: the comparison then fails and says so. Rendering is
// software (--disable-gpu) and deterministic on one machine; the comparison still allows a
// little anti-aliasing noise (a channel off by more than 64 in at most 0.2% of the pixels).
// PVLINT_UPDATE_REFERENCES=1 writes new references (check them by eye: they are PNGs).
//
// Needs: wasm/playground/dist (bash wasm/playground/build.sh), target/debug/pvlint (for its
// flags), Debian's chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchBrowser, page_url, pvlint, shots } from "./browser.mjs";
import { corpus, read, requestOf } from "./corpus.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const references = join(here, "reference");
const update = process.env.PVLINT_UPDATE_REFERENCES === "1";

let browser, context;
before(async () => {
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
});
after(async () => browser && (await browser.close()));

async function open() {
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await page.goto(page_url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
  return { page, problems };
}

/** Loads an example and shows the picture. */
async function example(page, name) {
  await page.selectOption("#examples", name);
  if (await page.isHidden("#panel-picture")) await page.click("#tab-picture");
  await page.waitForFunction((t) => document.getElementById("input").value === t && document.querySelector("svg.binding"), read(`examples/${name}`));
  await page.evaluate(() => document.fonts.ready);
}

/** What a person sees of the picture: every text line, per node; sizes and scale. */
async function seen(page) {
  return page.evaluate(() => {
    const svg = document.querySelector("svg.binding");
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll("text")].map((t) => {
      const node = t.closest(".node"), label = t.closest(".edge-label");
      const holder = node || label;
      return {
        text: [...t.querySelectorAll("tspan")].map((s) => s.textContent).join("\n") || t.textContent,
        cls: t.getAttribute("class") || "",
        size: parseFloat(getComputedStyle(t).fontSize) * (box.width / svg.viewBox.baseVal.width),
        node: node ? node.dataset.id : null,
        title: holder && holder.querySelector(":scope > title") ? holder.querySelector(":scope > title").textContent : "",
      };
    });
    const nodes = [...svg.querySelectorAll(".node")].map((n) => ({
      id: n.dataset.id, type: n.getAttribute("class").split(" ")[1], phase: n.dataset.phase, cls: n.getAttribute("class"),
      stroke: getComputedStyle(n.querySelector(".box")).stroke,
      lines: [...n.querySelectorAll("text:not(.badge text)")].flatMap((t) => [...t.querySelectorAll("tspan")].map((s) => s.textContent)),
      names: [...n.querySelectorAll("text.name tspan")].map((s) => s.textContent),
      title: n.querySelector(":scope > title").textContent,
    }));
    return { width: box.width, viewBox: svg.viewBox.baseVal.width, panel: document.getElementById("picture").clientWidth, texts, nodes };
  });
}

// The values of the JSON a person should never read raw (simulation-schema.md): link kinds,
// storage fates, fit checks, class sources, origin kinds; the simulation's made-up volume
// names; the core's placeholder for an unnamed default class.
const RAW = /\b(bestMatch|namedEachOther|alreadyBound|rebound|misbound|volumeMissing|mismatch|leftToProvisioner|deleteFailed|recycleFailed|beingDeleted|storageClassName|volumeAttributesClassName|volumeMode|accessModes|classSource|admission|retroactive)\b|pvc-00000000-|<the cluster's default>/;

const SEEDS = corpus().filter((c) => c.rel.startsWith("examples/seed-")).map((c) => c.rel.slice("examples/".length));

test("readable at the panel's width: 12 px text or more at 1:1, nothing cut without its whole text on hover, no raw values", async () => {
  const { page, problems } = await open();
  for (const width of [1440, 1920, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const name of SEEDS) {
      await example(page, name);
      const s = await seen(page);
      const where = `${name} at ${width} px`;
      // Drawn for the panel: as wide as it is, not scaled (a picture that does not fit even with
      // every row wrapped is scaled down to the panel: see "the picture fits the panel").
      assert.equal(s.width, s.viewBox, `${where}: the picture is scaled`);
      assert.ok(s.width <= s.panel, `${where}: ${s.width} px wide in a ${s.panel} px panel`);
      for (const t of s.texts) {
        assert.ok(t.size >= 11.9, `${where}: "${t.text}" is ${t.size.toFixed(1)} px`);
        assert.doesNotMatch(t.text, RAW, `${where}: "${t.text}" shows a raw value`);
        // Cut text ends in "…"; the whole of it is in the hover text of its node or label.
        if (t.text.endsWith("…")) {
          const head = t.text.replace(/\n/g, "").slice(0, -1).replace(/\s+/g, "");
          assert.ok(t.title.replace(/\s+/g, "").includes(head), `${where}: "${t.text}" is cut and the hover text "${t.title}" lacks it`);
        }
      }
      // Names are whole at these widths, and every node has hover text.
      for (const n of s.nodes) {
        assert.ok(n.title.length > 10, `${where}: ${n.id} has no hover text`);
        assert.ok(!n.names.some((l) => l.endsWith("…")), `${where}: ${n.id}'s name is cut: ${n.names.join(" / ")}`);
      }
      // Claims and volumes are told apart by what they show.
      for (const type of ["claim", "volume", "storage"]) {
        const shown = s.nodes.filter((n) => n.type === type).map((n) => n.lines.join(" / "));
        assert.equal(new Set(shown).size, shown.length, `${where}: two ${type} nodes look the same: ${shown.join(" | ")}`);
      }
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.deepEqual(problems, []);
  await page.close();
});

test("the hazards are drawn: seed 003's surge pod on Multi-Attach, a Lost claim, destroyed and leaked storage, Pending claims", async () => {
  const { page, problems } = await open();
  const byId = (s) => Object.fromEntries(s.nodes.map((n) => [n.id, n]));
  const GREEN = "rgb(46, 125, 50)", AMBER = "rgb(178, 106, 0)", RED = "rgb(198, 40, 40)";

  // Seed 003 as reported: not all green. The surge pod waits on Multi-Attach for the claim the
  // old pod has; the finding's headline is on hover.
  await example(page, "seed-003-rwo-rolling-update/broken-as-reported.yaml");
  let s = await seen(page);
  let n = byId(s);
  const holder = n["p:w:Deployment/default/app#holder"], waiter = n["p:w:Deployment/default/app#waiter"];
  assert.ok(holder && waiter, Object.keys(n).join(", "));
  assert.equal(waiter.lines.join(" "), "pod · new surge pod waits on Multi-Attach");
  assert.equal(waiter.phase, "waiting");
  assert.equal(waiter.stroke, AMBER);
  assert.match(waiter.title, /\n\nDeployment app surges a second pod onto ReadWriteOnce claim data-vol\. replicas 1, maxSurge 1/);
  assert.equal(holder.lines.join(" "), "pod · running old pod has the volume");
  const edges = await page.$$eval("svg.binding .edge-label", (gs) => gs.map((g) => `${g.dataset.from} -> ${g.dataset.to}: ${g.dataset.label} (${g.getAttribute("class")})`));
  assert.ok(edges.includes("p:w:Deployment/default/app#waiter -> c:default/data-vol: Multi-Attach error (edge-label warn hazard)"), edges.join("\n"));
  assert.ok(edges.includes("p:w:Deployment/default/app#holder -> c:default/data-vol: volume attached (edge-label use)"), edges.join("\n"));
  assert.ok(s.nodes.some((x) => x.stroke === AMBER || x.stroke === RED), "all green");
  // The Deployment carries its finding's badge; the fixed variants draw no waiting pod.
  assert.equal(await page.getAttribute('svg.binding .node[data-id="w:Deployment/default/app"]', "data-findings"), "1");
  await page.screenshot({ path: join(shots, "picture-seed-003.png") });
  for (const fixed of ["fixed-recreate.yaml", "fixed-max-surge-zero.yaml", "fixed-rwx.yaml"]) {
    await example(page, `seed-003-rwo-rolling-update/${fixed}`);
    assert.equal((await page.$$("svg.binding .node.pod")).length, 0, fixed);
  }

  // Several replicas on one ReadWriteOnce claim: the other pods wait on Multi-Attach too.
  await page.fill("#input", read("lint-core/tests/fixtures/rwo-shared-by-replicas/bad.yaml"));
  await page.waitForSelector('svg.binding .node[data-id="p:w:Deployment/default/uploads#waiter"]');
  n = byId(await seen(page));
  assert.equal(n["p:w:Deployment/default/uploads#waiter"].lines.join(" "), "pods · at the same time the other pods wait on Multi-Attach");
  assert.equal(n["p:w:Deployment/default/uploads#holder"].lines.join(" "), "pod · running one pod has the volume");

  // Seed 000: the claim is Lost (red), the storage deleted by the CSI provisioner (red, struck through).
  await example(page, "seed-000-dr-migration/broken.yaml");
  n = byId(await seen(page));
  const claim = n["c:test/public-devops-teststatefulset-nginx-online-pvc"], storage = n["s:pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6"];
  assert.equal(claim.stroke, RED);
  assert.match(claim.lines.join(" "), /pods cannot mount it$/);
  assert.equal(storage.stroke, RED);
  assert.match(storage.cls, /\bdestroyed\b/);
  assert.match(storage.lines.join(" "), /✕ deleted by the provisioner$/);
  assert.match(storage.title, /deleted by the provisioner com\.tencent\.cloud\.csi\.cfs once the volume is Released/);
  assert.equal(await page.$eval('svg.binding .node[data-id="s:pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6"] .name', (t) => getComputedStyle(t).textDecorationLine), "line-through");

  // Seed 002: the Pending claim is amber, the claim never created is drawn.
  await example(page, "seed-002-statefulset-pool/broken-single-pv.yaml");
  n = byId(await seen(page));
  assert.equal(n["c:default/www-web-1"].stroke, AMBER);
  assert.match(n["c:default/www-web-1"].lines.join(" "), /waiting for a volume$/);
  assert.equal(n["c:default/www-web-2"].phase, "never created");

  // Seed 004 on 1.23: delete the PV, then its claim: the storage leaks, marked as such.
  await example(page, "seed-004-pv-deleted-before-pvc/broken.yaml");
  await page.selectOption("#kube", "1.23");
  await page.click('svg.binding .node[data-id="v:example-vanilla-block-pv"]');
  await page.click('#object-details button.op[data-op="deletePv"]');
  await page.waitForSelector('#phases button.step[data-step="1"]');
  await page.click('svg.binding .node[data-id="c:default/example-vanilla-block-pvc"]');
  await page.click('#object-details button.op[data-op="deletePvc"]');
  await page.waitForSelector('#phases button.step[data-step="2"]');
  n = byId(await seen(page));
  const leaked = n["s:example-vanilla-block-pv"];
  assert.match(leaked.cls, /\borphaned\b/);
  assert.equal(leaked.stroke, RED);
  assert.match(leaked.lines.join(" "), /leaked: nothing deletes it$/);
  assert.equal(n["v:example-vanilla-block-pv"].phase, "deleted");
  await page.click("#clear-ops");
  await page.selectOption("#kube", "1.34");
  assert.deepEqual(problems, []);
  await page.close();
});

test("provisioned volumes read as new volumes, their made-up names on hover only", async () => {
  const { page } = await open();
  await example(page, "seed-002-statefulset-pool/fixed-rook-ceph-dynamic.yaml");
  const s = await seen(page);
  const volumes = s.nodes.filter((n) => n.type === "volume");
  assert.equal(volumes.length, 4);
  for (const v of volumes) {
    assert.equal(v.lines[1], "new volume");
    assert.match(v.lines.slice(2).join(" "), /^provisioned for (www-web-[012]|pod-pvc)$/);
    assert.match(v.title, /\n\nvolume pvc-00000000-0000-4000-8000-\d{12} \(its name is made up/);
  }
  // The tables and the timeline say it too.
  await page.click("#tab-simulation");
  const cells = await page.$$eval("#volumes tbody tr td:first-child", (tds) => tds.map((td) => [td.textContent, td.querySelector("[title]") && td.querySelector("[title]").title]));
  assert.ok(cells.every(([text, title]) => text === "new volume" && /^pvc-00000000-/.test(title)), JSON.stringify(cells));
  assert.doesNotMatch(await page.textContent("#panel-simulation"), /pvc-00000000-/);
  await page.close();
});

test("a Released volume says what became of its data: never 'still there' beside destroyed storage (seed 000, every example and fixture)", async () => {
  const { page, problems } = await open();
  // Seed 000: the claim is Lost, its volume Released, and the provisioner deletes the storage.
  await example(page, "seed-000-dr-migration/broken.yaml");
  const n = Object.fromEntries((await seen(page)).nodes.map((x) => [x.id, x]));
  const volume = n["v:pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6"], storage = n["s:pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6"];
  assert.equal(volume.phase, "Released");
  assert.match(storage.lines.join(" "), /deleted by the provisioner$/);
  assert.doesNotMatch(volume.lines.join(" ") + volume.title, /still there/);
  assert.match(volume.lines.join(" "), /its claim is gone; the provisioner deletes its storage$/);
  // The side panel says the same.
  await page.click('svg.binding .node[data-id="v:pvc-3d65a636-f4c3-4c49-b957-c45673f48bc6"]');
  await page.waitForSelector("#object-details:not([hidden])");
  const panel = await page.textContent("#object-details");
  assert.doesNotMatch(panel, /still there/);
  assert.equal(await page.getAttribute("#object-details .chip.phase", "title"), "its claim is gone; the provisioner deletes its storage");
  // Every Released volume of every example and fixture: its words follow its storage's fate.
  const files = corpus();
  const wrong = [];
  let released = 0;
  for (const c of files) {
    const got = await page.evaluate(([s, o]) => {
      let sim;
      try {
        sim = window.pvlint.simulate(s, o);
      } catch (_) {
        return [];
      }
      const svg = PvPicture.render(sim, { width: 1400 });
      return sim.volumes.filter((v) => v.phase === "Released" && !v.gone).map((v) => {
        const node = svg.querySelector(`.node[data-id="v:${CSS.escape(v.name)}"]`);
        return { name: v.name, fate: v.storage.fate, gone: PvWords.fate(v).gone && !PvWords.fate(v).orphan, text: node ? [...node.querySelectorAll("tspan")].map((t) => t.textContent).join(" ") : "", words: PvWords.phase("volume", v.phase, v) };
      });
    }, [[{ name: c.rel, text: read(c.rel) }], requestOf(c)]);
    for (const v of got) {
      released++;
      const said = v.text + " | " + v.words;
      if (v.gone && /still there/.test(said)) wrong.push(`${c.rel}: volume ${v.name} (storage ${v.fate}) says "${said}"`);
      if (v.fate === "kept" && !/still there/.test(v.words)) wrong.push(`${c.rel}: volume ${v.name} keeps its storage but says "${v.words}"`);
    }
  }
  assert.ok(released >= 5, `only ${released} Released volumes`);
  assert.deepEqual(wrong, []);
  assert.deepEqual(problems, []);
  await page.close();
});

// Two Deployments with long names, each surging onto its ReadWriteOnce claim: two workloads'
// pods in the first column, long claim and class names in the others.
const TWO_DEPLOYMENTS = ["wordpress-frontend:wordpress-content:", "mysql-database:mysql-database-storage:managed-premium-retain"].map((d) => {
  const [name, claim, cls] = d.split(":");
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: blog}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - {name: app, image: example/app:1, volumeMounts: [{name: data, mountPath: /data}]}
      volumes:
      - {name: data, persistentVolumeClaim: {claimName: ${claim}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${claim}, namespace: blog}
spec:
  accessModes: [ReadWriteOnce]${cls ? `\n  storageClassName: ${cls}` : ""}
  resources: {requests: {storage: 10Gi}}
`;
}).join("---\n");

test("the picture fits the panel: two Deployments at 1,400 px and narrower, every column whole", async () => {
  const { page, problems } = await open();
  await page.click("#tab-picture");
  await page.fill("#input", TWO_DEPLOYMENTS);
  await page.waitForSelector('svg.binding .node[data-id="s:pvc-00000000-0000-4000-8000-000000000002"]');
  assert.equal((await page.$$("svg.binding .node.workload")).length, 2);
  for (const width of [1440, 1400, 1280, 1100, 1024, 900, 700]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction(() => document.querySelector("svg.binding").getBoundingClientRect().width <= document.getElementById("picture").clientWidth);
    const m = await page.evaluate(() => {
      const pic = document.getElementById("picture"), svg = pic.querySelector("svg.binding");
      const view = pic.closest(".view");
      const box = pic.getBoundingClientRect();
      const right = box.left + pic.clientWidth;
      return {
        panel: pic.clientWidth, svg: svg.getBoundingClientRect().width, viewBox: svg.viewBox.baseVal.width, scrolls: view.scrollWidth > view.clientWidth,
        columns: [...svg.querySelectorAll("text.column")].map((t) => t.textContent),
        outside: [...svg.querySelectorAll(".node, text.column")].filter((n) => n.getBoundingClientRect().right > right + 0.5 || n.getBoundingClientRect().left < box.left - 0.5).map((n) => n.dataset.id || n.textContent),
        size: Math.min(...[...svg.querySelectorAll(".node text")].map((t) => parseFloat(getComputedStyle(t).fontSize))) * (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width),
      };
    });
    const where = `${width} px (a ${m.panel} px panel)`;
    assert.deepEqual(m.columns, ["Workloads", "Claims", "Volumes", "Storage"], where);
    assert.deepEqual(m.outside, [], `${where}: cut off`);
    assert.ok(m.svg <= m.panel + 0.5, `${where}: the picture is ${m.svg} px wide`);
    assert.equal(m.scrolls, false, `${where}: the panel scrolls sideways`);
    // At 1,400 px and wider it fits at the page's text sizes (rows wrap); narrower, it is scaled.
    if (width >= 1400) {
      assert.equal(m.svg, m.viewBox, `${where}: scaled`);
      assert.ok(m.size >= 11.9, `${where}: text at ${m.size.toFixed(1)} px`);
    }
    if (width === 1400) await page.screenshot({ path: join(shots, "picture-two-deployments-1400.png") });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.deepEqual(problems, []);
  await page.close();
});

/** pvlint's own flags, from its help. */
function pvlintFlags() {
  const flags = new Set();
  for (const cmd of ["lint", "simulate", "cluster"]) {
    const help = execFileSync(pvlint, [cmd, "--help"], { encoding: "utf8" });
    for (const m of help.matchAll(/(?:^|[\s,[])(--[a-z][a-z-]+)/g)) flags.add(m[1]);
  }
  for (const generic of ["--help", "--version"]) flags.delete(generic);
  return flags;
}

test("assumptions are worded for the page: every one the examples and fixtures produce, no pvlint flag left", async (t) => {
  const flags = pvlintFlags();
  assert.ok(flags.has("--cluster-state") && flags.has("--complete") && flags.has("--default-class"), [...flags].join(" "));
  const { page } = await open();
  const texts = new Map();
  for (const c of corpus()) {
    for (const extra of [undefined, { options: { kubeVersion: "1.23" } }]) {
      const got = await page.evaluate(([s, o]) => {
        const out = [];
        try {
          for (const f of window.pvlint.lint(s, o).findings) for (const a of (f.consequence && f.consequence.assumptions) || []) out.push(a);
          out.push(...window.pvlint.simulate(s, o).assumptions);
        } catch (_) { /* a fixture the simulation refuses: lint's texts are in */ }
        return out;
      }, [[{ name: c.rel, text: read(c.rel) }], requestOf(c, extra)]);
      for (const a of got) if (!texts.has(a)) texts.set(a, c.rel);
    }
  }
  assert.ok(texts.size >= 15, `only ${texts.size} assumptions`);
  const mapped = await page.evaluate((all) => all.map((a) => PvWords.assumption(a)), [...texts.keys()]);
  const used = new Set();
  [...texts].forEach(([cli, file], i) => {
    const here = mapped[i];
    const left = [...flags].filter((f) => new RegExp(`(^|[^\\w-])${f}(?![\\w-])`).test(here));
    assert.deepEqual(left, [], `${file}: a command-line phrasing the page does not reword (add it to ASSUMPTIONS in src/words.js):\n  ${cli}\n→ ${here}`);
    assert.doesNotMatch(here, /<the cluster's default>/);
    if (here !== cli) used.add(cli);
  });
  t.diagnostic(`${texts.size} assumption texts, ${used.size} reworded`);
  // The page shows them reworded: the picture's line and the side panel.
  await example(page, "seed-003-rwo-rolling-update/broken-as-reported.yaml");
  const line = await page.textContent("#assumptions");
  assert.match(line, /tick “Input is the whole cluster” if the input has them all/);
  assert.doesNotMatch(line, /--/);
  await page.click("#tab-findings");
  await page.click('#findings li[data-rule="rwo-rolling-surge"]');
  const listed = await page.$$eval("#details .assumptions li", (lis) => lis.map((li) => li.textContent));
  // What the finding rests on beyond the profile (whose nodes and drivers the profile line says).
  const surge = await page.evaluate(() => window.playground.state.report.findings.find((f) => f.rule === "rwo-rolling-surge"));
  assert.equal(listed.length, surge.consequence.assumptions.length);
  assert.ok(listed.length >= 1);
  assert.ok(listed.every((a) => !/--[a-z]/.test(a)), listed.join("\n"));
  assert.match(listed[0], /^assumed: StorageClass rbd, .* tick “Input is the whole cluster” if the input has them all\)$/);
  await page.close();
});

test("the controls the assumptions point at: the whole cluster, the default class (and the share link keeps them)", async () => {
  const { page } = await open();
  await example(page, "seed-003-rwo-rolling-update/broken-as-reported.yaml");
  await page.click("#tab-findings");
  // StorageClass rbd is assumed to exist; with the input the whole cluster it does not.
  assert.ok(await page.$('#findings li[data-rule="storage-class-not-found"][data-severity="info"]'));
  await page.check("#complete");
  await page.waitForSelector('#findings li[data-rule="storage-class-not-found"][data-severity="error"]');
  const report = await page.evaluate(() => window.pvlint.lint([{ name: "manifest.yaml", text: document.getElementById("input").value }], { options: { kubeVersion: "1.34", complete: true } }));
  assert.deepEqual(await page.$$eval("#findings li.finding", (lis) => lis.map((li) => li.dataset.rule).sort()), report.findings.map((f) => f.rule).sort());
  await page.click("#tab-picture");
  await page.waitForSelector('svg.binding .node[data-id="c:default/data-vol"][data-phase="Pending"]');
  // Seed 001: no default class, or a named one, as --no-default-class and --default-class say.
  await page.uncheck("#complete");
  await example(page, "seed-001-phase-transitions/broken.yaml");
  await page.selectOption("#default-class", "none");
  // No default class: the class-less claim binds the class-less volume pv3.
  await page.waitForSelector('svg.binding path.edge[data-from="c:test/myclaim"][data-to="v:pv3"]');
  const none = await page.evaluate(() => window.playground.state.report.options);
  assert.equal(none.defaultClass, "");
  await page.selectOption("#default-class", "named");
  await page.fill("#default-class-name", "standard");
  await page.waitForFunction(() => window.playground.state.report.options.defaultClass === "standard");
  await page.click("#share");
  const url = await page.inputValue("#share-url");
  await page.close();
  const again = await open();
  await again.page.goto(url);
  await again.page.waitForSelector("body[data-ready=true]");
  await again.page.waitForFunction(() => window.playground.state.report && window.playground.state.report.options.defaultClass === "standard");
  assert.equal(await again.page.inputValue("#default-class"), "named");
  assert.equal(await again.page.inputValue("#default-class-name"), "standard");
  assert.equal(await again.page.isChecked("#complete"), false);
  await again.page.close();
});

test("findings on rendered input name the template they came from (Helm)", async () => {
  const { page } = await open();
  const rendered = `---
# Source: shop/templates/pvc.yaml
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: shop-data
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: fast-ssd
  resources: {requests: {storage: 1Gi}}
---
# Source: shop/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  replicas: 1
  selector: {matchLabels: {app: shop}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers: [{name: shop, image: shop:1, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: shop-data}}]
`;
  await page.fill("#input", rendered);
  await page.waitForSelector('#findings li[data-rule="rwo-rolling-surge"] .template');
  const report = await page.evaluate(() => window.playground.state.report);
  const f = report.findings.find((x) => x.rule === "rwo-rolling-surge");
  assert.deepEqual(f.location.origin, { file: "shop/templates/deployment.yaml", tool: "helm" });
  assert.equal(await page.textContent('#findings li[data-rule="rwo-rolling-surge"] .template'), "from shop/templates/deployment.yaml (helm)");
  const pvc = report.findings.find((x) => x.rule === "storage-class-not-found");
  assert.equal(await page.textContent('#findings li[data-rule="storage-class-not-found"] .template'), "from shop/templates/pvc.yaml (helm)");
  assert.deepEqual(pvc.location.origin, { file: "shop/templates/pvc.yaml", tool: "helm" });
  await page.click('#findings li[data-rule="rwo-rolling-surge"]');
  assert.equal(await page.textContent("#details .meta .template"), "from shop/templates/deployment.yaml (helm)");
  // The related locations say theirs: the claim's access modes are in the claim's template.
  const related = await page.$$eval("#details .related li", (lis) => lis.map((li) => li.textContent));
  assert.ok(related.some((r) => r.endsWith("from shop/templates/pvc.yaml (helm)")), related.join("\n"));
  await page.screenshot({ path: join(shots, "findings-helm-origin.png") });
  await page.close();
});

// ---- screenshots against the references ------------------------------------------------------

/** Compares two PNGs (base64) in the browser: its decoder, a canvas per image. */
async function compare(page, a, b) {
  return page.evaluate(async ([a, b]) => {
    const load = (data) => new Promise((ok, fail) => {
      const img = new Image();
      img.onload = () => ok(img);
      img.onerror = () => fail(new Error("not a PNG"));
      img.src = "data:image/png;base64," + data;
    });
    const [ia, ib] = await Promise.all([load(a), load(b)]);
    if (ia.width !== ib.width || ia.height !== ib.height) return { size: `${ib.width}×${ib.height}, the reference ${ia.width}×${ia.height}` };
    const pixels = (img) => {
      const c = document.createElement("canvas");
      c.width = img.width;
      c.height = img.height;
      const x = c.getContext("2d");
      x.drawImage(img, 0, 0);
      return x.getImageData(0, 0, img.width, img.height);
    };
    const pa = pixels(ia), pb = pixels(ib);
    const diff = new ImageData(ia.width, ia.height);
    let differing = 0;
    for (let i = 0; i < pa.data.length; i += 4) {
      const d = Math.max(Math.abs(pa.data[i] - pb.data[i]), Math.abs(pa.data[i + 1] - pb.data[i + 1]), Math.abs(pa.data[i + 2] - pb.data[i + 2]));
      const off = d > 64;
      differing += off;
      diff.data.set(off ? [255, 0, 0, 255] : [pb.data[i], pb.data[i + 1], pb.data[i + 2], 60], i);
    }
    const c = document.createElement("canvas");
    c.width = ia.width;
    c.height = ia.height;
    c.getContext("2d").putImageData(diff, 0, 0);
    return { differing, total: ia.width * ia.height, diff: c.toDataURL("image/png").split(",")[1] };
  }, [a, b]);
}

const REFERENCES = [
  ["seed-000-dr-migration/broken.yaml", "seed-000.png"],
  ["seed-001-phase-transitions/broken.yaml", "seed-001.png"],
  ["seed-002-statefulset-pool/broken-single-pv.yaml", "seed-002.png"],
  ["seed-003-rwo-rolling-update/broken-as-reported.yaml", "seed-003.png"],
  ["seed-004-pv-deleted-before-pvc/broken.yaml", "seed-004-leaked.png"],
];

test("the picture of each seed example looks like its reference screenshot", async (t) => {
  const fonts = execFileSync("fc-match", ["system-ui"], { encoding: "utf8" }).trim();
  const { page, problems } = await open();
  const cmp = await context.newPage();
  mkdirSync(references, { recursive: true });
  const failures = [];
  for (const [name, file] of REFERENCES) {
    await example(page, name);
    if (file.includes("leaked")) {
      // Seed 004's story on 1.23: the PV deleted first, then its claim: the storage leaks.
      await page.selectOption("#kube", "1.23");
      await page.click('svg.binding .node[data-id="v:example-vanilla-block-pv"]');
      await page.click('#object-details button.op[data-op="deletePv"]');
      await page.waitForSelector('#phases button.step[data-step="1"]');
      await page.click('svg.binding .node[data-id="c:default/example-vanilla-block-pvc"]');
      await page.click('#object-details button.op[data-op="deletePvc"]');
      await page.waitForSelector('#phases button.step[data-step="2"]');
      await page.keyboard.press("Escape");
    }
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.mouse.move(0, 0);
    const png = await (await page.$("#picture svg")).screenshot();
    writeFileSync(join(shots, `picture-${file}`), png);
    const ref = join(references, file);
    if (update) {
      writeFileSync(ref, png);
      t.diagnostic(`wrote ${ref}`);
      continue;
    }
    if (!existsSync(ref)) {
      failures.push(`${name}: no reference ${ref}`);
      continue;
    }
    const r = await compare(cmp, readFileSync(ref).toString("base64"), png.toString("base64"));
    if (r.size) {
      failures.push(`${name}: the picture is ${r.size} (fonts: ${fonts}; the references use DejaVu Sans)`);
      continue;
    }
    writeFileSync(join(shots, `diff-${file}`), Buffer.from(r.diff, "base64"));
    t.diagnostic(`${name}: ${r.differing} of ${r.total} pixels differ`);
    if (r.differing > r.total * 0.002) failures.push(`${name}: ${r.differing} of ${r.total} pixels differ (see ${join(shots, `diff-${file}`)}; fonts: ${fonts})`);
    if (file.includes("leaked")) {
      await page.click("#clear-ops");
      await page.selectOption("#kube", "1.34");
    }
  }
  assert.deepEqual(failures, [], "the picture changed: if that is meant, PVLINT_UPDATE_REFERENCES=1 npm test writes new references");
  assert.deepEqual(problems, []);
  await cmp.close();
  await page.close();
});
