// pvlint playground: lints as you type with the wasm module, in this page only.
(async function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const input = $("input"), gutter = $("gutter"), list = $("findings"), summary = $("summary");
  const bytes = Uint8Array.from(atob(PVLINT_WASM_B64), (c) => c.charCodeAt(0));
  await wasm_bindgen({ module_or_path: bytes });
  const pv = wasm_bindgen;
  $("version").textContent = "v" + pv.version();
  window.pvlint = pv; // for the console (and tests)

  // ---- state <-> URL fragment -------------------------------------------------------
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
    const state = { t: input.value, k: $("kube").value };
    return location.href.replace(/#.*$/, "") + "#v1=" + b64url.encode(JSON.stringify(state));
  }

  // ---- rendering ---------------------------------------------------------------------
  const el = (tag, attrs = {}, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v;
      else if (k.startsWith("data-")) e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const c of children) e.append(c);
    return e;
  };
  let last = null;

  function renderGutter(report) {
    const lines = input.value.split("\n").length;
    const worst = new Map();
    const rank = { info: 1, warning: 2, error: 3 };
    for (const f of report ? report.findings : []) {
      if (!visible(f)) continue;
      const cur = worst.get(f.location.line);
      if (!cur || rank[f.severity] > rank[cur]) worst.set(f.location.line, f.severity);
    }
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= lines; i++) {
      const d = el("div", { "data-line": String(i) }, String(i));
      const sev = worst.get(i);
      if (sev) {
        d.className = sev;
        d.title = report.findings.filter((f) => f.location.line === i && visible(f)).map((f) => f.rule).join(", ");
      }
      frag.append(d);
    }
    gutter.replaceChildren(frag);
    gutter.scrollTop = input.scrollTop;
  }

  function visible(f) {
    return $("sev-" + f.severity).checked;
  }

  function goToLine(line, column) {
    const lines = input.value.split("\n");
    let start = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
    const end = start + (lines[line - 1] || "").length;
    input.focus();
    input.setSelectionRange(start + Math.max(0, (column || 1) - 1), end);
    const lh = parseFloat(getComputedStyle(input).lineHeight) || 19;
    input.scrollTop = Math.max(0, (line - 5) * lh);
  }

  function renderFindings(report) {
    const items = report.findings.filter(visible);
    const s = report.summary;
    summary.textContent = `${s.errors} error${s.errors === 1 ? "" : "s"}, ${s.warnings} warning${s.warnings === 1 ? "" : "s"}, ${s.infos} info · ${s.objects} object${s.objects === 1 ? "" : "s"}`;
    if (!items.length) {
      list.replaceChildren(el("li", { class: "empty" }, report.findings.length ? "Nothing at the selected severities." : "No storage hazards found."));
      return;
    }
    list.replaceChildren(
      ...items.map((f) => {
        const loc = el("a", { class: "loc", href: "#", title: "go to line" }, `L${f.location.line}:${f.location.column}`);
        loc.addEventListener("click", (ev) => {
          ev.preventDefault();
          goToLine(f.location.line, f.location.column);
        });
        const docs = el("div", { class: "docs", hidden: true });
        const btn = el("button", { type: "button", class: "explain" }, "explain");
        btn.addEventListener("click", () => {
          if (!docs.textContent) docs.textContent = pv.explain(f.rule) || "";
          docs.hidden = !docs.hidden;
        });
        const li = el(
          "li",
          { class: `finding ${f.severity}`, "data-rule": f.rule, "data-line": String(f.location.line), "data-severity": f.severity },
          el("div", { class: "head" }, el("span", { class: "sev" }, f.severity), loc, el("span", { class: "rule" }, f.rule), btn),
          el("p", { class: "message" }, f.message),
        );
        if (f.help) li.append(el("p", { class: "help" }, "help: " + f.help));
        if (f.suggestion) {
          li.append(el("p", { class: "help" }, "fix: " + f.suggestion.description));
          if (f.suggestion.snippet) li.append(el("pre", {}, f.suggestion.snippet));
        }
        li.append(docs);
        return li;
      }),
    );
  }

  function table(node, header, rows) {
    node.replaceChildren(
      el("thead", {}, el("tr", {}, ...header.map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => (c instanceof Node ? c : el("td", {}, String(c))))))),
    );
  }

  function renderSimulation(sim) {
    table($("claims"), ["claim", "phase", "volume", "class", "why"], sim.claims.map((c) => [
      `${c.namespace}/${c.name}`,
      el("td", { class: "phase-" + c.phase }, c.phase),
      c.volume || "–",
      c.class === null || c.class === undefined ? "<unset>" : c.class === "" ? '""' : c.class,
      (c.reasons[c.reasons.length - 1] || "") + (c.orderDependent ? " (order-dependent)" : ""),
    ]));
    table($("volumes"), ["volume", "phase", "claim", "storage"], sim.volumes.map((v) => {
      const fate = v.storage.fate;
      const text = fate === "kept" ? "kept: " + v.backing
        : fate === "provisioned" ? "new, provisioned by " + v.storage.provisioner
        : fate === "recycled" ? "recycled (wiped): " + v.backing
        : "DELETED" + (v.storage.provisioner ? " by " + v.storage.provisioner : "") + ": " + v.backing;
      return [v.name, el("td", { class: "phase-" + v.phase }, v.phase), v.claim || "–", el("td", { class: fate === "deleted" || fate === "leftToProvisioner" ? "deleted" : "" }, text)];
    }));
    const events = [];
    for (const c of sim.claims) for (const e of c.events) events.push([`PersistentVolumeClaim ${c.namespace}/${c.name}`, e.type, e.reason, e.message]);
    for (const v of sim.volumes) for (const e of v.events) events.push([`PersistentVolume ${v.name}`, e.type, e.reason, e.message]);
    table($("events"), ["object", "type", "reason", "message"], events);
  }

  function run() {
    const sources = [{ name: "manifest.yaml", text: input.value }];
    const options = { options: { kubeVersion: $("kube").value } };
    try {
      last = pv.lint(sources, options);
      renderFindings(last);
      renderSimulation(pv.simulate(sources, options));
    } catch (e) {
      last = null;
      list.replaceChildren(el("li", { class: "parse-failed" }, "pvlint could not run: " + e));
    }
    renderGutter(last);
  }

  let timer = 0;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(run, 200);
  };

  // ---- wiring --------------------------------------------------------------------------
  for (const ex of PVLINT_EXAMPLES) $("examples").append(el("option", { value: ex.name }, ex.name));
  $("examples").addEventListener("change", (ev) => {
    const ex = PVLINT_EXAMPLES.find((x) => x.name === ev.target.value);
    if (ex) {
      input.value = ex.text;
      run();
    }
  });
  input.addEventListener("input", () => {
    renderGutter(last);
    schedule();
  });
  input.addEventListener("scroll", () => (gutter.scrollTop = input.scrollTop));
  $("kube").addEventListener("change", run);
  for (const s of ["error", "warning", "info"]) {
    $("sev-" + s).addEventListener("change", () => {
      if (last) renderFindings(last);
      renderGutter(last);
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
  const tabs = { findings: $("tab-findings"), simulation: $("tab-simulation") };
  for (const [name, btn] of Object.entries(tabs)) {
    btn.addEventListener("click", () => {
      for (const [n, b] of Object.entries(tabs)) {
        b.classList.toggle("active", n === name);
        $("panel-" + n).hidden = n !== name;
      }
    });
  }
  function load(s) {
    input.value = s.t;
    if (s.k && [...$("kube").options].some((o) => o.value === s.k)) $("kube").value = s.k;
    run();
  }

  const initial = stateFromHash();
  if (initial) load(initial);
  else {
    input.value = (PVLINT_EXAMPLES.find((x) => x.name.startsWith("seed-000")) || { text: "" }).text;
    run();
  }
  document.body.dataset.ready = "true";
})();
