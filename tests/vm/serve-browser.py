#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""mstlab serve's page in Debian's chromium (tests/lib/cdp.py), for
tests/vm/serve-test. Prints TAP lines without numbers ("ok - ...",
"not ok - ...", "# ..."); the caller numbers them.

    serve-browser.py live URL RUN_DIR MSTLAB LAB OUT_DIR
    serve-browser.py replay URL SUMMARY.json OUT_DIR [README.png]
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from cdp import Browser, CDPError  # noqa: E402

BOUND_S = 5.0       # a link change on the page, from the click or command


def tap(ok, text, diag=""):
    print(("ok - " if ok else "not ok - ") + text)
    if not ok and diag:
        for line in str(diag).splitlines()[-15:]:
            print("# " + line)
    sys.stdout.flush()


def ends(page, tree):
    """{node:port: (role, state)} as the page shows one tree."""
    return page.eval(
        "Object.fromEntries([...document.querySelectorAll("
        "'.card[data-tree=\"%s\"] g.port[data-end]')].map(g => "
        "[g.dataset.end, [g.dataset.role, g.dataset.state]]))" % tree)


def blocked(page, tree):
    return sorted(e for e, (r, s) in ends(page, tree).items()
                  if s in ("discarding", "down"))


def wait_end(page, tree, end, state, timeout=BOUND_S):
    expr = ("(() => { const g = document.querySelector('.card[data-tree=\"%s\"]"
            " g.port[data-end=\"%s\"]'); return g && g.dataset.state === "
            "'%s'; })()" % (tree, end, state))
    try:
        return page.wait(expr, timeout, every=0.02)[1]
    except CDPError:
        return None


def waited(page, expr, timeout):
    """Whether expr came true within timeout seconds."""
    try:
        page.wait(expr, timeout, every=0.02)
        return True
    except CDPError:
        return False


def events_lines(run_dir):
    with open(os.path.join(run_dir, "events")) as f:
        return f.read().splitlines()


def wait_event(run_dir, word, since, timeout=BOUND_S):
    """Waits for a new line of the event log with word; its seconds."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        new = events_lines(run_dir)[since:]
        if any(word in line for line in new):
            return time.monotonic() - start
        time.sleep(0.02)
    return None


def click_link(page, tree, end, action, mode=None):
    """The link at end, clicked on the drawing, then the menu's item."""
    page.click('.card[data-tree="%s"] g.port[data-end="%s"] path.hit'
               % (tree, end))
    page.wait("!document.querySelector('#menu').hidden", 3)
    sel = '#menu button[data-action="%s"]' % action
    if mode:
        sel += '[data-mode="%s"]' % mode
    page.click(sel)


def percentile(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))] if v else None


def live(url, run_dir, mstlab, lab, out):
    with Browser() as b:
        page = b.open(url)
        try:
            page.wait("window.mstlab && mstlab.ready && mstlab.painted >= 2", 20)
            ready = True
        except CDPError as e:
            ready = False
            tap(False, "the page loads and paints every tree", e)
            return
        cist, msti = ends(page, "cist"), ends(page, "msti 1")
        want = {"sw1:p1": ["designated", "forwarding"],
                "sw1:p2": ["designated", "forwarding"],
                "sw2:p1": ["root", "forwarding"],
                "sw2:p2": ["designated", "forwarding"]}
        roots = page.eval("mstlab.states.map(s => s.tree + '=' + s.root).join(' ')")
        tap(ready and cist == want and msti == want and
            roots == "cist=sw1 msti 1=sw1",
            "the page shows the converged lab: sw1 roots both trees, "
            "sw2:p1 its root port (%s)" % roots, json.dumps([cist, msti]))
        page.screenshot(os.path.join(out, "live-converged.png"))

        # A link failed from the page: the lab's event log, then the
        # page's blocked set.
        since = len(events_lines(run_dir))
        t0 = time.monotonic()
        click_link(page, "cist", "sw1:p1", "fail", "carrier")
        ev = wait_event(run_dir, "link-down link1 carrier", since)
        tap(ev is not None, "a click on link1 fails it: the event log has "
            "link-down link1 carrier (%.2f s)" % (ev or -1),
            "\n".join(events_lines(run_dir)[since:]))
        seen = [wait_end(page, t, e, "down") for t in ("cist", "msti 1")
                for e in ("sw1:p1", "sw2:p1")]
        took = time.monotonic() - t0
        bl = blocked(page, "cist")
        tap(all(s is not None for s in seen) and took < BOUND_S and
            bl == ["sw1:p1", "sw2:p1"],
            "and the page's blocked set is {sw1:p1, sw2:p1} in both trees "
            "within %.0f s of the click (%.2f s)" % (BOUND_S, took), bl)
        log = page.eval("[...document.querySelectorAll('#log li')].map(l => "
                        "l.textContent).join('\\n')")
        tap("link1 sw1:p1-sw2:p1 down carrier" in log,
            "the page's event log has the failure, in watch's words", log)
        page.screenshot(os.path.join(out, "live-failed.png"))

        t0 = time.monotonic()
        click_link(page, "cist", "sw1:p1", "restore")
        s1 = wait_end(page, "cist", "sw2:p1", "forwarding", 30)
        tap(s1 is not None and wait_event(run_dir, "link-up link1", since),
            "restore from the page: link-up link1 logged, sw2:p1 forwards "
            "again (%.2f s)" % (time.monotonic() - t0), blocked(page, "cist"))

        # The same link failed with mstlab link: the page follows.
        t0 = time.monotonic()
        r = subprocess.run([mstlab, "link", lab, "sw2:p1", "fail", "silent"],
                           capture_output=True, text=True)
        s2 = wait_end(page, "cist", "sw2:p1", "down")
        tap(r.returncode == 0 and s2 is not None,
            "mstlab link sw2:p1 fail silent shows on the page (%.2f s after "
            "the command)" % (time.monotonic() - t0), r.stdout + r.stderr)
        page.screenshot(os.path.join(out, "live-mstlab-link.png"))
        r = subprocess.run([mstlab, "link", lab, "sw2:p1", "restore"],
                           capture_output=True, text=True)
        s3 = wait_end(page, "cist", "sw2:p1", "forwarding", 30)
        tap(r.returncode == 0 and s3 is not None,
            "mstlab link sw2:p1 restore: forwarding again on the page",
            r.stdout + r.stderr)

        # Capture time to arrival in the page, every change pushed.
        lat = page.eval("mstlab.latencies.map(l => l.at_ms - "
                        "Number(BigInt(l.ns) / 1000n) / 1000)")
        links = page.eval("mstlab.latencies.filter(l => l.type === 'link')"
                          ".map(l => l.at_ms - Number(BigInt(l.ns) / 1000n) / 1000)")
        print("# page latency: %d changes, p50 %.1f ms, p99 %.1f ms, max %.1f "
              "ms; link events %s ms" % (len(lat), percentile(lat, 50) or -1,
                                         percentile(lat, 99) or -1,
                                         max(lat) if lat else -1,
                                         ", ".join("%.0f" % x for x in links)))
        with open(os.path.join(out, "page-latency.json"), "w") as f:
            json.dump(page.eval("mstlab.latencies"), f)
        tap(len(lat) >= 4 and 0 <= min(lat) and percentile(lat, 99) < 1000,
            "every change reached the page within 1 s of its capture "
            "(p99 %.0f ms)" % (percentile(lat, 99) or -1), lat)
        tap(not page.errors(), "no error in the page's console",
            "\n".join(page.errors()))
        # Kept open: the caller takes the lab down under it.
        print("# waiting for the lab to go down", flush=True)
        try:
            page.wait("document.querySelector('#conn').textContent === 'lab down'", 60)
            down = True
        except CDPError:
            down = False
        tap(down, "when the lab goes down the page says so and keeps its "
            "last state", page.eval("document.querySelector('#conn').textContent"))


