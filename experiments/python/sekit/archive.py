"""Streaming training segments straight from a corpus mixed as archives (``sekit mix --archive
tar|shar``; docs/archives.md), needing only the standard library and numpy.

    from sekit.data import SEKitArchiveDataset
    train = SEKitArchiveDataset("corpus/", target="clean", split="train", segment_samples=32000,
                                shuffle_buffer=256, seed=0)
    loader = torch.utils.data.DataLoader(train, batch_size=16, num_workers=4)
    for epoch in range(epochs):
        train.set_epoch(epoch)                  # another shard order, buffer order and segments
        for noisy, target, clip_ids in loader: ...

Each item is ``(noisy, target, clip_id)``: float32 samples of the noisy stem and of the target stem
(``clean`` or ``noise``), a random ``segment_samples`` long segment of the clip (the same span of
both; a shorter clip is zero-padded), or the whole clip when ``segment_samples`` is None. The shards
are read in order, each from start to end with ``tarfile``'s streaming mode (one pass, no seeks);
with DataLoader workers, worker w of W reads shards w, w + W, ... (one shard at a time per worker,
none read twice). ``shuffle_buffer=N`` shuffles within a buffer of N clips (the usual streaming
shuffle); ``shuffle_shards`` also reorders the shards per epoch. Segments and orders depend only on
the seed, the epoch and the clip, never on the worker count's timing.
"""

import io
import json
import os
import random
import struct
import tarfile

import numpy as np

try:  # torch is optional: without it the dataset is a plain iterable.
    from torch.utils.data import IterableDataset as _IterableBase
    from torch.utils.data import get_worker_info as _worker_info
except ImportError:  # pragma: no cover - depends on the environment
    _IterableBase = object

    def _worker_info():
        return None

__all__ = ["SEKitArchiveDataset", "ArchiveError", "read_wav"]


class ArchiveError(ValueError):
    """A corpus that is not an archive corpus, a shard missing or truncated, a member unreadable."""


def read_wav(data, name="member"):
    """The float32 samples of a mono PCM16 or float32 WAV (the canonical 44-byte header SEKit writes)."""
    if len(data) < 44 or data[0:4] != b"RIFF" or data[8:12] != b"WAVE" or data[36:40] != b"data":
        raise ArchiveError(f"{name}: not a WAV file as sekit mix writes them")
    tag, channels = struct.unpack("<HH", data[20:24])
    size = struct.unpack("<I", data[40:44])[0]
    if 44 + size != len(data) or channels != 1:
        raise ArchiveError(f"{name}: holds {len(data)} bytes, its WAV header promises {44 + size} (mono)")
    if tag == 1:
        return np.frombuffer(data, dtype="<i2", offset=44).astype(np.float32) / 32768.0
    if tag == 3:
        return np.frombuffer(data, dtype="<f4", offset=44).copy()
    raise ArchiveError(f"{name}: WAV format tag {tag} (expected PCM16 or float32)")


