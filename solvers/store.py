"""A compact on-disk store for the packed solutions of the compiled retrograde kernels
(:mod:`solvers.kernels.entropy`, :mod:`solvers.kernels.interleave`): one 2-byte record per
ranked index, compressed in blocks with an index, so that one record is read without
decompressing the whole file and a solve of billions of positions is kept after its process
ends.

Record (uint16, Gamesman's record size)
---------------------------------------
Bits 14-15: the outcome for the player to move, :data:`NOT_A_POSITION` (0: a rank that is no
position: not canonical under symmetry, or not reachable from the solved root), :data:`WIN`
(1), :data:`LOSS` (2), :data:`DRAW` (3). Bits 0-13: the remoteness in plies (0 for draws).

File layout (little-endian)
---------------------------
``header`` (:data:`HEADER`, then the CRC-32 of those bytes), ``meta`` (UTF-8 JSON: game,
parameters, how the kernel ranked the space, provenance), the ``blocks`` (each
:data:`RECORDS_PER_BLOCK` records, the last one shorter, one zstandard frame each), then the
``index``: the file offset of every block and of the index itself (uint64), and the CRC-32
of every compressed block (uint32). The header holds the CRC-32 of the meta and of the
index, so every byte of the file is covered by a checksum; the header is written last and
the file is renamed into place, so an interrupted write never leaves a file that opens.

Why zstandard: it decompresses a 1 MiB block in about a millisecond (LZMA, GamesmanOne's
choice, takes tens), its frames are independent so blocks compress on several threads, and
the records (mostly long runs of draws and non-positions) shrink many times over at level 3.
"""

from __future__ import annotations

import fcntl
import json
import os
import struct
import tempfile
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from cgt.errors import CGTError
from cgt.progress import Progress
from cgt.protocol import Outcome

#: First bytes of every store file.
MAGIC = b"CGTPACK\x00"
#: Version of the layout above; a file of another version is refused, never guessed at.
FORMAT_VERSION = 1
#: Records per compressed block: 1 MiB of uint16.
RECORDS_PER_BLOCK = 1 << 19
#: zstandard level: level 3 is the library's default balance of speed and size.
COMPRESSION_LEVEL = 3

#: magic, format version, meta length, record count, records per block, block count, index
#: offset, CRC-32 of the meta, CRC-32 of the index; then the CRC-32 of these bytes.
HEADER = struct.Struct("<8sIIQQQQII")
HEADER_SIZE = HEADER.size + 4

OUTCOME_SHIFT = 14
REMOTENESS_MASK = (1 << OUTCOME_SHIFT) - 1
#: Largest remoteness a record holds.
MAX_REMOTENESS = REMOTENESS_MASK
NOT_A_POSITION = 0
WIN = 1
LOSS = 2
DRAW = 3
#: Record outcome field -> the outcome for the player to move.
RECORD_OUTCOMES = {WIN: Outcome.WIN, LOSS: Outcome.LOSS, DRAW: Outcome.DRAW}

#: Decompressed blocks kept per open file (a query reads a position and its children).
CACHED_BLOCKS = 64


class StoreError(CGTError):
    """A stored packed solution cannot be used (the message names the file and why)."""


class StoreMissingError(StoreError):
    """The store file does not exist."""


class StoreCorruptError(StoreError):
    """The file is not a store, is truncated, or fails a checksum."""


class StoreVersionError(StoreError):
    """The file was written in another format version."""


def encode_record(outcome: Outcome | None, remoteness: int | None) -> int:
    """The record of a position (``outcome`` None: not a position)."""
    if outcome is None:
        return NOT_A_POSITION
    if outcome == Outcome.DRAW:
        return DRAW << OUTCOME_SHIFT
    distance = int(remoteness or 0)
    if not 0 <= distance <= MAX_REMOTENESS:
        raise ValueError(f"remoteness {distance} does not fit in a record")
    return ((WIN if outcome == Outcome.WIN else LOSS) << OUTCOME_SHIFT) | distance


def decode_record(record: int) -> tuple[Outcome, int | None] | None:
    """``(outcome for the player to move, remoteness or None for a draw)``, or None when the
    record says "not a position"."""
    field = int(record) >> OUTCOME_SHIFT
    if field == NOT_A_POSITION:
        return None
    outcome = RECORD_OUTCOMES[field]
    return outcome, None if outcome == Outcome.DRAW else int(record) & REMOTENESS_MASK


