#!/usr/bin/env python3
"""An independent inventory of the storage hazards a reviewer would expect in a tree of
manifests, to measure pvlint's recall against (issue 36). It shares no code with pvlint: it
reads the raw objects with PyYAML and applies a reviewer's rules of thumb, each a plain
reading of the Kubernetes behaviour, not pvlint's model.

    python3 inventory.py DIR...                 # the hazards, as JSON lines
    python3 inventory.py --recall REPORT DIR... # and, against `pvlint lint --format json
                                                # --fail-on never DIR...`, recall per class

A hazard is (class, file, kind, namespace, name, why). Files of one directory form one apply
set, as `kubectl apply -f DIR` reads them. A hazard counts as reported when pvlint has a
finding of one of the class's rules, at any severity, on the same object.
"""

import json
import os
import sys
from collections import defaultdict

import yaml


REMOVED = {
    # apiVersion → kinds no longer served by Kubernetes 1.34 (the deprecation guide).
    "extensions/v1beta1": None,
    "apps/v1beta1": None,
    "apps/v1beta2": None,
    "batch/v1beta1": {"CronJob"},
    "policy/v1beta1": None,
    "rbac.authorization.k8s.io/v1beta1": None,
    "apiextensions.k8s.io/v1beta1": None,
    "admissionregistration.k8s.io/v1beta1": None,
    "networking.k8s.io/v1beta1": None,
    "storage.k8s.io/v1beta1": {"CSIDriver", "CSINode", "StorageClass", "VolumeAttachment", "CSIStorageCapacity"},
    "scheduling.k8s.io/v1beta1": None,
    "autoscaling/v2beta1": None,
    "autoscaling/v2beta2": None,
    "snapshot.storage.k8s.io/v1beta1": None,
}

RULES = {
    "rwo-surge": {"rwo-rolling-surge", "rwo-shared-by-replicas"},
    "stale-identity": {"stale-claim-ref-uid", "server-populated-fields", "bind-completed-without-volume",
                       "claim-ref-conflict", "stale-owner-reference", "dangling-volume-name", "claim-will-be-lost"},
    "delete-on-existing-storage": {"delete-policy-on-imported-volume", "delete-policy-on-existing-storage",
                                   "delete-policy-without-finalizer", "delete-policy-in-tree", "volume-will-be-deleted"},
    "retention-delete": {"retention-deletes-data"},
    "unserved-api": {"removed-api-version"},
    "missing-claim": {"missing-claim"},
    "rejected-on-create": {"invalid-field-value", "unknown-field"},
    "driver-refuses": {"unbindable-claim", "claim-pending"},
}

# What a reviewer reads in each driver's documentation: (refused access modes with a file
# system, refused with a raw block volume, serves Block at all, ReadOnlyMany only from a data
# source, clones, restores snapshots). None: not known.
DRIVERS = {
    "ebs.csi.aws.com": ({"ReadOnlyMany", "ReadWriteMany"}, {"ReadOnlyMany"}, True, False, None, None),
    "pd.csi.storage.gke.io": ({"ReadWriteMany"}, set(), True, False, True, True),
    "disk.csi.azure.com": ({"ReadOnlyMany", "ReadWriteMany"}, set(), True, False, True, True),
    "csi.vsphere.vmware.com": (set(), {"ReadOnlyMany", "ReadWriteMany"}, True, False, False, True),
    "dobs.csi.digitalocean.com": ({"ReadOnlyMany", "ReadWriteMany"}, {"ReadOnlyMany", "ReadWriteMany"}, True, False, False, True),
    "csi.hetzner.cloud": ({"ReadOnlyMany", "ReadWriteMany"}, {"ReadOnlyMany", "ReadWriteMany"}, True, False, False, False),
    "linodebs.csi.linode.com": (set(), set(), True, False, True, False),
    "rbd.csi.ceph.com": ({"ReadWriteMany"}, set(), True, True, True, True),
    "cephfs.csi.ceph.com": (set(), set(), False, True, True, True),
    "driver.longhorn.io": ({"ReadOnlyMany"}, {"ReadOnlyMany"}, True, False, True, True),
    "efs.csi.aws.com": ({"ReadOnlyMany"}, {"ReadOnlyMany"}, False, False, False, False),
    "fsx.csi.aws.com": ({"ReadOnlyMany"}, {"ReadOnlyMany"}, True, False, False, False),
    "file.csi.azure.com": (set(), set(), False, False, True, True),
    "blob.csi.azure.com": (set(), set(), False, False, True, False),
    "filestore.csi.storage.gke.io": (set(), set(), False, False, False, True),
    "manila.csi.openstack.org": (set(), set(), False, False, False, True),
    "csi.juicefs.com": (set(), set(), False, False, False, True),
    "nfs.csi.k8s.io": (set(), set(), False, False, True, True),
    "smb.csi.k8s.io": (set(), set(), False, False, True, False),
}


