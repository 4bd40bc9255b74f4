# Shared by the benchmark scripts (source it after setting $python, $work and $runs).

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