def win_loss_records(codes: np.ndarray, base: int) -> np.ndarray:
    """Records of a kernel's value codes ``base + 2 r`` (the player to move wins in ``r``
    plies) and ``base + 2 r + 1`` (loses in ``r``); codes below ``base`` are not positions
    (a kernel then marks its own draws). Kernels turn their arrays into records with this
    as a look-up table."""
    codes = np.asarray(codes, dtype=np.int64)
    distance = np.minimum((codes - base) >> 1, MAX_REMOTENESS)
    outcome = np.where(codes & 1, LOSS, WIN)
    records = np.where(codes >= base, (outcome << OUTCOME_SHIFT) | distance, NOT_A_POSITION)
    return records.astype(np.uint16)


def _crc(data: bytes | memoryview) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def _blocks_of(chunks: Iterable[np.ndarray], block: int) -> Iterator[np.ndarray]:
    """Re-cut arrays of any lengths into uint16 blocks of ``block`` records (the last one
    shorter), copying only the records that straddle two chunks."""
    pending: list[np.ndarray] = []
    pending_count = 0
    for chunk in chunks:
        chunk = np.asarray(chunk)
        if chunk.dtype != np.uint16 or chunk.ndim != 1:
            raise TypeError(f"records must be a 1-d uint16 array, got {chunk.dtype}{chunk.shape}")
        start = 0
        if pending:
            take = min(block - pending_count, chunk.size)
            pending.append(chunk[:take])
            pending_count += take
            start = take
            if pending_count == block:
                yield np.concatenate(pending)
                pending, pending_count = [], 0
        while chunk.size - start >= block:
            yield chunk[start : start + block]
            start += block
        if start < chunk.size:
            pending.append(chunk[start:])
            pending_count += chunk.size - start
    if pending:
        yield np.concatenate(pending)


def write_packed_solution(
    path: Path | str,
    records: np.ndarray | Iterable[np.ndarray],
    meta: dict[str, Any],
    *,
    records_per_block: int = RECORDS_PER_BLOCK,
    level: int = COMPRESSION_LEVEL,
    threads: int | None = None,
    progress: Progress | None = None,
) -> int:
    """Write ``records`` (one uint16 array, or an iterator of arrays read one at a time so
    the whole space never needs a second copy in memory) with ``meta`` (JSON-serialisable)
    to ``path``; returns the file's size in bytes.

    The file is written beside ``path`` and renamed into place once complete, so ``path``
    is either the old file or the new complete one. Blocks compress on ``threads`` threads
    (default: the CPUs available). An unwritable place is a one-line :class:`StoreError`.
    """
    path = Path(path)
    meta_bytes = json.dumps(meta, sort_keys=True, default=str).encode()
    chunks = [records] if isinstance(records, np.ndarray) else records
    workers = threads or max(1, len(os.sched_getaffinity(0)))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _writer_lock(path):  # a second writer of the same file waits its turn
            return _write_packed(
                path, chunks, meta_bytes, records_per_block, level, workers, progress
            )
    except OSError as exc:
        raise StoreError(f"cannot write the packed solution {path}: {exc.strerror}") from None


def _write_packed(
    path: Path,
    chunks: Iterable[np.ndarray],
    meta_bytes: bytes,
    records_per_block: int,
    level: int,
    workers: int,
    progress: Progress | None,
) -> int:
    from concurrent.futures import ThreadPoolExecutor  # only writers need threads

    import zstandard

    # a temporary name of its own, renamed over ``path`` only once complete
    fd, partial_name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".partial")
    os.fchmod(fd, 0o644)
    partial = Path(partial_name)
    handle = os.fdopen(fd, "wb")
    local = threading.local()

    def compress(block: np.ndarray) -> bytes:
        if not hasattr(local, "compressor"):
            local.compressor = zstandard.ZstdCompressor(level=level)
        return bytes(local.compressor.compress(np.ascontiguousarray(block).tobytes()))

    offsets: list[int] = []
    checksums: list[int] = []
    count = 0
    try:
        handle.write(MAGIC + bytes(HEADER_SIZE - len(MAGIC)))  # the header comes last
        handle.write(meta_bytes)
        offset = HEADER_SIZE + len(meta_bytes)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            # map() keeps the blocks in order; at most a few blocks per worker are in flight
            for data, size in _ordered_map(
                pool, compress, _blocks_of(chunks, records_per_block), 4 * workers
            ):
                offsets.append(offset)
                checksums.append(_crc(data))
                handle.write(data)
                offset += len(data)
                count += size
                if progress is not None and len(offsets) % 256 == 0:
                    progress({"phase": "store", "records": count, "bytes": offset})
        offsets.append(offset)  # the index starts where the last block ends
        index = np.array(offsets, dtype="<u8").tobytes() + np.array(checksums, "<u4").tobytes()
        handle.write(index)
        header = HEADER.pack(
            MAGIC,
            FORMAT_VERSION,
            len(meta_bytes),
            count,
            records_per_block,
            len(checksums),
            offset,
            _crc(meta_bytes),
            _crc(index),
        )
        handle.seek(0)
        handle.write(header + struct.pack("<I", _crc(header)))
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        os.replace(partial, path)
    except BaseException:
        handle.close()
        partial.unlink(missing_ok=True)
        raise
    return offset + len(index)


