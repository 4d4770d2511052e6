// The binding picture: workloads → claims → volumes → storage, drawn as inline SVG from a
// simulation (or one step of a what-if timeline). Nodes are coloured by phase; every edge says
// why it is there (from the claim's `link`, the volume's claimRef and its storage fate).
"use strict";

const PvPicture = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const GAP = 100, NODE_H = 42, V_GAP = 12, TOP = 30, PAD = 8;
  const COLUMNS = ["Workloads", "Claims", "Volumes", "Storage"];
  // Approximate character widths (px) of node names (monospace) and storage text.
  const NAME_PX = 6.7, TEXT_PX = 5.9;

  const claimKey = (c) => `${c.namespace}/${c.name}`;

  /** Short edge labels for a claim's link to a volume; `cls` styles the edge. */
  function linkLabel(c) {
    const l = c.link;
    const checks = (l.checks || []).join(", ");
    switch (l.how) {
      case "bestMatch": return { text: l.tied && l.tied.length ? "smallest match (tie)" : "smallest match", cls: "ok" };
      case "claimRef": return { text: checks ? `claimRef; skips ${checks}` : "claimRef reserves it", cls: checks ? "warn" : "ok" };
      case "volumeName": return { text: "volumeName", cls: "ok" };
      case "namedEachOther": return { text: checks ? `named both ways; skips ${checks}` : "named both ways", cls: checks ? "warn" : "ok" };
      case "provisioned": return { text: "provisioned", cls: "ok" };
      case "alreadyBound": return { text: "bound (UIDs match)", cls: "ok" };
      case "rebound": return { text: "re-bound", cls: "warn" };
      case "misbound":
        return { text: l.holder === claimKey(c) ? "claimRef.uid differs" : "claimRef names another claim", cls: "bad" };
      case "volumeMissing": return { text: "volume not found", cls: c.phase === "Lost" ? "bad" : "warn" };
      case "mismatch": return { text: `fails ${checks}`, cls: "warn" };
      case "taken": return { text: "taken by another claim", cls: "warn" };
      default: return { text: l.how, cls: "warn" };
    }
  }

  /** The storage's fate: a short label for the edge, and the full text. */
  function fateLabel(v) {
    const by = v.storage.by;
    switch (v.storage.fate) {
      case "kept": return { text: "kept", full: "kept", cls: "ok" };
      case "provisioned": return { text: "provisioned", full: `provisioned by ${by}`, cls: "ok" };
      case "deleted": return { text: "deleted (Delete)", full: `deleted by ${by}`, cls: "bad" };
      case "leftToProvisioner": return { text: "driver deletes it", full: `${by} deletes it`, cls: "bad" };
      case "recycled": return { text: "wiped (Recycle)", full: "wiped by the recycler (rm -rf)", cls: "bad" };
      case "deleteFailed": return { text: "delete fails", full: `delete fails: ${v.storage.error || ""}`, cls: "warn" };
      case "recycleFailed": return { text: "recycle fails", full: `recycle fails: ${v.storage.error || ""}`, cls: "warn" };
      case "leaked": return { text: "leaked", full: "leaked: the PV object is gone and nothing deletes the storage", cls: "bad" };
      default: return { text: v.storage.fate, full: v.storage.fate, cls: "warn" };
    }
  }

  /** Nodes and edges of a state. Ids: w:KIND/NS/NAME, c:NS/NAME, v:NAME, s:NAME. */
  function graph({ claims, volumes }) {
    const nodes = new Map();
    const edges = [];
    const add = (n) => (nodes.has(n.id) ? nodes.get(n.id) : (nodes.set(n.id, n), n));
    const workloads = [];
    for (const c of claims) {
      for (const u of c.usedBy || []) {
        const id = `w:${u.object.kind}/${u.object.namespace || ""}/${u.object.name}`;
        if (!nodes.has(id)) workloads.push(add({ id, col: 0, type: "workload", kind: u.object.kind, name: u.object.name, namespace: u.object.namespace, at: u }));
        const ordinal = c.origin.kind === "statefulset" && c.origin.object && c.origin.object.name === u.object.name && c.origin.object.kind === u.object.kind;
        edges.push({ from: id, to: `c:${claimKey(c)}`, text: ordinal ? `ordinal ${c.origin.ordinal}` : "mounts", cls: "use", title: `${u.object.kind} ${u.object.name} ${ordinal ? "creates and mounts" : "mounts"} claim ${claimKey(c)}` });
      }
    }
    workloads.sort((a, b) => (a.at.file < b.at.file ? -1 : a.at.file > b.at.file ? 1 : a.at.line - b.at.line));
    for (const c of claims) add({ id: `c:${claimKey(c)}`, col: 1, type: "claim", name: c.name, namespace: c.namespace, phase: c.phase, data: c });
    for (const v of volumes) {
      add({ id: `v:${v.name}`, col: 2, type: "volume", name: v.name, phase: v.phase, gone: v.gone, terminating: !!v.terminating, data: v });
      const f = fateLabel(v);
      add({ id: `s:${v.name}`, col: 3, type: "storage", name: v.backing.replace(/^the /, ""), fate: v.storage.fate, data: v });
      edges.push({ from: `v:${v.name}`, to: `s:${v.name}`, text: f.text, cls: f.cls, title: `${f.full}: ${v.why}` });
    }
    for (const c of claims) {
      if (!c.link) continue;
      const to = `v:${c.link.volume}`;
      if (!nodes.has(to)) add({ id: to, col: 2, type: "volume", name: c.link.volume, ghost: true });
      const l = linkLabel(c);
      edges.push({ from: `c:${claimKey(c)}`, to, text: l.text, cls: l.cls, title: `${claimKey(c)}: ${c.why}` });
    }
    for (const v of volumes) {
      if (!v.claim || v.gone) continue;
      const c = claims.find((x) => claimKey(x) === v.claim);
      if (c && c.link && c.link.volume === v.name) continue; // the claim's edge says it
      const id = `c:${v.claim}`;
      if (!nodes.has(id)) {
        const [namespace, name] = v.claim.split("/");
        add({ id, col: 1, type: "claim", name, namespace, ghost: true });
      }
      edges.push({ from: `v:${v.name}`, to: id, text: v.phase === "Released" ? "claimRef (Released)" : "claimRef", cls: v.phase === "Bound" ? "ok" : "warn", title: `${v.name}: ${v.why}`, back: true });
    }
    return { nodes, edges, workloads };
  }

  /** Rows: workloads stack; each claim, volume and storage sits level with what points at it. */
  function layout(g) {
    const next = [TOP, TOP, TOP, TOP];
    const place = (n, want) => {
      if (n.y !== undefined) return;
      n.y = Math.max(next[n.col], want || 0);
      next[n.col] = n.y + NODE_H + V_GAP;
    };
    const out = new Map();
    for (const e of g.edges) (out.get(e.from) || out.set(e.from, []).get(e.from)).push(e.to);
    const placeChain = (id) => {
      for (const to of out.get(id) || []) {
        const n = g.nodes.get(to);
        if (!n || n.y !== undefined || n.col <= g.nodes.get(id).col) continue;
        place(n, g.nodes.get(id).y);
        placeChain(to);
      }
    };
    for (const w of g.workloads) {
      place(w);
      placeChain(w.id);
    }
    for (const col of [1, 2]) {
      for (const n of g.nodes.values()) {
        if (n.col !== col || n.y !== undefined || n.ghost) continue;
        place(n);
        placeChain(n.id);
      }
    }
    for (const n of g.nodes.values()) {
      if (n.y !== undefined) continue;
      const from = g.edges.find((e) => e.to === n.id && g.nodes.get(e.from).y !== undefined);
      const to = g.edges.find((e) => e.from === n.id && g.nodes.get(e.to).y !== undefined);
      const back = g.edges.find((e) => e.back && e.to === n.id);
      place(n, (from && g.nodes.get(from.from).y) || (back && g.nodes.get(back.from).y) || (to && g.nodes.get(to.to).y));
      placeChain(n.id);
    }
    return Math.max(...next, TOP + NODE_H) + PAD;
  }

  const el = (tag, attrs = {}, ...children) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
    for (const c of children) e.append(c);
    return e;
  };
  const title = (text) => el("title", {}, text);
  /** Words wrapped into at most `max` lines of `width` pixels at ~`px` per character. */
  const wrap = (text, width, px, max) => {
    const n = Math.max(3, Math.floor(width / px));
    const lines = [];
    let cur = "";
    for (const w of text.split(" ")) {
      if (cur && (cur + " " + w).length > n) {
        lines.push(cur);
        cur = w;
      } else cur = cur ? cur + " " + w : w;
    }
    lines.push(cur);
    const out = lines.slice(0, max).map((l) => (l.length > n ? l.slice(0, n - 1) + "…" : l));
    if (lines.length > max) out[max - 1] = out[max - 1].replace(/.?…?$/, "…");
    return out;
  };
  /** Text cut to fit `width` pixels at ~`px` per character. */
  const fit = (text, width, px) => {
    const n = Math.max(3, Math.floor(width / px));
    return text.length > n ? text.slice(0, n - 1) + "…" : text;
  };

  function caption(n) {
    if (n.type === "workload") return n.kind;
    if (n.type === "storage") return "storage · " + n.fate;
    const kind = n.type === "claim" ? "PVC" : "PV";
    if (n.ghost) return kind + " · not in the input";
    if (n.gone) return kind + " · deleted";
    return kind + " · " + n.phase + (n.terminating ? ", Terminating" : "");
  }

  function nodeTitle(n) {
    if (n.type === "workload") return `${n.kind} ${n.namespace ? n.namespace + "/" : ""}${n.name} (${n.at.file}:${n.at.line})`;
    if (n.ghost) return `${n.type === "claim" ? "claim" : "volume"} ${n.namespace ? n.namespace + "/" : ""}${n.name}: not in the input or the cluster`;
    if (n.type === "claim") return `claim ${claimKey(n.data)}: ${n.phase}, ${n.data.why}`;
    if (n.type === "volume") return `volume ${n.name}: ${n.gone ? "deleted" : n.phase}${n.terminating ? " (Terminating: a finalizer keeps the object)" : ""}, ${n.data.why}`;
    return `${n.name}: ${fateLabel(n.data).text}`;
  }

  /** The picture as an <svg>. `selected` is a node id; `onSelect(node)` is called on click. */
  function render(state, { selected, onSelect } = {}) {
    const g = graph(state);
    const height = layout(g);
    // Each column as wide as its longest name needs, within limits.
    const colW = [0, 1, 2, 3].map((i) => {
      const names = [...g.nodes.values()].filter((n) => n.col === i).map((n) => n.name.length * (i === 3 ? TEXT_PX : NAME_PX) + 24);
      return Math.round(Math.min(i === 3 ? 240 : 210, Math.max(112, ...names)));
    });
    const colX = (i) => PAD + colW.slice(0, i).reduce((a, b) => a + b + GAP, 0);
    const width = colX(COLUMNS.length - 1) + colW[3] + PAD;
    const svg = el("svg", { class: "binding", viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": "binding picture: workloads, claims, volumes and storage" });
    const defs = el("defs");
    for (const cls of ["ok", "warn", "bad", "use"]) {
      defs.append(el("marker", { id: `arrow-${cls}`, viewBox: "0 0 8 8", refX: 7, refY: 4, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, el("path", { d: "M0,0 L8,4 L0,8 z", class: `arrowhead ${cls}` })));
    }
    svg.append(defs);
    COLUMNS.forEach((name, i) => svg.append(el("text", { x: colX(i) + colW[i] / 2, y: 16, class: "column", "text-anchor": "middle" }, name)));
    if (!g.nodes.size) {
      svg.append(el("text", { x: width / 2, y: TOP + 24, class: "empty", "text-anchor": "middle" }, "No claims or volumes in the manifests."));
      return svg;
    }
    const edgeLayer = el("g", { class: "edges" });
    const labelLayer = el("g", { class: "labels" });
    for (const e of g.edges) {
      const a = g.nodes.get(e.from), b = g.nodes.get(e.to);
      if (!a || !b || a.y === undefined || b.y === undefined) continue;
      const [l, r] = a.col < b.col ? [a, b] : [b, a];
      const x1 = colX(l.col) + colW[l.col], y1 = l.y + NODE_H / 2, x2 = colX(r.col), y2 = r.y + NODE_H / 2;
      const mx = (x1 + x2) / 2;
      const path = el("path", {
        d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`,
        class: `edge ${e.cls}${e.back ? " back" : ""}`,
        "data-from": e.from, "data-to": e.to,
        [e.back ? "marker-start" : "marker-end"]: `url(#arrow-${e.cls})`,
      }, title(e.title));
      edgeLayer.append(path);
      const lines = wrap(e.text, GAP - 10, 5.2, 2);
      const w = Math.max(...lines.map((l) => l.length)) * 5.2 + 8;
      const h = lines.length * 11 + 4;
      const cy = (y1 + y2) / 2;
      const label = el("text", { x: mx, y: cy - h / 2 + 11, "text-anchor": "middle" });
      lines.forEach((l, i) => label.append(el("tspan", { x: mx, dy: i ? 11 : 0 }, l)));
      labelLayer.append(el("g", { class: `edge-label ${e.cls}`, "data-from": e.from, "data-to": e.to, "data-label": e.text },
        title(`${e.text} — ${e.title}`),
        el("rect", { x: mx - w / 2, y: cy - h / 2, width: w, height: h, rx: 4 }),
        label));
    }
    svg.append(edgeLayer, labelLayer);
    const nodeLayer = el("g", { class: "nodes" });
    for (const n of g.nodes.values()) {
      const x = colX(n.col);
      const state = n.ghost ? "ghost" : n.gone ? "gone" : n.type === "storage" ? `fate-${n.fate}` : n.type === "workload" ? "workload" : `phase-${n.phase}`;
      const node = el("g", {
        class: `node ${n.type} ${state}${n.terminating ? " terminating" : ""}${n.id === selected ? " selected" : ""}`,
        transform: `translate(${x},${n.y})`, tabindex: 0, "data-id": n.id, "data-name": n.name,
        "data-phase": n.ghost ? "missing" : n.gone ? "deleted" : n.phase || n.fate || "",
      }, title(nodeTitle(n)),
        el("rect", { width: colW[n.col], height: NODE_H, rx: 6, class: "box" }),
        el("rect", { width: 4, height: NODE_H - 8, x: 3, y: 4, rx: 2, class: "accent" }),
        el("text", { x: 12, y: 15, class: "caption" }, fit(caption(n), colW[n.col] - 16, 5.4)),
        el("text", { x: 12, y: 32, class: "name" }, fit(n.name, colW[n.col] - 18, n.type === "storage" ? TEXT_PX : NAME_PX)));
      if (onSelect) {
        node.addEventListener("click", () => onSelect(n));
        node.addEventListener("keydown", (ev) => (ev.key === "Enter" || ev.key === " ") && (ev.preventDefault(), onSelect(n)));
      }
      nodeLayer.append(node);
    }
    svg.append(nodeLayer);
    return svg;
  }

  return { render, graph, fateLabel, linkLabel };
})();
