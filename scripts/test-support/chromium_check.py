#!/usr/bin/env python3
"""Loads an HTML page in headless Chromium, with the network disabled, and reports what a reader
would meet, as JSON on stdout: console errors and uncaught exceptions, requests that left the
machine, the images and SVG charts and their rendered sizes, whether clicking a column header of
`table.sortable` sorts it, what the page looks like without JavaScript and at phone width; and saves
a full-page screenshot.

    python3 chromium_check.py PAGE.html SCREENSHOT.png [--table-id clips] [--sort-column 1]

Drives Chromium through the DevTools protocol over a pipe (--remote-debugging-pipe: JSON messages
separated by NUL bytes on file descriptors 3 and 4), with the standard library only. Used by
SEKit's report tests (Tests/sekitTests/ReportCommandTests.swift).
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, executable, profile):
        to_chrome_read, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_write = os.pipe()

        def plumb():
            # Through fresh copies: dup2 onto the same number would keep the close-on-exec flag.
            reading, writing = os.dup(to_chrome_read), os.dup(from_chrome_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen(
            [executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
             "--no-default-browser-check", "--hide-scrollbars", f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=plumb, close_fds=False)
        os.close(to_chrome_read)
        os.close(from_chrome_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, session, timeout=60):
        deadline = time.time() + timeout
        for index, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                del self.events[index]
                return event
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def evaluate(browser, session, expression):
    result = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session)
    if "exceptionDetails" in result:
        raise RuntimeError(f"evaluating {expression[:60]}: {result['exceptionDetails']}")
    return result["result"].get("value")


def load(browser, session, url):
    browser.send("Page.navigate", {"url": url}, session)
    browser.wait_for("Page.loadEventFired", session)
    time.sleep(0.2)


FIGURES = """(() => ({
  images: Array.from(document.images).map(i => ({alt: i.alt, naturalWidth: i.naturalWidth, width: i.getBoundingClientRect().width,
                                                   height: i.getBoundingClientRect().height, complete: i.complete})),
  charts: Array.from(document.querySelectorAll('svg.chart')).map(s => ({label: s.getAttribute('aria-label'),
                                                   width: s.getBoundingClientRect().width, height: s.getBoundingClientRect().height})),
  audio: document.querySelectorAll('audio').length,
  tables: Array.from(document.querySelectorAll('table')).map(t => ({id: t.id, rows: t.tBodies[0] ? t.tBodies[0].rows.length : 0,
                                                   headers: t.querySelectorAll('th[scope=col]').length})),
  title: document.title
}))()"""

SORT = """((tableId, column) => {
  const table = document.getElementById(tableId);
  if (!table) return {error: 'no table ' + tableId};
  const values = () => Array.from(table.tBodies[0].rows).map(r => parseFloat(r.cells[column].getAttribute('data-sort')));
  const before = values();
  const button = table.querySelector('th button[data-column="' + column + '"]');
  button.click();
  const ascending = values();
  const ariaAscending = button.parentNode.getAttribute('aria-sort');
  button.click();
  const descending = values();
  const sorted = (v, sign) => v.every((x, i) => i === 0 || isNaN(x) || isNaN(v[i - 1]) || sign * (x - v[i - 1]) >= 0);
  return {before, ascending, descending, ascendingSorted: sorted(ascending, 1), descendingSorted: sorted(descending, -1),
          ariaAscending, ariaDescending: button.parentNode.getAttribute('aria-sort')};
})"""


def collect_events(events, report):
    """Adds the console errors, uncaught exceptions and requests that left the machine among `events` to `report`."""
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            report["console_errors"].append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            report["console_errors"].append(params["entry"].get("text", ""))
        elif method == "Runtime.exceptionThrown":
            report["exceptions"].append(params.get("exceptionDetails", {}).get("text", ""))
        elif method == "Network.requestWillBeSent":
            request_url = params.get("request", {}).get("url", "")
            if not request_url.startswith(("data:", "file:", "about:", "blob:")):
                report["external_requests"].append(request_url)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("screenshot")
    parser.add_argument("--table-id", default="clips")
    parser.add_argument("--sort-column", type=int, default=1)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    arguments = parser.parse_args()
    url = "file://" + os.path.abspath(arguments.page)
    report = {"console_errors": [], "exceptions": [], "external_requests": []}
    with tempfile.TemporaryDirectory() as profile:
        browser = Browser(arguments.chromium, profile)
        try:
            target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ["Page", "Runtime", "Log", "Network"]:
                browser.send(f"{domain}.enable", {}, session)
            browser.send("Network.emulateNetworkConditions",
                         {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session)
            browser.send("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session)
            load(browser, session, url)
            report["figures"] = evaluate(browser, session, FIGURES)
            report["sort"] = evaluate(browser, session, f"{SORT}({json.dumps(arguments.table_id)}, {arguments.sort_column})")
            # The whole page, for a person to look at.
            height = min(16000, int(browser.send("Page.getLayoutMetrics", {}, session)["cssContentSize"]["height"]))
            browser.send("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
            shot = browser.send("Page.captureScreenshot", {"format": "png"}, session)
            with open(arguments.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            report["screenshot_height"] = height
            # Phone width: nothing may widen the page beyond the screen (tables scroll in their box).
            browser.send("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}, session)
            load(browser, session, url)
            report["phone"] = evaluate(browser, session, "({scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth})")
            # Without JavaScript: the table is there, in clip order.
            browser.send("Emulation.setScriptExecutionDisabled", {"value": True}, session)
            browser.send("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session)
            load(browser, session, url)
            report["without_javascript"] = evaluate(browser, session, FIGURES)
        finally:
            browser.close()
        collect_events(browser.events, report)
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()
