// The binding picture: workloads → claims → volumes → storage, drawn as inline SVG from a
// simulation (or one step of a what-if timeline) and the findings. Laid out for the width it
// is given, at the page's own text sizes: names wrap, and what does not fit ends in "…" with
// the whole text in the node's <title>. When the columns do not fit even so (long names, several
// workloads' pods, a narrow window), every row breaks inside words and the gaps narrow; what
// still does not fit is scaled down to the width, never cut off. Nodes are coloured by phase; the
// hazards the findings describe are drawn too: the pod a rolling update surges onto a
// ReadWriteOnce claim waiting on Multi-Attach, destroyed storage, claims never created.
"use strict";

const PvPicture = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const PAD = 8, HEAD = 26, V_GAP = 14, INDENT = 18, MIN_WIDTH = 600;
  // Text styles: [weight, size px, line height px]; style.css gives the same sizes.
  const STYLE = { caption: [400, 12, 15], name: [600, 13.5, 17], detail: [400, 12, 15], status: [600, 12, 15], label: [400, 12, 14] };
  const COLUMNS = ["Workloads", "Claims", "Volumes", "Storage"];

  const claimKey = (c) => `${c.namespace}/${c.name}`;
  const workloadId = (o) => `w:${o.kind}/${o.namespace || ""}/${o.name}`;

  // ---- text measurement and wrapping ---------------------------------------------------------
  // What wrap() keeps together: lines break after spaces (not no-break spaces, U+00A0) and
  // after - . / _ : , inside words.
  const PIECES = /[^ \-./_:,]+[\-./_:,]*[ ]*|[\-./_:,]+[ ]*|[ ]+/g;
  let ctx = null;
  let family = "sans-serif";
  const widths = new Map();
  function measure(text, style) {
    const [weight, size] = STYLE[style];
    const key = `${style}\u0000${text}`;
    let w = widths.get(key);
    if (w === undefined) {
      if (!ctx) {
        ctx = document.createElement("canvas").getContext("2d");
        family = getComputedStyle(document.documentElement).fontFamily || family;
      }
      ctx.font = `${weight} ${size}px ${family}`;
      w = ctx.measureText(text).width;
      if (widths.size > 5000) widths.clear();
      widths.set(key, w);
    }
    return w;
  }

  /** `text` in lines of at most `width` px, at most `max` of them: breaks after spaces (names
   * also after - . / _ : inside words), a word too wide for a line after - . / _ :, and a
   * piece still too wide anywhere. `cut`: the last line ends in "…". */
  function wrap(text, style, width, max) {
    const WORDS = /[^ ]+[ ]*|[ ]+/g;
    const pieces = String(text).match(style === "name" ? PIECES : WORDS) || [""];
    const lines = [];
    let cur = "";
    const fits = (s) => measure(s.replace(/ +$/, ""), style) <= width;
    const add = (p) => {
      if (fits(cur + p)) {
        cur += p;
        return;
      }
      if (cur.trim()) lines.push(cur.trimEnd());
      cur = "";
      if (fits(p)) {
        cur = p.trimStart();
        return;
      }
      const parts = p.match(PIECES) || [p];
      if (parts.length > 1) {
        parts.forEach(add);
        return;
      }
      // A piece wider than a line is broken where it must.
      while (!fits(p)) {
        let n = p.length - 1;
        while (n > 1 && !fits(p.slice(0, n))) n--;
        lines.push(p.slice(0, n));
        p = p.slice(n);
      }
      cur = p.trimStart();
    };
    pieces.forEach(add);
    if (cur.trim() || !lines.length) lines.push(cur.trimEnd());
    if (lines.length <= max) return { lines, cut: false };
    const kept = lines.slice(0, max);
    let last = kept[max - 1];
    while (last && !fits(last + "…")) last = last.slice(0, -1);
    kept[max - 1] = last.trimEnd() + "…";
    return { lines: kept, cut: true };
  }

  /** The widest piece of `text` wrap() never breaks inside (unless it must). */
  const longest = (text, style) => Math.max(0, ...(String(text).match(PIECES) || []).map((p) => measure(p.trim(), style)));

  // ---- the graph ------------------------------------------------------------------------------
  /** The hazards of rules about one claim shared by several pods (family rwo-surge): which
   * workload, which claim, and what the waiting pod meets. */
  function exclusiveHazards(findings, claims) {
    const out = [];
    for (const f of findings || []) {
      if (f.family !== "rwo-surge" || !f.object) continue;
      const w = workloadId(f.object);
      const users = claims.filter((c) => (c.usedBy || []).some((u) => workloadId(u.object) === w));
      const named = users.filter((c) => f.message.endsWith(` claim ${c.name}`) || (f.related || []).some((r) => r.message === `mounts claim ${c.name}`));
      const claim = named.length === 1 ? named[0] : users.length === 1 ? users[0] : null;
      if (!claim) continue;
      const summary = (f.consequence && f.consequence.summary) || "";
      const attach = /Multi-Attach/.test(summary);
      const surge = f.rule === "rwo-rolling-surge";
      const kind = f.object.kind;
      out.push({
        finding: f, workload: w, claim: claimKey(claim), surge,
        holder: surge ? ["pod · running", "old pod"] : ["pod · running", kind === "CronJob" || kind === "Job" ? "one run's pod" : "one pod"],
        waiter: surge ? ["pod · new", "surge pod"] : ["pods · at the same time", kind === "CronJob" ? "the next run's pod" : kind === "DaemonSet" ? "pods on other nodes" : "the other pods"],
        // What the waiting pod meets: the attach error, or the scheduler's refusal (ReadWriteOncePod).
        meets: attach ? "Multi-Attach error" : "claim in use: Unschedulable",
        has: attach ? "volume attached" : "uses the claim",
        waits: attach ? (surge ? "waits on Multi-Attach" : "wait on Multi-Attach") : "cannot be scheduled",
        hangs: /rollout (hangs|never completes)/.test(summary),
        cls: f.severity === "error" ? "bad" : "warn",
      });
    }
    return out;
  }

  /** Nodes and edges of a state. Ids: w:KIND/NS/NAME, p:WORKLOAD-ID#holder|waiter, c:NS/NAME,
   * v:NAME, s:NAME. */
  function graph({ claims, volumes, notCreated }, findings) {
    const nodes = new Map();
    const edges = [];
    const add = (n) => (nodes.has(n.id) ? nodes.get(n.id) : (nodes.set(n.id, n), n));
    const fresh = PvWords.provisioned({ volumes });
    const hazards = exclusiveHazards(findings, claims);
    const workloads = [];
    for (const c of claims) {
      for (const u of c.usedBy || []) {
        const id = workloadId(u.object);
        if (!nodes.has(id)) workloads.push(add({ id, col: 0, type: "workload", kind: u.object.kind, name: u.object.name, namespace: u.object.namespace, at: u, pods: [] }));
        const h = hazards.find((x) => x.workload === id && x.claim === claimKey(c));
        const ordinal = c.origin.kind === "statefulset" && c.origin.object && c.origin.object.name === u.object.name && c.origin.object.kind === u.object.kind;
        if (!h) {
          edges.push({ from: id, to: `c:${claimKey(c)}`, text: "", cls: "use", title: `${u.object.kind} ${u.object.name} ${ordinal ? `creates claim ${claimKey(c)} for pod ${u.object.name}-${c.origin.ordinal} and mounts it` : `mounts claim ${claimKey(c)}`}` });
          continue;
        }
        // The hazard: the pod that has the volume, and the one that waits for it.
        const w = nodes.get(id);
        const why = PvWords.plain(h.finding.consequence ? h.finding.consequence.summary : h.finding.message);
        for (const [role, [caption, name]] of [["holder", h.holder], ["waiter", h.waiter]]) {
          const pid = `p:${id}#${role}`;
          if (nodes.has(pid)) continue;
          w.pods.push(add({ id: pid, col: 0, type: "pod", role, caption, name, workload: w, hazard: h, cls: role === "waiter" ? h.cls : "ok" }));
        }
        edges.push({ from: `p:${id}#holder`, to: `c:${claimKey(c)}`, text: h.has, cls: "use", title: `${h.holder[1]} of ${u.object.kind} ${u.object.name}: it has claim ${claimKey(c)}${h.has === "volume attached" ? "'s volume attached to its node" : ""}` });
        edges.push({ from: `p:${id}#waiter`, to: `c:${claimKey(c)}`, text: h.meets, cls: h.cls, hazard: true, title: `${h.finding.message}: ${why}` });
      }
    }
    workloads.sort((a, b) => (a.at.file < b.at.file ? -1 : a.at.file > b.at.file ? 1 : a.at.line - b.at.line));
    for (const c of claims) add({ id: `c:${claimKey(c)}`, col: 1, type: "claim", name: c.name, namespace: c.namespace, phase: c.phase, terminating: !!c.terminating, data: c });
    // StatefulSet claims never created (an earlier pod never becomes Ready).
    for (const nc of notCreated || []) {
      const [namespace, name] = nc.claim.split("/");
      const owner = claims.find((c) => c.namespace === namespace && c.origin.kind === "statefulset" && name.endsWith(`-${c.origin.object.name}-${name.split("-").pop()}`));
      add({ id: `c:${nc.claim}`, col: 1, type: "claim", name, namespace, ghost: true, never: nc.why });
      if (owner) {
        const w = workloadId(owner.origin.object);
        if (nodes.has(w)) edges.push({ from: w, to: `c:${nc.claim}`, text: "", cls: "warn", title: `never created: ${nc.why}` });
      }
    }
    for (const v of volumes) {
      add({ id: `v:${v.name}`, col: 2, type: "volume", name: v.name, fresh: fresh.has(v.name), phase: v.phase, gone: v.gone, terminating: !!v.terminating, data: v });
      const f = PvWords.fate(v);
      add({ id: `s:${v.name}`, col: 3, type: "storage", name: v.backing.replace(/^the /, ""), fate: v.storage.fate, words: f, data: v });
      edges.push({ from: `v:${v.name}`, to: `s:${v.name}`, text: f.edge || "", cls: f.cls, title: `${f.full}: ${PvWords.plain(v.why)}` });
    }
    for (const c of claims) {
      if (!c.link) continue;
      const to = `v:${c.link.volume}`;
      if (!nodes.has(to)) add({ id: to, col: 2, type: "volume", name: c.link.volume, ghost: true });
      const l = PvWords.link(c);
      edges.push({ from: `c:${claimKey(c)}`, to, text: l.text, cls: l.cls, title: `${claimKey(c)}: ${PvWords.plain(c.why)}` });
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
      edges.push({ from: `v:${v.name}`, to: id, text: v.phase === "Released" ? "claimRef (Released)" : "claimRef", cls: v.phase === "Bound" ? "ok" : "warn", title: `${v.name}: ${PvWords.plain(v.why)}`, back: true });
    }
    // Findings on the objects drawn.
    const byObject = new Map();
    for (const f of findings || []) {
      const o = f.object;
      if (!o) continue;
      const id = o.kind === "PersistentVolumeClaim" ? `c:${o.namespace}/${o.name}` : o.kind === "PersistentVolume" ? `v:${o.name}` : workloadId(o);
      (byObject.get(id) || byObject.set(id, []).get(id)).push(f);
    }
    for (const [id, fs] of byObject) if (nodes.has(id)) nodes.get(id).findings = fs;
    // One namespace for everything: the nodes need not repeat it.
    const spaces = new Set([...nodes.values()].filter((n) => n.type === "claim" || n.type === "workload").map((n) => n.namespace || ""));
    return { nodes, edges, workloads, fresh, namespace: spaces.size === 1 ? [...spaces][0] : null };
  }

  // ---- what a node says ------------------------------------------------------------------------
  const ns = (n) => (n.namespace ? n.namespace + "/" : "");
  const classText = (c) => (c.class === null ? "no class" : c.class === "" ? 'class ""' : c.class === "<the cluster's default>" ? "default class (name not known)" : `class ${c.class}`);

  /** The node's text rows: [style, text, tone, max lines], and its hover text. */
  function content(n, g) {
    // "namespace/name" of a claim, the name alone when the picture has one namespace.
    const short = (key) => (g.namespace !== null && key.startsWith(g.namespace + "/") ? key.slice(g.namespace.length + 1) : key);
    const inNs = (n) => (g.namespace === null || g.namespace !== "default" ? `in ${n.namespace}` : null);
    const rows = [];
    const status = (text, tone) => rows.push(["status", text, tone, 3]);
    let title;
    if (n.type === "workload") {
      rows.push(["caption", n.kind], ["name", n.name, null, 3]);
      if (n.namespace && inNs(n)) rows.push(["detail", inNs(n), null, 1]);
      title = `${n.kind} ${ns(n)}${n.name} (${n.at.file}:${n.at.line})`;
    } else if (n.type === "pod") {
      const h = n.hazard;
      rows.push(["caption", n.caption], ["name", n.name, null, 2]);
      if (n.role === "holder") {
        status(h.has === "volume attached" ? "has the volume" : "has the claim", "ok");
        title = `${n.name} of ${n.workload.kind} ${n.workload.name}: it has claim ${h.claim}${h.has === "volume attached" ? "'s volume attached to its node" : ""}`;
      } else {
        status(h.waits + (h.hangs ? ": the rollout hangs" : ""), h.cls);
        title = `${h.finding.message}. ${PvWords.plain(h.finding.consequence ? h.finding.consequence.summary : "")}`;
      }
    } else if (n.type === "claim") {
      if (n.ghost) {
        rows.push(["caption", "claim"], ["name", n.name, null, 3]);
        if (inNs(n)) rows.push(["detail", inNs(n), null, 1]);
        status(n.never ? "never created" : "not in the input", n.never ? "warn" : "muted");
        title = n.never ? `claim ${ns(n)}${n.name} is never created: ${n.never}` : `claim ${ns(n)}${n.name}: not in the input or the cluster`;
      } else {
        const c = n.data;
        rows.push(["caption", `claim · ${n.phase}${n.terminating ? ", Terminating" : ""}`], ["name", n.name, null, 3]);
        const facts = [inNs(n), c.request, c.accessModes && c.accessModes.join(","), classText(c)].filter(Boolean);
        // Short facts stay on one line.
        rows.push(["detail", facts.map((x) => (x.split(" ").length <= 2 ? x.replace(/ /g, "\u00a0") : x)).join(" · "), null, 3]);
        if (c.origin.kind === "statefulset" && c.origin.object) rows.push(["detail", `for pod ${c.origin.object.name}-${c.origin.ordinal}`, null, 1]);
        if (n.phase !== "Bound") status(PvWords.phase("claim", n.phase), n.phase === "Pending" ? "warn" : "bad");
        title = `claim ${claimKey(c)}: ${n.phase}, ${PvWords.phase("claim", n.phase)}. ${PvWords.plain(c.why)}`;
      }
    } else if (n.type === "volume") {
      if (n.ghost) {
        rows.push(["caption", "volume"], ["name", n.name, null, 3]);
        status("not in the input", "muted");
        title = `volume ${n.name}: not in the input or the cluster`;
      } else {
        const v = n.data;
        rows.push(["caption", `volume · ${n.gone ? "deleted" : n.phase}${n.terminating ? ", Terminating" : ""}`]);
        if (n.fresh) rows.push(["name", "new volume", null, 1], ["detail", v.claim ? `provisioned for ${short(v.claim)}` : "provisioned", null, 3]);
        else rows.push(["name", n.name, null, 3]);
        if (n.gone) status("the PersistentVolume is deleted", "muted");
        else if (n.terminating) status("deleted; a finalizer keeps it", "warn");
        else if (n.phase !== "Bound") status(PvWords.phase("volume", n.phase, v), n.phase === "Available" ? "info" : n.phase === "Failed" ? "bad" : "warn");
        title = `volume ${n.name}${n.fresh ? " (its name is made up: the provisioner chooses it)" : ""}: ${n.gone ? "deleted" : n.phase}${n.terminating ? " (Terminating: a finalizer keeps the object)" : ""}. ${PvWords.plain(v.why)}`;
      }
    } else {
      const f = n.words;
      const fresh = n.data.storage.fate === "provisioned";
      const claim = n.data.claim;
      rows.push(["caption", "storage"], ["name", fresh ? `new storage${claim ? ` for ${short(claim)}` : ""}` : n.name, null, 4]);
      if (fresh) rows.push(["detail", f.full, null, 3]);
      else status((f.gone && !f.orphan ? "✕ " : "") + f.short + (f.orphan ? ": nothing deletes it" : ""), f.cls);
      title = `${PvWords.plain(n.data.backing)}: ${f.full}`;
    }
    const fs = n.findings || [];
    if (fs.length) title += `\n\nFindings:\n${fs.map((f) => `${f.severity}: ${f.message}`).join("\n")}`;
    return { rows, title };
  }

  /** Lays a node's rows out in `width` px: lines per row, the height. */
  function measureNode(n, width) {
    const { rows, title } = n.content;
    const inner = width - 20;
    const badge = n.findings && n.findings.length ? 26 : 0;
    let h = 7;
    let cut = false;
    const laid = rows.map(([style, text, tone, max], i) => {
      const w = wrap(text, style, inner - (i === 0 ? badge : 0), max || 1);
      cut = cut || w.cut;
      h += w.lines.length * STYLE[style][2];
      return { style, tone, lines: w.lines, full: text };
    });
    n.rows = laid;
    // The hover text: every row whole (so nothing cut is lost), then the explanation.
    n.title = `${laid.map((r) => r.full.replace(/\u00a0/g, " ")).join("\n")}\n\n${title}`;
    n.cut = cut;
    n.h = Math.max(40, h + 8);
  }

  // ---- layout ------------------------------------------------------------------------------------
  function layout(g, width) {
    const present = [0, 1, 2, 3].filter((i) => [...g.nodes.values()].some((n) => n.col === i));
    let W = Math.max(MIN_WIDTH, Math.floor(width || 0) || 900);
    for (const n of g.nodes.values()) n.content = content(n, g);
    // The columns and the gaps between them for W. `tight`, when they do not fit otherwise:
    // every row may break inside words (after - . / _ :) as names do, and each gap is only as
    // wide as its labels' longest word asks (they wrap onto more lines).
    const sizes = (tight) => {
      // Each gap as wide as its widest edge label asks (on one line up to 110 px, else on two
      // lines), enough for a curve and an arrow when it has none.
      const gapAfter = [0, 0, 0, 0];
      for (const e of g.edges) {
        const a = g.nodes.get(e.from), b = g.nodes.get(e.to);
        if (!e.text || !a || !b) continue;
        const one = measure(e.text, "label");
        const word = Math.max(...e.text.split(/ /).map((w) => measure(w, "label")));
        const two = Math.max(one / 2 + 12, word);
        gapAfter[Math.min(a.col, b.col)] = Math.max(gapAfter[Math.min(a.col, b.col)], (tight ? word + 8 : one <= 110 ? one : two) + 30);
      }
      const gaps = present.slice(0, -1).map((i) => Math.round(Math.min(140, Math.max(48, gapAfter[i]))));
      const avail = W - 2 * PAD - gaps.reduce((a, b) => a + b, 0);
      // Each column at least as wide as its captions and its longest unbreakable words need,
      // and at most as wide as its names and statuses ask (within 300 px): the room between is
      // shared out in proportion to what each asks for more.
      const least = present.map(() => 112), ask = present.map(() => 120);
      for (const n of g.nodes.values()) {
        const k = present.indexOf(n.col);
        const pad = 20 + (n.type === "pod" ? INDENT : 0);
        n.content.rows.forEach(([style, text, , max], i) => {
          const badge = i === 0 && n.findings && n.findings.length ? 26 : 0;
          const whole = measure(text, style);
          // Names may break inside words (after - . / _ :), the other rows only between words.
          const unbroken = style === "caption" ? whole : style === "name" || tight ? longest(text, style) : Math.max(...text.split(" ").map((w) => measure(w, style)));
          least[k] = Math.max(least[k], pad + badge + 4 + Math.min(whole, unbroken));
          ask[k] = Math.max(ask[k], pad + badge + Math.min(280, max > 1 && style !== "name" ? whole / Math.min(max, 2) : whole));
        });
      }
      const widthOf = least.map((l, k) => Math.max(l, Math.min(300, ask[k])));
      const spare = avail - least.reduce((a, b) => a + b, 0);
      const more = widthOf.reduce((a, b) => a + b, 0) - least.reduce((a, b) => a + b, 0);
      present.forEach((_, k) => {
        if (spare <= 0) widthOf[k] = least[k];
        else if (more > spare) widthOf[k] = Math.floor(least[k] + ((widthOf[k] - least[k]) * spare) / more);
        else widthOf[k] = Math.floor(widthOf[k] + (spare - more) / present.length);
      });
      return { gaps, widthOf, over: widthOf.reduce((a, b) => a + b, 0) - avail };
    };
    let fit = sizes(false);
    if (fit.over > 0) {
      const tight = sizes(true);
      if (tight.over < fit.over) fit = tight;
    }
    const { gaps, widthOf } = fit;
    // What still does not fit is drawn at its natural size and scaled down to the panel's
    // width (render): never cut off, never a scrollbar; every text is whole on hover.
    if (fit.over > 0) W += fit.over;
    const colW = [0, 0, 0, 0], colX = [0, 0, 0, 0];
    let x = PAD;
    present.forEach((i, k) => {
      colW[i] = widthOf[k];
      colX[i] = x;
      x += colW[i] + (gaps[k] || 0);
    });
    for (const n of g.nodes.values()) {
      n.x = colX[n.col] + (n.type === "pod" ? INDENT : 0);
      n.w = colW[n.col] - (n.type === "pod" ? INDENT : 0);
      measureNode(n, n.w);
    }
    // Rows: workloads (each followed by its pods) stack; each claim, volume and storage sits
    // level with the first thing that points at it.
    const next = [HEAD, HEAD, HEAD, HEAD];
    const place = (n, centre) => {
      if (n.y !== undefined) return;
      n.y = Math.max(next[n.col], centre === undefined ? 0 : Math.round(centre - n.h / 2));
      next[n.col] = n.y + n.h + (n.type === "workload" && n.pods && n.pods.length ? 6 : V_GAP);
    };
    const out = new Map();
    for (const e of g.edges) (out.get(e.from) || out.set(e.from, []).get(e.from)).push(e.to);
    const centre = (n) => n.y + n.h / 2;
    const placeChain = (id) => {
      for (const to of out.get(id) || []) {
        const n = g.nodes.get(to);
        const from = g.nodes.get(id);
        if (!n || n.y !== undefined || n.col <= from.col) continue;
        place(n, centre(from));
        placeChain(to);
      }
    };
    for (const w of g.workloads) {
      place(w);
      w.pods.forEach((p, i) => {
        place(p);
        if (i === w.pods.length - 1) next[0] += V_GAP - 6;
      });
      placeChain(w.id);
      for (const p of w.pods) placeChain(p.id);
    }
    for (const col of [1, 2]) {
      for (const n of g.nodes.values()) {
        if (n.col !== col || n.y !== undefined || (n.ghost && !n.never)) continue;
        place(n);
        placeChain(n.id);
      }
    }
    for (const n of g.nodes.values()) {
      if (n.y !== undefined) continue;
      const from = g.edges.find((e) => e.to === n.id && g.nodes.get(e.from).y !== undefined);
      const to = g.edges.find((e) => e.from === n.id && g.nodes.get(e.to).y !== undefined);
      const back = g.edges.find((e) => e.back && e.to === n.id);
      const anchor = (from && g.nodes.get(from.from)) || (back && g.nodes.get(back.from)) || (to && g.nodes.get(to.to));
      place(n, anchor ? centre(anchor) : undefined);
      placeChain(n.id);
    }
    const height = Math.max(...[...g.nodes.values()].map((n) => n.y + n.h), HEAD + 40) + PAD;
    // Scaled to the panel when it needs more (at the page's text sizes otherwise).
    const scale = width && W > Math.floor(width) ? Math.floor(width) / W : 1;
    return { width: W, height, colW, colX, present, scale };
  }

  /** Edge labels: at the end where the edge is the only one (so a fan-out's labels do not sit
   * on one another), in the middle otherwise; then pushed apart within each gap. */
  function placeLabels(g, L) {
    const labels = [];
    const count = new Map();
    const bump = (k) => count.set(k, (count.get(k) || 0) + 1);
    for (const e of g.edges) {
      const a = g.nodes.get(e.from), b = g.nodes.get(e.to);
      if (!a || !b || a.y === undefined || b.y === undefined) continue;
      const [l, r] = a.col < b.col ? [a, b] : [b, a];
      e.l = l;
      e.r = r;
      bump(`L${l.id}`);
      bump(`R${r.id}`);
    }
    for (const e of g.edges) {
      if (!e.l) continue;
      const { l, r } = e;
      const x1 = l.x + l.w, x2 = r.x, y1 = l.y + l.h / 2, y2 = r.y + r.h / 2;
      e.geom = { x1, x2, y1, y2 };
      if (!e.text) continue;
      const fanOut = count.get(`L${l.id}`) > 1, fanIn = count.get(`R${r.id}`) > 1;
      const at = Math.abs(y1 - y2) < 2 ? "mid" : fanIn && !fanOut ? "left" : fanOut && !fanIn ? "right" : "mid";
      const room = x2 - x1 - 16; // the arrowhead stays clear
      const { lines } = wrap(e.text, "label", room - 8, 3);
      const w = Math.min(room, Math.ceil(Math.max(...lines.map((s) => measure(s, "label")))) + 8);
      const h = lines.length * STYLE.label[2] + 6;
      const cx = at === "left" ? x1 + 4 + w / 2 : at === "right" ? x2 - 12 - w / 2 : (x1 + x2) / 2 - 3;
      const cy = at === "left" ? y1 : at === "right" ? y2 : (y1 + y2) / 2;
      labels.push((e.label = { e, lines, w, h, cx, y: cy - h / 2, gap: l.col }));
    }
    for (const col of [0, 1, 2]) {
      const here = labels.filter((x) => x.gap === col).sort((a, b) => a.y - b.y);
      for (let i = 1; i < here.length; i++) {
        const prev = here[i - 1], cur = here[i];
        const overlapX = Math.abs(prev.cx - cur.cx) < (prev.w + cur.w) / 2;
        if (overlapX && cur.y < prev.y + prev.h + 2) cur.y = prev.y + prev.h + 2;
      }
    }
    return labels;
  }

  // ---- drawing ------------------------------------------------------------------------------------
  const el = (tag, attrs = {}, ...children) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  };
  const title = (text) => el("title", {}, text);

  function nodeState(n) {
    if (n.type === "pod") return `pod-${n.role} ${n.cls}`;
    if (n.ghost) return n.never ? "ghost never" : "ghost";
    if (n.gone) return "gone";
    if (n.type === "storage") return `fate-${n.fate}${n.words.gone ? (n.words.orphan ? " orphaned" : " destroyed") : ""}`;
    if (n.type === "workload") return n.pods.length ? "workload has-pods" : "workload";
    return `phase-${n.phase}`;
  }

  function drawNode(n, selected, onSelect) {
    const fs = n.findings || [];
    const worst = fs.some((f) => f.severity === "error") ? "error" : fs.some((f) => f.severity === "warning") ? "warning" : fs.length ? "info" : null;
    const g = el("g", {
      class: `node ${n.type} ${nodeState(n)}${n.terminating ? " terminating" : ""}${n.id === selected ? " selected" : ""}`,
      transform: `translate(${n.x},${n.y})`, tabindex: 0, "data-id": n.id, "data-name": n.name,
      "data-phase": n.type === "pod" ? (n.role === "waiter" ? "waiting" : "running") : n.ghost ? (n.never ? "never created" : "missing") : n.gone ? "deleted" : n.phase || n.fate || "",
      "data-findings": fs.length || null,
    }, title(n.title),
    el("rect", { width: n.w, height: n.h, rx: 6, class: "box" }),
    el("rect", { width: 4, height: n.h - 8, x: 3, y: 4, rx: 2, class: "accent" }));
    let y = 7;
    for (const r of n.rows) {
      const lh = STYLE[r.style][2];
      const t = el("text", { x: 12, y: y + lh - 4, class: `${r.style}${r.tone ? " " + r.tone : ""}` });
      r.lines.forEach((line, i) => t.append(el("tspan", { x: 12, dy: i ? lh : null }, line)));
      g.append(t);
      y += lh * r.lines.length;
    }
    if (worst) {
      const label = String(fs.length);
      g.append(el("g", { class: `badge ${worst}`, transform: `translate(${n.w - 24},5)` },
        title(`${fs.length} finding${fs.length === 1 ? "" : "s"}: ${fs.map((f) => `${f.severity}: ${f.message}`).join("; ")}`),
        el("rect", { width: 20, height: 17, rx: 8.5 }),
        el("text", { x: 10, y: 13, "text-anchor": "middle" }, label)));
    }
    if (onSelect) {
      g.addEventListener("click", () => onSelect(n));
      g.addEventListener("keydown", (ev) => (ev.key === "Enter" || ev.key === " ") && (ev.preventDefault(), onSelect(n)));
    }
    return g;
  }

  /** The picture as an <svg> at most `width` px wide (scaled down when it needs more). `selected` is a node id;
   * `onSelect(node)` is called on click; `findings` (a lint report's) adds their hazards. */
  function render(state, { selected, onSelect, width, findings } = {}) {
    const g = graph(state, findings);
    const L = layout(g, width);
    const svg = el("svg", { class: "binding", viewBox: `0 0 ${L.width} ${L.height}`, width: L.width * L.scale, height: L.height * L.scale, "data-scale": L.scale < 1 ? L.scale.toFixed(3) : null, role: "img", "aria-label": "binding picture: workloads, claims, volumes and storage" });
    const defs = el("defs");
    for (const cls of ["ok", "warn", "bad", "use"]) {
      defs.append(el("marker", { id: `arrow-${cls}`, viewBox: "0 0 8 8", refX: 7, refY: 4, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, el("path", { d: "M0,0 L8,4 L0,8 z", class: `arrowhead ${cls}` })));
    }
    svg.append(defs);
    for (const i of L.present) svg.append(el("text", { x: L.colX[i] + L.colW[i] / 2, y: 16, class: "column", "text-anchor": "middle" }, COLUMNS[i]));
    if (!g.nodes.size) {
      svg.append(el("text", { x: L.width / 2, y: HEAD + 24, class: "empty", "text-anchor": "middle" }, "No claims or volumes in the manifests."));
      return svg;
    }
    const labels = placeLabels(g, L);
    const tree = el("g", { class: "tree" });
    for (const w of g.workloads) {
      for (const p of w.pods) {
        const x = w.x + 8;
        tree.append(el("path", { d: `M${x},${w.y + w.h} V${p.y + p.h / 2} H${p.x}`, class: "pod-link" }));
      }
    }
    const edgeLayer = el("g", { class: "edges" });
    for (const e of g.edges) {
      if (!e.geom) continue;
      const { x1, x2, y1, y2 } = e.geom;
      const mx = (x1 + x2) / 2;
      edgeLayer.append(el("path", {
        d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`,
        class: `edge ${e.cls}${e.back ? " back" : ""}${e.hazard ? " hazard" : ""}`,
        "data-from": e.from, "data-to": e.to,
        [e.back ? "marker-start" : "marker-end"]: `url(#arrow-${e.cls})`,
      }, title(e.title)));
    }
    const labelLayer = el("g", { class: "labels" });
    for (const lb of labels) {
      const { e } = lb;
      const text = el("text", { x: lb.cx, y: lb.y + 3 + STYLE.label[2] - 3, "text-anchor": "middle" });
      lb.lines.forEach((line, i) => text.append(el("tspan", { x: lb.cx, dy: i ? STYLE.label[2] : null }, line)));
      labelLayer.append(el("g", { class: `edge-label ${e.cls}${e.hazard ? " hazard" : ""}`, "data-from": e.from, "data-to": e.to, "data-label": e.text },
        title(`${e.text} — ${e.title}`),
        el("rect", { x: lb.cx - lb.w / 2, y: lb.y, width: lb.w, height: lb.h, rx: 4 }),
        text));
    }
    const nodeLayer = el("g", { class: "nodes" });
    for (const n of g.nodes.values()) if (n.y !== undefined) nodeLayer.append(drawNode(n, selected, onSelect));
    svg.append(tree, edgeLayer, labelLayer, nodeLayer);
    return svg;
  }

  return { render, graph, wrap };
})();