def driver_facts(provisioner):
    if not isinstance(provisioner, str):
        return None
    for name, facts in DRIVERS.items():
        if provisioner == name or (name.endswith("ceph.com") and provisioner.endswith("." + name)):
            return facts
    return None


def refused_by_driver(claim, provisioner):
    """Why the class's driver cannot make this claim's volume, or None."""
    facts = driver_facts(provisioner)
    if facts is None:
        return None
    fs_refused, block_refused, serves_block, rox_needs_source, clones, restores = facts
    s = spec(claim)
    modes = {m for m in (s.get("accessModes") or []) if isinstance(m, str)}
    block = s.get("volumeMode") == "Block"
    source = s.get("dataSourceRef") if isinstance(s.get("dataSourceRef"), dict) else s.get("dataSource")
    source = source if isinstance(source, dict) else None
    if source is not None and source.get("kind") == "PersistentVolumeClaim" and clones is False:
        return "the driver does not clone"
    if source is not None and source.get("kind") == "VolumeSnapshot" and restores is False:
        return "the driver does not restore snapshots"
    if modes & (block_refused if block else fs_refused):
        return f"the driver refuses {sorted(modes)} with volumeMode {'Block' if block else 'Filesystem'}"
    if block and not serves_block:
        return "the driver has no block volumes"
    if rox_needs_source and "ReadOnlyMany" in modes and source is None:
        return "ReadOnlyMany without a data source"
    return None


