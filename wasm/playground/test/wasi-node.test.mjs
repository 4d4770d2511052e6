// The WASI core module under Node's own WASI (node:wasi), a second host next to wasmtime:
// same JSON as the native CLI, through the documented ABI (docs/embedding.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { WASI } from "node:wasi";
import { repo, target } from "./corpus.mjs";

const modulePath = process.env.PVLINT_WASM_MODULE || process.env.PVLINT_WASI_MODULE || join(target, "wasm32-wasip1/wasi-release/pvlint_wasm.wasm");
const pvlint = process.env.PVLINT_BIN || join(target, "debug/pvlint");

async function load() {
  if (!existsSync(modulePath)) throw new Error(`the WASI module is missing at ${modulePath}`);
  const wasi = new WASI({ version: "preview1", args: [], env: {} });
  const module = await WebAssembly.compile(readFileSync(modulePath));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  wasi.initialize(instance);
  const ex = instance.exports;
  const call = (name, request) => {
    const bytes = new TextEncoder().encode(JSON.stringify(request));
    const ptr = ex.pvlint_alloc(bytes.length);
    new Uint8Array(ex.memory.buffer, ptr, bytes.length).set(bytes);
    const packed = BigInt.asUintN(64, ex[name](ptr, bytes.length));
    ex.pvlint_free(ptr, bytes.length);
    const outPtr = Number(packed >> 32n), outLen = Number(packed & 0xffffffffn);
    const text = new TextDecoder().decode(new Uint8Array(ex.memory.buffer, outPtr, outLen));
    ex.pvlint_free(outPtr, outLen);
    return text;
  };
  return { ex, call };
}

test("node:wasi runs the module and answers what the CLI prints", async () => {
  const { ex, call } = await load();
  assert.equal(ex.pvlint_abi_version(), 1);
  for (const dir of readdirSync(join(repo, "examples")).filter((d) => d.startsWith("seed-")).sort()) {
    for (const f of readdirSync(join(repo, "examples", dir)).filter((f) => f.endsWith(".yaml")).sort()) {
      const rel = `examples/${dir}/${f}`;
      const native = execFileSync(pvlint, ["lint", "--format", "json", "--fail-on", "never", rel], { cwd: repo, encoding: "utf8" });
      const answer = call("pvlint_lint", { sources: [{ name: rel, text: readFileSync(join(repo, rel), "utf8") }] });
      assert.equal(answer, native, rel);
    }
  }
  assert.match(call("pvlint_lint", { sources: 1 }), /"error":"invalid request/);
});