class SEKitArchiveDataset(_IterableBase):
    """An iterable over the clips of an archive corpus, streamed shard by shard (see the module doc)."""

    def __init__(self, corpus, target="clean", split=None, segment_samples=None, shuffle_buffer=0,
                 shuffle_shards=False, seed=0):
        if target not in ("clean", "noise"):
            raise ValueError(f"target {target!r}: expected 'clean' or 'noise'")
        path = os.path.join(corpus, "archive.json")
        try:
            with open(path) as f:
                layout = json.load(f)
        except (OSError, ValueError) as error:
            raise ArchiveError(f"{path}: not an archive corpus (made by sekit mix --archive): {error}") from None
        self.corpus, self.target, self.split = corpus, target, split
        self.format = layout["format"]
        # The shards' folder inside the corpus (Shar: "shar"); absent in corpora mixed before it.
        self.shard_folder = os.path.join(corpus, layout["folder"]) if layout.get("folder") else corpus
        count, per = int(layout["clip_count"]), int(layout["clips_per_shard"])
        self.clips_per_shard = per
        self.shards = list(range((count + per - 1) // per))
        self.segment_samples, self.shuffle_buffer = segment_samples, int(shuffle_buffer)
        self.shuffle_shards, self.seed, self.epoch = shuffle_shards, int(seed), 0

    def set_epoch(self, epoch):
        self.epoch = int(epoch)

    def _shard_order(self):
        shards = list(self.shards)
        if self.shuffle_shards:
            random.Random(f"{self.seed}:{self.epoch}:shards").shuffle(shards)
        info = _worker_info()
        return shards if info is None else shards[info.id::info.num_workers]

    def __iter__(self):
        rng = random.Random(f"{self.seed}:{self.epoch}:buffer:{_worker_info().id if _worker_info() else 0}")
        buffer = []
        for shard in self._shard_order():
            for clip in self._clips(shard):
                if self.shuffle_buffer <= 1:
                    yield clip
                    continue
                buffer.append(clip)
                if len(buffer) >= self.shuffle_buffer:
                    yield buffer.pop(rng.randrange(len(buffer)))
        rng.shuffle(buffer)
        yield from buffer

    def _clips(self, shard):
        for clip_id, record, noisy, target in (self._tar_clips(shard) if self.format == "tar" else self._shar_clips(shard)):
            if self.split is not None and record.get("split") != self.split:
                continue
            yield (*self._segment(noisy, target, clip_id), clip_id)

    def _segment(self, noisy, target, clip_id):
        n = self.segment_samples
        if n is None:
            return noisy, target
        if len(noisy) < n:
            pad = n - len(noisy)
            return np.pad(noisy, (0, pad)), np.pad(target, (0, pad))
        start = random.Random(f"{self.seed}:{self.epoch}:{clip_id}").randrange(len(noisy) - n + 1)
        return noisy[start:start + n], target[start:start + n]

    def _open(self, name):
        path = os.path.join(self.shard_folder, name)
        if not os.path.exists(path):
            raise ArchiveError(f"{path}: the archive shard is missing")
        return tarfile.open(path, mode="r|")

    def _members(self, name):
        """(member name, bytes) of a shard in order; a truncated or corrupt tar, or one holding a member
        name twice (the CLI and this reader would each read another copy), raises ArchiveError."""
        path = os.path.join(self.shard_folder, name)
        seen = set()
        try:
            with self._open(name) as tar:
                for info in tar:
                    if info.isfile():
                        if info.name in seen:
                            raise ArchiveError(f"{path}: member {info.name} appears twice; a shard holds each member once "
                                               "(a shard written twice into one file?)")
                        seen.add(info.name)
                        yield info.name, tar.extractfile(info).read()
        except (tarfile.TarError, EOFError) as error:
            raise ArchiveError(f"{path}: truncated or corrupt tar ({type(error).__name__}: {error})") from None

    def _check_position(self, clip_id, shard, where):
        """Refuses a clip whose index (``s<seed>-<index>``) belongs to another shard: a shard file copied
        from another position would otherwise give its clips twice and drop this position's."""
        head, _, index = clip_id.rpartition("-")
        if not head.startswith("s") or not index.isdigit():
            raise ArchiveError(f"{where}: {clip_id!r} is not a clip id of the form s<seed>-<index>")
        if int(index) // self.clips_per_shard != shard:
            raise ArchiveError(f"{where}: clip {clip_id} belongs in shard {int(index) // self.clips_per_shard}, not {shard} "
                               f"({self.clips_per_shard} clips per shard): the shard file is another position's copy")

    def _tar_clips(self, shard):
        name = f"shard-{shard:06d}.tar"
        path = os.path.join(self.shard_folder, name)
        clip, key = {}, None
        for member, data in self._members(name):
            member_key, _, field = member.partition(".")
            if key is not None and member_key != key:
                raise ArchiveError(f"{path}: clip {key} has no {key}.json before {member} (members of one clip are adjacent)")
            key = member_key
            clip[field] = data
            if field == "json":
                self._check_position(key, shard, path)
                try:
                    record = json.loads(data)
                except ValueError as error:
                    raise ArchiveError(f"{path}:{key}.json: not JSON ({error})") from None
                missing = [stem for stem in ("noisy.wav", self.target + ".wav") if stem not in clip]
                if missing:
                    raise ArchiveError(f"{path}: clip {key} lacks {', '.join(key + '.' + m for m in missing)}")
                where = f"{path}:{key}"
                yield key, record, read_wav(clip["noisy.wav"], where + ".noisy.wav"), \
                    read_wav(clip[self.target + ".wav"], f"{where}.{self.target}.wav")
                clip, key = {}, None
        if key is not None:
            raise ArchiveError(f"{path}: clip {key} ends without its {key}.json")

    def _shar_clips(self, shard):
        import gzip
        cuts_path = os.path.join(self.shard_folder, f"cuts.{shard:06d}.jsonl.gz")
        try:
            with gzip.open(cuts_path, "rt") as f:
                cuts = [json.loads(line) for line in f if line.strip()]
        except (OSError, EOFError, ValueError) as error:
            raise ArchiveError(f"{cuts_path}: missing, truncated or not JSON lines ({type(error).__name__}: {error})") from None
        streams = {}
        for stream in ("recording", self.target):
            name = f"{stream}.{shard:06d}.tar"
            streams[stream] = (name, ((member, data) for member, data in self._members(name) if member.endswith(".wav")))
        for position, cut in enumerate(cuts):
            self._check_position(cut["id"], shard, cuts_path)
            audio = []
            for stream, (name, members) in streams.items():
                member, data = next(members, (None, None))
                if member is None:
                    raise ArchiveError(f"{os.path.join(self.shard_folder, name)}: ends before cut {cut['id']} "
                                       f"(cut {position + 1} of {len(cuts)} in {cuts_path})")
                if member.partition(".")[0] != cut["id"]:
                    raise ArchiveError(f"{os.path.join(self.shard_folder, name)}: member {member} where cut {cut['id']} belongs")
                audio.append(read_wav(data, f"{os.path.join(self.shard_folder, name)}:{member}"))
            yield cut["id"], cut.get("custom", {}), audio[0], audio[1]
        for name, members in streams.values():  # read to the end: a member past the last cut, or written twice, is refused
            extra = next(members, None)
            if extra is not None:
                raise ArchiveError(f"{os.path.join(self.shard_folder, name)}: member {extra[0]} after the last of the "
                                   f"{len(cuts)} cuts of {cuts_path}")
