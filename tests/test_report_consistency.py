"""Every generated page and data file states one number per quantity (issue 25): the
checker finds nothing on the committed reports, and finds each kind of disagreement when
one file of a copy is broken."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from cgtapp.report.consistency import READERS, disagreements, statements

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_reports_state_one_number_per_quantity() -> None:
    assert disagreements(ROOT) == []


def test_every_reader_finds_quantities_stated_in_two_files() -> None:
    for reader in READERS:
        if reader.__name__ == "japanese_numbers":
            continue  # it names only the numbers a Japanese page adds
        found = reader(ROOT)
        assert any(len(files) >= 2 for files in found.values()), reader.__name__


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "reports", tmp_path / "reports")
    (tmp_path / "benchmarks").mkdir()
    shutil.copy(ROOT / "benchmarks" / "RESULTS.md", tmp_path / "benchmarks" / "RESULTS.md")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_a_solved_board_listed_as_out_of_reach_is_found(copy: Path) -> None:
    record = copy / "reports" / "data" / "attempts" / "super-nonnect-3x3-revised.json"
    raw = json.loads(record.read_text())
    raw["outcome"] = "open"  # the record now says not solved; the pages still say solved
    record.write_text(json.dumps(raw))
    found = disagreements(copy)
    assert any("super-nonnect-3x3-revised.json" in line for line in found)


def test_a_small_board_count_that_differs_from_its_data_is_found(copy: Path) -> None:
    page = copy / "reports" / "lag.md"
    text = page.read_text()
    row = re.search(r"^\| positions reachable from the start[^|]* \| ([\d,]+) \|$", text, re.M)
    assert row is not None
    _edit(page, row.group(0), row.group(0).replace(row.group(1), "1"))
    assert any("lag-size-3-two-pieces: positions reachable" in line for line in disagreements(copy))


def test_a_winner_that_differs_between_headline_and_certificate_is_found(copy: Path) -> None:
    _edit(
        copy / "README.md",
        "3x3 original: **first player wins",
        "3x3 original: **second player wins",
    )
    assert any(line.startswith("3x3 original winner") for line in disagreements(copy))


def test_a_japanese_number_missing_from_the_english_page_is_found(copy: Path) -> None:
    page = copy / "reports" / "ja" / "entropy.md"
    page.write_text(page.read_text() + "\n最長の強制勝ちは9999手です。\n")
    assert any("the number 9,999" in line or "9999" in line for line in disagreements(copy))


def test_entropy_counts_that_differ_from_the_certificate_are_found(copy: Path) -> None:
    cert = copy / "reports" / "claims" / "entropy.solved.json"
    raw = json.loads(cert.read_text())
    raw["evidence"]["draws"] += 1
    cert.write_text(json.dumps(raw))
    assert any(line.startswith("Entropy 5x5 drawn") for line in disagreements(copy))


def test_statements_name_each_file_with_what_it_states(copy: Path) -> None:
    found = statements(copy)
    winner = found["3x3 revised winner"]
    assert set(winner) >= {"README.md", "reports/README.md", "reports/super-nonnect.md"}
