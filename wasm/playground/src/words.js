// Words a person reads for the values of pvlint's JSON: phases, storage fates, fit checks,
// provisioned volumes' synthetic names, and the assumptions, which the core words for the
// command line (`pass --cluster-state or --complete to check`): ASSUMPTIONS rewords each
// command-line phrasing for this page, pointing at its own controls or at what to add to the
// input. test/playground.test.mjs runs every assumption the examples and fixtures produce
// through it: a new phrasing that names a pvlint flag and is not in the table fails there.
"use strict";

const PvWords = (() => {
  // The page's controls the assumptions point at (index.html).
  const WHOLE = "“Input is the whole cluster”";
  const DEFAULT = "“Default class”";
  const NODES_CONTROL = "“Nodes”";

  /** [the command line's phrasing, this page's]: regular expressions and replacements. */
  const ASSUMPTIONS = [
    // A class the input does not define (Assumption::ClassExists).
    [/ \(pass --cluster-state or --complete to check\)$/, " (to check, paste the cluster's StorageClasses into the input — kubectl get storageclass -o yaml — or tick " + WHOLE + " if the input has them all)", /^StorageClass /],
    // No other volume matches (Assumption::NoOtherVolumes), a named volume is not in the cluster.
    [/ \(pass --cluster-state or --complete to check\)$/, " (tick " + WHOLE + " if the input has every PersistentVolume, or paste the cluster's — kubectl get pv -o yaml — into the input)", /PersistentVolume/],
    [/ \(pass --cluster-state or --complete to make this certain\)$/, " (tick " + WHOLE + " to make this certain)"],
    [/ \(--default-class NAME or --no-default-class say what the cluster has\)$/, " (choose what the cluster has under " + DEFAULT + " above)"],
    [/; a CSIDriver object in the input, or --cluster-state, says for sure$/, "; a CSIDriver object for the driver in the input says for sure"],
    [/; pass --cluster-state to check\)$/, "; add the StorageClass to the input to check)"],
    [/ \(add them to --cluster-state to make this certain\)$/, " (add the cluster's StorageClasses to the input to make this certain)"],
    [/; --together or --complete says so for sure$/, "; tick " + WHOLE + " to say so for sure"],
    // Files of a directory applied together (Assumption::AppliedTogether): the page is one input.
    [/; --together says so for sure$/, "; pasted into one input, they are applied together"],
    // A hostPath volume hinting at one node (Assumption::SeveralNodesThoughOneNodeVolume).
    [/ \(--nodes one, or nodes: one in \.pvlint\.yaml's cluster section, says the cluster has one node\)$/, " (choose one node under " + NODES_CONTROL + " above if the cluster has one)"],
    // kube-controller-manager's own flag, which pvlint shares the name of (provisioner-not-served).
    [/without --enable-hostpath-provisioner \(its default; test clusters may turn it on\)$/, "without its host-path provisioner (off by default; test clusters may turn it on)"],
    // The snapshotter's release (Assumption::SnapshotterWithoutV1beta1).
    [/; `snapshotter:` in the profile's cluster section \(or --snapshotter\) says its release$/, "; the page assumes a current release (the command line can say which)"],
  ];

  /** pvlint's own command-line flags (not kubectl's or kube-controller-manager's). */
  const PVLINT_FLAG = /(^|[^\w-])--(cluster-state|complete|default-class|no-default-class|together|each-file|kube-version|against-cluster|hostpath-provisioner|config|nodes|same-cluster|snapshotter|feature-gates|enable|disable)(?![\w-])/;

  /** An assumption as this page words it. */
  function assumption(text) {
    let t = plain(text);
    for (const [cli, here, when] of ASSUMPTIONS) {
      if (when && !when.test(t)) continue;
      if (cli.test(t)) {
        t = t.replace(cli, here);
        break;
      }
    }
    return t;
  }

  /** The core's placeholder for an unnamed default class, in words. */
  function plain(text) {
    return String(text)
      .replace(/StorageClass <the cluster's default>/g, "the cluster's default StorageClass")
      .replace(/<the cluster's default>/g, "the cluster's default class");
  }

  const CLAIM_PHASE = {
    Pending: "waiting for a volume",
    Bound: "bound to its volume",
    Lost: "pods cannot mount it",
    Rejected: "the API server refuses it",
  };
  const VOLUME_PHASE = {
    Available: "free: no claim yet",
    Bound: "bound to its claim",
    Released: "its claim is gone; the data is still there",
    Failed: "its reclaim failed",
  };
  /** What became of a Released volume's data, by its storage fate: it is still there only
   * while nothing has destroyed it (simulation-schema.md, `storage.fate`). */
  const RELEASED = {
    deleted: "its claim is gone; its storage is deleted",
    leftToProvisioner: "its claim is gone; the provisioner deletes its storage",
    archived: "its claim is gone; the provisioner archives its directory (renamed archived-…), the data is still there",
    recycled: "its claim is gone; its data is wiped (Recycle)",
    deleteFailed: "its claim is gone; deleting its storage fails, the data is still there",
    recycleFailed: "its claim is gone; recycling it fails, the data is still there",
    leaked: "its claim is gone; its storage is left behind",
  };
  /** A claim's or volume's phase in a few words (`kind`: "claim" or "volume"); for a volume,
   * `v` (its simulated outcome) says what became of its data. */
  const phase = (kind, p, v) => (kind === "volume" && p === "Released" && v && v.storage && RELEASED[v.storage.fate]) || (kind === "claim" ? CLAIM_PHASE : VOLUME_PHASE)[p] || p;

  /** Fit checks of the PV controller (`Link.checks`). */
  const CHECKS = {
    beingDeleted: "being deleted", capacity: "size", storageClassName: "class",
    volumeAttributesClassName: "attributes class", volumeMode: "volume mode", accessModes: "access modes", selector: "selector",
  };
  const checks = (list) => (list || []).map((c) => CHECKS[c] || c).join(", ");

  /** Who a fate's `by` names, in words ("the provisioner of StorageClass rbd" stays). */
  const who = (by, what) => (!by ? what : /^(the |an? )/.test(by) ? plain(by) : `${what} ${by}`);

  /** A volume's storage fate: `short` for the picture, `full` for panels, `edge` the label of
   * the volume's edge to it, `cls` ok/warn/bad; `gone` when the data is destroyed or left
   * behind, `orphan` when left behind (it still exists, nothing deletes it). */
  function fate(v) {
    const s = v.storage;
    switch (s.fate) {
      case "kept": return { short: "kept", full: "kept: nothing deletes it", cls: "ok" };
      case "provisioned": return { short: "new, provisioned", full: `created by ${who(s.by, "the provisioner")}`, cls: "ok" };
      case "deleted": return { short: "deleted", full: `deleted by ${who(s.by, "the volume plugin")}`, edge: "reclaim: Delete", cls: "bad", gone: true };
      case "leftToProvisioner": return { short: "deleted by the provisioner", full: `deleted by ${who(s.by, "the provisioner")} once the volume is Released`, edge: "reclaim: Delete", cls: "bad", gone: true };
      case "archived": return { short: "archived by the provisioner", full: `archived by ${who(s.by, "the provisioner")} once the volume is Released: its directory is renamed archived-…, the data stays`, edge: "reclaim: Delete", cls: "warn" };
      case "recycled": return { short: "wiped (Recycle)", full: "wiped by the recycler (rm -rf of the volume's files)", edge: "reclaim: Recycle", cls: "bad", gone: true };
      case "deleteFailed": return { short: "delete fails", full: `deleting it fails${s.error ? ": " + s.error : ""}`, cls: "warn" };
      case "recycleFailed": return { short: "recycle fails", full: `recycling it fails${s.error ? ": " + s.error : ""}`, cls: "warn" };
      case "leaked": return { short: "leaked", full: "leaked: the PersistentVolume is gone and nothing deletes the storage", edge: "PV gone", cls: "bad", gone: true, orphan: true };
      default: return { short: String(s.fate), full: String(s.fate), cls: "warn" };
    }
  }

  /** A claim's link to a volume as a short label: `text` (none when the volume says it), and
   * `cls` ok/warn/bad. */
  function link(c) {
    const l = c.link;
    const ch = checks(l.checks);
    switch (l.how) {
      case "bestMatch": return { text: l.tied && l.tied.length ? "smallest match (tie)" : "smallest match", cls: "ok" };
      case "claimRef": return { text: ch ? `claimRef; skips ${ch}` : "claimRef reserves it", cls: ch ? "warn" : "ok" };
      case "volumeName": return { text: "names it (volumeName)", cls: "ok" };
      case "namedEachOther": return { text: ch ? `named both ways; skips ${ch}` : "named both ways", cls: ch ? "warn" : "ok" };
      case "provisioned": return { text: "", cls: "ok" }; // the volume says "new volume, provisioned for …"
      case "alreadyBound": return { text: "bound (UIDs match)", cls: "ok" };
      case "rebound": return { text: "re-bound", cls: "warn" };
      case "misbound": return { text: l.holder === `${c.namespace}/${c.name}` ? "claimRef.uid differs" : "claimRef names another claim", cls: "bad" };
      case "volumeMissing": return { text: "volume not found", cls: c.phase === "Lost" ? "bad" : "warn" };
      case "mismatch": return { text: `does not fit: ${ch}`, cls: "warn" };
      case "taken": return { text: "taken by another claim", cls: "warn" };
      default: return { text: String(l.how), cls: "warn" };
    }
  }

  /** Provisioned volumes' names are made up by the simulation (pvc-00000000-…): their names in
   * a state, to be shown as "new volume" with the name on hover. */
  const provisioned = (state) => new Set(((state && state.volumes) || []).filter((v) => v.origin && v.origin.kind === "provisioned").map((v) => v.name));

  /** `text` split into strings and {name} parts where it names one of `names`. */
  function split(text, names) {
    if (!names || !names.size) return [text];
    const re = new RegExp(`(?:volume )?(${[...names].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "g");
    const out = [];
    let at = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > at) out.push(text.slice(at, m.index));
      out.push({ name: m[1] });
      at = m.index + m[0].length;
    }
    if (at < text.length) out.push(text.slice(at));
    return out;
  }

  /** Where a value of the cluster profile came from (`Given`), as the CLI prints it. */
  function given(g) {
    if (typeof g === "string") return g === "complete" ? "--complete" : g;
    if (g.flag !== undefined) return g.flag;
    if (g.settings !== undefined) return g.settings;
    if (g.clusterState !== undefined) return `cluster state ${g.clusterState}`;
    return JSON.stringify(g);
  }
  /** … and as this page says it: the request's values are the controls'. */
  const onPage = (g) => (g === "request" ? "set above" : given(g));

  const NODES = { one: "one node", several: "several nodes", zones: "several nodes in several zones" };
  /** The cluster profile in one line, as `Profile::describe` words it (lint-core/src/profile.rs;
   * the CLI's `cluster:` line): each value, and where it came from when someone said it
   * (`from` words that: this page's words by default, `given` for the CLI's). */
  function profile(p, from = onPage) {
    const said = (text, g) => (g === "default" ? text : `${text} (${from(g)})`);
    const parts = [said(NODES[p.nodes.value] || p.nodes.value, p.nodes.from)];
    const c = p.defaultClass.value;
    parts.push(said(
      c.is === "unnamed" ? "a default StorageClass of unknown name"
        : c.is === "named" ? `default StorageClass ${c.name}${c.provisioner ? ` (${c.provisioner})` : ""}`
          : c.is === "none" ? "no default StorageClass" : "no default StorageClass but the input's",
      p.defaultClass.from));
    const drivers = new Map();
    for (const d of p.drivers || []) {
      const k = from(d.from);
      (drivers.get(k) || drivers.set(k, []).get(k)).push(`${d.value.name} ${d.value.attachRequired ? "attaches" : "does not attach"}`);
    }
    for (const k of [...drivers.keys()].sort()) parts.push(`CSI driver ${drivers.get(k).join(", ")} (${k})`);
    parts.push("CSI drivers without a known CSIDriver attach");
    parts.push(said(`Kubernetes ${p.kubeVersion.value}`, p.kubeVersion.from));
    for (const g of p.featureGates || []) {
      parts.push(said(g.locked ? `${g.feature} on (locked on in ${p.kubeVersion.value}: it cannot be turned off)` : `${g.feature} ${g.enabled ? "on" : "off"}`, g.from));
    }
    if (p.snapshotter) parts.push(said(`external-snapshotter ${p.snapshotter.value}`, p.snapshotter.from));
    if (p.complete.value) parts.push(said("the input holds every object that matters", p.complete.from));
    if (p.sameCluster.value) parts.push(said("every apply set goes to this one cluster", p.sameCluster.from));
    const isDefault = [p.nodes, p.defaultClass, p.kubeVersion, p.complete, p.sameCluster].every((f) => f.from === "default") && !(p.drivers || []).length && !(p.featureGates || []).length && !p.snapshotter;
    return parts.join(", ") + (isDefault ? " (the default profile)" : "");
  }

  return { assumption, plain, phase, fate, link, checks, provisioned, split, profile, given, ASSUMPTIONS, PVLINT_FLAG };
})();
