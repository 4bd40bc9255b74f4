#!/usr/bin/env bash
# Makes the built-in demo corpus (idempotent): speech synthesised with espeak-ng from the
# Harvard sentences in sentences.txt by four voices (the "speakers"), each at its own speaking
# rate, and noise made by SEKit itself (`sekit noise`: white, pink and brown; the demo recipe mixes
# one or two of them per clip). Usage: make_demo_corpus.sh SEKIT_BINARY OUT_FOLDER
set -euo pipefail
sekit="$1"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
version="2: four voices at 135-175 words per minute"
if [[ -f "$out/.complete" && "$(cat "$out/.complete")" == "$version" ]]; then exit 0; fi
rm -rf "$out"
mkdir -p "$out/speech" "$out/noise"
voices=(en-us+m3 en-gb+f2 en-us+f4 en-gb-scotland+m1)
rates=(150 170 135 175)
n=0
while IFS= read -r sentence; do
    [[ -z "$sentence" ]] && continue
    for i in "${!voices[@]}"; do
        v="${voices[$i]}"
        speaker="${v//+/_}"
        mkdir -p "$out/speech/$speaker"
        espeak-ng -v "$v" -s "${rates[$i]}" -w "$out/speech/$speaker/utt$(printf %02d $n).wav" "$sentence"
    done
    n=$((n + 1))
done < "$here/sentences.txt"
"$sekit" noise --color white --seconds 20 --rms-dbfs -25 --seed 1 "$out/noise/white.wav"
"$sekit" noise --color pink --seconds 20 --rms-dbfs -25 --seed 2 "$out/noise/pink.wav"
"$sekit" noise --color brown --seconds 20 --rms-dbfs -25 --seed 3 "$out/noise/brown.wav"
"$sekit" noise --color pink --seconds 7 --rms-dbfs -30 --seed 4 "$out/noise/pink_short.wav"
echo "$version" > "$out/.complete"
