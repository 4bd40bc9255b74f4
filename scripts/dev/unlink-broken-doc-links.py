#!/usr/bin/env python3
"""Turns the symbol links that scripts/docs.sh reports as unresolved (docc's log in
.build/docs/docc.log) into plain code voice (``X`` -> `X`), leaving the text as it was. Review the
diff: a link to a renamed symbol is better pointed at its new name."""
import re
fixes = []
for line in open(".build/docs/docc.log", encoding="utf-8"):
    m = re.match(r"(/\S+\.swift):(\d+):\d+: warning: '([^']+)' (doesn't exist|is ambiguous|has no page)", line)
    if m:
        fixes.append((m.group(1), int(m.group(2)), m.group(3)))
for path, number, symbol in fixes:
    lines = open(path, encoding="utf-8").read().split("\n")
    name = symbol.split("/")[-1].split("-(")[0].split("(")[0]
    lines[number - 1] = re.sub(r"``([^`]+)``", lambda m: "`" + m.group(1) + "`" if name in m.group(1) else m.group(0), lines[number - 1])
    open(path, "w", encoding="utf-8").write("\n".join(lines))
print(f"{len(fixes)} links made plain")
