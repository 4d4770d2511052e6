// The package's TypeScript types checked against what the module really returns: the real
// outputs of `lint`, `simulate` (with and without what-if operations) and `rules` for every
// example and fixture, and for the examples under cluster profiles that say every value, are
// written out as typed object literals and compiled with
// `tsc --strict`. Object literals get TypeScript's excess-property check, so a field the Rust
// side adds or renames without the .d.ts following fails to compile; a field the .d.ts declares
// that no output ever has fails the coverage check below.
//
// Needs: wasm/pkg (bash wasm/playground/build.sh) and `npm ci` here (typescript).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { corpus, read, repo, requestOf } from "./corpus.mjs";

const pkg = join(repo, "wasm", "pkg");
const dts = join(pkg, "pvlint_wasm.d.ts");
const tsc = join(repo, "wasm", "playground", "node_modules", "typescript", "bin", "tsc");
const out = join(repo, "target", "types-check");

/** A timeline over this state that runs each kind of operation where it can: kept only when it applies. */
function operationsFor(pv, sources, request, sim) {
  const candidates = [];
  const v = sim.volumes.find((x) => x.claim) || sim.volumes[0];
  if (v && v.claim) candidates.push({ op: "removeClaimRef", name: v.name });
  const c = sim.claims.find((x) => x.phase !== "Rejected");
  if (c) candidates.push({ op: "deletePvc", namespace: c.namespace, name: c.name });
  for (const x of sim.volumes) candidates.push({ op: "deletePv", name: x.name }, { op: "removeFinalizers", name: x.name });
  const ops = [];
  for (const op of candidates) {
    try {
      pv.simulate(sources, { ...request, operations: [...ops, op] });
      ops.push(op);
    } catch (_) {
      // an operation on an object an earlier one removed
    }
  }
  return ops;
}

/** Real outputs: [type name, value] pairs. */
async function outputs() {
  if (!existsSync(join(pkg, "node.js"))) throw new Error(`the package is missing at ${pkg}: run bash wasm/playground/build.sh`);
  const pv = await import(join(pkg, "node.js"));
  const values = [["RuleInfo[]", pv.rules()]];
  const variants = [{}, { options: { kubeVersion: "1.23", defaultClass: "standard" } }, { options: { complete: true, defaultClass: "" } }];
  for (const c of corpus()) {
    const sources = [{ name: c.rel, text: read(c.rel) }];
    if (c.audit) values.push(["Report", pv.lint([], { ...requestOf(c), audit: true })]);
    for (const v of variants) {
      values.push(["Report", pv.lint(sources, requestOf(c, v))]);
      const sim = pv.simulate(sources, requestOf(c, v));
      values.push(["Simulation", sim]);
      if (v.options) continue;
      const ops = operationsFor(pv, sources, requestOf(c) || {}, sim);
      if (ops.length) values.push(["Simulation", pv.simulate(sources, requestOf(c, { operations: ops }))]);
      values.push(["Simulation", pv.simulate(sources, requestOf(c, { operations: [{ op: "apply", sources }] }))]);
    }
  }
  // The cluster profile: every value said, as LintInput's `profile` and as `options.cluster`,
  // with each origin a value can have (flags and settings files are the CLI's; the module
  // reports what the request says).
  const gates = { HonorPVReclaimPolicy: false, StatefulSetAutoDeletePVC: true, RetroactiveDefaultStorageClass: true, VolumeAttributesClass: true, RecoverVolumeExpansionFailure: false };
  const drivers = [{ name: "nfs.csi.k8s.io", attachRequired: false }, { name: "ebs.csi.aws.com" }];
  const profiles = [
    { profile: { nodes: "one", defaultClass: { name: "standard", provisioner: "ebs.csi.aws.com" }, drivers, kubeVersion: "1.34", featureGates: gates, snapshotter: "8.2", complete: true, sameCluster: true } },
    { profile: { nodes: "zones", defaultClass: "" } },
    {
      options: {
        kubeVersion: "1.31", defaultClass: "fast", rules: { "claim-pending": "off", "storage-class-not-found": "error" }, hostpathProvisioner: true,
        cluster: {
          nodes: "several", defaultProvisioner: "kubernetes.io/host-path", drivers, featureGates: { HonorPVReclaimPolicy: true }, snapshotter: "5.0", sameCluster: true,
          from: { nodes: { settings: ".pvlint.yaml" }, snapshotter: { settings: ".pvlint.yaml" }, defaultClass: { flag: "--default-class" }, drivers: { settings: ".pvlint.yaml" }, featureGates: { flag: "--feature-gates" }, sameCluster: { flag: "--same-cluster" }, kubeVersion: "request" },
        },
      },
    },
  ];
  for (const c of corpus().filter((x) => x.rel.startsWith("examples/"))) {
    const sources = [{ name: c.rel, text: read(c.rel) }];
    for (const p of profiles) {
      values.push(["Report", pv.lint(sources, p)]);
      values.push(["Simulation", pv.simulate(sources, p)]);
    }
  }
  values.push(["Report", pv.lint([{ name: "a.yaml", text: "apiVersion: v1\nkind: PersistentVolume\nspec: [\n" }, { name: "b.json", text: "{}" }], { eachFile: true })]);
  // `helm template` output: findings name the template in location.origin.
  const helm = "---\n# Source: mydb/templates/pvc.yaml\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, uid: 3d65a636-f4c3-4c49-b957-c45673f48bc6}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n";
  values.push(["Report", pv.lint([{ name: "rendered.yaml", text: helm }])]);
  // A Chainsaw test's files are applied by nothing pvlint models: the report names them.
  const chainsaw = "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\nspec:\n  steps:\n  - try:\n    - assert:\n        file: assert.yaml\n";
  values.push(["Report", pv.lint([{ name: "t/chainsaw-test.yaml", text: chainsaw }, { name: "t/assert.yaml", text: "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nstatus:\n  phase: Bound\n" }])]);
  return values;
}

