#!/usr/bin/env bash
# Builds the Swift API documentation (the DocC catalogs Sources/SEKitSignal/SEKitSignal.docc and
# Sources/SEKit/SEKit.docc) offline: the
# package's symbol graph down to internal symbols (the API as the next engineer reads it: `swift
# package dump-symbol-graph`), then `docc convert`; any link that does not resolve (``MixJob`` to a
# symbol that does not exist or is ambiguous) fails the script, with docc's message. (docc's other
# warnings, such as parameters a doc comment leaves out, are printed and counted, not fatal.)
# Output: .build/docs/SEKitSignal.doccarchive and .build/docs/SEKit.doccarchive (open with `docc preview` or any static server).
# Run by scripts/test.sh after the tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/setup.sh
swift package dump-symbol-graph --minimum-access-level internal >/dev/null
graphs="$(swift build --show-bin-path)/../symbolgraph"
docc="$(command -v docc || echo /opt/swift/usr/bin/docc)"
# One archive per target: SEKitSignal first (with link metadata), then SEKit, whose links to the
# signal layer (``SEKitSignal/AudioBuffer``) resolve against it (--dependency).
convert() {  # TARGET [DEPENDENCY ARCHIVE]
    local target="$1" only="$root/.build/docs/symbolgraph-$1"
    rm -rf "$only" && mkdir -p "$only"
    cp "$graphs/$target".symbols.json "$only"/
    cp "$graphs/$target"@*.symbols.json "$only"/ 2>/dev/null || true
    "$docc" convert "Sources/$target/$target.docc" --fallback-display-name "$target" \
        --fallback-bundle-identifier "org.sekit.$target" --additional-symbol-graph-dir "$only" \
        --enable-experimental-external-link-support ${2:+--dependency "$2"} \
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
convert SEKit "$root/.build/docs/SEKitSignal.doccarchive"
