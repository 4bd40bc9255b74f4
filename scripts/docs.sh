#!/usr/bin/env bash
# Builds the Swift API documentation (the DocC catalog Sources/SEKit/SEKit.docc) offline: the
# package's symbol graph down to internal symbols (the API as the next engineer reads it: `swift
# package dump-symbol-graph`), then `docc convert`; any link that does not resolve (``MixJob`` to a
# symbol that does not exist or is ambiguous) fails the script, with docc's message. (docc's other
# warnings, such as parameters a doc comment leaves out, are printed and counted, not fatal.)
# Output: .build/docs/SEKit.doccarchive (open with `docc preview` or any static server).
# Run by scripts/test.sh after the tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/setup.sh
swift package dump-symbol-graph --minimum-access-level internal >/dev/null
graphs="$(swift build --show-bin-path)/../symbolgraph"
only="$root/.build/docs/symbolgraph"
rm -rf "$only" && mkdir -p "$only"
cp "$graphs"/SEKit.symbols.json "$graphs"/SEKit@*.symbols.json "$only"/ 2>/dev/null || cp "$graphs"/SEKit.symbols.json "$only"/
docc="$(command -v docc || echo /opt/swift/usr/bin/docc)"
"$docc" convert Sources/SEKit/SEKit.docc --fallback-display-name SEKit --fallback-bundle-identifier org.sekit.SEKit \
    --additional-symbol-graph-dir "$only" --output-path "$root/.build/docs/SEKit.doccarchive" \
    --diagnostics-file "$root/.build/docs/diagnostics.json" >"$root/.build/docs/docc.log" 2>&1 || { cat "$root/.build/docs/docc.log" >&2; exit 1; }
broken="$(grep -E -A1 "doesn't exist|is ambiguous|isn't available for linking|No symbol matched" "$root/.build/docs/docc.log" || true)"
if [[ -n "$broken" ]]; then
    echo "docs: links that do not resolve:" >&2
    echo "$broken" >&2
    exit 1
fi
echo "docs: $root/.build/docs/SEKit.doccarchive ($(grep -c 'warning:' "$root/.build/docs/docc.log" || true) other warnings)" >&2
