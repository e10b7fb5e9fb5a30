"""The Japanese pages and the verdicts in words (issue 25): `cgt report GAME --lang ja`
writes the opening sections in Japanese from the same stored results, and a verdict that
would overstate reads with its scope and basis."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from proofs.registry import verdict_words
from tests.cli_runner import run

ROOT = Path(__file__).resolve().parent.parent


def test_the_japanese_page_is_written_under_ja_from_the_stored_results(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "reports"
    shutil.copytree(ROOT / "reports", out)
    (out / "ja" / "interleave.md").unlink()
    english = (out / "interleave.md").read_bytes()
    code, stdout, _ = run(capsys, "report", "interleave", "--lang", "ja", "--out", str(out))
    assert code == 0 and "ja/interleave.md" in stdout
    page = (out / "ja" / "interleave.md").read_text()
    assert page == (ROOT / "reports" / "ja" / "interleave.md").read_text()
    for heading in ("## ルールの要約", "## ルールにとっての意味", "## 設計者の問い"):
        assert heading in page
    # the document's own words for its terms, cell names left as they are
    assert "パイルール" in page and "最大グループカスケード" in page
    assert (out / "interleave.md").read_bytes() == english  # --lang ja leaves the English page


def test_a_board_without_a_japanese_page_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(
        capsys, "report", "tictactoe", "--lang", "ja", "--out", str(tmp_path / "reports")
    )
    assert code == 2 and "no ja page" in err and "Traceback" not in err


def _cert(claim: str, verdict: str, **fields: object) -> dict[str, object]:
    return {"claim": claim, "verdict": verdict, "scope": {}, "evidence": {}, **fields}


def test_a_claim_true_only_in_part_does_not_read_verified() -> None:
    cert = _cert("nobody.claim", "verified", corrected_statement="only from the centre")
    assert verdict_words(cert) == "true in part"
    assert verdict_words(_cert("nobody.claim", "verified")) == "verified"


def test_a_proof_for_every_size_says_it_rests_on_an_argument() -> None:
    cert = _cert("nobody.claim", "verified", scope={"proof_for_every_size": True})
    assert verdict_words(cert).startswith("proved for every size (a written argument")


def test_the_entropy_typo_reads_as_a_typo_and_a_real_refutation_does_not() -> None:
    typo = _cert(
        "entropy.fig2-e4c4",
        "refuted",
        evidence={"legal_S_moves": ["c3-d4"], "note": "c3-e4 is not a queen move"},
    )
    assert verdict_words(typo).startswith("a typo") and "c3-d4" in verdict_words(typo)
    wrong = _cert("entropy.fig2-e4c4", "refuted", evidence={"legal_S_moves": ["c3-d4", "c3-b4"]})
    assert verdict_words(wrong) == "refuted"


def test_the_entropy_draw_names_the_rule_it_rests_on() -> None:
    cert = _cert(
        "entropy.solved", "verified", evidence={"winner": "draw", "proof": {"complete": True}}
    )
    assert "endless play is a draw" in verdict_words(cert)
    assert verdict_words(_cert("entropy.solved", "inconclusive")) == "not settled"


def test_interleave_emergent_turn_names_its_board() -> None:
    cert = _cert("interleave.emergent-turn", "verified", scope={"size": 2})
    assert verdict_words(cert) == "verified on size 2 only (7 cells, every position)"


def test_the_committed_certificates_state_their_words() -> None:
    import json

    for path in sorted((ROOT / "reports" / "claims").glob("*.json")):
        cert = json.loads(path.read_text())
        # a certificate written before the words existed (a long check not re-run) has none
        assert cert.get("verdict_words", verdict_words(cert)) == verdict_words(cert), path.name
        page = path.with_suffix(".md").read_text()
        assert page.splitlines()[0].endswith(verdict_words(cert)), path.name
