#!/usr/bin/env bash
# Regenerates lint-core/tests/ordinary/generated/: real tool output that pvlint must lint
# with no error and no warning (checked by lint-core/tests/ordinary.rs).
#
# Every file there is what kubectl itself prints, byte for byte; nothing is edited by hand:
#   - `kubectl create deployment|job|cronjob ... --dry-run=client -o yaml|json` (client-side
#     objects with `creationTimestamp: null`, `resources: {}` and `status: {}`);
#   - those piped through `kubectl patch --local -f - ... -o yaml` to add a claim and a
#     Recreate strategy / maxSurge 0 (how people script a first manifest);
#   - `kubectl label|annotate --local -f ... -o yaml|json` over hand-written claims (the
#     JSON one is a stream of objects, as kubectl prints several);
#   - `kubectl kustomize` of kustomize/base and kustomize/overlays/production.
# None of these contacts a cluster (`--dry-run=client`, `--local`, kustomize is offline);
# KUBECONFIG is pointed at an empty file so no real configuration is read.
#
# Needs: kubectl (written with v1.32.4, kustomize v5.5.0). CI does not need it; run it by
# hand after changing the kustomize sources or upgrading kubectl, then review the
# diff and run `cargo test -p pvlint-core --test ordinary`.
#
# Usage: bash lint-core/tests/ordinary/generate.sh [OUT_DIR]   (default: generated/ here)
# The test `generated_files_match_the_tools` runs it into a temporary folder and compares,
# when this kubectl/kustomize version is installed (otherwise it prints SKIPPED).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/generated}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$here"

empty_config="$(mktemp)"
trap 'rm -f "$empty_config"' EXIT
export KUBECONFIG="$empty_config"

k() { kubectl "$@"; }

# 1. Plain `kubectl create ... --dry-run=client` output.
k create deployment web --image=nginx:1.27 --replicas=1 --port=80 \
  --dry-run=client -o yaml >"$out/create-deployment-web.yaml"
k create deployment api --image=ghcr.io/example/api:2.3.0 --replicas=3 --port=8080 \
  --dry-run=client -o json >"$out/create-deployment-api.json"
k create job db-migrate --image=ghcr.io/example/api:2.3.0 \
  --dry-run=client -o yaml -- /app/migrate --to latest >"$out/create-job-db-migrate.yaml"
k create cronjob cleanup --image=busybox:1.36 --schedule='*/30 * * * *' \
  --dry-run=client -o yaml -- sh -c 'find /tmp -mtime +1 -delete' >"$out/create-cronjob-cleanup.yaml"

# 2. Deployments and a CronJob given a claim with `kubectl patch --local`.
k create deployment wiki --image=ghcr.io/requarks/wiki:2.5 --port=3000 \
  --dry-run=client -o yaml |
  k patch --local -f - --type=strategic -o yaml -p '{
    "spec": {
      "strategy": {"type": "Recreate"},
      "template": {"spec": {
        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "wiki-data"}}],
        "containers": [{"name": "wiki", "volumeMounts": [{"name": "data", "mountPath": "/wiki/data"}]}]
      }}
    }
  }' >"$out/patch-deployment-recreate-with-claim.yaml"

k create deployment uptime-kuma --image=louislam/uptime-kuma:1.23.13 --port=3001 \
  --dry-run=client -o yaml |
  k patch --local -f - --type=strategic -o yaml -p '{
    "spec": {
      "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}},
      "template": {"spec": {
        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "uptime-kuma"}}],
        "containers": [{"name": "uptime-kuma", "volumeMounts": [{"name": "data", "mountPath": "/app/data"}]}]
      }}
    }
  }' >"$out/patch-deployment-maxsurge0-with-claim.yaml"

k create deployment static-site --image=nginx:1.27 --replicas=3 --port=80 \
  --dry-run=client -o yaml |
  k patch --local -f - --type=strategic -o yaml -p '{
    "spec": {"template": {"spec": {
      "volumes": [{"name": "html", "persistentVolumeClaim": {"claimName": "site-content", "readOnly": true}}],
      "containers": [{"name": "nginx", "volumeMounts": [{"name": "html", "mountPath": "/usr/share/nginx/html", "readOnly": true}]}]
    }}}
  }' >"$out/patch-deployment-rwx-claim.yaml"

k create cronjob restic-backup --image=restic/restic:0.17.0 --schedule='15 2 * * *' \
  --dry-run=client -o yaml -- restic backup /data |
  k patch --local -f - --type=merge -o yaml -p '{
    "spec": {
      "concurrencyPolicy": "Forbid",
      "jobTemplate": {"spec": {"template": {"spec": {
        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "wiki-data", "readOnly": true}}],
        "containers": [{"name": "restic-backup", "image": "restic/restic:0.17.0",
          "args": ["backup", "/data"],
          "volumeMounts": [{"name": "data", "mountPath": "/data", "readOnly": true}]}]
      }}}}
    }
  }' >"$out/patch-cronjob-backup-with-claim.yaml"

# 3. Hand-written claims passed through `kubectl label/annotate --local`.
# With several objects, `-o yaml` prints them one after another WITHOUT `---` separators
# (kubectl reads such a file back as one object, the last one), so the YAML files are made
# one claim per command; `-o json` prints a stream of JSON objects, which kubectl reads back
# as all of them, so the annotated set is one JSON stream.
tmp="$(mktemp -d)"
trap 'rm -rf "$empty_config" "$tmp"' EXIT
claim() { # name access-mode size [class]
  printf 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: %s\nspec:\n' "$1"
  printf '  accessModes: [%s]\n' "$2"
  if [ -n "${4:-}" ]; then printf '  storageClassName: %s\n' "$4"; fi
  printf '  resources:\n    requests:\n      storage: %s\n' "$3"
}
claim wiki-data ReadWriteOnce 10Gi standard-rwo >"$tmp/wiki-data.yaml"
claim site-content ReadWriteMany 2Gi nfs-csi >"$tmp/site-content.yaml"
claim uptime-kuma ReadWriteOnce 1Gi >"$tmp/uptime-kuma.yaml"
for name in wiki-data site-content uptime-kuma; do
  k label --local -f "$tmp/$name.yaml" -o yaml app.kubernetes.io/part-of=tools \
    >"$out/label-claim-$name.yaml"
done
k annotate --local -f "$tmp/wiki-data.yaml" -f "$tmp/site-content.yaml" \
  -f "$tmp/uptime-kuma.yaml" -o json backup.velero.io/backup-volumes-excludes=cache \
  >"$out/annotate-claims-stream.json"

# 4. kustomize.
k kustomize kustomize/base >"$out/kustomize-base.yaml"
k kustomize kustomize/overlays/production >"$out/kustomize-production.yaml"

echo "regenerated $(ls "$out" | wc -l) files in $out"
