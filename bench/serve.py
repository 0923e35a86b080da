#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bench/serve's helpers (bench/serve runs them):

    serve.py watch OUT MSTLAB LAB     watch --json, each line stamped on arrival
    serve.py page URL OUT STOP        the page in chromium; its latencies at STOP
    serve.py clients URL N OUT STOP   N event streams read until STOP

URL is the one mstlab serve printed, with its ?token=.
    serve.py analyse RUN_DIR DIR      the figures
"""
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "lib"))


def watch(out, mstlab, lab):
    p = subprocess.Popen([mstlab, "watch", lab, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    with open(out, "w") as f:
        for line in p.stdout:
            f.write("%d %s" % (time.time_ns(), line.decode()))
            f.flush()


def page(url, out, stop):
    from cdp import Browser
    with Browser() as b:
        pg = b.open(url)
        pg.wait("window.mstlab && mstlab.ready", 30)
        while not os.path.exists(stop):
            b.pump(0.5)
        lat = pg.eval("mstlab.latencies")
        errors = pg.errors()
    with open(out, "w") as f:
        json.dump({"latencies": lat, "errors": errors}, f)


def clients(url, n, out, stop):
    u = urllib.parse.urlparse(url)
    token = urllib.parse.parse_qs(u.query)["token"][0]
    got = [0] * n
    events = [0] * n
    ended = [None] * n

    def one(i):
        # From 127.0.0.10 on, 25 streams an address: serve takes 32
        # streams an address at most.
        s = socket.create_connection((u.hostname, u.port), source_address=(
            "127.0.0.%d" % (10 + i // 25), 0))
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: %s:%d\r\n"
                  b"Authorization: Bearer %s\r\n\r\n"
                  % (u.hostname.encode(), u.port, token.encode()))
        s.settimeout(0.5)
        while not os.path.exists(stop):
            try:
                b = s.recv(65536)
            except socket.timeout:
                continue
            if not b:
                ended[i] = "closed by the server"
                break
            got[i] += len(b)
            events[i] += b.count(b"event: change")
        s.close()

    th = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    with open(out, "w") as f:
        json.dump({"bytes": got, "changes": events, "ended": ended}, f)


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))] if v else float("nan")


def latency_figures(d):
    """Capture time to arrival, page against watch, for the same changes."""
    with open(os.path.join(d, "page.json")) as f:
        pg = json.load(f)
    page_ms = {}
    for x in pg["latencies"]:
        page_ms.setdefault((x["type"], int(x["ns"])), []).append(
            x["at_ms"] - int(x["ns"]) / 1e6)
    watch_ms = {}
    with open(os.path.join(d, "watch.txt")) as f:
        for line in f:
            at, _, text = line.partition(" ")
            o = json.loads(text)
            if o.get("type") == "state":
                continue
            watch_ms.setdefault((o["type"], o["ns"]), []).append(
                (int(at) - o["ns"]) / 1e6)
    both = sorted(set(page_ms) & set(watch_ms))
    p = [v for k in both for v in page_ms[k]]
    w = [v for k in both for v in watch_ms[k]]
    return {"events": len(both), "page_p50_ms": pct(p, 50),
            "page_p99_ms": pct(p, 99), "page_max_ms": max(p) if p else None,
            "watch_p50_ms": pct(w, 50), "watch_p99_ms": pct(w, 99),
            "watch_max_ms": max(w) if w else None,
            "page_only": len(set(page_ms) - set(watch_ms)),
            "watch_only": len(set(watch_ms) - set(page_ms)),
            "page_errors": pg["errors"]}


def check_key(c):
    return (c["name"], c.get("tree"), c.get("link"))


def figures(sc):
    """Every figure of a scenario's trees, flattened: name -> values."""
    out = {}
    for t in sc["trees"]:
        for k, vals in t["figures"].items():
            out.setdefault(f"{t['tree']} {k}", []).extend(
                v for v in vals if v is not None)
    for c in sc["checks"]:
        for k, v in c["figures"].items():
            if v is not None:
                out.setdefault(f"{c['name']} {k}", []).append(v)
    return out


