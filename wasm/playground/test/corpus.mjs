// The test inputs shared by the browser, package and type tests: every example and rule
// fixture, with its cluster state (`X.cluster.yaml`, or `--cluster-state` in the header) and
// the options its `# pvlint:` header states (see lint-core/tests/common/mod.rs).
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const read = (rel) => readFileSync(join(repo, rel), "utf8");
/** Cargo's output directory: $CARGO_TARGET_DIR (relative to the repository root, as
 * wasm/playground/build.sh runs cargo there), else target/. */
export const target = resolve(repo, process.env.CARGO_TARGET_DIR || "target");

/** The `# pvlint:` header as request options, the CLI arguments, a cluster-state path, and
 * whether the fixture is a live cluster to audit (`# pvlint: cluster --cluster-state self`).
 * The options say which flag gave each value of the cluster profile (`cluster.from`), as the
 * CLI records it, so that the browser module's report is the CLI's byte for byte. */
export function header(text) {
  const options = {};
  const args = [];
  let cluster = null;
  let audit = false;
  const spec = () => (options.cluster ||= {});
  const flag = (key, name) => ((spec().from ||= {})[key] = { flag: name });
  for (const line of text.split("\n")) {
    if (!line.startsWith("#") && line.trim()) break;
    const m = line.match(/^# pvlint:(.*)$/);
    if (!m) continue;
    const words = m[1].trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w === "--kube-version") (options.kubeVersion = words[++i]), args.push(w, words[i]), flag("kubeVersion", w);
      else if (w === "--complete") (options.complete = true), args.push(w), flag("complete", w);
      else if (w === "--validate") (options.fieldValidation = words[++i]), args.push(w, words[i]);
      else if (w === "--default-class") (options.defaultClass = words[++i]), args.push(w, words[i]), flag("defaultClass", w);
      else if (w === "--no-default-class") (options.defaultClass = ""), args.push(w), flag("defaultClass", w);
      else if (w === "--nodes") (spec().nodes = words[++i]), args.push(w, words[i]), flag("nodes", w);
      else if (w === "--snapshotter") (spec().snapshotter = words[++i]), args.push(w, words[i]), flag("snapshotter", w);
      else if (w === "--same-cluster") (spec().sameCluster = true), args.push(w), flag("sameCluster", w);
      else if (w === "--feature-gates") {
        spec().featureGates = Object.fromEntries(words[++i].split(",").map((p) => p.split("=")).map(([k, v]) => [k, v === "true"]));
        args.push(w, words[i]);
        flag("featureGates", w);
      }
      else if (w === "--cluster-state") cluster = words[++i];
      else if (w === "cluster") audit = true;
      else throw new Error(`unknown fixture option ${w}`);
    }
  }
  return { options, args, cluster, audit };
}

/** Every example and fixture: {rel, cluster (rel path or null), options, args, audit}. */
export function corpus() {
  const out = [];
  for (const dir of ["examples", "lint-core/tests/fixtures"]) {
    for (const sub of readdirSync(join(repo, dir)).sort()) {
      const d = join(repo, dir, sub);
      if (!statSync(d).isDirectory()) continue;
      for (const f of readdirSync(d).sort()) {
        if (!(f.endsWith(".yaml") || f.endsWith(".json")) || f.endsWith(".cluster.yaml")) continue;
        const rel = `${dir}/${sub}/${f}`;
        const h = header(read(rel));
        let cluster = h.cluster ? join(d, h.cluster) : join(d, f.replace(/\.(yaml|json)$/, ".cluster.yaml"));
        cluster = existsSync(cluster) ? relative(repo, cluster) : null;
        out.push({ rel, cluster, options: h.options, args: h.args, audit: h.audit });
      }
    }
  }
  return out;
}

/** A corpus entry's request with what its header says of the cluster as LintInput's `profile`
 * (the page's way) merged with `profile`; what is not part of the profile stays in `options`. */
export function profileRequestOf(c, profile) {
  const { kubeVersion, complete, defaultClass, cluster, ...options } = c.options;
  const { from, ...spec } = cluster || {};
  const p = { ...spec, ...profile };
  if (kubeVersion !== undefined) p.kubeVersion = kubeVersion;
  if (complete !== undefined) p.complete = complete;
  if (defaultClass !== undefined && p.defaultClass === undefined) p.defaultClass = defaultClass;
  const req = { profile: p };
  if (Object.keys(options).length) req.options = options;
  if (c.cluster) req.cluster = [{ name: c.cluster, text: read(c.cluster) }];
  return req;
}

/** A report with every value the CLI's flags gave (`{flag: "--nodes"}`) said by the request,
 * as LintInput's `profile` says them. */
export const fromRequest = (report) => JSON.parse(JSON.stringify(report), (k, v) => (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v.flag === "string" ? "request" : v));

/** The request options (second argument of lint/simulate) of a corpus entry. */
export function requestOf(c, extra = {}) {
  const req = { ...extra };
  if (c.cluster) req.cluster = [{ name: c.cluster, text: read(c.cluster) }];
  if (Object.keys(c.options).length || extra.options) req.options = { ...c.options, ...(extra.options || {}) };
  return Object.keys(req).length ? req : undefined;
}
