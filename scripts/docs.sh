#!/usr/bin/env bash
# Builds the Swift API documentation (the DocC catalogs Sources/SEKitSignal/SEKitSignal.docc,
# Sources/SEKitCatalog/SEKitCatalog.docc and Sources/SEKit/SEKit.docc) offline: the
# package's symbol graph down to internal symbols (the API as the next engineer reads it: `swift
# package dump-symbol-graph`), then `docc convert`; any link that does not resolve (``MixJob`` to a
# symbol that does not exist or is ambiguous) fails the script, with docc's message. (docc's other
# warnings, such as parameters a doc comment leaves out, are printed and counted, not fatal.)
# Output: .build/docs/SEKitSignal.doccarchive, SEKitCatalog.doccarchive and SEKit.doccarchive (open with `docc preview` or any static server).
# Run by scripts/test.sh after the tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/setup.sh
swift package dump-symbol-graph --minimum-access-level internal >/dev/null
graphs="$(swift build --show-bin-path)/../symbolgraph"
docc="$(command -v docc || echo /opt/swift/usr/bin/docc)"
# One archive per target. docc (6.3, offline) resolves no symbol link from one archive into the
# other, so SEKit's doc comments name SEKitSignal's and SEKitCatalog's types as code (`AudioBuffer`,
# `Catalog`), not as links.
convert() {  # TARGET
    local target="$1" only="$root/.build/docs/symbolgraph-$1"
    rm -rf "$only" && mkdir -p "$only"
    cp "$graphs/$target".symbols.json "$only"/
    cp "$graphs/$target"@*.symbols.json "$only"/ 2>/dev/null || true
    "$docc" convert "Sources/$target/$target.docc" --fallback-display-name "$target" \
        --fallback-bundle-identifier "org.sekit.$target" --additional-symbol-graph-dir "$only" \
        --output-path "$root/.build/docs/$target.doccarchive" \
        --diagnostics-file "$root/.build/docs/diagnostics-$target.json" >"$root/.build/docs/docc-$target.log" 2>&1 \
        || { cat "$root/.build/docs/docc-$target.log" >&2; exit 1; }
    local broken
    broken="$(grep -E -A1 "doesn't exist|is ambiguous|isn't available for linking|No symbol matched|Can't resolve" \
        "$root/.build/docs/docc-$target.log" || true)"
    if [[ -n "$broken" ]]; then
        echo "docs: links in $target that do not resolve:" >&2
        echo "$broken" >&2
        exit 1
    fi
    echo "docs: $root/.build/docs/$target.doccarchive ($(grep -c 'warning:' "$root/.build/docs/docc-$target.log" || true) other warnings)" >&2
}
mkdir -p "$root/.build/docs"
convert SEKitSignal
convert SEKitCatalog
convert SEKit