def mstd_reactions(run_dir):
    """Per bridge, mstd's reaction to each carrier loss, from its log:
    (roles settled ms, topology change ms), in order."""
    out = {}
    for node in sorted(os.listdir(os.path.join(run_dir, "share"))):
        log = os.path.join(run_dir, "share", node, "mstd.log")
        if not os.path.exists(log):
            continue
        r = subprocess.run(["awk", "-v", f"node={node}", "-f",
                            os.path.join(os.path.dirname(__file__),
                                         "mstd_reaction.awk"), log],
                           capture_output=True, text=True).stdout
        for line in r.splitlines():
            # "    mstd on sw1, p1 down: roles settled +12 ms, topology change +13 ms"
            try:
                roles = float(line.split("roles settled +")[1].split(" ms")[0])
                tc = float(line.split("topology change +")[1].split(" ms")[0])
            except IndexError:
                continue
            out.setdefault(node, []).append((roles, tc))
    return out


KINDS = {"quiet": ("quiet1", "quiet2"), "loaded": ("loaded1", "loaded2")}


def pooled(scs):
    out = {}
    for sc in scs:
        for k, v in figures(sc).items():
            out.setdefault(k, []).extend(v)
    return out


def ratios_of(a, b):
    """Median of each figure in b over its median in a."""
    r = {}
    for k in sorted(set(a) & set(b)):
        x, y = statistics.median(a[k]), statistics.median(b[k])
        if x > 0:
            r[k] = {"a": x, "b": y, "ratio": y / x}
    return r


def analyse(run_dir, d):
    with open(os.path.join(run_dir, "summary.json")) as f:
        s = json.load(f)
    sc = {x["name"]: x for x in s["scenarios"]}
    res = {"latency": latency_figures(d)}
    verdict = {}
    for kind, names in KINDS.items():
        verdict[kind] = {n: (sc[n]["result"], sc[n]["counts"]) for n in names}
    res["verdicts"] = verdict
    # A check of one kind whose result differs in the other kind.
    res["verdicts"]["differ"] = []
    for i in range(2):
        q, l = sc[KINDS["quiet"][i]], sc[KINDS["loaded"][i]]
        qc = {check_key(c): c["result"] for c in q["checks"]}
        lc = {check_key(c): c["result"] for c in l["checks"]}
        res["verdicts"]["differ"] += [f"{q['name']}/{l['name']} {k}: "
                                      f"{qc.get(k)} / {lc.get(k)}"
                                      for k in sorted(set(qc) | set(lc), key=str)
                                      if qc.get(k) != lc.get(k)]
    qf = pooled(sc[n] for n in KINDS["quiet"])
    lf = pooled(sc[n] for n in KINDS["loaded"])
    res["figures"] = ratios_of(qf, lf)
    # The headline: every tree's settle time of every event, and every
    # flow's outage, pooled per kind (medians of 8 values flip between
    # the two modes TCG gives a settle time, ~50 ms and ~0.8 s).
    res["pooled"] = {}
    for fig in ("settle_s", "outage_ms"):
        per = {n: [v for t in sc[n]["trees"]
                   for v in t["figures"].get(fig, []) if v is not None]
               for n in ("quiet1", "loaded1", "quiet2", "loaded2")}
        q = per["quiet1"] + per["quiet2"]
        l = per["loaded1"] + per["loaded2"]
        if q and l and statistics.mean(q) > 0 and statistics.mean(per["quiet1"]) > 0:
            res["pooled"][fig] = {
                "quiet_mean": statistics.mean(q), "loaded_mean": statistics.mean(l),
                "ratio": statistics.mean(l) / statistics.mean(q),
                "noise": statistics.mean(per["quiet2"]) / statistics.mean(per["quiet1"]),
                "n": len(q)}
    # The noise: the same between the two quiet scenarios.
    res["noise"] = ratios_of(figures(sc["quiet1"]), figures(sc["quiet2"]))
    # mstd: each bridge's reactions in order, a quarter per scenario.
    mr = {}
    for node, v in mstd_reactions(run_dir).items():
        k = len(v) // 4
        if not k:
            continue
        part = {n: v[i * k:(i + 1) * k] for i, n in
                enumerate(("quiet1", "loaded1", "quiet2", "loaded2"))}
        q = part["quiet1"] + part["quiet2"]
        l = part["loaded1"] + part["loaded2"]
        mr[node] = {"quiet_roles_ms": statistics.median(x[0] for x in q),
                    "loaded_roles_ms": statistics.median(x[0] for x in l),
                    "quiet_tc_ms": statistics.median(x[1] for x in q),
                    "loaded_tc_ms": statistics.median(x[1] for x in l),
                    "losses": len(v)}
    res["mstd"] = mr
    cl = {"bytes": [], "changes": [], "ended": []}
    for n in KINDS["loaded"]:
        p = os.path.join(d, f"clients-{n}.json")
        if os.path.exists(p):
            with open(p) as f:
                c = json.load(f)
            for k in cl:
                cl[k] += c[k]
    res["clients"] = {"streams": len(cl["bytes"]),
                      "dropped": sum(1 for e in cl["ended"] if e),
                      "changes_min": min(cl["changes"], default=0),
                      "changes_max": max(cl["changes"], default=0),
                      "bytes_total": sum(cl["bytes"])}
    cpu = {}
    for phase in ("quiet", "loaded"):
        p = os.path.join(d, f"cpu-{phase}")
        if os.path.exists(p):
            with open(p) as f:
                cpu[phase] = f.read().split()
    res["serve_cpu"] = cpu
    with open(os.path.join(d, "figures.json"), "w") as f:
        json.dump(res, f, indent=1)
    summary(res)


