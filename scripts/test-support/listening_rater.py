#!/usr/bin/env python3
"""A scripted rater for a `sekit listen make` page: opens it in headless Chromium with the network
disabled, enters a rater id, plays every sample of every trial, rates it as told, reloads the page
halfway through (progress must resume from the browser's local storage), downloads the results file
and reports what happened as JSON on stdout.

    python3 listening_rater.py PAGE.html DOWNLOADS --rater ID --answers '{"scores": {"logmmse": 40}, ...}'

Answers (JSON): "scores" maps a condition (a run's name, anchor35, anchor70, reference) to the score
given it (CCR: the stimulus against the input, whichever is played first); "trap": "follow" answers a
trapping trial as its instruction says, a number answers that. "heard" maps an audio file (as test.json names
it) to what a listener hears in it, for `listen make --spoken-trap`'s spoken instruction (the test's answer key
stands in for the rater's ears): a rater following the trap answers a sample whose words ask for "the answer N"
with N, whatever the page writes.
Drives Chromium through the DevTools protocol over a pipe (the Browser of chromium_check.py).
Used by Tests/sekitTests/ListenCommandTests.swift.
"""

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_check import Browser, collect_events, evaluate, load  # noqa: E402

STATE = """(() => {
  const done = !document.getElementById('done').hidden;
  const rows = Array.from(document.querySelectorAll('#stimuli .stimulus')).map(r => ({
    stimulus: r.dataset.stimulus, condition: r.dataset.condition, trial: r.dataset.trial, swapped: r.dataset.swapped === 'true',
    files: Array.from(r.querySelectorAll('audio')).map(a => a.getAttribute('src')),
    scales: Array.from(r.querySelectorAll('.scale')).map(s => s.dataset.scale)}));
  return {done, rows, instruction: document.getElementById('instruction').textContent,
          counter: document.getElementById('counter').textContent};
})()"""

# Plays every sample of the trial (each play button), waits for the audio's metadata, and reports
# whether each rating control was enabled only after its sample was played.
PLAY = """(async () => {
  const report = {disabledBefore: 0, enabledAfter: 0, loaded: 0, failed: 0, controls: 0};
  for (const row of document.querySelectorAll('#stimuli .stimulus')) {
    const inputs = Array.from(row.querySelectorAll('.scale input'));
    report.controls += inputs.length;
    report.disabledBefore += inputs.filter(i => i.disabled).length;
    for (const button of row.querySelectorAll('button.play')) {
      const audio = button.parentNode.querySelector('audio');
      button.click();
      const ok = await new Promise(resolve => {
        if (audio.readyState >= 1) return resolve(true);
        audio.addEventListener('loadedmetadata', () => resolve(true), {once: true});
        audio.addEventListener('error', () => resolve(false), {once: true});
        setTimeout(() => resolve(audio.readyState >= 1), 5000);
      });
      if (ok) report.loaded += 1; else report.failed += 1;
      audio.pause();
    }
    report.enabledAfter += inputs.filter(i => !i.disabled).length;
  }
  return report;
})()"""

RATE = """((stimulus, scale, score) => {
  const row = Array.from(document.querySelectorAll('#stimuli .stimulus')).find(r => r.dataset.stimulus === stimulus);
  const box = row.querySelector('.scale[data-scale="' + scale + '"]');
  const range = box.querySelector('input[type=range]');
  if (range) { range.value = String(score); range.dispatchEvent(new Event('input', {bubbles: true})); return range.value; }
  const radio = box.querySelector('input[type=radio][value="' + score + '"]');
  radio.click();
  return radio.checked;
})"""


def gesture(browser, session, expression):
    """Evaluates `expression` as if the user did it (audio may start playing)."""
    result = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": True},
                          session)
    if "exceptionDetails" in result:
        raise RuntimeError(f"evaluating {expression[:60]}: {result['exceptionDetails']}")
    return result["result"].get("value")


def answer(row, state, answers):
    follow = answers.get("trap", "follow") == "follow"
    spoken = [answers.get("heard", {}).get(file) for file in row["files"]]
    asked = [re.search(r"answer (-?\d+)", words) for words in spoken if words]
    if follow and any(asked):
        return int(next(a for a in asked if a).group(1))
    if row["trial"] == "trap" and follow:
        return int(re.search(r"answer (-?\d+)", state["instruction"]).group(1))
    if row["trial"] == "trap":
        return answers["trap"]
    score = answers["scores"][row["condition"]]
    # CCR: the score is meant as the stimulus against the input; with the stimulus played first, the
    # second sample (the input) against the first is its opposite.
    return -score if row.get("swapped") else score


def begin(browser, session, url, rater):
    load(browser, session, url)
    evaluate(browser, session, f"document.getElementById('rater').value = {json.dumps(rater)}; document.getElementById('begin').click()")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("downloads")
    parser.add_argument("--rater", required=True)
    parser.add_argument("--answers", required=True)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    arguments = parser.parse_args()
    answers = json.loads(arguments.answers)
    url = "file://" + os.path.abspath(arguments.page)
    os.makedirs(arguments.downloads, exist_ok=True)
    report = {"console_errors": [], "exceptions": [], "external_requests": [], "trials": [], "played": [], "resumed": None}
    with tempfile.TemporaryDirectory() as profile:
        browser = Browser(arguments.chromium, profile)
        try:
            target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ["Page", "Runtime", "Log", "Network"]:
                browser.send(f"{domain}.enable", {}, session)
            browser.send("Network.emulateNetworkConditions",
                         {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session)
            browser.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": os.path.abspath(arguments.downloads),
                                                         "eventsEnabled": True})
            begin(browser, session, url, arguments.rater)
            reloaded = False
            while True:
                state = evaluate(browser, session, STATE)
                if state["done"]:
                    break
                report["trials"].append({"counter": state["counter"], "trial": state["rows"][0]["trial"],
                                         "conditions": [r["condition"] for r in state["rows"]]})
                report["played"].append(gesture(browser, session, PLAY))
                for row in state["rows"]:
                    for scale in row["scales"]:
                        call = f"{json.dumps(row['stimulus'])}, {json.dumps(scale)}, {answer(row, state, answers)}"
                        evaluate(browser, session, f"{RATE}({call})")
                evaluate(browser, session, "document.getElementById('next').click()")
                # Halfway: close the page and come back; the next trial must be where we left off.
                if not reloaded and len(report["trials"]) == 2:
                    reloaded = True
                    begin(browser, session, url, arguments.rater)
                    report["resumed"] = evaluate(browser, session, "document.getElementById('counter').textContent")
            evaluate(browser, session, "document.getElementById('download').click()")
            deadline = time.time() + 30
            while True:
                event = browser.wait_for("Browser.downloadProgress", None, timeout=max(1, deadline - time.time()))
                if event["params"]["state"] in ("completed", "canceled"):
                    report["download_state"] = event["params"]["state"]
                    break
        finally:
            browser.close()
        collect_events(browser.events, report)
    report["downloads"] = sorted(os.listdir(arguments.downloads))
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()
