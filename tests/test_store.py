"""The packed solution file (solvers/store.py): records read back exactly as written, one
record without decompressing the others, and a damaged, truncated, foreign or
other-version file refused in one line, never read as valid."""

from __future__ import annotations

import struct
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from cgt.errors import CGTError
from cgt.protocol import Outcome
from solvers import store
from solvers.store import (
    PackedSolution,
    StoreCorruptError,
    StoreError,
    StoreMissingError,
    StoreVersionError,
    decode_record,
    encode_record,
    write_packed_solution,
)

BLOCK = 1000  # small blocks: a few thousand records make many of them


def random_records(count: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    outcome = rng.integers(0, 4, count, dtype=np.uint16)
    remoteness = rng.integers(0, store.MAX_REMOTENESS + 1, count, dtype=np.uint16)
    remoteness[(outcome == store.DRAW) | (outcome == store.NOT_A_POSITION)] = 0
    return (outcome << store.OUTCOME_SHIFT) | remoteness


def written(tmp_path: Path, records: np.ndarray, **meta: object) -> Path:
    path = tmp_path / "solution.cgtpack"
    write_packed_solution(path, records, {"game": "test", **meta}, records_per_block=BLOCK)
    return path


def test_record_encoding_matches_the_documented_bits() -> None:
    # bits 14-15: 1 win, 2 loss, 3 draw, 0 not a position; bits 0-13 remoteness
    assert encode_record(Outcome.WIN, 5) == 0x4005
    assert encode_record(Outcome.LOSS, 171) == 0x8000 + 171
    assert encode_record(Outcome.DRAW, None) == 0xC000
    assert encode_record(None, None) == 0
    assert decode_record(0x4005) == (Outcome.WIN, 5)
    assert decode_record(0x80AB) == (Outcome.LOSS, 171)
    assert decode_record(0xC000) == (Outcome.DRAW, None)
    assert decode_record(0) is None
    with pytest.raises(ValueError):
        encode_record(Outcome.WIN, 1 << 14)


@pytest.mark.parametrize("chunk", [None, 1, 333, 1000, 4096])
def test_round_trip_in_any_chunking(tmp_path: Path, chunk: int | None) -> None:
    records = random_records(7_777)
    source = records if chunk is None else (records[i : i + chunk] for i in range(0, 7_777, chunk))
    path = tmp_path / "s.cgtpack"
    size = write_packed_solution(path, source, {"game": "x", "n": [1, 2]}, records_per_block=BLOCK)
    assert size == path.stat().st_size
    with PackedSolution.open(path) as solution:
        assert solution.meta == {"game": "x", "n": [1, 2]}
        assert len(solution) == 7_777 and solution.block_count == 8
        assert np.array_equal(solution.load_all(), records)
        assert np.array_equal(solution.records(995, 2_010), records[995:2_010])
        assert np.array_equal(solution.records(7_000, 9_000), records[7_000:])
        for index in (0, 999, 1_000, 7_776, 4_321):
            assert solution.record(index) == records[index]
        with pytest.raises(IndexError):
            solution.record(7_777)
        counts = solution.verify()
    assert counts["records"] == 7_777
    for name, field in (("wins", 1), ("losses", 2), ("draws", 3), ("not_a_position", 0)):
        assert counts[name] == int(np.count_nonzero(records >> 14 == field))


def test_empty_and_exactly_one_block(tmp_path: Path) -> None:
    for count in (0, BLOCK):
        records = random_records(count)
        with PackedSolution.open(written(tmp_path, records)) as solution:
            assert np.array_equal(solution.load_all(), records)


def test_compresses_runs_of_draws(tmp_path: Path) -> None:
    records = np.full(1 << 20, encode_record(Outcome.DRAW, None), dtype=np.uint16)
    records[::1000] = encode_record(Outcome.WIN, 3)
    path = tmp_path / "d.cgtpack"
    size = write_packed_solution(path, records, {})
    assert size < records.nbytes // 50


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreMissingError, match="missing"):
        PackedSolution.open(tmp_path / "nothing.cgtpack")


@pytest.mark.parametrize("keep", [0, 4, 40, -1, -13, -500])
def test_truncated_file_is_refused(tmp_path: Path, keep: int) -> None:
    path = written(tmp_path, random_records(5_000))
    data = path.read_bytes()
    path.write_bytes(data[:keep])
    with pytest.raises(StoreCorruptError, match=r"truncated|damaged"):
        PackedSolution.open(path)


def test_other_format_version_is_refused(tmp_path: Path) -> None:
    path = written(tmp_path, random_records(3_000))
    data = bytearray(path.read_bytes())
    data[8:12] = struct.pack("<I", store.FORMAT_VERSION + 1)
    data[store.HEADER.size : store.HEADER_SIZE] = struct.pack(
        "<I", store._crc(data[: store.HEADER.size])
    )
    path.write_bytes(bytes(data))
    with pytest.raises(StoreVersionError, match=f"format version {store.FORMAT_VERSION + 1}"):
        PackedSolution.open(path)


