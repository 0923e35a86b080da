# SPDX-License-Identifier: MIT
"""A small driver of Debian's chromium through the DevTools protocol.

No browser download, no npm: chromium runs headless with
--remote-debugging-pipe, so the protocol's JSON messages go over two
pipes (fd 3 from us, fd 4 to us, each message ended by a NUL) and no
WebSocket client is needed.

    with Browser() as b:
        page = b.open("http://127.0.0.1:8470/")
        page.wait("window.mstlab && window.mstlab.ready")
        page.eval("document.title")
        page.click("#trees button")
        page.screenshot("shot.png")
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, width=1280, height=860, timeout=30.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="mstlab-cdp.")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        def fds():  # the child's fd 3 reads our commands, fd 4 answers
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)  # above 4
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--hide-scrollbars", "--mute-audio",
             "--force-device-scale-factor=1",
             f"--window-size={width},{height}",
             f"--user-data-dir={self.profile}",
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, preexec_fn=fds,
            # Only fds 3 and 4 (dup2 makes them inheritable) go to
            # chromium: every other fd of ours is close-on-exec.
            close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events = []        # (session, method, params), oldest first
        self.width, self.height = width, height

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("chromium did not answer in time")
            ready, _, _ = select.select([self._r], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise CDPError("chromium went away")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=None):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            m = self._read(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise CDPError(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            if "method" in m:
                self.events.append((m.get("sessionId"), m["method"],
                                    m.get("params", {})))

    def pump(self, seconds):
        """Reads events for a while (console lines, exceptions)."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                m = self._read(deadline)
                if "method" in m:
                    self.events.append((m.get("sessionId"), m["method"],
                                        m.get("params", {})))
        except CDPError:
            pass

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"})
        session = self.send("Target.attachToTarget",
                            {"targetId": target["targetId"],
                             "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Runtime.enable")
        page.send("Page.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height,
                   "deviceScaleFactor": 1, "mobile": False})
        page.send("Page.navigate", {"url": url})
        return page


class Page:
    def __init__(self, browser, session):
        self.b = browser
        self.session = session

    def send(self, method, params=None, timeout=None):
        return self.b.send(method, params, self.session, timeout)

    def eval(self, expr, timeout=None):
        """The value of a JavaScript expression (awaited if a promise)."""
        r = self.send("Runtime.evaluate",
                      {"expression": expr, "returnByValue": True,
                       "awaitPromise": True}, timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CDPError(d.get("exception", {}).get("description")
                           or d.get("text"))
        return r["result"].get("value")

    def wait(self, expr, timeout=20.0, every=0.1):
        """Waits until expr is truthy; returns its value and the seconds."""
        start = time.monotonic()
        while True:
            try:
                v = self.eval(expr)
            except CDPError:
                v = None
            if v:
                return v, time.monotonic() - start
            if time.monotonic() - start > timeout:
                raise CDPError(f"timed out after {timeout} s: {expr}")
            time.sleep(every)

    def click_at(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left",
                       "clickCount": 1})

    def click(self, selector):
        """A real mouse click at the middle of the element."""
        box = self.eval(
            "(() => { const e = document.querySelector(%s); if (!e) "
            "return null; e.scrollIntoView({block: 'center'}); "
            "const r = e.getBoundingClientRect(); "
            "return [r.left + r.width / 2, r.top + r.height / 2]; })()"
            % json.dumps(selector))
        if not box:
            raise CDPError(f"no element {selector}")
        self.click_at(*box)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def errors(self):
        """Exceptions the page threw and console errors, as text."""
        out = []
        for session, method, p in self.b.events:
            if session != self.session:
                continue
            if method == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append(d.get("exception", {}).get("description")
                           or d.get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and \
                    p.get("type") == "error":
                out.append(" ".join(str(a.get("value", a.get("description")))
                                    for a in p.get("args", [])))
        return out
