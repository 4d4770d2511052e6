#!/usr/bin/env python3
"""Growth benchmarks: each shape users have at 1x, 2x, 4x and 8x, timed end to end.

Not a test: timings depend on the machine. Each shape is generated under target/growth/, then
`pvlint` runs on it as a user runs it (the whole process: start-up, reading the files, the
report written to a file); the fastest of --runs wall times is reported, with the growth per
doubling (time at 2N / time at N). Linear is 2.0.

    python3 harness/benches/growth.py                      # every shape, full size
    python3 harness/benches/growth.py --scale 0.01         # a hundredth (CI: it cannot rot)
    python3 harness/benches/growth.py --only kustomize     # shapes whose name contains it
    python3 harness/benches/growth.py --bin target/release/pvlint --markdown

Targets (issue 34): at most 2.2x per doubling up to 100,000 objects or 1,000 kustomization
roots; 1,000 kustomization roots and 5,000 files in under 2 s.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---------------------------------------------------------------------------------------------
# Object templates: the shapes real repositories have.


def claim(name, ns="apps", mode="ReadWriteOnce", cls=None, size="1Gi", volume=None):
    lines = [
        "apiVersion: v1",
        "kind: PersistentVolumeClaim",
        "metadata:",
        f"  name: {name}",
        f"  namespace: {ns}",
        "spec:",
        f"  accessModes: [{mode}]",
    ]
    if cls is not None:
        lines.append(f'  storageClassName: "{cls}"')
    if volume is not None:
        lines.append(f"  volumeName: {volume}")
    lines += ["  resources:", "    requests:", f"      storage: {size}"]
    return "\n".join(lines) + "\n"


def pod_template(name, claims):
    vols = "".join(
        f"      - name: v{i}\n        persistentVolumeClaim:\n          claimName: {c}\n"
        for i, c in enumerate(claims)
    )
    mounts = "".join(f"        - name: v{i}\n          mountPath: /data{i}\n" for i in range(len(claims)))
    out = (
        "  template:\n"
        "    metadata:\n"
        f"      labels: {{app: {name}}}\n"
        "    spec:\n"
        "      containers:\n"
        "      - name: app\n"
        "        image: registry.example/app:1.0\n"
    )
    if claims:
        out += "        volumeMounts:\n" + mounts + "      volumes:\n" + vols
    return out


def workload(kind, name, ns="apps", claims=(), replicas=1):
    api = "batch/v1" if kind == "Job" else "apps/v1"
    head = f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n"
    if kind != "Job":
        head += f"  selector:\n    matchLabels: {{app: {name}}}\n"
    if kind in ("Deployment", "StatefulSet"):
        head += f"  replicas: {replicas}\n"
    if kind == "Job":
        head += f"  parallelism: {replicas}\n"
    body = pod_template(name, list(claims))
    if kind == "Job":
        body = body.replace("      containers:", "      restartPolicy: Never\n      containers:")
    return head + body


def statefulset(name, ns="apps", replicas=3):
    return (
        workload("StatefulSet", name, ns, (), replicas)
        + f"  serviceName: {name}\n"
        + "  persistentVolumeClaimRetentionPolicy:\n    whenDeleted: Delete\n    whenScaled: Retain\n"
        + "  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n"
        + "      accessModes: [ReadWriteOnce]\n      resources:\n        requests:\n          storage: 1Gi\n"
    )


def volume(name, cls="manual", size="1Gi", mode="ReadWriteOnce"):
    return (
        "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n"
        f"  name: {name}\nspec:\n  capacity:\n    storage: {size}\n  accessModes: [{mode}]\n"
        f"  persistentVolumeReclaimPolicy: Retain\n  storageClassName: {cls}\n"
        f"  csi:\n    driver: ebs.csi.aws.com\n    volumeHandle: vol-{name}\n"
    )


def storageclass(name, default=False):
    ann = '  annotations:\n    storageclass.kubernetes.io/is-default-class: "true"\n' if default else ""
    return (
        f"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: {name}\n{ann}"
        "provisioner: ebs.csi.aws.com\nreclaimPolicy: Delete\nvolumeBindingMode: WaitForFirstConsumer\n"
    )


def docs(*parts):
    return "---\n".join(parts)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# ---------------------------------------------------------------------------------------------
# Shapes. Each takes (directory, n) and returns (arguments after `pvlint`, a description of n).


def unit(i, ns="apps"):
    """The issue's Deployment/StatefulSet-heavy unit: a RWO claim and the one-replica Deployment
    that mounts it, a 3-replica StatefulSet with claim templates and a Delete retention policy."""
    return docs(
        claim(f"data-{i}", ns),
        workload("Deployment", f"web-{i}", ns, [f"data-{i}"]),
        statefulset(f"db-{i}", ns),
    )


def shape_one_file(d, n):
    write(f"{d}/all.yaml", docs(*(unit(i) for i in range(n))))
    return ["lint", "--format", "json", d], f"{3 * n} objects in one file"


def shape_files(d, n):
    for i in range(n):
        write(f"{d}/app-{i:05}.yaml", unit(i))
    return ["lint", "--format", "json", d], f"{n} files in one directory"


def shape_dirs(d, n):
    for i in range(n):
        write(f"{d}/team-{i % 10}/app-{i:05}/app.yaml", unit(i))
    return ["lint", "--format", "json", d], f"{n} directories"


def shape_each_file(d, n):
    for i in range(n):
        write(f"{d}/app-{i:05}.yaml", unit(i))
    return ["lint", "--each-file", "--format", "json", d], f"{n} files, --each-file"


def shape_monorepo(d, n):
    """Independent examples, each a directory with its class, claim and Deployment."""
    for i in range(n):
        write(f"{d}/examples/ex-{i:05}/class.yaml", storageclass(f"fast-{i}"))
        write(
            f"{d}/examples/ex-{i:05}/app.yaml",
            docs(claim(f"data", "default", cls=f"fast-{i}"), workload("Deployment", "app", "default", ["data"])),
        )
    return ["lint", "--format", "json", d], f"{n} example directories"


def shape_kustomize(d, n):
    """A GitOps repository: N overlays, each a kustomization root over a base shared by ten
    overlays, a component, a patch and a remote base (not fetched)."""
    for b in range((n + 9) // 10):
        write(
            f"{d}/bases/b{b}/kustomization.yaml",
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- claim.yaml\n- app.yaml\n",
        )
        write(f"{d}/bases/b{b}/claim.yaml", claim("data", "default"))
        write(f"{d}/bases/b{b}/app.yaml", workload("Deployment", "app", "default", ["data"]))
    write(
        f"{d}/components/labels/kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  team: storage\n",
    )
    for i in range(n):
        write(
            f"{d}/clusters/c{i % 20}/app-{i:05}/kustomization.yaml",
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
            f"namespace: app-{i}\nresources:\n- ../../../bases/b{i // 10}\n- extra.yaml\n"
            "- https://github.com/example/remote//deploy?ref=v1.0.0\n"
            "components:\n- ../../../components/labels\n"
            "patches:\n- path: patch.yaml\n",
        )
        write(f"{d}/clusters/c{i % 20}/app-{i:05}/extra.yaml", claim("cache", f"app-{i}", size="2Gi"))
        write(
            f"{d}/clusters/c{i % 20}/app-{i:05}/patch.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  strategy:\n    type: Recreate\n",
        )
    return ["lint", "--format", "json", d], f"{n} kustomization roots"


def shape_kustomize_flat(d, n):
    """The issue's reproduction: N folders, each a kustomization naming one claim file."""
    for i in range(n):
        write(f"{d}/f{i:05}/kustomization.yaml", "resources:\n- claim.yaml\n")
        write(f"{d}/f{i:05}/claim.yaml", claim(f"data-{i}", "default"))
    return ["lint", "--format", "json", d], f"{n} kustomization roots (one claim each)"


