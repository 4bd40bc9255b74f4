#!/usr/bin/env python3
"""Counts references between the folders of Sources/SEKit: which folder's code names a type
declared in which other folder, and the cycles among them. Read-only; for reviewing the layering
that ARCHITECTURE.md describes (docs: ARCHITECTURE.md, "Layers").

    scripts/dev/layers.py [--matrix] [ROOT]     ROOT default Sources/SEKit (and Sources/SEKitSignal if present)
    scripts/dev/layers.py --check               exit 1 unless the pairs that name each other are exactly
                                                those scripts/dev/layers-baseline.txt lists (LayeringTests)

A reference is one occurrence of a type's name declared at file level (struct, enum, class,
protocol, actor, typealias; nested types are left out, their short names repeat) as a whole word in another folder's code, comments and strings
excluded. Folders are the first path component under the library's root.
"""
import os, re, sys, itertools
from collections import defaultdict

DECL = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|nonisolated)\s+)*"
                  r"(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
WORD = re.compile(r"\b[A-Z]\w*\b")

def strip(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    roots = args or [r for r in ("Sources/SEKit", "Sources/SEKitSignal", "Sources/SEKitCatalog") if os.path.isdir(r)]
    files = {}
    for root in roots:
        for folder, _, names in os.walk(root):
            for name in names:
                if name.endswith(".swift"):
                    path = os.path.join(folder, name)
                    rel = os.path.relpath(path, root)
                    top = rel.split(os.sep)[0] if os.sep in rel else "(top)"
                    if os.path.basename(os.path.normpath(root)) != "SEKit":  # SEKitSignal/Internal vs Internal
                        top = os.path.basename(os.path.normpath(root)) + "/" + top
                    files[path] = (top, strip(open(path, encoding="utf-8").read()))
    declared = defaultdict(set)
    for path, (top, text) in files.items():
        for name in DECL.findall(text):
            declared[name].add(top)
    owner = {name: next(iter(tops)) for name, tops in declared.items() if len(tops) == 1}
    refs = defaultdict(int)
    for path, (top, text) in files.items():
        for word in WORD.findall(text):
            target = owner.get(word)
            if target and target != top:
                refs[(top, target)] += 1
    folders = sorted({t for t, _ in files.values()})
    total = sum(refs.values())
    print(f"{len(files)} files, {len(folders)} folders, {total} cross-folder references")
    cycles = [(a, b) for a, b in itertools.combinations(folders, 2) if refs.get((a, b)) and refs.get((b, a))]
    print(f"{len(cycles)} folder pairs that name each other:")
    for a, b in cycles:
        print(f"  {a} <-> {b}: {refs[(a, b)]} / {refs[(b, a)]}")
    if "--matrix" in sys.argv:
        for (a, b), n in sorted(refs.items()):
            print(f"  {a} -> {b}: {n}")
    if "--check" in sys.argv:
        baseline = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers-baseline.txt")
        allowed = {tuple(part.strip() for part in line.split("<->")) for line in open(baseline, encoding="utf-8")
                   if line.strip() and not line.startswith("#")}
        found = set(cycles)
        for a, b in sorted(found - allowed):
            print(f"new cycle: {a} <-> {b} name each other (ARCHITECTURE.md, Layers: dependencies point down)")
        for a, b in sorted(allowed - found):
            print(f"cycle broken: remove '{a} <-> {b}' from scripts/dev/layers-baseline.txt")
        if found != allowed:
            sys.exit(1)

if __name__ == "__main__":
    main()
