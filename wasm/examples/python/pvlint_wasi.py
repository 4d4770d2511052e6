#!/usr/bin/env python3
"""Lint Kubernetes manifests with pvlint's WASI core module from Python (wasmtime-py).

    pip install wasmtime
    python3 pvlint_wasi.py pvlint_wasm.wasm manifests.yaml [more.yaml ...]

The module is the one `cargo build -p pvlint-wasm --target wasm32-wasip1 --profile wasi-release`
builds; its ABI is described in docs/embedding.md.
"""
import json
import sys

from wasmtime import Engine, Linker, Module, Store, WasiConfig


class Pvlint:
    """pvlint's lint core, compiled once, instantiated per call."""

    def __init__(self, module_path):
        self.engine = Engine()
        self.module = Module.from_file(self.engine, module_path)
        self.linker = Linker(self.engine)
        self.linker.define_wasi()
        store, exports = self._instance()
        if exports["pvlint_abi_version"](store) != 1:
            raise RuntimeError("unsupported pvlint ABI version")

    def _instance(self):
        store = Store(self.engine)
        store.set_wasi(WasiConfig())
        instance = self.linker.instantiate(store, self.module)
        return store, instance.exports(store)

    def _call(self, export, request):
        store, ex = self._instance()
        memory = ex["memory"]
        data = json.dumps(request).encode("utf-8")
        ptr = ex["pvlint_alloc"](store, len(data))
        memory.write(store, data, ptr)
        packed = ex[export](store, ptr, len(data)) & 0xFFFF_FFFF_FFFF_FFFF
        ex["pvlint_free"](store, ptr, len(data))
        out_ptr, out_len = packed >> 32, packed & 0xFFFF_FFFF
        text = memory.read(store, out_ptr, out_ptr + out_len).decode("utf-8")
        ex["pvlint_free"](store, out_ptr, out_len)
        return text

    def version(self):
        store, ex = self._instance()
        packed = ex["pvlint_version"](store) & 0xFFFF_FFFF_FFFF_FFFF
        ptr, n = packed >> 32, packed & 0xFFFF_FFFF
        return ex["memory"].read(store, ptr, ptr + n).decode("utf-8")

    def lint_json(self, sources, cluster=(), options=None, each_file=False):
        """The report JSON text, exactly as `pvlint lint --format json` prints it."""
        request = {
            "sources": [{"name": n, "text": t} for n, t in sources],
            "cluster": [{"name": n, "text": t} for n, t in cluster],
            "options": options or {},
            "eachFile": each_file,
        }
        text = self._call("pvlint_lint", request)
        answer = json.loads(text)
        if "error" in answer:
            raise ValueError(answer["error"])
        return text

    def lint(self, sources, **kwargs):
        return json.loads(self.lint_json(sources, **kwargs))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    pvlint = Pvlint(argv[1])
    sources = []
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            sources.append((path, f.read()))
    report = pvlint.lint(sources)
    for f in report["findings"]:
        loc = f["location"]
        print(f'{loc["file"]}:{loc["line"]}:{loc["column"]}: {f["severity"]}[{f["rule"]}] {f["message"]}')
    s = report["summary"]
    print(f'pvlint {pvlint.version()} (WASI): {s["errors"]} errors, {s["warnings"]} warnings, {s["infos"]} infos')
    return 1 if s["errors"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