def test_foreign_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.cgtpack"
    path.write_text("these are not records, just some text that is long enough" * 3)
    with pytest.raises(StoreCorruptError, match="wrong magic"):
        PackedSolution.open(path)


def test_damaged_block_fails_its_checksum_and_only_it(tmp_path: Path) -> None:
    records = random_records(5_000)
    path = written(tmp_path, records)
    with PackedSolution.open(path) as solution:
        start = int(solution._offsets[3])
    data = bytearray(path.read_bytes())
    data[start + 5] ^= 0x10
    path.write_bytes(bytes(data))
    with PackedSolution.open(path) as solution:
        assert solution.record(10) == records[10]  # other blocks still read
        with pytest.raises(StoreCorruptError, match="checksum mismatch in block 3"):
            solution.record(3_500)
        with pytest.raises(StoreCorruptError, match="block 3"):
            solution.verify()
        with pytest.raises(StoreCorruptError):
            solution.load_all()


@pytest.mark.parametrize("where", ["header", "meta", "index"])
def test_damaged_header_meta_or_index_is_refused(tmp_path: Path, where: str) -> None:
    path = written(tmp_path, random_records(5_000), note="x" * 50)
    data = bytearray(path.read_bytes())
    offset = {"header": 20, "meta": store.HEADER_SIZE + 10, "index": len(data) - 30}[where]
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(StoreCorruptError, match="damaged"):
        PackedSolution.open(path)


def test_interrupted_write_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "s.cgtpack"

    def chunks():  # type: ignore[no-untyped-def]
        yield random_records(2_500)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_packed_solution(path, chunks(), {}, records_per_block=BLOCK)
    assert [p.name for p in tmp_path.iterdir()] == ["s.cgtpack.lock"]  # the writers' lock


def test_a_bit_flipped_in_the_version_field_is_damage_not_a_version(tmp_path: Path) -> None:
    path = written(tmp_path, random_records(3_000))
    data = bytearray(path.read_bytes())
    data[8] ^= 0x01  # version 1 -> 0, the header's checksum left as it was
    path.write_bytes(bytes(data))
    with pytest.raises(StoreCorruptError, match="damaged"):
        PackedSolution.open(path)


def test_a_failed_writer_leaves_the_stored_file_whole(tmp_path: Path) -> None:
    records = random_records(3_000)
    path = written(tmp_path, records)

    def chunks():  # type: ignore[no-untyped-def]
        yield random_records(2_500, seed=2)
        raise OSError(28, "No space left on device")

    with pytest.raises(StoreError, match="No space left"):
        write_packed_solution(path, chunks(), {}, records_per_block=BLOCK)
    with PackedSolution.open(path) as solution:
        assert np.array_equal(solution.load_all(), records)


def test_two_writers_of_one_file_at_once_leave_one_whole_file(tmp_path: Path) -> None:
    """The second writer starts while the first is half way; neither may damage the other
    (they once shared one temporary file: "checksum mismatch in block 54")."""
    path = tmp_path / "s.cgtpack"
    first, second = random_records(20_000, seed=3), random_records(20_000, seed=4)
    first_half_written = threading.Event()

    def slow_chunks():  # type: ignore[no-untyped-def]
        yield first[:10_000]
        first_half_written.set()
        time.sleep(0.3)  # the second writer starts meanwhile
        yield first[10_000:]

    def write_second() -> None:
        first_half_written.wait(10)
        write_packed_solution(path, second, {"writer": 2}, records_per_block=BLOCK)

    other = threading.Thread(target=write_second)
    other.start()
    write_packed_solution(path, slow_chunks(), {"writer": 1}, records_per_block=BLOCK)
    other.join(10)
    with PackedSolution.open(path) as solution:
        solution.verify()
        expected = {1: first, 2: second}[solution.meta["writer"]]
        assert np.array_equal(solution.load_all(), expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.cgtpack", "s.cgtpack.lock"]


def test_a_file_whose_writer_did_not_finish_is_refused(tmp_path: Path) -> None:
    path = written(tmp_path, random_records(3_000))
    data = bytearray(path.read_bytes())
    data[8 : store.HEADER_SIZE] = bytes(store.HEADER_SIZE - 8)  # the header not yet written
    path.write_bytes(bytes(data))
    with pytest.raises(StoreCorruptError, match="writer did not finish"):
        PackedSolution.open(path)


def test_unwritable_place_is_one_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(StoreError, match="cannot write") as info:
        write_packed_solution(blocker / "s.cgtpack", random_records(10), {})
    assert isinstance(info.value, CGTError) and "\n" not in str(info.value)


def test_wrong_record_type_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        write_packed_solution(tmp_path / "s.cgtpack", np.zeros(10, dtype=np.int32), {})
