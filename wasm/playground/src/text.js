// Text helpers of the playground: positions (pvlint counts columns in Unicode characters, the
// editor in UTF-16 code units), exact-suggestion edits, and a small Markdown renderer for the
// rule docs. No dependencies; everything is built with DOM calls, never innerHTML.
"use strict";

const PvText = (() => {
  /** Offsets where each line starts (line 1 at index 0). */
  function lineStarts(text) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  }

  /** The UTF-16 offset inside `lineText` of 1-based Unicode column `column`. */
  function columnOffset(lineText, column) {
    let off = 0;
    for (let n = 1; n < column && off < lineText.length; n++) {
      const c = lineText.charCodeAt(off);
      off += c >= 0xd800 && c <= 0xdbff && off + 1 < lineText.length ? 2 : 1;
    }
    return off;
  }

  /** The offset in `text` of a 1-based line and Unicode column (clamped to the text). */
  function offsetOf(text, starts, line, column) {
    if (line > starts.length) return text.length;
    const start = starts[Math.max(0, line - 1)];
    const end = line < starts.length ? starts[line] - 1 : text.length;
    return start + Math.min(columnOffset(text.slice(start, end), column), end - start);
  }

  /** The text with a suggestion's edits applied (positions are in the original text). */
  function applyEdits(text, edits) {
    const starts = lineStarts(text);
    const spans = edits
      .map((e) => ({ from: offsetOf(text, starts, e.line, e.column), to: offsetOf(text, starts, e.endLine, e.endColumn), text: e.replacement }))
      .sort((a, b) => b.from - a.from);
    let out = text;
    let limit = Infinity;
    for (const s of spans) {
      if (s.to > limit) throw new Error("overlapping edits");
      out = out.slice(0, s.from) + s.text + out.slice(s.to);
      limit = s.from;
    }
    return out;
  }

  /** Inline Markdown: `code`, **bold**, [text](url) (shown as text: the page goes nowhere). */
  function inline(parent, text) {
    const re = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\([^)]*\)/g;
    let last = 0;
    for (let m; (m = re.exec(text)); last = re.lastIndex) {
      if (m.index > last) parent.append(text.slice(last, m.index));
      if (m[1] !== undefined) parent.append(Object.assign(document.createElement("code"), { textContent: m[1] }));
      else if (m[2] !== undefined) parent.append(Object.assign(document.createElement("strong"), { textContent: m[2] }));
      else parent.append(m[3]);
    }
    if (last < text.length) parent.append(text.slice(last));
    return parent;
  }

  /** Markdown (headings, paragraphs, lists, fenced code) as a DocumentFragment. */
  function markdown(md) {
    const frag = document.createDocumentFragment();
    const lines = md.replace(/\r\n/g, "\n").split("\n");
    let para = [];
    let list = null;
    const flush = () => {
      if (para.length) frag.append(inline(document.createElement("p"), para.join(" ")));
      para = [];
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const fence = line.match(/^```(\w*)\s*$/);
      if (fence) {
        flush();
        list = null;
        const code = [];
        for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) code.push(lines[i]);
        const pre = document.createElement("pre");
        pre.append(Object.assign(document.createElement("code"), { textContent: code.join("\n") }));
        frag.append(pre);
        continue;
      }
      const h = line.match(/^(#{1,6})\s+(.*)$/);
      if (h) {
        flush();
        list = null;
        frag.append(inline(document.createElement("h" + Math.min(6, h[1].length + 2)), h[2]));
        continue;
      }
      const li = line.match(/^\s*[-*]\s+(.*)$/);
      if (li) {
        flush();
        if (!list) frag.append((list = document.createElement("ul")));
        list.append(inline(document.createElement("li"), li[1]));
        continue;
      }
      if (!line.trim()) {
        flush();
        list = null;
        continue;
      }
      if (list && /^\s+\S/.test(line)) {
        list.lastChild.append(" ", ...inline(document.createElement("span"), line.trim()).childNodes);
        continue;
      }
      list = null;
      para.push(line.trim());
    }
    flush();
    return frag;
  }

  return { lineStarts, columnOffset, offsetOf, applyEdits, markdown };
})();
