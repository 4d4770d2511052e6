// Types of the Node.js entry: the same functions and types as the browser entry.
export * from "./pvlint_wasm.js";
import type { InitOutput } from "./pvlint_wasm.js";
/** Resolves at once: in Node the module is initialised when it is imported. */
export default function init(): Promise<InitOutput>;
