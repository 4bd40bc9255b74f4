#!/usr/bin/env python3
"""Wraps Swift lines over 140 characters where it is safe to do mechanically, and rewrites
scripts/dev/long-lines-baseline.txt with what is left.

    scripts/dev/wrap-long-lines.py [FILE.swift ...]     (default: every .swift file under Sources and Tests)

- Comment lines (`//`, `///`) outside fenced code blocks are split between words, keeping their prefix.
- Code lines are split after a comma that lies outside string literals (interpolations included),
  comments and a closure's parameter list, at the rightmost such comma that keeps the first part within the limit; the rest continues
  aligned one column after the innermost open bracket, or indented 8 more columns where that is too wide.
  Swift accepts a line break after any comma of a list, so what the compiler reads is unchanged.
- Lines in multi-line string literals, raw strings and regex literals are left alone, as are lines with
  no safe break (a long string literal): those stay in the baseline, for a person to wrap.
Idempotent: a wrapped file is left as it is.
"""

import os
import sys

LIMIT = 140
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASELINE = os.path.join(ROOT, "scripts", "dev", "long-lines-baseline.txt")


def code_scan(line):
    """(breakable comma positions, {position: innermost open bracket column}, comment start or None),
    or None when the line holds something this scanner does not follow (raw strings, regex literals)."""
    if '#"' in line or "#/" in line or '"""' in line:
        return None
    commas, opens, stack = [], {}, []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c == '"':
            i = skip_string(line, i + 1)
            if i is None:
                return None
            continue
        if line.startswith("//", i) or line.startswith("/*", i):
            return commas, opens, i
        if c in "([{":
            stack.append(i)
        elif c in ")]}":
            if stack:
                stack.pop()
        elif c == "," and i + 1 < n and line[i + 1] == " " and not (stack and line[stack[-1]] == "{"):
            # (a comma right inside braces separates a closure's parameters: no break there)
            commas.append(i)
            opens[i] = stack[-1] if stack else None
        i += 1
    return commas, opens, None


def skip_string(line, i):
    """The index after the string literal whose body starts at `i`, or None if it does not end on this line."""
    n = len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            if i + 1 < n and line[i + 1] == "(":
                i = skip_interpolation(line, i + 2)
                if i is None:
                    return None
                continue
            i += 2
            continue
        if c == '"':
            return i + 1
        i += 1
    return None


def skip_interpolation(line, i):
    depth, n = 1, len(line)
    while i < n:
        c = line[i]
        if c == '"':
            i = skip_string(line, i + 1)
            if i is None:
                return None
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def wrap_code(line):
    """The line as several lines, or None where no safe break exists."""
    pieces = []
    rest = line
    while len(rest) > LIMIT:
        scanned = code_scan(rest)
        if scanned is None:
            return None
        commas, opens, comment = scanned
        code = rest[:comment].rstrip() if comment is not None else ""
        if code and code.strip() and len(code) <= LIMIT and rest.startswith("//", comment) and not pieces:
            # Only the trailing comment is too long: it goes above the code line, at the code's indentation.
            indent = rest[:len(rest) - len(rest.lstrip())]
            above = indent + rest[comment:]
            return (wrap_comment(above) or [above]) + [code]
        fitting = [c for c in commas if c + 1 <= LIMIT and (comment is None or c < comment)]
        if not fitting:
            return None
        cut = fitting[-1]
        head, tail = rest[:cut + 1].rstrip(), rest[cut + 1:].lstrip()
        indent = len(rest) - len(rest.lstrip())
        bracket = opens[cut]
        column = bracket + 1 if bracket is not None else indent + 8
        if column + len(tail) > LIMIT and bracket is not None:
            column = min(column, indent + 8)
        if column <= indent:
            column = indent + 8
        if column >= cut:
            return None  # the continuation would be no shorter
        pieces.append(head)
        rest = " " * column + tail
    pieces.append(rest)
    return pieces if len(pieces) > 1 else None


def wrap_comment(line):
    stripped = line.lstrip()
    indent = line[:len(line) - len(stripped)]
    prefix = "/// " if stripped.startswith("///") else "// "
    marker = prefix.rstrip()
    body = stripped[len(marker):].lstrip()
    if stripped.startswith("////") or body.startswith("|"):
        return None
    lead = indent + prefix
    words, lines, current = body.split(" "), [], ""
    for word in words:
        candidate = word if not current else current + " " + word
        if len(lead) + len(candidate) > LIMIT and current:
            lines.append(lead + current)
            current = word
        else:
            current = candidate
    lines.append(lead + current)
    if any(len(x) > LIMIT for x in lines) or len(lines) < 2:
        return None
    return lines


def wrap_file(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, in_multiline, in_fence, changed = [], False, False, False
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("///") and stripped[3:].lstrip().startswith("```"):
            in_fence = not in_fence
        quotes = line.count('"""')
        if in_multiline or quotes:
            if quotes % 2 == 1:
                in_multiline = not in_multiline
            out.append(line)
            continue
        if len(line) > LIMIT:
            if stripped.startswith("//"):
                wrapped = None if in_fence else wrap_comment(line)
            else:
                wrapped = wrap_code(line)
            if wrapped:
                out.extend(wrapped)
                changed = True
                continue
        out.append(line)
    if changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
    return changed


def long_lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f.read().split("\n") if len(line) > LIMIT)


def swift_files():
    for top in ("Sources", "Tests"):
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def main():
    paths = [os.path.abspath(p) for p in sys.argv[1:]] or sorted(swift_files())
    changed = [p for p in paths if wrap_file(p)]
    header = [line for line in open(BASELINE, encoding="utf-8").read().split("\n") if line.startswith("#")]
    counts = {os.path.relpath(p, ROOT): long_lines(p) for p in sorted(swift_files())}
    body = [f"{count} {path}" for path, count in sorted(counts.items()) if count]
    with open(BASELINE, "w", encoding="utf-8") as f:
        f.write("\n".join(header + body) + "\n")
    print(f"wrap-long-lines: {len(changed)} files changed; {sum(counts.values())} long lines left in "
          f"{len(body)} files (scripts/dev/long-lines-baseline.txt)", file=sys.stderr)


if __name__ == "__main__":
    main()
