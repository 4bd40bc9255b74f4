"""Reads many row ranges of one 2-D HDF5 dataset, in file order, each chunk visited once.

``sekit.data``'s batched read path. A feature file's streams are chunked by whole frames
(``[chunk_frames, bins]``). For a batch of segments:

- a compressed stream (any HDF5 filter) is read chunk-aligned: the chunks that hold the segments
  are read whole, each once, adjacent ones in one read, and the segments sliced out (a partial
  read decompresses its chunk again for every segment in it);
- an uncompressed chunked (or contiguous) stream is read straight from the file: HDF5's chunk
  index gives every chunk's byte address (read once per process), and each segment's rows are
  read with one ``pread`` per chunk they lie in, on HDF5's own file descriptor, into the output. Through HDF5, every partial read
  of a chunk that fits h5py's 1 MiB chunk cache loads the whole 512 KiB chunk into the cache first
  (4 times the bytes of a 128-frame segment), and each read costs tens of microseconds of
  selection work;
- anything else (virtual datasets of a merged file, unallocated chunks, other byte orders) goes
  through h5py, segment by segment in file order.

Every path returns the stored values exactly.
"""

import os
import sys

import numpy as np

__all__ = ["RowReader"]


class RowReader:
    """Row ranges of the open 2-D h5py `dataset` of the file at `path` (one per process and stream)."""

    def __init__(self, path, dataset, chunk_frames):
        self.path = path
        self.dataset = dataset
        self.rows, self.bins = dataset.shape
        self.dtype = dataset.dtype
        self.filtered = dataset.id.get_create_plist().get_nfilters() > 0
        self.chunk_frames = int(dataset.chunks[0]) if dataset.chunks is not None else int(chunk_frames)
        self.row_bytes = self.bins * self.dtype.itemsize
        native = self.dtype.byteorder in ("=", "|") or self.dtype.byteorder == ("<" if sys.byteorder == "little" else ">")
        whole_rows = dataset.chunks is None or dataset.chunks[1] == self.bins
        self.direct = (not self.filtered and not dataset.is_virtual and native and whole_rows
                       and self.dtype.kind == "f" and dataset.file.driver == "sec2")
        # HDF5's own descriptor: the very file h5py opened (valid while it stays open).
        self._fd = dataset.file.id.get_vfd_handle() if self.direct else None
        self._addresses = None

    def read(self, spans, out):
        """Reads rows ``start : start + frames`` of each ``(start, frames)`` in `spans` into the
        matching array of `out` (float32 ``[frames, bins]``, C-contiguous)."""
        order = sorted(range(len(spans)), key=lambda k: spans[k][0])
        if self.filtered:
            self._read_chunk_aligned(spans, order, out)
        elif self.direct:
            self._read_direct(spans, order, out)
        else:
            for k in order:
                start, frames = spans[k]
                out[k][...] = self.dataset[start:start + frames]

    def _read_chunk_aligned(self, spans, order, out):
        runs = []  # [first chunk, last chunk, span indices]
        for k in order:
            start, frames = spans[k]
            first, last = start // self.chunk_frames, (start + max(frames, 1) - 1) // self.chunk_frames
            if runs and first <= runs[-1][1] + 1:
                runs[-1][1] = max(runs[-1][1], last)
                runs[-1][2].append(k)
            else:
                runs.append([first, last, [k]])
        for first, last, members in runs:
            low, high = first * self.chunk_frames, min((last + 1) * self.chunk_frames, self.rows)
            block = self.dataset[low:high]
            for k in members:
                start, frames = spans[k]
                out[k][...] = block[start - low:start - low + frames]

    def _read_direct(self, spans, order, out):
        addresses = self._chunk_addresses()
        fd = self._fd
        same_type = self.dtype == np.float32
        for k in order:
            start, frames = spans[k]
            target = out[k] if same_type else np.empty((frames, self.bins), dtype=self.dtype)
            row = start
            while row < start + frames:
                chunk = row // self.chunk_frames
                end = min(start + frames, (chunk + 1) * self.chunk_frames)
                address = addresses[chunk]
                piece = target[row - start:end - start]
                if address < 0:  # never written (fill value): HDF5 knows what it reads as
                    piece[...] = self.dataset[row:end]
                else:
                    wanted = (end - row) * self.row_bytes
                    got = os.preadv(fd, [memoryview(piece).cast("B")],
                                    address + (row - chunk * self.chunk_frames) * self.row_bytes)
                    if got != wanted:
                        raise OSError(f"{self.path}: read {got} of {wanted} bytes of rows {row}..<{end} of "
                                      f"/{self.dataset.name.lstrip('/')} (the file is truncated or was replaced)")
                row = end
            if not same_type:
                out[k][...] = target

    def _chunk_addresses(self):
        """Byte address of each chunk of rows (-1: not allocated), from HDF5's chunk index."""
        if self._addresses is None:
            dsid = self.dataset.id
            if self.dataset.chunks is None:
                offset = dsid.get_offset()
                self.chunk_frames = max(self.rows, 1)
                self._addresses = np.array([-1 if offset is None else offset], dtype=np.int64)
            else:
                addresses = np.full(-(-self.rows // self.chunk_frames), -1, dtype=np.int64)

                def note(info):
                    addresses[info.chunk_offset[0] // self.chunk_frames] = info.byte_offset

                if hasattr(dsid, "chunk_iter"):
                    dsid.chunk_iter(note)
                else:  # pragma: no cover - HDF5 before 1.12.3
                    for index in range(dsid.get_num_chunks()):
                        note(dsid.get_chunk_info(index))
                self._addresses = addresses
        return self._addresses
