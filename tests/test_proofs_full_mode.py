"""`cgt check --full`: the long exact mode of a check, and certificates that remember it."""

from __future__ import annotations

import json
from pathlib import Path

from proofs.certificates import write_certificate
from proofs.registry import Verdict, get_claim, run_claim


def test_only_checks_with_a_full_mode_receive_it() -> None:
    assert get_claim("entropy.solved").has_full_mode
    assert not get_claim("control.parity").has_full_mode
    verdict = run_claim("control.parity", full=True)  # ignored, not an error
    assert verdict.mode == "quick"


def _verdict(kind: str, mode: str) -> Verdict:
    verdict = Verdict(kind, {"board": "b"}, {"note": mode})  # type: ignore[arg-type]
    verdict.claim, verdict.mode = "demo.claim", mode
    return verdict


def test_a_quick_recheck_keeps_a_conclusive_full_certificate(tmp_path: Path) -> None:
    write_certificate(_verdict("verified", "full"), tmp_path)
    write_certificate(_verdict("inconclusive", "quick"), tmp_path)
    kept = json.loads((tmp_path / "demo.claim.json").read_text())
    assert (kept["verdict"], kept["mode"]) == ("verified", "full")
    assert kept["reproduce"] == "cgt check demo.claim --full --json"
    assert "full" in (tmp_path / "demo.claim.md").read_text()


def test_an_inconclusive_full_certificate_is_replaced(tmp_path: Path) -> None:
    write_certificate(_verdict("inconclusive", "full"), tmp_path)
    write_certificate(_verdict("refuted", "quick"), tmp_path)
    now = json.loads((tmp_path / "demo.claim.json").read_text())
    assert (now["verdict"], now["mode"]) == ("refuted", "quick")
