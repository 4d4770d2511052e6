// Node.js entry of the pvlint-wasm package: the browser API, ready at import. The module is
// read from this package's folder and compiled synchronously, so `lint` works without
// `await init()`; `init()` is kept (it resolves at once) so the same code runs everywhere.
import { readFileSync } from "node:fs";
import { initSync } from "./pvlint_wasm.js";

const output = initSync({ module: readFileSync(new URL("./pvlint_wasm_bg.wasm", import.meta.url)) });

export * from "./pvlint_wasm.js";

/** Resolves at once: in Node the module is initialised when it is imported. */
export default async function init() {
  return output;
}
