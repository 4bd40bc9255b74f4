#!/usr/bin/env bash
# Runs the SEKit pipeline on a Slurm cluster as N-way job arrays, one array per step, chained
# with --dependency=afterok, each task running one shard (scripts/slurm/array.sbatch):
#
#   mix         sekit mix --recipe RECIPE --out OUT/corpus --shard i/N
#   features    sekit features --corpus OUT/corpus --out OUT/features/shard-i-of-N.h5 --shard i/N
#   enhance     (--method M) sekit enhance --method M --corpus OUT/corpus --out OUT/enhanced --shard i/N
#   merge-features (--checkpoint) sekit features merge OUT/features.h5 OUT/features/shard-*.h5 --copy
#   synthesize  (--checkpoint DIR) sekit synthesize --features OUT/features.h5
#                   --predictions DIR/predictions.h5 --dataset D --corpus OUT/corpus --out OUT/enhanced --shard i/N
#   score       (--method or --checkpoint) sekit score --corpus OUT/corpus --enhanced OUT/enhanced
#                   --shard i/N --per-clip OUT/scores/per-clip-shard-i-of-N.csv
#   merge       one job: sekit catalog merge OUT/catalog.sqlite OUT/catalogs/shard-*.sqlite, the
#               features merge (unless done before synthesize), and sekit score --from-run of the
#               merged score run: OUT/scores/per-clip.csv and OUT/scores/summary.json
#
# Each shard's runs are recorded in OUT/catalogs/shard-i-of-N.sqlite; logs go to
# OUT/logs/STEP-JOBID_TASK.out (merge: OUT/logs/merge-JOBID.out); the submitted job ids to
# OUT/slurm-jobs.txt (and OUT/slurm-jobs.history).
#
# Usage: scripts/slurm/run.sh RECIPE N [options] [-- MIX OPTIONS...]
#
#   RECIPE             a sekit mix recipe (datasets/recipes/NAME.yaml)
#   N                  number of shards (array tasks per step)
#   --out DIR          output folder (default: ./slurm-RECIPENAME)
#   --method M         enhance with a classical baseline (specsub, mmse-stsa, logmmse, wiener,
#                      oracle-irm, ...) and score it
#   --checkpoint DIR   resynthesise a model's outputs DIR/predictions.h5 (over the merged feature
#                      file, in its frame order) and score them
#   --dataset NAME     dataset of the predictions file (default: mask)
#   --metrics LIST     metrics for sekit score (default: sekit's)
#   --features-args "ARGS"  options for every sekit features shard, split at spaces (no quoting),
#                      e.g. --features-args "--targets clean,irm --compression gzip"
#   --jobs J           threads per task: sekit --jobs J and sbatch --cpus-per-task=J (default 1)
#   --partition P      sbatch --partition
#   --time T           sbatch --time (per task), e.g. 30:00 or 2:00:00
#   --sbatch-arg ARG   one more sbatch option for every job (repeatable), e.g. --sbatch-arg=--account=lab
#   --sekit PATH       the sekit binary, visible on the compute nodes (default: sekit on PATH,
#                      else this checkout's release, then debug build)
#   --dry-run          print what would be submitted (the sbatch commands), submit nothing
#   --force            submit even though jobs from OUT/slurm-jobs.txt are still queued or running
#   -h, --help         this help
#   -- MIX OPTIONS     passed to every sekit mix shard (e.g. -- --count 200 --seconds 4)
#
# Re-submitting (the same command again) after a failure submits only what is incomplete: per
# step and shard, a shard is complete when the newest run of that step in its shard catalogue is
# `finished` with no failed clips and its output exists (mix: OUT/corpus/manifest-shard-i-of-N.jsonl;
# features: OUT/features/shard-i-of-N.h5; enhance/synthesize: OUT/enhanced/CLIP.wav for each of the
# shard's clips; score: OUT/scores/per-clip-shard-i-of-N.csv). Arrays then hold only the incomplete
# task ids (--array=2,4); complete steps are skipped; the merge runs again whenever anything was
# submitted or one of its outputs is missing. The commands themselves resume or replace half-done
# work (a killed mix shard resumes its clips).
#
# Watch:  squeue -j IDS;  scontrol show job ID;  tail -f OUT/logs/*.out
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
template="$here/array.sbatch"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "run.sh: $*" >&2; exit 1; }
usage_error() { echo "run.sh: $*" >&2; echo "run.sh: see scripts/slurm/run.sh --help" >&2; exit 64; }

