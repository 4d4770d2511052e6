// pvlint playground: lints as you type with the wasm module, in this page only. Findings with
// squiggles at their spans and the rule's docs in a side panel; the simulation as a binding
// picture; what-if operations on the selected claim or volume as a timeline of phases.
(async function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const input = $("input"), list = $("findings"), summary = $("summary"), details = $("details");
  const t0 = performance.now();
  const bytes = PvUnpack.lzma(PvUnpack.base64(PVLINT_WASM.lzma), PVLINT_WASM.size, PVLINT_WASM.lc, PVLINT_WASM.lp, PVLINT_WASM.pb);
  const unpacked = performance.now() - t0;
  await wasm_bindgen({ module_or_path: bytes });
  const pv = wasm_bindgen;
  $("version").textContent = "v" + pv.version();
  window.pvlint = pv; // for the console (and tests)
  // The Kubernetes version pvlint assumes when told none: chosen, it is not sent, so that the
  // profile says "default" as the CLI does without --kube-version.
  const KUBE_DEFAULT = pv.lint([]).profile.kubeVersion.value;
  for (const o of $("kube").options) if (o.value === KUBE_DEFAULT) (o.value = KUBE_DEFAULT), (o.textContent = `${KUBE_DEFAULT} (default)`);

  const LINE = 20, PAD_TOP = 8; // must match #input's line-height and padding-top in style.css
  const FILE = "manifest.yaml";
  const RANK = { info: 1, warning: 2, error: 3 };

  const state = {
    report: null,
    lintError: null,
    sim: null,
    simError: null,
    simDirty: true,
    ops: [],
    step: null, // index into sim.steps; null = the last
    selected: null, // {finding: key} | {node: id}
    lastCost: 0,
    lines: 1,
  };

  // ---- small DOM helpers ----------------------------------------------------------------
  const el = (tag, attrs = {}, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role" || k === "tabindex") e.setAttribute(k, v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e[k] = v;
    }
    for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  };
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const sources = () => [{ name: FILE, text: input.value }];
  /** The cluster profile the controls say (LintInput's `profile`, `.pvlint.yaml`'s `cluster:`):
   * what is left at its default is not sent, so the report says it is the default profile's. */
  function profile() {
    const p = {};
    if ($("nodes").value) p.nodes = $("nodes").value;
    const d = $("default-class").value, name = $("default-class-name").value.trim();
    if (d === "none") p.defaultClass = "";
    else if (d === "named" && name) p.defaultClass = name;
    if ($("kube").value !== KUBE_DEFAULT) p.kubeVersion = $("kube").value;
    if ($("complete").checked) p.complete = true;
    return p;
  }
  const visible = (f) => $("sev-" + f.severity).checked;
  const findingKey = (f) => `${f.rule}|${f.location.line}|${f.location.column}|${f.message}`;
  const errorText = (e) => (e && e.message) || String(e);

  // ---- state <-> URL fragment -------------------------------------------------------------
  const b64url = {
    encode(s) {
      const bin = Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join("");
      return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    },
    decode(s) {
      const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
      return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    },
  };
  function stateFromHash() {
    const m = location.hash.match(/^#v1=([A-Za-z0-9_-]*)$/);
    if (!m) return null;
    try {
      const s = JSON.parse(b64url.decode(m[1]));
      return typeof s.t === "string" ? s : null;
    } catch (_) {
      return null;
    }
  }
  function shareUrl() {
    const s = { t: input.value, k: $("kube").value };
    if (state.ops.length) s.o = state.ops;
    const p = profile();
    if (p.complete) s.c = 1;
    if (p.defaultClass !== undefined) s.d = p.defaultClass;
    if (p.nodes) s.n = p.nodes;
    return location.href.replace(/#.*$/, "") + "#v1=" + b64url.encode(JSON.stringify(s));
  }

  // ---- editor: line numbers, gutter marks, squiggles ---------------------------------------
  // Line numbers are drawn for the lines in view only (and a margin), so that typing a newline
  // in a long manifest does not lay out thousands of numbers.
  // The scroll position and the editor's height, kept from scroll and resize events so that
  // redrawing never forces a layout.
  const scroll = { x: 0, y: 0 };
  const viewport = { h: 800 };
  new ResizeObserver((entries) => {
    viewport.h = entries[0].contentRect.height;
    renderLineNumbers();
  }).observe(input);
  let numbered = "";
  /** The lines drawn: those in view and 40 on either side. */
  function lineWindow() {
    const first = Math.max(1, Math.floor((scroll.y - PAD_TOP) / LINE) + 1 - 40);
    return { first, last: Math.min(state.lines, first + Math.ceil(viewport.h / LINE) + 80) };
  }
  function renderLineNumbers() {
    const text = input.value;
    let n = 1;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
    state.lines = n;
    const { first, last } = lineWindow();
    const key = `${first}-${last}`;
    if (key === numbered) return;
    numbered = key;
    let s = String(first);
    for (let i = first + 1; i <= last; i++) s += "\n" + i;
    const pre = $("line-numbers");
    pre.textContent = s;
    pre.style.top = `${PAD_TOP + (first - 1) * LINE}px`;
  }

  function syncScroll() {
    const y = scroll.y, x = scroll.x;
    $("gutter-inner").style.transform = `translateY(${-y}px)`;
    $("squiggles").firstElementChild && ($("squiggles").firstElementChild.style.transform = `translate(${-x}px, ${-y}px)`);
  }
  function onScroll() {
    scroll.x = input.scrollLeft;
    scroll.y = input.scrollTop;
    syncScroll();
    const before = numbered;
    renderLineNumbers();
    if (numbered !== before) renderSquiggles();
  }

  function shownFindings() {
    return state.report ? state.report.findings.filter(visible) : [];
  }

  // What was drawn last, so that a keystroke that changes nothing visible redraws nothing.
  const drawn = { marks: null, squiggles: null, findings: null };

  function renderMarks() {
    const worst = new Map();
    for (const f of shownFindings()) {
      const cur = worst.get(f.location.line);
      if (!cur || RANK[f.severity] > RANK[cur.severity]) worst.set(f.location.line, { severity: f.severity, rules: cur ? cur.rules : [] });
      worst.get(f.location.line).rules.push(f.rule);
    }
    const sig = [...worst].map(([l, w]) => `${l}:${w.severity}:${w.rules}`).join("|");
    if (sig === drawn.marks) return;
    drawn.marks = sig;
    const marks = [];
    for (const [line, w] of worst) {
      const m = el("div", { class: `mark ${w.severity}`, "data-line": String(line), title: w.rules.join(", ") });
      m.style.top = `${PAD_TOP + (line - 1) * LINE}px`;
      marks.push(m);
    }
    $("gutter-marks").replaceChildren(...marks);
  }

  function renderSquiggles() {
    const text = input.value;
    const starts = PvText.lineStarts(text);
    const lineText = (l) => text.slice(starts[l - 1], l < starts.length ? starts[l] - 1 : text.length);
    const selected = state.selected && state.selected.finding;
    // Least severe first, so errors are drawn on top.
    const items = shownFindings().slice().sort((a, b) => RANK[a.severity] - RANK[b.severity]);
    const marks = [];
    const view = lineWindow();
    for (const f of items) {
      const loc = f.location;
      if (loc.endLine < view.first || loc.line > view.last) continue;
      const last = Math.min(loc.endLine, loc.line + 50, starts.length, view.last);
      const cls = `sq ${f.severity}${selected === findingKey(f) ? " current" : ""}`;
      for (let l = loc.line; l <= last; l++) {
        if (l !== loc.line && l === loc.endLine && loc.endColumn === 1) break; // ends at the line's start
        const t = lineText(l);
        const from = l === loc.line ? PvText.columnOffset(t, loc.column) : t.length - t.trimStart().length;
        let to = l === loc.endLine ? PvText.columnOffset(t, loc.endColumn) : t.length;
        if (to <= from) to = from + 1;
        const seg = t.slice(from, to);
        marks.push({ l, prefix: t.slice(0, from), seg: seg + " ".repeat(Math.max(0, to - from - seg.length)), cls, rule: f.rule });
      }
    }
    const sig = marks.map((m) => `${m.l}\u0000${m.prefix}\u0000${m.seg}\u0000${m.cls}\u0000${m.rule}`).join("\u0001");
    if (sig === drawn.squiggles) return;
    drawn.squiggles = sig;
    const layer = el("div", { class: "sq-inner" });
    for (const m of marks) {
      const line = el("div", { class: "sq-line" }, m.prefix, el("span", { class: m.cls, "data-rule": m.rule, "data-line": String(m.l) }, m.seg));
      line.style.top = `${PAD_TOP + (m.l - 1) * LINE}px`;
      layer.append(line);
    }
    $("squiggles").replaceChildren(layer);
    syncScroll();
  }

  /** Selects a finding's span in the editor and scrolls to it. */
  function goTo(loc) {
    const text = input.value;
    const starts = PvText.lineStarts(text);
    const from = PvText.offsetOf(text, starts, loc.line, loc.column);
    const to = PvText.offsetOf(text, starts, loc.endLine || loc.line, loc.endColumn || loc.column + 1);
    input.focus({ preventScroll: true });
    input.setSelectionRange(from, Math.max(from, to));
    const top = PAD_TOP + (loc.line - 1) * LINE;
    if (top < input.scrollTop || top > input.scrollTop + input.clientHeight - 2 * LINE) input.scrollTop = Math.max(0, top - 4 * LINE);
    onScroll();
  }

  // Tooltips on the text: the findings of the line under the pointer.
  input.addEventListener("mousemove", (ev) => {
    const r = input.getBoundingClientRect();
    const line = Math.floor((ev.clientY - r.top + input.scrollTop - PAD_TOP) / LINE) + 1;
    const here = shownFindings().filter((f) => line >= f.location.line && line <= f.location.endLine);
    const tip = here.map((f) => `${f.severity}[${f.rule}]: ${f.message}`).join("\n");
    if (input.title !== tip) input.title = tip;
  });

  // ---- findings ------------------------------------------------------------------------------
  function sortedFindings() {
    const all = state.report ? state.report.findings : [];
    const order = new Map(all.map((f, i) => [f, i]));
    return all.filter(visible).sort((a, b) => RANK[b.severity] - RANK[a.severity] || order.get(a) - order.get(b));
  }

  /** A link to a location (or to a function giving one, for list items patched in place). */
  function locLink(loc, label) {
    const at = () => (typeof loc === "function" ? loc() : loc);
    return el("a", {
      class: "loc", href: "#", title: "show in the editor",
      onclick: (ev) => {
        ev.preventDefault();
        ev.stopPropagation();
        goTo(at());
      },
    }, label || `L${at().line}:${at().column}`);
  }

  /** "from templates/pvc.yaml (helm)": where a rendered document came from. */
  const fromTemplate = (loc) => (loc && loc.origin ? el("span", { class: "template", title: `the document was rendered by ${loc.origin.tool} from ${loc.origin.file}` }, `from ${loc.origin.file} (${loc.origin.tool})`) : null);

  /** The profile the findings are judged for, once above them. */
  function renderProfile() {
    const line = state.report ? PvWords.profile(state.report.profile) : "";
    if ($("profile").dataset.line === line) return;
    $("profile").dataset.line = line;
    $("profile").replaceChildren(...(line ? [el("strong", {}, "Cluster: "), line] : []));
  }

  function renderFindings() {
    renderProfile();
    if (state.lintError) {
      drawn.findings = null;
      list.replaceChildren(el("li", { class: "parse-failed" }, "pvlint could not run: " + state.lintError));
      summary.textContent = "";
      return;
    }
    const r = state.report;
    const s = r.summary;
    summary.textContent = `${plural(s.errors, "error")}, ${plural(s.warnings, "warning")}, ${s.infos} info · ${plural(s.objects, "object")}`;
    $("findings-count").textContent = r.findings.length ? String(r.findings.length) : "";
    $("findings-count").className = "count " + (s.errors ? "error" : s.warnings ? "warning" : s.infos ? "info" : "clean");
    const items = sortedFindings();
    if (!items.length) {
      drawn.findings = null;
      list.replaceChildren(el("li", { class: "empty" }, r.findings.length ? "Nothing at the selected severities." : "No storage hazards found."));
      return;
    }
    const selected = state.selected && state.selected.finding;
    // The same findings, moved at most (text typed above them): patch their positions in place.
    const sig = selected + "\u0001" + items.map((f) => `${f.rule}\u0000${f.message}\u0000${f.severity}\u0000${f.consequence ? f.consequence.summary : ""}\u0000${f.location.origin ? f.location.origin.file : ""}`).join("\u0001");
    if (sig === drawn.findings && list.children.length === items.length && list.querySelector("li.finding")) {
      [...list.children].forEach((li, i) => {
        const f = items[i];
        li._finding = f;
        if (li.dataset.line !== String(f.location.line)) li.dataset.line = String(f.location.line);
        const a = li.querySelector("a.loc");
        const label = `L${f.location.line}:${f.location.column}`;
        if (a.textContent !== label) a.textContent = label;
      });
      return;
    }
    drawn.findings = sig;
    list.replaceChildren(
      ...items.map((f) => {
        const key = findingKey(f);
        const li = el("li", {
          class: `finding ${f.severity}${key === selected ? " selected" : ""}`, tabindex: "0",
          "data-rule": f.rule, "data-line": String(f.location.line), "data-severity": f.severity,
          onclick: (ev) => selectFinding(ev.currentTarget._finding, true),
          onkeydown: (ev) => ev.key === "Enter" && selectFinding(ev.currentTarget._finding, true),
        },
        el("p", { class: "headline" }, f.message),
        el("div", { class: "meta" }, el("span", { class: "sev" }, f.severity), el("span", { class: "rule" }, f.rule), locLink(() => li._finding.location, `L${f.location.line}:${f.location.column}`),
          fromTemplate(f.location),
          f.suggestion && f.suggestion.applicability === "exact" ? el("span", { class: "fixable", title: "has an exact fix" }, "fix") : null),
        f.consequence ? el("p", { class: "consequence" }, PvWords.plain(f.consequence.summary)) : null);
        li._finding = f;
        return li;
      }),
    );
  }

  function selectFinding(f, jump) {
    state.selected = { finding: findingKey(f) };
    renderFindings();
    renderSquiggles();
    renderDetails();
    if (jump) goTo(f.location);
  }

  // ---- the side panel --------------------------------------------------------------------------
  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (_) {
      const t = el("textarea", { value: text });
      document.body.append(t);
      t.select();
      const ok = document.execCommand("copy");
      t.remove();
      return ok;
    }
  }

  function replaceText(text) {
    input.focus({ preventScroll: true });
    input.select();
    // insertText keeps the editor's undo history; assigning value is the fallback.
    if (!document.execCommand("insertText", false, text) || input.value !== text) input.value = text;
    relint();
  }

  function findingDetails(f) {
    const c = f.consequence;
    const parts = [
      el("div", { class: "meta" }, el("span", { class: `sev ${f.severity}` }, f.severity), el("span", { class: "rule" }, f.rule), el("span", { class: "family" }, f.family), locLink(f.location, `line ${f.location.line}, column ${f.location.column}`), fromTemplate(f.location)),
      el("h2", { class: "headline" }, f.message),
    ];
    if (c) {
      parts.push(el("div", { class: "consequence" },
        el("h3", {}, "What the cluster does"),
        el("p", {}, PvWords.plain(c.summary)),
        el("div", { class: "chips" },
          c.subject ? el("span", { class: "chip" }, `${c.subject.kind} ${c.subject.namespace ? c.subject.namespace + "/" : ""}${c.subject.name}`) : null,
          c.phase ? el("span", { class: `chip phase phase-${c.phase}` }, c.phase) : null,
          c.storage ? el("span", { class: `chip storage fate-${c.storage}` }, "storage " + c.storage) : null),
        c.event ? el("p", { class: "event" }, el("span", { class: `etype ${c.event.type}` }, c.event.type), " ", el("strong", {}, c.event.reason), " ", c.event.message) : null,
        c.assumptions && c.assumptions.length ? el("ul", { class: "assumptions" }, ...c.assumptions.map((a) => el("li", {}, "assumed: " + PvWords.assumption(a)))) : null));
    }
    if (f.help) parts.push(el("h3", {}, "How to fix"), el("p", { class: "help" }, f.help));
    const s = f.suggestion;
    if (s) {
      const box = el("div", { class: `suggestion ${s.applicability}` },
        el("p", {}, el("span", { class: "applicability" }, s.applicability === "exact" ? "exact fix" : "illustration"), " ", s.description));
      if (s.snippet) box.append(el("pre", {}, s.snippet));
      if (s.applicability === "exact" && s.edits && s.edits.length) {
        let fixed = null;
        try {
          fixed = PvText.applyEdits(input.value, s.edits);
        } catch (e) {
          box.append(el("p", { class: "error" }, "the fix cannot be applied: " + errorText(e)));
        }
        if (fixed !== null) {
          const copy = el("button", { type: "button", class: "copy-fixed" }, "Copy fixed YAML");
          copy.addEventListener("click", async () => {
            const ok = await copyText(fixed);
            copy.textContent = ok ? "Copied ✓" : "Copy failed";
            copy.dataset.copied = ok ? "true" : "false";
          });
          box.append(el("div", { class: "buttons" }, copy, el("button", { type: "button", class: "apply-fix", onclick: () => replaceText(fixed) }, "Apply to the editor")));
        }
      }
      parts.push(box);
    }
    if (f.related && f.related.length) {
      parts.push(el("h3", {}, "Related"), el("ul", { class: "related" }, ...f.related.map((r) => el("li", {}, locLink(r.location, `L${r.location.line}`), " ", r.message, r.location.origin ? " " : null, fromTemplate(r.location)))));
    }
    const doc = pv.explain(f.rule);
    if (doc) parts.push(el("details", { class: "explain", open: true }, el("summary", {}, `About ${f.rule}`), el("div", { class: "docs" }, PvText.markdown(doc))));
    return parts;
  }

  /** The state shown in the picture: a step of the timeline, or the simulation's end state. */
  function view() {
    const sim = state.sim;
    if (!sim) return null;
    if (sim.steps && sim.steps.length) {
      const i = state.step === null ? sim.steps.length - 1 : Math.min(state.step, sim.steps.length - 1);
      return { ...sim.steps[i], index: i, notCreated: i === 0 ? sim.notCreated : undefined };
    }
    return { claims: sim.claims, volumes: sim.volumes, notCreated: sim.notCreated, index: null };
  }

  function lastState() {
    const sim = state.sim;
    if (!sim) return null;
    return sim.steps && sim.steps.length ? sim.steps[sim.steps.length - 1] : sim;
  }

  function eventsTable(events) {
    return el("table", { class: "events" }, el("tbody", {}, ...events.map((e) => el("tr", {}, el("td", { class: `etype ${e.type}` }, e.type), el("td", {}, el("strong", {}, e.reason)), el("td", {}, e.message)))));
  }

  function opButtons(node) {
    const end = lastState();
    const buttons = [];
    const button = (op, label) => el("button", { type: "button", class: "op", "data-op": op.op, onclick: () => addOperation(op) }, label);
    if (node.type === "claim" && !node.ghost) {
      const c = end && end.claims.find((x) => x.namespace === node.namespace && x.name === node.name);
      if (c) buttons.push(button({ op: "deletePvc", namespace: c.namespace, name: c.name }, "Delete this claim"));
    }
    if (node.type === "volume" && !node.ghost) {
      const v = end && end.volumes.find((x) => x.name === node.name);
      if (v && !v.gone && !v.terminating) buttons.push(button({ op: "deletePv", name: v.name }, "Delete this PV"));
      if (v && v.claim) buttons.push(button({ op: "removeClaimRef", name: v.name }, "Remove claimRef"));
      if (v) buttons.push(button({ op: "removeFinalizers", name: v.name }, "Remove finalizers"));
    }
    if (!buttons.length) return null;
    return el("div", { class: "ops" }, el("h3", {}, "What if…"), el("div", { class: "buttons" }, ...buttons),
      el("p", { class: "hint" }, "adds a step to the timeline after the last one"));
  }

  /** "Deleted at step N (operation)" when an object of an earlier step is gone by step `index`. */
  function deletedAt(exists, index) {
    const steps = (state.sim && state.sim.steps) || [];
    if (index === null || !steps.length) return null;
    for (let i = index; i > 0; i--) {
      if (!exists(steps[i]) && exists(steps[i - 1])) return `Deleted at step ${i}: ${steps[i].operation}.`;
    }
    return null;
  }

  /** `text` with the simulation's made-up names of provisioned volumes as "the new volume"
   * (the name on hover), and the core's placeholder for an unnamed default class in words. */
  function human(text, fresh) {
    const parts = PvWords.split(PvWords.plain(text), fresh);
    return parts.map((p, i) => (typeof p === "string" ? p
      : el("span", { class: "new-volume", title: `${p.name}: a name the simulation made up; the provisioner chooses the real one` }, /provisions $/.test(parts[i - 1] || "") ? "a new volume" : "the new volume")));
  }
  /** A volume's name for people: "new volume" for a provisioned one. */
  function volumeName(name, fresh) {
    return fresh.has(name) ? el("span", { class: "new-volume", title: `${name}: a name the simulation made up; the provisioner chooses the real one` }, "new volume") : name;
  }

  /** The findings about an object of the picture, each a link to it in the findings list. */
  function findingsAbout(match) {
    const fs = ((state.report && state.report.findings) || []).filter(match);
    if (!fs.length) return null;
    return el("div", { class: "about" }, el("h3", {}, "Findings"), el("ul", { class: "node-findings" }, ...fs.map((f) => el("li", {},
      el("span", { class: `sev ${f.severity}` }, f.severity), " ",
      el("a", { href: "#", class: "to-finding", "data-rule": f.rule, onclick: (ev) => { ev.preventDefault(); showFinding(f); } }, f.message)))));
  }
  const about = (kind, namespace, name) => (f) => f.object && f.object.kind === kind && f.object.name === name && (namespace === null || (f.object.namespace || "") === namespace);

  /** Opens a finding from the picture: the findings tab, the finding selected. */
  function showFinding(f) {
    $("tab-findings").click();
    selectFinding(f, true);
  }

  function nodeDetails(id) {
    const v = view();
    const parts = [];
    if (!v) return [el("p", {}, "No simulation.")];
    const fresh = PvWords.provisioned(v);
    const [kind, rest] = [id.slice(0, 1), id.slice(2)];
    const origin = (o) => (o && o.file ? el("p", { class: "origin" }, `${o.kind === "cluster" ? "in the cluster state" : o.kind === "statefulset" ? `from StatefulSet ${o.object.name}'s claim template, for pod ${o.object.name}-${o.ordinal}` : "in the manifest"}: `, o.file === FILE ? locLink({ line: o.line, column: 1, endLine: o.line, endColumn: 1 }, `line ${o.line}`) : `${o.file}:${o.line}`) : null);
    const phaseChip = (k, p, o) => el("span", { class: `chip phase phase-${p}`, title: PvWords.phase(k, p, o) }, p);
    if (kind === "c") {
      const c = v.claims.find((x) => `${x.namespace}/${x.name}` === rest);
      const [namespace, name] = rest.split("/");
      parts.push(el("div", { class: "meta" }, el("span", {}, "PersistentVolumeClaim")), el("h2", {}, rest));
      if (!c) {
        const gone = deletedAt((s) => s.claims.some((x) => `${x.namespace}/${x.name}` === rest), v.index);
        const vol = v.volumes.find((x) => x.claim === rest);
        const never = (v.notCreated || []).find((x) => x.claim === rest);
        parts.push(el("p", {}, gone || (never ? `Never created: ${never.why}.` : vol ? `Not in the input or the cluster: volume ${vol.name}'s claimRef names it.` : "This claim does not exist at this step.")));
        return parts;
      }
      const cls = c.class === null ? "no class" : c.class === "<the cluster's default>" ? "the cluster's default class (name not known)" : `class ${c.class === "" ? '""' : c.class}`;
      const source = { written: "as written", admission: "given by admission", retroactive: "given afterwards, when a default class appeared", none: "" }[c.classSource] || "";
      parts.push(el("p", {}, phaseChip("claim", c.phase), " ", PvWords.phase("claim", c.phase), c.volume ? [" · volume ", volumeName(c.volume, fresh)] : "", ` · ${cls}${source ? ` (${source})` : ""}`),
        el("p", { class: "why" }, ...human(c.why, fresh), c.orderDependent ? " (order-dependent: another claim could take the volume)" : ""), origin(c.origin));
      if (c.usedBy && c.usedBy.length) parts.push(el("p", {}, "used by ", ...c.usedBy.map((u, i) => [i ? ", " : "", `${u.object.kind} ${u.object.name}`]).flat()));
      parts.push(findingsAbout(about("PersistentVolumeClaim", namespace, name)));
      if (c.events.length) parts.push(el("h3", {}, "Events"), eventsTable(c.events));
      parts.push(opButtons({ type: "claim", namespace, name }));
    } else if (kind === "v") {
      const vol = v.volumes.find((x) => x.name === rest);
      parts.push(el("div", { class: "meta" }, el("span", {}, "PersistentVolume")), el("h2", {}, volumeName(rest, fresh)));
      if (fresh.has(rest)) parts.push(el("p", { class: "hint" }, `The provisioner creates it and chooses its name; the simulation calls it ${rest}.`));
      if (!vol) {
        const gone = deletedAt((s) => s.volumes.some((x) => x.name === rest), v.index);
        const c = v.claims.find((x) => x.link && x.link.volume === rest);
        parts.push(el("p", {}, gone || (c ? `Not in the input or the cluster: claim ${c.namespace}/${c.name} names it.` : "This volume does not exist at this step.")));
        return parts;
      }
      const fate = PvWords.fate(vol);
      parts.push(el("p", {}, vol.gone ? el("span", { class: "chip phase phase-gone" }, "deleted") : phaseChip("volume", vol.phase, vol), " ", vol.gone ? "the PersistentVolume object is gone" : PvWords.phase("volume", vol.phase, vol),
        vol.terminating ? el("span", { class: "chip terminating", title: "deleted, but a finalizer keeps the object (kubernetes.io/pv-protection while it is Bound)" }, "Terminating") : null,
        vol.claim ? ` · claimRef ${vol.claim}` : " · no claimRef"),
        el("p", { class: "why" }, ...human(vol.why, fresh)), origin(vol.origin),
        el("p", {}, el("span", { class: `chip storage fate-${vol.storage.fate}` }, "storage " + fate.short), " ", fate.full, " — ", PvWords.plain(vol.backing)));
      parts.push(findingsAbout(about("PersistentVolume", null, rest)));
      if (vol.events.length) parts.push(el("h3", {}, "Events"), eventsTable(vol.events));
      parts.push(opButtons({ type: "volume", name: rest }));
    } else if (kind === "s") {
      const vol = v.volumes.find((x) => x.name === rest);
      parts.push(el("div", { class: "meta" }, el("span", {}, "Storage")), el("h2", {}, vol ? PvWords.plain(vol.backing) : rest));
      if (vol) {
        const fate = PvWords.fate(vol);
        parts.push(el("p", {}, el("span", { class: `chip storage fate-${vol.storage.fate}` }, fate.short), " ", fate.full, " · behind volume ", volumeName(vol.name, fresh)));
      }
    } else if (kind === "p") {
      // A pod of a hazard: the finding says what happens to it.
      const [wid, role] = rest.split("#");
      const [wkind, wns, wname] = wid.replace(/^w:/, "").split("/");
      const f = ((state.report && state.report.findings) || []).find((x) => x.family === "rwo-surge" && x.object && x.object.kind === wkind && (x.object.namespace || "") === wns && x.object.name === wname);
      parts.push(el("div", { class: "meta" }, el("span", {}, `Pod of ${wkind} ${wname}`)), el("h2", {}, role === "holder" ? "The pod that has the volume" : "The pod that waits for it"));
      if (f) {
        parts.push(el("p", { class: "why" }, PvWords.plain(f.consequence ? f.consequence.summary : f.message)));
        if (f.consequence && f.consequence.assumptions && f.consequence.assumptions.length) parts.push(el("ul", { class: "assumptions" }, ...f.consequence.assumptions.map((a) => el("li", {}, "assumed: " + PvWords.assumption(a)))));
        parts.push(findingsAbout((x) => x === f));
      }
    } else {
      const users = v.claims.filter((c) => (c.usedBy || []).some((u) => `${u.object.kind}/${u.object.namespace || ""}/${u.object.name}` === rest));
      const u = users.length ? users[0].usedBy.find((x) => `${x.object.kind}/${x.object.namespace || ""}/${x.object.name}` === rest) : null;
      const [wkind, wns, wname] = rest.split("/");
      parts.push(el("div", { class: "meta" }, el("span", {}, wkind)), el("h2", {}, wname));
      if (u) parts.push(el("p", {}, u.file === FILE ? locLink({ line: u.line, column: 1, endLine: u.line, endColumn: 1 }, `line ${u.line}`) : `${u.file}:${u.line}`));
      parts.push(el("p", {}, "mounts ", users.map((c) => `${c.namespace}/${c.name} (${c.phase})`).join(", ")));
      parts.push(findingsAbout(about(wkind, wns, wname)));
    }
    return parts;
  }

  function closeButton() {
    return el("button", { type: "button", class: "close", title: "close (Esc)", "aria-label": "close", onclick: deselect }, "×");
  }

  /** Findings open in the side panel; objects of the picture in a panel under it. */
  function renderDetails() {
    const sel = state.selected;
    let finding = null, node = null;
    if (sel && sel.finding) {
      const f = state.report && state.report.findings.find((x) => findingKey(x) === sel.finding);
      if (f) finding = findingDetails(f);
      else state.selected = null;
    } else if (sel && sel.node) {
      node = nodeDetails(sel.node);
    }
    const side = !!finding && $("panel-picture").hidden;
    details.hidden = !side;
    $("panes").classList.toggle("has-details", side);
    if (side) details.replaceChildren(closeButton(), ...finding.filter(Boolean));
    else details.replaceChildren();
    const od = $("object-details");
    od.hidden = !node;
    if (node) od.replaceChildren(closeButton(), ...node.filter(Boolean));
    else od.replaceChildren();
  }

  function deselect() {
    state.selected = null;
    renderFindings();
    renderSquiggles();
    renderDetails();
    if (!$("panel-picture").hidden) renderPicture();
  }

  // ---- simulation: picture, timeline, tables --------------------------------------------------
  function resimulate() {
    const req = { profile: profile(), operations: state.ops };
    state.simError = null;
    try {
      state.sim = pv.simulate(sources(), req);
    } catch (e) {
      state.simError = errorText(e);
      try {
        state.sim = pv.simulate(sources(), { profile: profile() });
      } catch (_) {
        state.sim = null;
      }
    }
    state.simDirty = false;
    renderPicture();
    renderTimeline();
    renderTables();
  }

  // The picture is laid out for the panel's width: drawn again when that changes.
  let pictureWidth = 0;
  new ResizeObserver(() => {
    if (!$("panel-picture").hidden && state.sim && $("picture").clientWidth !== pictureWidth) renderPicture();
  }).observe($("picture"));

  function renderPicture() {
    const v = view();
    const banner = $("step-banner");
    if (!v) {
      $("picture").replaceChildren(el("p", { class: "parse-failed" }, "no simulation: " + (state.simError || "")));
      return;
    }
    const steps = state.sim.steps || [];
    banner.hidden = !steps.length;
    if (steps.length) banner.textContent = `Step ${v.index} of ${steps.length - 1}: ${v.operation}` + (v.index < steps.length - 1 ? " (select a later step in the timeline to move on)" : "");
    const selected = state.selected && state.selected.node;
    const width = $("picture").clientWidth;
    pictureWidth = width;
    const findings = state.report ? state.report.findings : [];
    $("picture").replaceChildren(PvPicture.render(v, { selected, onSelect: (n) => selectNode(n.id), width, findings }));
    const a = state.sim.assumptions.map(PvWords.assumption);
    $("assumptions").textContent = a.length ? "Assumed: " + a.join("; ") + "." : "";
  }

  function selectNode(id) {
    state.selected = { node: id };
    renderFindings();
    renderSquiggles();
    renderPicture();
    renderDetails();
  }

  function addOperation(op) {
    state.ops.push(op);
    state.step = null;
    resimulate();
    if (state.simError) {
      const err = state.simError;
      state.ops.pop();
      resimulate();
      $("timeline-error").hidden = false;
      $("timeline-error").textContent = err;
    }
    renderDetails();
  }

  function renderTimeline() {
    const sim = state.sim;
    const steps = (sim && sim.steps) || [];
    $("undo-op").disabled = $("clear-ops").disabled = !state.ops.length;
    $("timeline-hint").hidden = !!state.ops.length;
    $("timeline-error").hidden = !state.simError;
    if (state.simError) $("timeline-error").textContent = state.simError + " — undo the step or clear the timeline";
    if (!steps.length) return $("phases").replaceChildren();
    const current = state.step === null ? steps.length - 1 : state.step;
    const rows = new Map(); // object -> {label, cells[]}
    const row = (key, label) => rows.get(key) || rows.set(key, { label, cells: new Array(steps.length).fill(null) }).get(key);
    steps.forEach((s, i) => {
      const fresh = PvWords.provisioned(s);
      for (const c of s.claims) row(`c:${c.namespace}/${c.name}`, `PVC ${c.namespace}/${c.name}`).cells[i] = { text: c.phase, cls: `phase-${c.phase}`, title: PvWords.plain(c.why) };
      for (const v of s.volumes) {
        const fate = PvWords.fate(v);
        const label = fresh.has(v.name) ? el("span", { title: v.name }, `PV new volume${v.claim ? ` (for ${v.claim})` : ""}`) : `PV ${v.name}`;
        row(`v:${v.name}`, label).cells[i] = {
          text: v.gone ? "deleted" : v.phase, cls: v.gone ? "phase-gone" : `phase-${v.phase}`,
          note: fate.gone ? "storage " + fate.short : v.terminating ? "Terminating" : null, title: PvWords.plain(v.why),
        };
      }
    });
    const head = el("tr", {}, el("th", {}, "object"), ...steps.map((s, i) => el("th", { class: i === current ? "current" : "" },
      el("button", { type: "button", class: "step", "data-step": String(i), onclick: () => { state.step = i; renderPicture(); renderTimeline(); renderTables(); renderDetails(); } },
        el("span", { class: "n" }, i === 0 ? "start" : `step ${i}`), el("span", { class: "op" }, s.operation)))));
    const body = [...rows].map(([key, r]) => {
      let seen = false, prev = null;
      return el("tr", { "data-object": key }, el("th", { scope: "row" }, r.label), ...r.cells.map((c, i) => {
        let cell;
        if (c) cell = el("td", { class: `${c.cls}${i === current ? " current" : ""}`, title: c.title || "", "data-step": String(i) }, c.text, c.note ? el("small", {}, c.note) : null);
        else cell = el("td", { class: `${seen ? "phase-gone" : "absent"}${i === current ? " current" : ""}`, "data-step": String(i) }, seen ? "deleted" : "–");
        const text = cell.firstChild ? cell.firstChild.textContent : "";
        if (i > 0 && text !== prev) cell.classList.add("changed");
        prev = text;
        seen = seen || !!c;
        return cell;
      }));
    });
    $("phases").replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
  }

  function table(node, header, rows) {
    node.replaceChildren(
      el("thead", {}, el("tr", {}, ...header.map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => (c instanceof Node ? c : el("td", {}, String(c))))))),
    );
  }

  function renderTables() {
    const v = view();
    if (!v) return;
    const fresh = PvWords.provisioned(v);
    table($("claims"), ["claim", "phase", "volume", "class", "why"], v.claims.map((c) => [
      `${c.namespace}/${c.name}`,
      el("td", { class: "phase-" + c.phase }, c.phase),
      c.volume ? el("td", {}, volumeName(c.volume, fresh)) : "–",
      c.class === null ? "<unset>" : c.class === "" ? '""' : c.class === "<the cluster's default>" ? "the default (name not known)" : c.class,
      el("td", {}, ...human(c.why, fresh), c.orderDependent ? " (order-dependent)" : ""),
    ]));
    table($("volumes"), ["volume", "phase", "claim", "storage"], v.volumes.map((x) => {
      const f = PvWords.fate(x);
      return [el("td", {}, volumeName(x.name, fresh)), el("td", { class: "phase-" + (x.gone ? "gone" : x.phase) }, x.gone ? "deleted" : x.phase), x.claim || "–",
        el("td", { class: f.gone ? "deleted" : "" }, `${f.full}: ${PvWords.plain(x.backing)}`)];
    }));
    const events = [];
    for (const c of v.claims) for (const e of c.events) events.push([`PersistentVolumeClaim ${c.namespace}/${c.name}`, e.type, e.reason, e.message]);
    for (const x of v.volumes) for (const e of x.events) events.push([`PersistentVolume ${x.name}`, e.type, e.reason, e.message]);
    table($("events"), ["object", "type", "reason", "message"], events);
  }

  // ---- the update loop ---------------------------------------------------------------------------
  const simVisible = () => !$("panel-picture").hidden || !$("panel-simulation").hidden || !!(state.selected && state.selected.node);

  /** Lints the editor's text and redraws everything that depends on it. Returns the times. */
  function relint() {
    const t0 = performance.now();
    state.lintError = null;
    try {
      state.report = pv.lint(sources(), { profile: profile() });
    } catch (e) {
      state.report = null;
      state.lintError = errorText(e);
    }
    const t1 = performance.now();
    renderLineNumbers();
    renderFindings();
    const t2 = performance.now();
    renderSquiggles();
    renderMarks();
    const t3 = performance.now();
    state.simDirty = true;
    if (simVisible()) resimulate();
    renderDetails();
    const t4 = performance.now();
    state.lastCost = t4 - t0;
    $("status").textContent = `${plural(state.lines, "line")} · linted in ${(t1 - t0).toFixed(1)} ms, shown in ${(t4 - t0).toFixed(1)} ms`;
    return { lint: t1 - t0, findings: t2 - t1, editor: t3 - t2, rest: t4 - t3, total: t4 - t0 };
  }

  // One update per frame while it stays within a frame's budget; a short debounce otherwise.
  let frame = 0, timer = 0;
  function schedule() {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    if (state.lastCost < 12) frame = requestAnimationFrame(relint);
    else timer = setTimeout(relint, 150);
  }

  // ---- wiring --------------------------------------------------------------------------------
  for (const ex of PVLINT_EXAMPLES) $("examples").append(el("option", { value: ex.name }, ex.name));
  $("examples").addEventListener("change", (ev) => {
    const ex = PVLINT_EXAMPLES.find((x) => x.name === ev.target.value);
    if (ex) load({ t: ex.text });
  });
  input.addEventListener("input", () => {
    renderLineNumbers();
    schedule();
  });
  input.addEventListener("scroll", onScroll);
  $("kube").addEventListener("change", relint);
  $("complete").addEventListener("change", relint);
  $("nodes").addEventListener("change", relint);
  $("default-class").addEventListener("change", () => {
    $("default-class-name").hidden = $("default-class").value !== "named";
    if (!$("default-class-name").hidden) $("default-class-name").focus();
    relint();
  });
  $("default-class-name").addEventListener("input", schedule);
  for (const s of ["error", "warning", "info"]) {
    $("sev-" + s).addEventListener("change", () => {
      renderFindings();
      renderSquiggles();
      renderMarks();
    });
  }
  $("share").addEventListener("click", () => {
    const url = shareUrl();
    history.replaceState(null, "", url);
    $("share-url").value = url;
    $("share-url").select();
  });
  window.addEventListener("hashchange", () => {
    const s = stateFromHash();
    if (s) load(s);
  });
  const tabs = { findings: $("tab-findings"), picture: $("tab-picture"), simulation: $("tab-simulation") };
  for (const [name, btn] of Object.entries(tabs)) {
    btn.addEventListener("click", () => {
      for (const [n, b] of Object.entries(tabs)) {
        b.classList.toggle("active", n === name);
        b.setAttribute("aria-selected", String(n === name));
        $("panel-" + n).hidden = n !== name;
      }
      if (name !== "findings" && state.simDirty) resimulate();
      renderDetails();
    });
  }
  $("undo-op").addEventListener("click", () => {
    state.ops.pop();
    state.step = null;
    resimulate();
    renderDetails();
  });
  $("clear-ops").addEventListener("click", () => {
    state.ops = [];
    state.step = null;
    resimulate();
    renderDetails();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && state.selected) deselect();
  });

  function load(s) {
    input.value = s.t;
    if (s.k && [...$("kube").options].some((o) => o.value === s.k)) $("kube").value = s.k;
    if (s.k) {
      // A shared state says what the page assumed; an example keeps the current choice.
      $("complete").checked = !!s.c;
      $("default-class").value = typeof s.d !== "string" ? "assumed" : s.d === "" ? "none" : "named";
      $("default-class-name").value = typeof s.d === "string" ? s.d : "";
      $("default-class-name").hidden = $("default-class").value !== "named";
      $("nodes").value = ["one", "several", "zones"].includes(s.n) ? s.n : "";
    }
    state.ops = Array.isArray(s.o) ? s.o : [];
    state.step = null;
    state.selected = null;
    input.scrollTop = 0;
    onScroll();
    relint();
    if (state.ops.length && !simVisible()) resimulate();
  }

  // For the browser tests' benchmark and the console.
  window.playground = { relint, state, startup: { unpackMs: unpacked } };

  const initial = stateFromHash();
  if (initial) load(initial);
  else load({ t: (PVLINT_EXAMPLES.find((x) => x.name.startsWith("seed-000")) || { text: "" }).text });
  document.body.dataset.ready = "true";
})();