def shape_workloads_shared(d, n):
    """Deployments, StatefulSets, DaemonSets and Jobs in one namespace, four of each kind
    sharing one claim."""
    parts = []
    for i in range(n):
        parts.append(claim(f"shared-{i}", mode="ReadWriteMany"))
        for k in ("Deployment", "DaemonSet", "Job"):
            for j in range(4):
                parts.append(workload(k, f"{k.lower()}-{i}-{j}", claims=[f"shared-{i}"]))
        parts.append(statefulset(f"sts-{i}"))
    write(f"{d}/all.yaml", docs(*parts))
    return ["lint", "--format", "json", d], f"{14 * n} objects, claims shared by 12 workloads"


def shape_workloads_many_ns(d, n):
    parts = {}
    for i in range(n):
        ns = f"ns-{i % 100}"
        parts.setdefault(ns, []).append(unit(i, ns))
        parts[ns].append(workload("DaemonSet", f"agent-{i}", ns, [f"data-{i}"]))
        parts[ns].append(workload("Job", f"batch-{i}", ns, [f"data-{i}"], replicas=2))
    for k, v in parts.items():
        write(f"{d}/{k}.yaml", docs(*v))
    return ["lint", "--format", "json", d], f"{5 * n} objects in 100 namespaces"


def shape_static_pool(d, n):
    """Claims against a large static pool: N volumes and N claims of one class, half of
    them too small, and a StatefulSet of N/2 replicas on the pool."""
    parts = [volume(f"pv-{i}", size="1Gi" if i % 2 else "10Gi") for i in range(n)]
    parts += [claim(f"c-{i}", cls="manual", size="5Gi") for i in range(n)]
    parts.append(
        statefulset("pool", replicas=n // 2).replace(
            "      accessModes: [ReadWriteOnce]", '      storageClassName: manual\n      accessModes: [ReadWriteOnce]'
        )
    )
    write(f"{d}/pool.yaml", docs(*parts))
    return ["lint", "--format", "json", d], f"{2 * n + 1} objects (static pool)"