recipe="" n="" out="" method="" checkpoint="" dataset="mask" metrics="" jobs=1 partition="" time_limit=""
sekit="" dry_run=0 force=0
sbatch_extra=()
mix_extra=()
features_extra=()
positional=()
need_value() { [[ $# -ge 2 && -n "$2" ]] || usage_error "$1 needs a value"; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --out) need_value "$@"; out="$2"; shift 2 ;;
        --out=*) out="${1#*=}"; shift ;;
        --method) need_value "$@"; method="$2"; shift 2 ;;
        --method=*) method="${1#*=}"; shift ;;
        --checkpoint) need_value "$@"; checkpoint="$2"; shift 2 ;;
        --checkpoint=*) checkpoint="${1#*=}"; shift ;;
        --dataset) need_value "$@"; dataset="$2"; shift 2 ;;
        --dataset=*) dataset="${1#*=}"; shift ;;
        --metrics) need_value "$@"; metrics="$2"; shift 2 ;;
        --metrics=*) metrics="${1#*=}"; shift ;;
        --features-args) [[ $# -ge 2 ]] || usage_error "--features-args needs a value"; read -ra features_extra <<< "$2"; shift 2 ;;
        --features-args=*) read -ra features_extra <<< "${1#*=}"; shift ;;
        --jobs) need_value "$@"; jobs="$2"; shift 2 ;;
        --jobs=*) jobs="${1#*=}"; shift ;;
        --partition) need_value "$@"; partition="$2"; shift 2 ;;
        --partition=*) partition="${1#*=}"; shift ;;
        --time) need_value "$@"; time_limit="$2"; shift 2 ;;
        --time=*) time_limit="${1#*=}"; shift ;;
        --sbatch-arg) need_value "$@"; sbatch_extra+=("$2"); shift 2 ;;
        --sbatch-arg=*) sbatch_extra+=("${1#*=}"); shift ;;
        --sekit) need_value "$@"; sekit="$2"; shift 2 ;;
        --sekit=*) sekit="${1#*=}"; shift ;;
        --dry-run) dry_run=1; shift ;;
        --force) force=1; shift ;;
        --) shift; mix_extra=("$@"); break ;;
        -*) usage_error "unknown option $1" ;;
        *) positional+=("$1"); shift ;;
    esac