def summary(res):
    la = res["latency"]
    print(f"event to browser, {la['events']} changes (capture time -> "
          f"arrival): page p50 {la['page_p50_ms']:.1f} ms, p99 "
          f"{la['page_p99_ms']:.1f} ms; watch --json p50 "
          f"{la['watch_p50_ms']:.1f} ms, p99 {la['watch_p99_ms']:.1f} ms")
    for kind in KINDS:
        print(f"verdicts {kind}: " + ", ".join(
            f"{n} {r} ({c['checks']} checks, {c['failed']} failed, "
            f"{c['skipped']} skipped)" for n, (r, c) in res["verdicts"][kind].items()))
    print("checks that differ: " + ("; ".join(res["verdicts"]["differ"]) or "none"))
    for fig, p in res["pooled"].items():
        print(f"load ratio, {fig} of every tree and event (mean, {p['n']} a kind): "
              f"{p['quiet_mean']:.3f} -> {p['loaded_mean']:.3f} = {p['ratio']:.2f}"
              f" (noise, quiet2/quiet1: {p['noise']:.2f})")
    keys = [k for k in res["figures"] if k.endswith(("settle_s", "outage_ms"))
            and not k.startswith("settle-")]
    print("per tree (medians, both scenarios of a kind; noise: quiet2/quiet1):")
    for k in keys:
        f, n = res["figures"][k], res["noise"].get(k)
        print(f"  {k:22} {f['a']:.3f} -> {f['b']:.3f}  ratio {f['ratio']:.2f}"
              + (f"   noise {n['ratio']:.2f}" if n else ""))
    for node, m in res["mstd"].items():
        print(f"  mstd {node}: roles settled {m['quiet_roles_ms']:.1f} -> "
              f"{m['loaded_roles_ms']:.1f} ms, TC {m['quiet_tc_ms']:.1f} -> "
              f"{m['loaded_tc_ms']:.1f} ms ({m['losses']} carrier losses)")
    cl = res["clients"]
    cpu = res["serve_cpu"]
    print(f"streams: {cl['streams']}, {cl['dropped']} dropped, "
          f"{cl['changes_min']}-{cl['changes_max']} changes each, "
          f"{cl['bytes_total'] / 1e6:.1f} MB in all; mstlab serve's CPU: "
          f"quiet {int(cpu['quiet'][0]) / 100:.2f} s, loaded "
          f"{int(cpu['loaded'][0]) / 100:.2f} s")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "watch":
        watch(*sys.argv[2:5])
    elif cmd == "page":
        page(*sys.argv[2:5])
    elif cmd == "clients":
        clients(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    else:
        analyse(sys.argv[2], sys.argv[3])
