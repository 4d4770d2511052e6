"""The Python embedding gives exactly what the native CLI gives.

    PVLINT_WASM_MODULE=target/wasm32-wasip1/wasi-release/pvlint_wasm.wasm \
    PVLINT_BIN=target/debug/pvlint python3 -m unittest discover -s wasm/examples/python -v
"""
import os
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from pvlint_wasi import Pvlint, main  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
MODULE = (
    os.environ.get("PVLINT_WASM_MODULE")
    or os.environ.get("PVLINT_WASI_MODULE")
    or str(REPO / "target/wasm32-wasip1/wasi-release/pvlint_wasm.wasm")
)
PVLINT = os.environ.get("PVLINT_BIN", str(REPO / "target/debug/pvlint"))


class EmbeddingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pvlint = Pvlint(MODULE)

    def test_same_json_as_the_native_cli(self):
        for example in sorted((REPO / "examples").glob("seed-*/*.yaml")):
            rel = str(example.relative_to(REPO))
            native = subprocess.run(
                [PVLINT, "lint", "--format", "json", "--fail-on", "never", rel],
                cwd=REPO, capture_output=True, text=True, check=True,
            ).stdout
            ours = self.pvlint.lint_json([(rel, example.read_text(encoding="utf-8"))])
            self.assertEqual(ours, native, rel)

    def test_seed_000_is_caught(self):
        path = REPO / "examples/seed-000-dr-migration/broken.yaml"
        report = self.pvlint.lint([("broken.yaml", path.read_text(encoding="utf-8"))])
        rules = {(f["rule"], f["location"]["line"]) for f in report["findings"]}
        self.assertIn(("stale-claim-ref-uid", 46), rules)

    def test_bad_requests_raise(self):
        with self.assertRaises(ValueError):
            self.pvlint.lint([("a.yaml", "")], options={"kubeVersion": "latest"})

    def test_command_line(self):
        path = str(REPO / "examples/seed-001-phase-transitions/broken.yaml")
        self.assertEqual(main(["pvlint_wasi.py", MODULE, path]), 1)


if __name__ == "__main__":
    unittest.main()
