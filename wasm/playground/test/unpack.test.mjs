// The page's LZMA decoder (src/unpack.js) against xz's encoder: every literal/position setting
// the format allows, inputs that exercise literals, long and repeated matches, the end marker,
// and the module the page carries. Needs xz (XZ Utils), as build.mjs does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repo, target } from "./corpus.mjs";

const PvUnpack = new Function(readFileSync(join(repo, "wasm/playground/src/unpack.js"), "utf8") + "\nreturn PvUnpack;")();

const xz = (data, { lc = 3, lp = 0, pb = 2, preset = "6" } = {}) =>
  new Uint8Array(execFileSync("xz", ["--format=raw", `--lzma1=preset=${preset},lc=${lc},lp=${lp},pb=${pb}`, "--stdout"], { input: data, maxBuffer: 1 << 26 }));

/** Deterministic pseudo-random bytes. */
function noise(n, seed = 1) {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const samples = {
  empty: Buffer.alloc(0),
  "one byte": Buffer.from([7]),
  zeros: Buffer.alloc(100000), // the longest matches, repeated
  noise: noise(20000), // literals only
  text: Buffer.from(readFileSync(join(repo, "README.md"), "utf8").repeat(2)), // matches at every distance
  mixed: Buffer.concat([noise(3000, 5), Buffer.from("abcabcabcabd".repeat(500)), noise(3000, 5), Buffer.alloc(5000, 0xff), noise(3000, 9)]),
};

test("decodes what xz encodes, under every literal and position setting", () => {
  for (const [lc, lp, pb] of [[3, 0, 2], [0, 0, 0], [4, 0, 0], [1, 3, 1], [0, 4, 4], [2, 2, 3], [4, 0, 4]]) {
    for (const [name, data] of Object.entries(samples)) {
      const packed = xz(data, { lc, lp, pb });
      const out = PvUnpack.lzma(packed, data.length, lc, lp, pb);
      assert.ok(Buffer.from(out).equals(data), `${name} with lc=${lc} lp=${lp} pb=${pb}`);
    }
  }
});

test("a cut stream, a wrong size or a bad first byte is an error", () => {
  const data = samples.text;
  const packed = xz(data);
  assert.throws(() => PvUnpack.lzma(packed.subarray(0, packed.length >> 1), data.length, 3, 0, 2), /LZMA/);
  assert.throws(() => PvUnpack.lzma(packed, data.length + 10, 3, 0, 2), /LZMA/);
  const bad = packed.slice();
  bad[0] = 1;
  assert.throws(() => PvUnpack.lzma(bad, data.length, 3, 0, 2), /LZMA/);
});

test("base64 as the page stores it", () => {
  const data = noise(1000, 3);
  assert.ok(Buffer.from(PvUnpack.base64(data.toString("base64"))).equals(data));
});

test("the module the page carries decodes to the module", () => {
  const page = join(repo, "wasm/playground/dist/index.html");
  const glue = join(target, "playground-glue", "pvlint_wasm_bg.wasm");
  if (!existsSync(page) || !existsSync(glue)) throw new Error("build the playground first: bash wasm/playground/build.sh");
  const m = readFileSync(page, "utf8").match(/const PVLINT_WASM = (\{.*?\});\n/);
  assert.ok(m, "the page carries PVLINT_WASM");
  const w = JSON.parse(m[1]);
  const t0 = performance.now();
  const out = PvUnpack.lzma(PvUnpack.base64(w.lzma), w.size, w.lc, w.lp, w.pb);
  const ms = performance.now() - t0;
  assert.ok(Buffer.from(out).equals(readFileSync(glue)), `decoded module differs from ${glue}`);
  console.log(`decoded the ${w.size}-byte module from ${(w.lzma.length * 3) >> 2} bytes in ${ms.toFixed(0)} ms (Node, first call)`);
});