def documents(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    try:
        for doc in yaml.load_all(text, Loader=yaml.SafeLoader):
            if isinstance(doc, dict):
                if doc.get("kind") == "List" and isinstance(doc.get("items"), list):
                    out.extend(d for d in doc["items"] if isinstance(d, dict))
                else:
                    out.append(doc)
    except yaml.YAMLError:
        return out
    return out


def meta(o):
    m = o.get("metadata")
    return m if isinstance(m, dict) else {}


def spec(o):
    s = o.get("spec")
    return s if isinstance(s, dict) else {}


def pod_spec(o):
    kind = o.get("kind")
    if kind == "Pod":
        return spec(o)
    t = spec(o).get("template")
    if kind == "CronJob":
        jt = spec(o).get("jobTemplate")
        t = spec(jt).get("template") if isinstance(jt, dict) else None
    return spec(t) if isinstance(t, dict) else {}


def claims_mounted(o):
    vols = pod_spec(o).get("volumes")
    out = []
    for v in vols if isinstance(vols, list) else []:
        if isinstance(v, dict) and isinstance(v.get("persistentVolumeClaim"), dict):
            name = v["persistentVolumeClaim"].get("claimName")
            if isinstance(name, str):
                out.append(name)
    return out


def templated(o):
    """A value a renderer fills in: the inventory leaves such objects alone, as a reviewer would."""
    text = json.dumps(o, default=str)
    return "{{" in text or "${" in text


def surges(o):
    """A Deployment's rolling update starts a new pod before the old one stops."""
    strategy = spec(o).get("strategy")
    if isinstance(strategy, dict) and strategy.get("type") == "Recreate":
        return False
    ru = strategy.get("rollingUpdate") if isinstance(strategy, dict) else None
    surge = ru.get("maxSurge", "25%") if isinstance(ru, dict) else "25%"
    return surge not in (0, "0", "0%")


def inventory(dirs):
    by_dir = defaultdict(list)
    for root in dirs:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("vendor", "node_modules"))
            for f in sorted(filenames):
                if f.endswith((".yaml", ".yml", ".json")):
                    path = os.path.join(dirpath, f)
                    for o in documents(path):
                        if isinstance(o.get("kind"), str):
                            by_dir[dirpath].append((path, o))
    hazards = []

    def add(cls, path, o, why):
        m = meta(o)
        hazards.append({"class": cls, "file": path, "kind": o.get("kind"), "namespace": m.get("namespace") or "",
                        "name": str(m.get("name", "")), "why": why})

    for _, objects in sorted(by_dir.items()):
        claims = {}
        classes = {}
        for path, o in objects:
            if o.get("kind") == "PersistentVolumeClaim":
                claims[(meta(o).get("namespace") or "default", str(meta(o).get("name")))] = o
            if o.get("kind") == "StorageClass":
                classes[str(meta(o).get("name"))] = o.get("provisioner")
        for path, o in objects:
            if templated(o):
                continue
            kind, m, s = o.get("kind"), meta(o), spec(o)
            ns = m.get("namespace") or "default"
            api = o.get("apiVersion")
            removed = REMOVED.get(api, False) if isinstance(api, str) else False
            if removed is None or (isinstance(removed, set) and kind in removed):
                add("unserved-api", path, o, f"{api} {kind} is not served")
            # Stale identity: what a cluster wrote, copied into a manifest.
            if kind == "PersistentVolume" and isinstance(s.get("claimRef"), dict) and s["claimRef"].get("uid"):
                add("stale-identity", path, o, "claimRef.uid")
            ann = m.get("annotations") if isinstance(m.get("annotations"), dict) else {}
            if kind == "PersistentVolumeClaim" and "pv.kubernetes.io/bind-completed" in ann:
                add("stale-identity", path, o, "bind-completed annotation")
            if kind == "PersistentVolumeClaim" and isinstance(m.get("ownerReferences"), list) and any(
                    isinstance(r, dict) and r.get("uid") for r in m["ownerReferences"]):
                add("stale-identity", path, o, "ownerReferences uid")
            # Delete on storage this input did not provision.
            if kind == "PersistentVolume" and s.get("persistentVolumeReclaimPolicy") == "Delete":
                if "pv.kubernetes.io/provisioned-by" in ann or isinstance(s.get("csi"), dict):
                    add("delete-on-existing-storage", path, o, "static PV with Delete handed to a deleter")
            if kind == "PersistentVolumeClaim" and not s.get("volumeName") and not s.get("selector"):
                why = refused_by_driver(o, classes.get(s.get("storageClassName")))
                if why:
                    add("driver-refuses", path, o, why)
            if kind == "StatefulSet":
                rp = s.get("persistentVolumeClaimRetentionPolicy")
                if isinstance(rp, dict) and "Delete" in (rp.get("whenDeleted"), rp.get("whenScaled")):
                    add("retention-delete", path, o, "claim retention Delete")
            # What the API server refuses on create: a container without an image, a mount of
            # a volume the pod does not have (a StatefulSet's pod template is not validated),
            # an exported Job whose template carries its old controller-uid.
            if kind in ("Deployment", "DaemonSet", "Job", "CronJob", "Pod", "ReplicaSet"):
                ps = pod_spec(o)
                vols = ps.get("volumes")
                names = {v.get("name") for v in vols if isinstance(v, dict)} if isinstance(vols, list) else set()
                for list_key in ("containers", "initContainers"):
                    cs = ps.get(list_key)
                    for c in cs if isinstance(cs, list) else []:
                        if not isinstance(c, dict):
                            continue
                        if not c.get("image"):
                            add("rejected-on-create", path, o, f"container {c.get('name')} has no image")
                        for field in ("volumeMounts", "volumeDevices"):
                            ms = c.get(field)
                            for mt in ms if isinstance(ms, list) else []:
                                if isinstance(mt, dict) and mt.get("name") and mt["name"] not in names \
                                        and (vols is None or isinstance(vols, list)):
                                    add("rejected-on-create", path, o, f"mounts volume {mt['name']}, not in the pod")
            if kind == "Job" and s.get("manualSelector") is not True:
                t = s.get("template") if isinstance(s.get("template"), dict) else {}
                labels = meta(t).get("labels") if isinstance(meta(t).get("labels"), dict) else {}
                if "controller-uid" in labels or "batch.kubernetes.io/controller-uid" in labels:
                    add("rejected-on-create", path, o, "exported Job: template labelled with its old uid")
            if kind in ("Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "Pod", "ReplicaSet"):
                for name in claims_mounted(o):
                    c = claims.get((ns, name))
                    if c is None:
                        add("missing-claim", path, o, f"mounts claim {name}, not in its directory")
                        continue
                    modes = spec(c).get("accessModes") or []
                    rwo = any(x in ("ReadWriteOnce", "ReadWriteOncePod") for x in modes if isinstance(x, str))
                    replicas = s.get("replicas", 1)
                    if rwo and kind == "Deployment" and (surges(o) or (isinstance(replicas, int) and replicas > 1)):
                        add("rwo-surge", path, o, f"ReadWriteOnce claim {name} under a surging rolling update")
    return hazards


def recall(hazards, report_path):
    with open(report_path) as f:
        report = json.load(f)
    found = defaultdict(set)
    by_file = defaultdict(list)
    skipped = {s["file"] for s in report.get("skipped", [])}
    for fi in report["findings"] + report.get("suppressed", []):
        o = fi.get("object") or {}
        file = os.path.normpath(fi["location"]["file"])
        found[(file, o.get("kind"), o.get("name"))].add(fi["rule"])
        by_file[os.path.dirname(file)].append((fi["rule"], fi["message"]))
    per = defaultdict(lambda: [0, 0])
    misses = defaultdict(list)
    for h in hazards:
        if h["file"] in skipped:
            continue
        file = os.path.normpath(h["file"])
        rules = found.get((file, h["kind"], h["name"]), set())
        # One finding may stand for several objects ("Deployment a (and 2 more) mounts claim
        # c"), located at the first: a finding of the class in the same directory (apply set)
        # that names the claim counts too.
        claim = h["why"].split("claim ", 1)[1].split(",")[0].split(" ")[0] if "claim " in h["why"] else None
        named = claim is not None and any(
            r in RULES[h["class"]] and f"claim {claim}" in m for r, m in by_file.get(os.path.dirname(file), []))
        per[h["class"]][1] += 1
        if rules & RULES[h["class"]] or named:
            per[h["class"]][0] += 1
        else:
            misses[h["class"]].append(h)
    return per, misses


def main(argv):
    if argv[:1] == ["--recall"]:
        report, dirs = argv[1], argv[2:]
        hazards = inventory(dirs)
        per, misses = recall(hazards, report)
        total = [0, 0]
        print("| class | reported | present | recall |\n|---|---|---|---|")
        for cls in sorted(per):
            got, n = per[cls]
            total[0] += got
            total[1] += n
            print(f"| {cls} | {got} | {n} | {100 * got / n:.0f} % |")
        if total[1]:
            print(f"| all | {total[0]} | {total[1]} | {100 * total[0] / total[1]:.0f} % |")
        for cls, ms in sorted(misses.items()):
            for h in ms:
                print(f"miss {cls}: {h['file']} {h['kind']} {h['namespace']}/{h['name']}: {h['why']}", file=sys.stderr)
        return 0
    for h in inventory(argv):
        print(json.dumps(h))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