def shape_simulate(d, n):
    parts = [storageclass("fast", default=True)]
    parts += [volume(f"pv-{i}", cls=("manual", "slow", "")[i % 3], size=f"{1 + i % 7}Gi") for i in range(n)]
    parts += [
        claim(f"c-{i}", cls=("manual", "slow", "", None)[i % 4], size=f"{1 + i % 5}Gi",
              mode=("ReadWriteOnce", "ReadWriteMany")[i % 2])
        for i in range(n)
    ]
    write(f"{d}/state.yaml", docs(*parts))
    return ["simulate", "--format", "json", f"{d}/state.yaml"], f"{n} volumes + {n} claims"


def shape_cluster_state(d, n):
    """A large cluster state (pvlint cluster --save's shape) given to lint with one manifest."""
    parts = [storageclass("fast", default=True)]
    for i in range(n):
        parts.append(volume(f"pvc-{i}", cls="fast"))
        parts.append(claim(f"c-{i}", ns=f"ns-{i % 50}", cls="fast", volume=f"pvc-{i}"))
    write(f"{d}/state.yaml", docs(*parts))
    write(f"{d}/app/app.yaml", unit(0))
    return ["lint", "--format", "json", "--cluster-state", f"{d}/state.yaml", f"{d}/app"], f"{2 * n} objects of state"


SHAPES = [
    # name, base n (1x), function
    ("objects-one-file", 4000, shape_one_file),
    ("files-one-directory", 1250, shape_files),
    ("directories", 1250, shape_dirs),
    ("each-file", 1250, shape_each_file),
    ("monorepo-examples", 625, shape_monorepo),
    ("kustomize-roots", 125, shape_kustomize),
    ("kustomize-flat", 125, shape_kustomize_flat),
    ("workloads-shared-claims", 750, shape_workloads_shared),
    ("workloads-many-namespaces", 2500, shape_workloads_many_ns),
    ("static-pool", 5000, shape_static_pool),
    ("simulate", 5000, shape_simulate),
    ("cluster-state", 5000, shape_cluster_state),
]


def run(binary, args, runs):
    times = []
    out = os.path.join(ROOT, "target", "growth", "out.json")
    for _ in range(runs):
        with open(out, "w") as f:
            t = time.perf_counter()
            p = subprocess.Popen([binary, *args], stdout=f, stderr=subprocess.PIPE)
            _, err = p.communicate()
            times.append(time.perf_counter() - t)
        if p.returncode not in (0, 1):
            sys.exit(f"pvlint {' '.join(args)} failed ({p.returncode}): {err.decode()[:2000]}")
    # The fastest run: on a shared machine the slower runs measure the neighbours, and one
    # slow run at one size would read as a step of growth that is not pvlint's.
    return min(times)


def overall(cells):
    """The growth per doubling from the smallest to the largest size: (t_last / t_first) to the
    power 1 / doublings, less sensitive to one noisy point than each step."""
    import math
    doublings = math.log2(cells[-1][0] / cells[0][0])
    return (cells[-1][2] / cells[0][2]) ** (1 / doublings) if doublings else 1.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pvlint"))
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every shape's size (CI: 0.01)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="", help="shapes whose name contains this")
    ap.add_argument("--factors", default="1,2,4,8")
    ap.add_argument("--limit", type=float, default=0.0,
                    help="exit 1 when a doubling grows more than this (0: report only)")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    factors = [int(x) for x in a.factors.split(",")]
    rows, worst = [], []
    for name, base, fn in SHAPES:
        if a.only and a.only not in name:
            continue
        cells = []
        for k in factors:
            d = os.path.join(ROOT, "target", "growth", name, f"{k}x")
            shutil.rmtree(d, ignore_errors=True)
            n = max(1, int(base * k * a.scale))
            args, what = fn(d, n)
            t = run(a.bin, args, a.runs)
            cells.append((k, what, t))
            shutil.rmtree(d, ignore_errors=True)
            print(f"  {name} {k}x: {what}: {t * 1000:.0f} ms", file=sys.stderr, flush=True)
        growth = [cells[i + 1][2] / cells[i][2] for i in range(len(cells) - 1)]
        rows.append((name, cells, growth))
        if a.limit and growth and max(growth) > a.limit:
            worst.append((name, max(growth)))
    if a.markdown:
        print("| shape | " + " | ".join(f"{k}x" for k in factors) + " | growth per doubling | overall |")
        print("|---|" + "---|" * (len(factors) + 2))
        for name, cells, growth in rows:
            print(
                f"| {name} ({cells[-1][1]} at {factors[-1]}x) | "
                + " | ".join(f"{t * 1000:.0f} ms" for _, _, t in cells)
                + " | " + ", ".join(f"{g:.2f}" for g in growth) + f" | {overall(cells):.2f} |"
            )
    else:
        for name, cells, growth in rows:
            print(f"{name:28} " + "  ".join(f"{t * 1000:8.0f} ms" for _, _, t in cells)
                  + "   growth " + " ".join(f"{g:.2f}" for g in growth)
                  + f"  overall {overall(cells):.2f}   ({cells[-1][1]} at {factors[-1]}x)")
    if worst:
        for name, g in worst:
            print(f"growth.py: {name} grows {g:.2f}x per doubling (limit {a.limit})", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