done
[[ ${#positional[@]} -eq 2 ]] || usage_error "expected RECIPE and N (got ${#positional[@]} arguments: ${positional[*]:-none})"
recipe="${positional[0]}" n="${positional[1]}"
[[ -f "$recipe" ]] || usage_error "recipe $recipe: no such file"
recipe="$(cd "$(dirname "$recipe")" && pwd)/$(basename "$recipe")"
[[ "$n" =~ ^[1-9][0-9]*$ ]] || usage_error "N must be a positive whole number of shards (got '$n')"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || usage_error "--jobs must be a positive whole number (got '$jobs')"
[[ -n "$method" && -n "$checkpoint" ]] && usage_error "--method and --checkpoint exclude each other"
predictions=""
if [[ -n "$checkpoint" ]]; then
    [[ -d "$checkpoint" ]] || usage_error "--checkpoint $checkpoint: no such folder"
    checkpoint="$(cd "$checkpoint" && pwd)"
    predictions="$checkpoint/predictions.h5"
    [[ -f "$predictions" ]] || usage_error "--checkpoint $checkpoint holds no predictions.h5 (model outputs over OUT/features.h5, dataset '$dataset')"
fi
if [[ -z "$out" ]]; then
    name="$(basename "$recipe")"
    out="slurm-${name%.*}"
fi
if [[ -d "$out" ]]; then out="$(cd "$out" && pwd)"; else out="$(cd "$(dirname "$out")" 2>/dev/null && pwd)/$(basename "$out")" \
    || usage_error "--out $out: its parent folder does not exist"; fi

if [[ -z "$sekit" ]]; then
    if command -v sekit >/dev/null; then sekit="$(command -v sekit)"
    else
        # This checkout's newest build.
        for candidate in "$root"/.build/{release,debug}/sekit "$root"/.build/*/{release,debug}/sekit; do
            [[ -x "$candidate" ]] || continue
            if [[ -z "$sekit" || "$candidate" -nt "$sekit" ]]; then sekit="$candidate"; fi
        done
        [[ -n "$sekit" ]] || usage_error "no sekit binary: give --sekit PATH (build one with: swift build -c release --product sekit)"
    fi
fi
[[ -x "$sekit" ]] || usage_error "--sekit $sekit: not an executable file"
sekit="$(cd "$(dirname "$sekit")" && pwd)/$(basename "$sekit")"
if ((!dry_run)); then
    command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node (or start scripts/slurm/local-cluster.sh and export SLURM_CONF)"
fi

# Steps of this pipeline, in submission order.
steps=(mix features)
if [[ -n "$method" ]]; then steps+=(enhance score)
elif [[ -n "$checkpoint" ]]; then steps+=(merge-features synthesize score)
fi
steps+=(merge)

# Which steps a step needs (their jobs of this submission become its afterok dependencies).
needs() {
    case "$1" in
        mix) ;;
        features|enhance) echo mix ;;
        merge-features) echo mix features ;;
        synthesize) echo mix features merge-features ;;
        score) if [[ -n "$method" ]]; then echo mix enhance; else echo mix features merge-features synthesize; fi ;;
        merge) echo "${steps[@]}" ;;
    esac
}

catalog_of() { echo "$out/catalogs/shard-$1-of-$n.sqlite"; }

# The kind of run a step records.
kind_of() { case "$1" in mix|features|enhance|synthesize|score) echo "$1" ;; esac; }

# Whether the newest run of KIND in shard i's catalogue finished without failed clips.
run_finished() {
    local kind="$1" i="$2" catalog listing id status
    catalog="$(catalog_of "$i")"
    [[ -f "$catalog" ]] || return 1
    listing="$("$sekit" runs list --kind "$kind" --format csv --limit 1 --catalog "$catalog" 2>/dev/null)" || return 1
    read -r id status < <(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) { if ($c == "id") ic = c; if ($c == "status") sc = c }; next }
                                   NR == 2 { print $ic, $sc; exit }' <<< "$listing")
    [[ "${status:-}" == finished && -n "${id:-}" ]] || return 1
    # No failed clips (a finished run whose command exited 1 for some clips).
    listing="$("$sekit" runs list --format csv --catalog "$catalog" \
        --filter "id = '$id' and (params.clips_failed is null or params.clips_failed = 0)" 2>/dev/null)" || return 1
    [[ "$(wc -l <<< "$listing")" -ge 2 ]]
}

# The clip ids of shard i (from its mix manifest).
shard_clip_ids() {
    grep -o '"clip_id":"[^"]*"' "$out/corpus/manifest-shard-$1-of-$n.jsonl" 2>/dev/null | cut -d'"' -f4
}

shard_complete() {
    local step="$1" i="$2" id
    run_finished "$(kind_of "$step")" "$i" || return 1
    case "$step" in
        mix) [[ -s "$out/corpus/manifest-shard-$i-of-$n.jsonl" ]] ;;
        features) [[ -s "$out/features/shard-$i-of-$n.h5" ]] ;;
        enhance|synthesize)
            local ids
            ids="$(shard_clip_ids "$i")"
            [[ -n "$ids" ]] || return 1
            while read -r id; do [[ -s "$out/enhanced/$id.wav" ]] || return 1; done <<< "$ids"
            ;;
        score) [[ -s "$out/scores/per-clip-shard-$i-of-$n.csv" ]] ;;
    esac
}

# 1 2 3 5 7 8 -> 1-3,5,7-8
ranges() {
    local result="" start="" prev="" k
    for k in "$@" end; do
        if [[ "$k" != end && -n "$prev" ]] && ((k == prev + 1)); then prev=$k; continue; fi
        if [[ -n "$start" ]]; then
            if ((prev == start)); then result+="${result:+,}$start"; else result+="${result:+,}$start-$prev"; fi
        fi
        start=$k prev=$k
    done
    echo "$result"
}

# Jobs of an earlier submission still queued or running: submitting again would run shards twice.
if ((!dry_run && !force)) && [[ -f "$out/slurm-jobs.txt" ]]; then
    active=()
    while read -r step job _; do
        [[ "$step" == \#* || -z "${job:-}" ]] && continue
        if [[ -n "$(squeue --noheader -j "$job" -o '%i' 2>/dev/null)" ]]; then active+=("$step:$job"); fi
    done < "$out/slurm-jobs.txt"
    if ((${#active[@]})); then
        die "jobs of the previous submission are still queued or running (${active[*]}; see $out/slurm-jobs.txt):
wait for them (squeue), cancel them (scancel), or submit anyway with --force"
    fi
fi

((dry_run)) || mkdir -p "$out" || die "cannot create the output folder $out"
common=(--parsable --kill-on-invalid-dep=yes --cpus-per-task="$jobs" --chdir="$out")
[[ -n "$partition" ]] && common+=(--partition="$partition")
[[ -n "$time_limit" ]] && common+=(--time="$time_limit")
common+=("${sbatch_extra[@]}")

declare -A job_of=()
submitted_any=0
summary=()
jobs_lines=()

submit() { # STEP ARRAY(or "") -- template arguments...
    local step="$1" array="$2" dep_ids=() s
    shift 2
    for s in $(needs "$step"); do
        [[ -n "${job_of[$s]:-}" ]] && dep_ids+=("${job_of[$s]}")
    done
    local cmd=(sbatch "${common[@]}" --job-name="sekit-$step")
    if [[ -n "$array" ]]; then
        cmd+=(--array="$array" --output="$out/logs/$step-%A_%a.out")
    else
        cmd+=(--output="$out/logs/$step-%j.out")
    fi
    if ((${#dep_ids[@]})); then
        local joined
        joined="$(IFS=:; echo "${dep_ids[*]}")"
        cmd+=(--dependency="afterok:$joined")
    fi
    cmd+=("$template" "$step" "$n" "$out" "$sekit" "$jobs" "$@")
    if ((dry_run)); then
        printf '%q ' "${cmd[@]}"
        echo
        job_of[$step]="JOB_$step"
    else
        local answer
        answer="$("${cmd[@]}")" || die "sbatch failed for step $step: $(printf '%q ' "${cmd[@]}")"
        job_of[$step]="${answer%%;*}"
        jobs_lines+=("$step ${job_of[$step]} ${array:--}")
    fi
    submitted_any=1
}

for step in "${steps[@]}"; do
    case "$step" in
        mix|features|enhance|synthesize|score)
            todo=() done_=()
            for ((i = 1; i <= n; i++)); do
                if shard_complete "$step" "$i"; then done_+=("$i"); else todo+=("$i"); fi
            done
            if ((${#todo[@]} == 0)); then
                summary+=("$step: complete (all $n shards), skipped")
                continue
            fi
            summary+=("$step: tasks $(ranges "${todo[@]}")${done_[*]:+ (complete: $(ranges "${done_[@]}"))}")
            ((dry_run)) || mkdir -p "$out/logs" "$out/catalogs"
            case "$step" in
                mix) submit mix "$(ranges "${todo[@]}")" "$recipe" "${mix_extra[@]}" ;;
                features) submit features "$(ranges "${todo[@]}")" "${features_extra[@]}" ;;
                enhance) submit enhance "$(ranges "${todo[@]}")" "$method" ;;
                synthesize) submit synthesize "$(ranges "${todo[@]}")" "$predictions" "$dataset" ;;
                score) submit score "$(ranges "${todo[@]}")" ${metrics:+--metrics "$metrics"} ;;
            esac
            ;;
        merge-features)
            if ((submitted_any == 0)) && [[ -s "$out/features.h5" ]]; then
                summary+=("merge-features: complete ($out/features.h5), skipped")
                continue
            fi
            summary+=("merge-features: one job")
            submit merge-features ""
            ;;
        merge)
            scores=no features=yes
            [[ -n "$method" || -n "$checkpoint" ]] && scores=yes
            [[ -n "$checkpoint" ]] && features=no
            missing=()
            [[ -s "$out/catalog.sqlite" ]] || missing+=("$out/catalog.sqlite")
            [[ $features == yes && ! -s "$out/features.h5" ]] && missing+=("$out/features.h5")
            [[ $scores == yes && ! -s "$out/scores/summary.json" ]] && missing+=("$out/scores/summary.json")
            [[ $scores == yes && ! -s "$out/scores/per-clip.csv" ]] && missing+=("$out/scores/per-clip.csv")
            if ((submitted_any == 0 && ${#missing[@]} == 0)); then
                summary+=("merge: complete, skipped")
                continue
            fi
            summary+=("merge: one job")
            ((dry_run)) || mkdir -p "$out/logs"
            submit merge "" "$scores" "$features"
            ;;
    esac
done

echo "run.sh: $n shards of $recipe into $out" >&2
printf '  %s\n' "${summary[@]}" >&2
if ((submitted_any == 0)); then
    echo "run.sh: every step is complete; nothing to submit (outputs in $out)" >&2
    exit 0
fi
if ((dry_run)); then
    echo "run.sh: dry run: nothing submitted" >&2
    exit 0
fi

{
    echo "# step job_id tasks (submitted $(date '+%F %T') by scripts/slurm/run.sh)"
    printf '%s\n' "${jobs_lines[@]}"
} > "$out/slurm-jobs.txt.tmp"
mv -f "$out/slurm-jobs.txt.tmp" "$out/slurm-jobs.txt"
cat "$out/slurm-jobs.txt" >> "$out/slurm-jobs.history"

ids=()
for line in "${jobs_lines[@]}"; do
    read -r step job tasks <<< "$line"
    if [[ "$tasks" == - ]]; then echo "$step: job $job"; else echo "$step: job $job (array tasks $tasks)"; fi
    ids+=("$job")
done
all_ids="$(IFS=,; echo "${ids[*]}")"
cat <<EOF
Job ids are in $out/slurm-jobs.txt. Watch them with:
  squeue -j $all_ids
  scontrol show job ${job_of[merge]}
  tail -f $out/logs/*.out
Outputs: $out/corpus, $out/features.h5 (shards in $out/features), $out/catalog.sqlite (shards in $out/catalogs)$([[ -n "$method$checkpoint" ]] && echo ", $out/enhanced, $out/scores")
After a failure, run the same command again: only incomplete shards are submitted.
EOF
