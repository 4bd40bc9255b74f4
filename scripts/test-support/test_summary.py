#!/usr/bin/env python3
"""The count scripts/test.sh ends with: tests run, passed, failed and skipped, for Swift (the
swift-testing console lines of `swift test`) and Python (`unittest -v`), and the test scripts
(docs, Slurm), with each skip reason and its count.

    test_summary.py --swift LOG --swift-status N --python LOG --python-status N \
        [--step NAME=passed|failed|skipped:REASON ...] [--allowed FILE]

Exits 1 when anything failed, when a log lacks its final line (a crashed runner), or, under CI=true,
when a test was skipped for a reason the allowed list (one reason per line, # comments) does not name.
"""

import argparse
import collections
import os
import re
import sys

SWIFT_PASSED = re.compile(r"^\S+ Test (.+?) passed after ")
SWIFT_FAILED = re.compile(r"^\S+ Test (.+?) failed after ")
SWIFT_SKIPPED = re.compile(r'^\S+ Test (.+?) skipped(?:: "(.*)")?$')
SWIFT_END = re.compile(r"^\S+ Test run with (\d+) tests? (?:in \d+ suites? )?(passed|failed)")
PYTHON_SKIPPED = re.compile(r" \.\.\. skipped '(.*)'$")
PYTHON_RAN = re.compile(r"^Ran (\d+) tests? in ")
PYTHON_RESULT = re.compile(r"^(OK|FAILED)(?: \((.*)\))?$")


class Tally:
    def __init__(self, name):
        self.name = name
        self.passed = self.failed = self.skipped = 0
        self.reasons = collections.Counter()
        self.problems = []

    @property
    def run(self):
        return self.passed + self.failed

    def line(self):
        return f"{self.name}: {self.run} run, {self.passed} passed, {self.failed} failed, {self.skipped} skipped"


def swift(path, status):
    tally = Tally("swift")
    ended = False
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError as error:
        tally.problems.append(f"swift: no log ({error})")
        return tally
    for line in lines:
        if m := SWIFT_END.match(line):
            ended = True
            total = int(m.group(1))
            if total != tally.passed + tally.failed + tally.skipped:
                tally.problems.append(f"swift: the run reports {total} tests, the lines count "
                                      f"{tally.passed + tally.failed + tally.skipped}")
        elif SWIFT_PASSED.match(line):
            tally.passed += 1
        elif SWIFT_FAILED.match(line):
            tally.failed += 1
        elif m := SWIFT_SKIPPED.match(line):
            tally.skipped += 1
            tally.reasons[m.group(2) or "(no reason given)"] += 1
    if not ended:
        tally.problems.append(f"swift: `swift test` ended without its summary line (exit {status}): it crashed or did not build")
    elif status != 0 and tally.failed == 0:
        tally.problems.append(f"swift: `swift test` exited {status}")
    return tally


def python(path, status):
    tally = Tally("python")
    if path is None:
        return None
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError as error:
        tally.problems.append(f"python: no log ({error})")
        return tally
    ran = None
    counts = {}
    for line in lines:
        if m := PYTHON_SKIPPED.search(line):
            tally.reasons[m.group(1)] += 1
        elif m := PYTHON_RAN.match(line):
            ran = int(m.group(1))
        elif (m := PYTHON_RESULT.match(line)) and ran is not None:
            for part in (m.group(2) or "").split(", "):
                if "=" in part:
                    key, value = part.split("=")
                    counts[key] = int(value)
    if ran is None:
        tally.problems.append(f"python: unittest ended without its summary (exit {status})")
        return tally
    tally.skipped = counts.get("skipped", 0)
    tally.failed = counts.get("failures", 0) + counts.get("errors", 0) + counts.get("unexpected successes", 0)
    tally.passed = ran - tally.failed - tally.skipped
    if sum(tally.reasons.values()) != tally.skipped:
        tally.problems.append(f"python: {tally.skipped} skipped, {sum(tally.reasons.values())} skip lines with reasons")
    if status != 0 and tally.failed == 0:
        tally.problems.append(f"python: unittest exited {status}")
    return tally


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--swift", required=True)
    parser.add_argument("--swift-status", type=int, required=True)
    parser.add_argument("--python")
    parser.add_argument("--python-status", type=int, default=0)
    parser.add_argument("--step", action="append", default=[], help="NAME=passed|failed|skipped:REASON")
    parser.add_argument("--allowed", help="reasons a skip may have under CI=true, one per line")
    args = parser.parse_args()

    tallies = [swift(args.swift, args.swift_status)]
    tallies += [t for t in [python(args.python, args.python_status)] if t]
    steps = Tally("scripts")
    for step in args.step:
        name, _, outcome = step.partition("=")
        if outcome == "passed":
            steps.passed += 1
        elif outcome.startswith("skipped"):
            steps.skipped += 1
            steps.reasons[outcome.partition(":")[2] or name] += 1
        else:
            steps.failed += 1
            steps.problems.append(f"{name} failed")
    tallies.append(steps)

    print("test: summary", file=sys.stderr)
    for tally in tallies:
        print("  " + tally.line(), file=sys.stderr)
    reasons = collections.Counter()
    for tally in tallies:
        reasons.update(tally.reasons)
    total = sum(t.run for t in tallies), sum(t.passed for t in tallies), sum(t.failed for t in tallies)
    print(f"  all: {total[0]} run, {total[1]} passed, {total[2]} failed, {sum(reasons.values())} skipped", file=sys.stderr)
    if reasons:
        print("  skipped, by reason:", file=sys.stderr)
        for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0])):
            print(f"    {reason}: {count} skipped", file=sys.stderr)
    problems = [p for t in tallies for p in t.problems]
    ci = os.environ.get("CI", "").lower() not in ("", "0", "false")
    if ci and reasons:
        allowed = set()
        if args.allowed:
            for line in open(args.allowed, encoding="utf-8"):
                line = line.split("#", 1)[0].strip()
                if line:
                    allowed.add(line)
        for reason, count in reasons.items():
            if reason not in allowed:
                problems.append(f"CI=true: {count} skipped for a reason not allowed ({args.allowed}): {reason}")
    for problem in problems:
        print(f"  FAILED: {problem}", file=sys.stderr)
    failed = total[2] > 0 or problems
    print(f"test: {'FAILED' if failed else 'passed'}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
