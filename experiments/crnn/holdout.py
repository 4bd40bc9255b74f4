"""A validation set held out of the training clips, for a feature file without a `valid` split.

`hold_out(clip_ids, fraction, seed, speakers)` draws about `fraction` of the clips (at least one, and
at least one left for training), by speaker when the corpus's manifest names every clip's speaker (so
no validation speaker is heard in training), else clip by clip. The draw is a seeded shuffle of the
groups (sorted first, so the file's order does not matter): the same clips, seed and fraction always
hold out the same clips. `speakers_of(corpus, clip_ids)` reads the speakers from the corpus's
`manifest.jsonl` (the first speech source's `speaker`).
"""

import json
import os
import random


def speakers_of(corpus, clip_ids):
    """{clip_id: speaker} from the corpus's manifest; None unless every clip has a speaker."""
    manifest = os.path.join(corpus or "", "manifest.jsonl")
    if not corpus or not os.path.isfile(manifest):
        return None
    wanted, found = set(clip_ids), {}
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            entry = json.loads(line)
            if entry.get("clip_id") in wanted:
                sources = entry.get("speech_sources") or []
                speaker = sources[0].get("speaker") if sources else None
                if speaker:
                    found[entry["clip_id"]] = speaker
    return found if len(found) == len(wanted) else None


def hold_out(clip_ids, fraction, seed, speakers=None):
    """(held-out clip ids, kept clip ids, "speaker" or "clip"): about `fraction` of `clip_ids` held out."""
    clip_ids = sorted(set(clip_ids))
    if len(clip_ids) < 2:
        raise ValueError(f"{len(clip_ids)} training clip(s): too few to hold any out for validation")
    if not 0 < fraction < 1:
        raise ValueError(f"holdout_fraction {fraction}: must be between 0 and 1")
    by = "speaker" if speakers and len(set(speakers.values())) >= 2 else "clip"
    groups = {}
    for clip in clip_ids:
        groups.setdefault(speakers[clip] if by == "speaker" else clip, []).append(clip)
    order = sorted(groups)
    random.Random(f"holdout:{seed}").shuffle(order)
    wanted = max(1, round(fraction * len(clip_ids)))
    held = []
    for group in order:
        if len(held) >= wanted or len(held) + len(groups[group]) >= len(clip_ids):
            break
        held += groups[group]
    if not held:  # one speaker holds nearly every clip: hold out clips instead
        return hold_out(clip_ids, fraction, seed, None)
    kept = [clip for clip in clip_ids if clip not in set(held)]
    return sorted(held), kept, by
