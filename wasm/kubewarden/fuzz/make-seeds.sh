#!/usr/bin/env bash
# Writes every fixture's request as a `validate` payload ({"request": ..., "settings": ...})
# into fuzz/seeds/validate, the fuzzer's starting corpus.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p seeds/validate
for d in ../tests/fixtures/*/; do
  name=$(basename "$d")
  python3 - "$d" > "seeds/validate/$name.json" <<'PY'
import json, sys
d = sys.argv[1]
req = json.load(open(d + "request.json"))
print(json.dumps({"request": req.get("request", req), "settings": {}}))
PY
done
