#!/usr/bin/env python3
"""The naive model simulate's replay rate is compared with (docs/benchmarks.md): a single-threaded dictionary replay of a watch log.

Plain Python, no dependencies. Reads the same log as `headroom simulate` (one watch event per
line), keeps per-node dictionaries of pod requests and applies the proportional policy's core
(docs/design/policy.md: factor = 1 + slack / managed requests, burst floor, max multiplier,
quantum, grow/shrink deadbands) to the event's node after every event, applying each change at
once as a simulated actuator would. It is a yardstick for the engine's rate, not a second
implementation: no debounce, pending targets, backoff, LimitRanges, pools, tenancy or gangs, so
its decision and patch counts differ from the engine's.

    python3 tooling/bench/naive/naive_replay.py /tmp/trace.jsonl
"""
import json
import os
import sys
import time

FLOOR, MAX_MULT, GROW, SHRINK, QUANTUM = 1000, 10.0, 0.10, 0.05, 10


def milli(q):
    if q is None:
        return 0
    q = str(q)
    if q.endswith("m"):
        return int(float(q[:-1]))
    return int(round(float(q) * 1000))


def quantize(raw, request, hi):
    rem = raw % QUANTUM
    down = raw - rem
    t = down + QUANTUM if rem >= QUANTUM - QUANTUM // 2 and down <= hi - QUANTUM else down
    if t > hi:
        t -= QUANTUM
    return max(t, request)


def decide(node, alloc, pods, limits):
    """Targets for the node's managed pods; returns the pods whose limit changes."""
    total = sum(r for r, _ in pods.values())
    managed = [(u, r) for u, (r, m) in pods.items() if m]
    managed_req = sum(r for _, r in managed)
    slack = max(alloc - total, 0)
    changes = []
    for uid, req in managed:
        hi = max(min(alloc, int(round(req * MAX_MULT))), req)
        if slack > 0 and managed_req > 0:
            burst = int(round(max(slack * req / managed_req, min(FLOOR, slack / len(managed)))))
            target = quantize(min(max(req + burst, req), hi), req, hi)
        else:
            target = quantize(req, req, hi)
        cur = limits.get(uid, 0)
        if target == cur:
            continue
        if cur > 0 and abs(target - cur) / cur < (GROW if target > cur else SHRINK):
            continue
        changes.append((uid, target))
    return changes


def main(path):
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    alloc, nodes, where, limits, managed_ns = {}, {}, {}, {}, {}
    events = decisions = patches = 0
    with open(path, encoding="utf-8") as log:
        for line in log:
            if not line.strip():
                continue
            ev = json.loads(line)
            obj, deleted = ev["object"], ev["type"] == "DELETED"
            kind, meta = obj.get("kind"), obj.get("metadata", {})
            events += 1
            touched = None
            if kind == "Namespace":
                labels = meta.get("labels") or {}
                managed_ns[meta["name"]] = labels.get("kube-headroom.dev/mode") == "managed"
            elif kind == "Node":
                if deleted:
                    alloc.pop(meta["name"], None)
                else:
                    alloc[meta["name"]] = milli(obj["status"]["allocatable"].get("cpu"))
                    touched = meta["name"]
            elif kind == "Pod":
                uid, spec = meta["uid"], obj.get("spec", {})
                phase = obj.get("status", {}).get("phase")
                old = where.pop(uid, None)
                if old is not None:
                    nodes[old].pop(uid, None)
                    touched = old
                node = spec.get("nodeName")
                if not deleted and node and phase not in ("Succeeded", "Failed"):
                    req = sum(milli((c.get("resources") or {}).get("requests", {}).get("cpu"))
                              for c in spec.get("containers", []))
                    nodes.setdefault(node, {})[uid] = (req, managed_ns.get(meta.get("namespace"), False))
                    where[uid] = node
                    touched = node
                else:
                    limits.pop(uid, None)
            if touched in alloc:
                changes = decide(touched, alloc[touched], nodes.get(touched, {}), limits)
                if changes:
                    decisions += 1
                    patches += len(changes)
                    limits.update(changes)
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    print(f"naive python: {events} events, {decisions} decisions, {patches} patches, "
          f"{events / wall:.0f} events/s wall, {cpu * 100000 / events:.2f} CPU-s per 100k, "
          f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1])