@contextmanager
def _writer_lock(path: Path) -> Iterator[None]:
    """Hold the exclusive lock of ``path``'s writers (``<path>.lock``, kept between runs)."""
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _ordered_map(
    pool: Any,
    function: Callable[[np.ndarray], bytes],
    items: Iterable[np.ndarray],
    window: int,
) -> Iterator[tuple[bytes, int]]:
    """``(function(item), len(item))`` in order, with at most ``window`` items in flight
    (``pool.map`` would read the whole iterator, i.e. the whole space, first)."""
    from collections import deque

    flight: deque[tuple[Any, int]] = deque()
    for item in items:
        flight.append((pool.submit(function, item), int(item.size)))
        if len(flight) >= window:
            future, size = flight.popleft()
            yield future.result(), size
    while flight:
        future, size = flight.popleft()
        yield future.result(), size


class PackedSolution:
    """A packed solution file opened for reading; every read is checked against the file's
    checksums. Thread-safe (reads use ``os.pread``; the block cache has a lock)."""

    def __init__(
        self,
        path: Path,
        fd: int,
        meta: dict[str, Any],
        record_count: int,
        records_per_block: int,
        offsets: np.ndarray,
        checksums: np.ndarray,
        file_size: int,
    ) -> None:
        self.path = path
        self._fd = fd
        self.meta = meta
        self.record_count = record_count
        self.records_per_block = records_per_block
        self._offsets = offsets
        self._checksums = checksums
        self.file_size = file_size
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: Path | str) -> PackedSolution:
        """Open and check the header, meta and index (not the blocks: :meth:`verify` reads
        them all). Raises :class:`StoreMissingError`, :class:`StoreVersionError` or
        :class:`StoreCorruptError`."""
        path = Path(path)
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            raise StoreMissingError(f"stored solution {path} is missing") from None
        except OSError as exc:
            raise StoreError(f"cannot read stored solution {path}: {exc.strerror}") from None
        try:
            return cls._read_layout(path, fd)
        except BaseException:
            os.close(fd)
            raise

    @classmethod
    def _read_layout(cls, path: Path, fd: int) -> PackedSolution:
        def corrupt(why: str) -> StoreCorruptError:
            return StoreCorruptError(f"stored solution {path} is {why}")

        size = os.fstat(fd).st_size
        raw = os.pread(fd, HEADER_SIZE, 0)
        if len(raw) < len(MAGIC) or raw[: len(MAGIC)] != MAGIC:
            if len(raw) < len(MAGIC) and MAGIC.startswith(raw):
                raise corrupt(f"truncated ({size} bytes)")
            raise corrupt("not a packed solution file (wrong magic number)")
        if len(raw) < HEADER_SIZE:
            raise corrupt(f"truncated ({size} bytes)")
        fields = HEADER.unpack(raw[: HEADER.size])
        _, version, meta_length, count, per_block, blocks, index_offset, meta_crc, index_crc = (
            fields
        )
        (header_crc,) = struct.unpack("<I", raw[HEADER.size :])
        if raw[len(MAGIC) :] == bytes(HEADER_SIZE - len(MAGIC)):
            raise corrupt("incomplete (its writer did not finish)")
        if header_crc != _crc(raw[: HEADER.size]):  # first: a flipped bit is no version
            raise corrupt("damaged (header checksum mismatch)")
        if version != FORMAT_VERSION:
            raise StoreVersionError(
                f"stored solution {path} has format version {version}; this toolkit reads "
                f"version {FORMAT_VERSION} (solve again with --save)"
            )
        index_length = 12 * blocks + 8
        if size < index_offset + index_length:
            raise corrupt(f"truncated ({size:,} of {index_offset + index_length:,} bytes)")
        if size > index_offset + index_length:
            raise corrupt("damaged (bytes after the end of its index)")
        meta_bytes = os.pread(fd, meta_length, HEADER_SIZE)
        if _crc(meta_bytes) != meta_crc:
            raise corrupt("damaged (meta checksum mismatch)")
        index = os.pread(fd, index_length, index_offset)
        if _crc(index) != index_crc:
            raise corrupt("damaged (index checksum mismatch)")
        offsets = np.frombuffer(index[: 8 * (blocks + 1)], dtype="<u8").astype(np.int64)
        checksums = np.frombuffer(index[8 * (blocks + 1) :], dtype="<u4")
        if per_block <= 0 or blocks != -(-count // per_block):
            raise corrupt("damaged (record and block counts disagree)")
        try:
            meta = json.loads(meta_bytes)
        except ValueError:
            raise corrupt("damaged (meta is not JSON)") from None
        return cls(path, fd, meta, count, per_block, offsets, checksums, size)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> PackedSolution:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return self.record_count

    # ------------------------------------------------------------------ reading
    @property
    def block_count(self) -> int:
        return int(self._checksums.size)

    def _read_block(self, block: int) -> np.ndarray:
        """Block ``block`` decompressed and checked (not cached)."""
        import zstandard

        start, stop = int(self._offsets[block]), int(self._offsets[block + 1])
        data = os.pread(self._fd, stop - start, start)
        if len(data) != stop - start:
            raise StoreCorruptError(f"stored solution {self.path} is truncated (block {block})")
        if _crc(data) != int(self._checksums[block]):
            raise StoreCorruptError(
                f"stored solution {self.path} is damaged (checksum mismatch in block {block})"
            )
        expected = min(self.records_per_block, self.record_count - block * self.records_per_block)
        try:
            raw = zstandard.ZstdDecompressor().decompress(data, max_output_size=2 * expected)
        except zstandard.ZstdError as exc:
            raise StoreCorruptError(
                f"stored solution {self.path} is damaged (block {block}: {exc})"
            ) from None
        if len(raw) != 2 * expected:
            raise StoreCorruptError(
                f"stored solution {self.path} is damaged (block {block} has the wrong length)"
            )
        return np.frombuffer(raw, dtype="<u2").astype(np.uint16, copy=False)

    def block(self, block: int) -> np.ndarray:
        """The records of block ``block`` (read-only; cached)."""
        with self._lock:
            cached = self._cache.get(block)
            if cached is not None:
                self._cache.move_to_end(block)
                return cached
        records = self._read_block(block)
        with self._lock:
            self._cache[block] = records
            while len(self._cache) > CACHED_BLOCKS:
                self._cache.popitem(last=False)
        return records

    def record(self, index: int) -> int:
        """The record (uint16) of ranked index ``index``."""
        if not 0 <= index < self.record_count:
            raise IndexError(f"record {index} outside 0..{self.record_count - 1}")
        block, offset = divmod(int(index), self.records_per_block)
        return int(self.block(block)[offset])

    def value(self, index: int) -> tuple[Outcome, int | None] | None:
        """The decoded record of ``index`` (:func:`decode_record`)."""
        return decode_record(self.record(index))

    def records(self, start: int, stop: int) -> np.ndarray:
        """Records ``start..stop-1`` as a new uint16 array."""
        start, stop = max(0, int(start)), min(self.record_count, int(stop))
        out = np.empty(max(0, stop - start), dtype=np.uint16)
        position = start
        bulk = stop - start > 4 * self.records_per_block  # a scan: keep the cache for queries
        while position < stop:
            block, offset = divmod(position, self.records_per_block)
            data = self._read_block(block) if bulk else self.block(block)
            take = min(data.size - offset, stop - position)
            out[position - start : position - start + take] = data[offset : offset + take]
            position += take
        return out

    def iter_blocks(self) -> Iterator[tuple[int, np.ndarray]]:
        """``(first index, records)`` of every block in order, one block in memory at a time
        (whole-space checks without :meth:`load_all`'s memory)."""
        for block in range(self.block_count):
            yield block * self.records_per_block, self._read_block(block)

    def load_all(self) -> np.ndarray:
        """Every record in one uint16 array (2 bytes per record in memory)."""
        return self.records(0, self.record_count)

    def verify(self, progress: Progress | None = None) -> dict[str, int]:
        """Read every block (checksums, lengths) and count the records by outcome; raises
        :class:`StoreCorruptError` at the first bad block."""
        counts = np.zeros(4, dtype=np.int64)
        for first, records in self.iter_blocks():
            counts += np.bincount(records >> OUTCOME_SHIFT, minlength=4)
            if progress is not None and (first // self.records_per_block) % 256 == 0:
                progress({"phase": "verify", "records": first, "of": self.record_count})
        return {
            "records": self.record_count,
            "not_a_position": int(counts[NOT_A_POSITION]),
            "wins": int(counts[WIN]),
            "losses": int(counts[LOSS]),
            "draws": int(counts[DRAW]),
        }
