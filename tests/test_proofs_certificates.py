"""Certificates for people (Markdown prose and tables, the finding first) and the stored
attempt records the checks read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proofs.attempts import (
    ATTEMPT_FIELDS,
    AttemptRecordError,
    attempt_sentence,
    read_attempt,
    write_attempt,
)
from proofs.certificates import markdown
from proofs.registry import Verdict, default_finding


def _stamped(verdict: Verdict) -> Verdict:
    verdict.claim, verdict.statement = "demo.claim", "Red is very favoured"
    return verdict


def test_markdown_opens_with_the_finding_and_draws_tables_not_key_dumps() -> None:
    verdict = _stamped(
        Verdict.measured(
            {"boards": {"size 2": {"positions": 223, "acyclic": True}, "size 3": {"positions": 5}}},
            {"proof_for_every_size": False},
            quantity="share of setups Red wins",
            value="52%-54%",
            held_against="the document: Red is very favoured; it states no share",
            finding="Red wins 52%-54% of the setups.",
        )
    )
    text = markdown(verdict)
    lines = text.splitlines()
    assert lines[4].startswith("**Measured") and lines[4].endswith(
        "Red wins 52%-54% of the setups."
    )
    assert "## The measurement" in text and "*the document: Red is very favoured" in text
    # a dict of dicts becomes one table; keys become words; booleans yes/no
    assert "| | Positions | Acyclic |" in text and "| Size 2 | 223 | yes |" in text
    assert "- Proof for every size: no" in text
    assert "**positions**" not in text and "proof_for_every_size" not in text
    assert json.loads(json.dumps(verdict.as_dict()))["measurement"]["value"] == "52%-54%"


def test_default_finding_names_the_correction() -> None:
    verdict = _stamped(Verdict.refuted({}, {}, corrected_statement="it is c3-d4"))
    assert default_finding(verdict) == "False as stated; corrected: it is c3-d4."


def _record(**changes: object) -> dict[str, object]:
    record: dict[str, object] = {field: "x" for field in ATTEMPT_FIELDS}
    record.update(attempt="demo", nodes=1_234, seconds=5.0, cpu_seconds=4.0, outcome="open")
    record.update(changes)
    return record


def test_attempt_records_round_trip_and_bad_files_fail_in_one_line(tmp_path: Path) -> None:
    assert read_attempt("demo", tmp_path) is None
    assert "no attempt recorded" in attempt_sentence(None, "demo")
    write_attempt(_record(result="not solved: open after 5 s"), tmp_path)
    record = read_attempt("demo", tmp_path)
    assert record is not None and record["nodes"] == 1_234
    assert "1,234 nodes" in attempt_sentence(record, "demo")
    (tmp_path / "demo.json").write_text("{not json")
    with pytest.raises(AttemptRecordError) as caught:
        read_attempt("demo", tmp_path)
    assert "\n" not in str(caught.value)
    (tmp_path / "demo.json").write_text(json.dumps({"attempt": "demo"}))
    with pytest.raises(AttemptRecordError, match="lacks"):
        read_attempt("demo", tmp_path)
    with pytest.raises(ValueError):
        write_attempt({"attempt": "demo"}, tmp_path)
