// The test inputs shared by the browser, package and type tests: every example and rule
// fixture, with its cluster state (`X.cluster.yaml`, or `--cluster-state` in the header) and
// the options its `# pvlint:` header states (see lint-core/tests/common/mod.rs).
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const read = (rel) => readFileSync(join(repo, rel), "utf8");

/** The `# pvlint:` header as request options, the CLI arguments, a cluster-state path, and
 * whether the fixture is a live cluster to audit (`# pvlint: cluster --cluster-state self`). */
export function header(text) {
  const options = {};
  const args = [];
  let cluster = null;
  let audit = false;
  for (const line of text.split("\n")) {
    if (!line.startsWith("#") && line.trim()) break;
    const m = line.match(/^# pvlint:(.*)$/);
    if (!m) continue;
    const words = m[1].trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w === "--kube-version") (options.kubeVersion = words[++i]), args.push(w, words[i]);
      else if (w === "--complete") (options.complete = true), args.push(w);
      else if (w === "--validate") (options.fieldValidation = words[++i]), args.push(w, words[i]);
      else if (w === "--default-class") (options.defaultClass = words[++i]), args.push(w, words[i]);
      else if (w === "--no-default-class") (options.defaultClass = ""), args.push(w);
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

/** The request options (second argument of lint/simulate) of a corpus entry. */
export function requestOf(c, extra = {}) {
  const req = { ...extra };
  if (c.cluster) req.cluster = [{ name: c.cluster, text: read(c.cluster) }];
  if (Object.keys(c.options).length || extra.options) req.options = { ...c.options, ...(extra.options || {}) };
  return Object.keys(req).length ? req : undefined;
}