function writeProject(dir, values, mutate) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rel = join("..", "..", "wasm", "pkg", "pvlint_wasm.js").replaceAll("\\", "/");
  const files = [];
  const chunk = 40;
  for (let i = 0; i < values.length; i += chunk) {
    const lines = [`import type { Report, Simulation, RuleInfo } from "../${rel}";`];
    values.slice(i, i + chunk).forEach(([type, value], j) => {
      const v = mutate ? mutate(type, structuredClone(value), i + j) : value;
      lines.push(`export const v${i + j}: ${type} = ${JSON.stringify(v, null, 1)};`);
    });
    const name = `outputs-${i / chunk}.ts`;
    writeFileSync(join(dir, name), lines.join("\n") + "\n");
    files.push(name);
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"], skipLibCheck: false, types: [] },
    files,
  }, null, 1));
}

function compile(dir) {
  try {
    execFileSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (e) {
    return (e.stdout || "") + (e.stderr || "") || String(e);
  }
}

const values = await outputs();

test("every real output of lint, simulate and rules compiles as its declared type (tsc --strict)", () => {
  assert.ok(values.length > 300, `only ${values.length} outputs`);
  const dir = join(out, "real");
  writeProject(dir, values);
  const errors = compile(dir);
  assert.equal(errors, "", `the TypeScript types disagree with the module's output:\n${errors.split("\n").slice(0, 40).join("\n")}`);
});

test("a field added or renamed on the Rust side fails the check", () => {
  const firstFinding = values.findIndex(([t, v]) => t === "Report" && v.findings.length);
  const firstClaim = values.findIndex(([t, v]) => t === "Simulation" && v.claims.length);
  const dir = join(out, "mutated");
  writeProject(dir, values, (type, v, i) => {
    if (i === firstFinding) v.findings[0].suppressed = true; // a new field
    if (i === firstClaim) {
      v.claims[0].reasons = v.claims[0].why; // a renamed field
      delete v.claims[0].why;
    }
    return v;
  });
  const errors = compile(dir);
  assert.match(errors, /'"suppressed"' does not exist in type 'Finding'/);
  assert.match(errors, /'"reasons"' does not exist in type 'ClaimOutcome'/);
});

test("every field the types declare occurs in some real output", () => {
  const program = ts.createProgram([dts], { strict: true, noEmit: true, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [] });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(dts)));
  const typeOf = (name) => checker.getDeclaredTypeOfSymbol(exports.find((s) => s.name === name));
  const declared = new Set(), seen = new Set();
  // Where a property is declared: "Link.tied", or "VolumeOutcome.storage.fate" in a type literal.
  const owner = (node) => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return node.name.text;
    if (ts.isPropertySignature(node)) return `${owner(node.parent)}.${node.name.text}`;
    return node.parent ? owner(node.parent) : "?";
  };
  const walk = (type, value, path) => {
    if (value === null || value === undefined) return;
    if (type.isUnion()) {
      for (const t of type.types) if (t.flags & ts.TypeFlags.Object) walk(t, value, path);
      return;
    }
    if (checker.isArrayType(type)) {
      const [elem] = checker.getTypeArguments(type);
      for (const v of value) walk(elem, v, path + "[]");
      return;
    }
    if (!(type.flags & ts.TypeFlags.Object) || typeof value !== "object") return;
    for (const p of checker.getPropertiesOfType(type)) {
      // A mapped type's keys (`Partial<Record<FeatureGate, boolean>>`) have no declaration of
      // their own: they are named by where they occur.
      const key = p.valueDeclaration ? `${owner(p.valueDeclaration.parent)}.${p.name}` : `${path}.${p.name}`;
      declared.add(key);
      if (!(p.name in value)) continue;
      seen.add(key);
      walk(p.valueDeclaration ? checker.getTypeOfSymbolAtLocation(p, p.valueDeclaration) : checker.getTypeOfSymbol(p), value[p.name], key);
    }
  };
  for (const [name, value] of values) {
    const base = name.replace("[]", "");
    if (name.endsWith("[]")) value.forEach((v) => walk(typeOf(base), v, base));
    else walk(typeOf(base), value, base);
  }
  const unseen = [...declared].filter((k) => !seen.has(k)).sort();
  assert.ok(declared.size > 60, `only ${declared.size} declared fields found`);
  assert.deepEqual(unseen, [], "declared in pvlint_wasm.d.ts but never in an output (remove them, or add an input that produces them)");
});