def replay(url, summary_path, out, readme):
    with open(summary_path) as f:
        text = f.read()
    # ns are 19 digits: keep them exact.
    summary = json.loads(text, parse_int=str)
    sc = next(s for s in summary["scenarios"] if s["name"] == "carrier")
    snaps = [s for s in sc["topology"]]
    with Browser() as b:
        page = b.open(url)
        if not waited(page, "window.mstlab && mstlab.ready", 30):
            tap(False, "the replay page loads", page.errors())
            return
        failed = [c for s in summary["scenarios"] for c in s["checks"]
                  if c["result"] == "fail" and c["evidence"]]
        if failed:
            want = failed[0]["evidence"][0]["time_ns"]
            at = page.eval("String(mstlab.t)")
            tap(at == want, "a finished run opens at its first failed "
                "check's evidence (%s)" % failed[0]["name"], f"{at} != {want}")
            n = page.eval("document.querySelectorAll('#timeline .ck.fail').length")
            tap(n >= 1, "failed checks are marked on the timeline (%d)" % n)
            # Elsewhere, then a click on the failed check in the list.
            page.eval("mstlab.seek(mstlab.lab.start_ns)")
            page.click('#checks li.fail')
            waited(page, "String(mstlab.t) === '%s'" % want, 5)
            at = page.eval("String(mstlab.t)")
            tap(at == want, "clicking the failed check jumps to its "
                "evidence instant", f"{at} != {want}")
        for at in ("before-failure", "after-event", "end"):
            group = [s for s in snaps if s["at"] == at]
            if not group:
                tap(False, f"summary.json has a {at} snapshot", sc["topology"])
                continue
            t = group[0]["time_ns"]
            page.eval("mstlab.seek('%s')" % t)
            diffs = [] if waited(page, "String(mstlab.t) === '%s'" % t, 5) \
                else [f"the page is at {page.eval('String(mstlab.t)')}"]
            for s in group:
                shown = ends(page, s["tree"])
                root = page.eval("mstlab.states.find(x => x.tree === '%s').root"
                                 % s["tree"])
                if root != s["root"]:
                    diffs.append(f"{s['tree']} root {root} != {s['root']}")
                for p in s["ports"]:
                    end = f"{p['node']}:{p['port']}"
                    if end not in shown:        # a host's end: no state
                        continue
                    role, state = shown[end]
                    want_role = {"silent": "unknown"}.get(p["role"], p["role"])
                    if role != want_role or (state == "forwarding") != p["forwarding"]:
                        diffs.append(f"{s['tree']} {end}: page {role}/{state},"
                                     f" summary {p['role']} forwarding="
                                     f"{p['forwarding']}")
            page.screenshot(os.path.join(out, f"replay-{at}.png"))
            tap(not diffs, f"replay at {at} ({t}): the page shows summary.json's "
                f"snapshot, {len(group)} trees", "\n".join(diffs))
        if readme:
            link_down = next((s["time_ns"] for s in snaps
                              if s["at"] == "after-event"), None)
            if link_down:
                page.eval("mstlab.seek('%s')" % link_down)
                waited(page, "String(mstlab.t) === '%s'" % link_down, 5)
                time.sleep(0.3)
                page.screenshot(readme)
                print(f"# README picture: {readme}")
        tap(not page.errors(), "no error in the replay page's console",
            "\n".join(page.errors()))


if __name__ == "__main__":
    if sys.argv[1] == "live":
        live(*sys.argv[2:7])
    else:
        replay(sys.argv[2], sys.argv[3], sys.argv[4],
               sys.argv[5] if len(sys.argv) > 5 else None)
