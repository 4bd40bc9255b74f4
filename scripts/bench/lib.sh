# Shared by the benchmark scripts (source it after setting $python, $work and $runs; fixture_mix
# also needs $sekit and $fixtures).

# release_sekit: the sekit binary to time: $SEKIT when set (to compare two commits), else this
# checkout's release build, built first.
release_sekit() {
    if [[ -n "${SEKIT:-}" ]]; then
        echo "$SEKIT"
    else
        swift build -c release --product sekit >&2
        echo "$(swift build -c release --show-bin-path)/sekit"
    fi
}

# fixture_mix FOLDER: the benchmarks' corpus, mixed once into FOLDER (its catalogue beside it):
# 200 clips of 4 s at 16 kHz, fixture speech and noise at -5...20 dB, seed 1.
fixture_mix() {
    local out="$1" parent
    [[ -f "$out/manifest.jsonl" ]] && return 0
    parent="$(dirname "$out")"
    mkdir -p "$parent"
    echo "bench: mixing 200 clips from $fixtures into $out" >&2
    (cd "$parent" && SEKIT_CATALOG="$parent/catalog.sqlite" "$sekit" mix --speech "$fixtures/speech" --noise "$fixtures/noise" \
        --count 200 --snr-db=-5,0,5,10,15,20 --seed 1 --out "$out" >/dev/null)
}

# measure NAME COMMAND...: runs COMMAND $runs times (whole process, output discarded) and prints
# "best_wall_seconds mean_wall_seconds mean_cpu_seconds". With hyperfine installed (and TIMER is
# not `time`): one warm-up run, its JSON kept as $work/NAME.hyperfine.json; else bash's `time`.
measure() {
    local name="$1"; shift
    if [[ "${TIMER:-auto}" != time ]] && command -v hyperfine >/dev/null; then
        hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/$name.hyperfine.json" \
            --command-name "$name" "$(printf '%q ' "$@")" >&2
        "$python" -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["min"], r["mean"], r["user"]+r["system"])' \
            "$work/$name.hyperfine.json"
    else
        local runs_out="" line
        for _ in $(seq "$runs"); do
            line=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
            runs_out+="$line"$'\n'
        done
        # best wall, mean wall, mean cpu (user + system)
        awk 'NF == 3 { n++; w += $1; c += $2 + $3; if (n == 1 || $1 < b) b = $1 } END { print b, w / n, c / n }' <<<"$runs_out"
    fi
}

# timed NAME COMMAND...: runs COMMAND once under /usr/bin/time (its output in $work/NAME.out and
# .err) and prints "wall_seconds cpu_seconds maxrss_kb user_seconds" (cpu = user + system). A
# command that fails prints the end of its stderr and prints nothing, so the caller's `read` fails.
timed() {
    local name="$1"; shift
    if ! /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err"; then
        echo "bench: $name failed: $*" >&2
        tail -5 "$work/$name.err" >&2
        return 1
    fi
    awk '{print $1, $2 + $3, $4, $2}' "$work/$name.time"
}

# measure_run NAME COMMAND...: runs COMMAND $runs times under /usr/bin/time, keeping its output in
# $work/NAME.out and .err and stopping on a failure (measure discards both); prints
# "best_wall_seconds cpu_seconds_of_that_run".
measure_run() {
    local name="$1"; shift
    local best="" line
    for i in $(seq "$runs"); do
        /usr/bin/time -f '%e %U %S' -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || {
            echo "bench: $name failed (see $work/$name.err)" >&2; return 1; }
        line=$(tail -n 1 "$work/$name.time")
        best=$(awk -v best="$best" -v line="$line" 'BEGIN { split(line, t, " ");
            if (best == "") { print t[1], t[2] + t[3]; exit }
            split(best, b, " "); if (t[1] < b[1]) print t[1], t[2] + t[3]; else print best }')
    done
    echo "$best"
}
