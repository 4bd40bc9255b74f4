# Sourced by the scripts in scripts/stress/: the tools they need, the sekit binary, the work
# folder and its clean-up.
#
# stress_init NAME TOOL...: checks that every TOOL is installed; sets root (the checkout), fixtures
# ($SEKIT_FIXTURES, default datasets/fixtures: scripts/fixtures.sh), sekit ($SEKIT, else the release build of the
# checkout, built now), work (a new folder NAME.XXXXXX under $STRESS_DIR, default $TMPDIR or
# /tmp; removed at exit unless KEEP=1), log (work/logs) and cat (work/catalog.sqlite). At exit,
# the processes whose pids are in `children` are killed.

children=()

# say MESSAGE...: progress on stderr.
say() { echo "$stress_name: $*" >&2; }
# sql STATEMENT...: runs statements on the test's catalogue, no header.
sql() { sqlite3 -batch -noheader "$cat" "$@"; }

stress_cleanup() {
    local pid
    for pid in "${children[@]}"; do
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [[ "${KEEP:-0}" == 1 ]]; then say "work folder kept: $work"; else rm -rf "$work"; fi
}

stress_init() {
    stress_name="$1"; shift
    trap 'echo "$stress_name: line $LINENO: a command failed (exit $?)" >&2' ERR
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { say "$tool is required"; exit 2; }
    done
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    fixtures="$("$root/scripts/fixtures.sh")"
    if [[ -z "${SEKIT:-}" ]]; then
        command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
        (cd "$root" && swift build -c release --product sekit >&2)
        SEKIT="$(cd "$root" && swift build -c release --show-bin-path)/sekit"
    fi
    sekit="$SEKIT"
    [[ -x "$sekit" ]] || { say "$sekit is not executable"; exit 2; }
    local parent="${STRESS_DIR:-${TMPDIR:-/tmp}}"
    mkdir -p "$parent"
    work="$(mktemp -d "$parent/sekit-$stress_name.XXXXXX")"
    trap stress_cleanup EXIT
    cat="$work/catalog.sqlite"
    log="$work/logs"
    mkdir -p "$log"
    say "sekit: $sekit"
    say "work folder: $work (catalogue $cat)"
}
