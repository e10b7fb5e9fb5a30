"""Registry of the claims made by the source documents (ids as in docs/rules.md, "Claims").

A claim is a statement plus a small check function that returns a :class:`Verdict`. Check
functions take keyword arguments with working defaults; tests pass a deliberately broken rule
or statement through those arguments to show that the check can fail. A check whose exact
answer takes far longer than the others (a full solve of a large board) takes ``full: bool``;
``cgt check --full`` turns it on, and its certificate says so (``mode: full``).

    from proofs.registry import claim, Verdict

    @claim("control.parity", game="control",
           statement="every move changes (mover's pieces - opponent's pieces) by exactly +1")
    def parity(max_size: int = 3) -> Verdict:
        ...
        return Verdict.verified(scope={...}, evidence={...})
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from cgt.errors import ClaimError
from cgt.registry import game_class, game_names

#: ``measured``: the claim is a measurement (a share, a frequency) whose words ("strongly",
#: "rarely") set no threshold; the verdict reports the number and the exact statement it was
#: held against instead of passing or failing it on a cut-off the document never stated.
VerdictKind = Literal["verified", "refuted", "inconclusive", "measured"]


@dataclass
class Verdict:
    """Outcome of checking a claim.

    ``scope`` says how far the check reaches (boards, positions, cases, and whether it is a
    proof for every size); ``evidence`` holds what convinces a sceptic (counts, a
    counterexample line, a strategy summary, a symbolic derivation). Both must be JSON-able.
    ``finding`` is one sentence a reader understands without the certificate (what was
    found, and for a claim true only in part, which part). A ``measured`` verdict carries
    ``measurement``: the quantity, its value, and the document's exact words it was held
    against.
    """

    verdict: VerdictKind
    scope: dict[str, Any]
    evidence: dict[str, Any]
    claim: str = ""
    statement: str = ""
    corrected_statement: str | None = None
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    #: ``"full"`` when the check ran its long exact mode, ``"quick"`` otherwise.
    mode: str = "quick"
    #: One plain sentence: what the check found (shown in ``cgt check`` and the reports).
    finding: str = ""
    #: For ``measured`` verdicts: ``{"quantity", "value", "held_against"}`` and any detail.
    measurement: dict[str, Any] | None = None

    @classmethod
    def verified(
        cls,
        scope: dict[str, Any],
        evidence: dict[str, Any],
        finding: str = "",
        corrected_statement: str | None = None,
    ) -> Verdict:
        """Verified; a claim true only in part also carries the ``corrected_statement`` of
        the part that holds (and the finding says which part fails)."""
        return cls(
            "verified", scope, evidence, finding=finding, corrected_statement=corrected_statement
        )

    @classmethod
    def refuted(
        cls,
        scope: dict[str, Any],
        evidence: dict[str, Any],
        corrected_statement: str | None = None,
        finding: str = "",
    ) -> Verdict:
        return cls(
            "refuted", scope, evidence, corrected_statement=corrected_statement, finding=finding
        )

    @classmethod
    def inconclusive(
        cls, scope: dict[str, Any], evidence: dict[str, Any], finding: str = ""
    ) -> Verdict:
        return cls("inconclusive", scope, evidence, finding=finding)

    @classmethod
    def measured(
        cls,
        scope: dict[str, Any],
        evidence: dict[str, Any],
        *,
        quantity: str,
        value: Any,
        held_against: str,
        finding: str,
        **detail: Any,
    ) -> Verdict:
        """A measurement: ``value`` of ``quantity``, reported beside the document's exact
        words ``held_against`` (which state no threshold to pass or fail)."""
        measurement = {"quantity": quantity, "value": value, "held_against": held_against}
        return cls(
            "measured", scope, evidence, finding=finding, measurement={**measurement, **detail}
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "claim": self.claim,
            "verdict": self.verdict,
            "finding": self.finding,
            "scope": self.scope,
            "evidence": self.evidence,
        }
        if self.statement:
            out["statement"] = self.statement
        if self.corrected_statement:
            out["corrected_statement"] = self.corrected_statement
        if self.measurement is not None:
            out["measurement"] = self.measurement
        out["seconds"] = round(self.seconds, 3)
        out["mode"] = self.mode
        return out


#: How a certificate's verdict reads to a designer: a short phrase naming its scope and its
#: basis ("true in part: ...", "a typo: ..."), from the certificate dict alone, so a stored
#: certificate (a full run not re-run) reads with the current words.
Words = Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class Claim:
    id: str
    game: str
    statement: str
    check: Callable[..., Verdict]
    words: Words | None = None

    @property
    def has_full_mode(self) -> bool:
        """Whether the check has a long exact mode (a ``full`` keyword argument)."""
        return "full" in inspect.signature(self.check).parameters


_CLAIMS: dict[str, Claim] = {}


def claim(
    claim_id: str, *, game: str, statement: str, words: Words | None = None
) -> Callable[[Callable[..., Verdict]], Callable[..., Verdict]]:
    """Decorator registering a check function under ``claim_id``; ``words`` says how its
    verdict reads when the bare verdict would overstate (see :func:`verdict_words`)."""

    def decorate(check: Callable[..., Verdict]) -> Callable[..., Verdict]:
        _CLAIMS[claim_id] = Claim(claim_id, game, statement, check, words)
        return check

    return decorate


def _load_builtins() -> None:
    """Import the claims module every known game declares (``Game.claims_module``)."""
    for name in game_names():
        module = game_class(name).claims_module
        if module is not None:
            importlib.import_module(module)


def all_claims() -> list[Claim]:
    _load_builtins()
    return [_CLAIMS[k] for k in sorted(_CLAIMS)]


def get_claim(claim_id: str) -> Claim:
    _load_builtins()
    if claim_id not in _CLAIMS:
        raise ClaimError(f"unknown claim {claim_id!r} (see 'cgt check --list')")
    return _CLAIMS[claim_id]


def run_claim(claim_id: str, *, full: bool = False, **overrides: Any) -> Verdict:
    """Run one check and stamp the verdict with the claim's id, statement and time.
    ``full`` runs the long exact mode of a check that has one (ignored by the others)."""
    import time

    entry = get_claim(claim_id)
    full = full and entry.has_full_mode
    if full:
        overrides["full"] = True
    start = time.perf_counter()
    verdict = entry.check(**overrides)
    verdict.mode = "full" if full else "quick"
    verdict.seconds = time.perf_counter() - start
    verdict.claim = entry.id
    verdict.statement = entry.statement
    if not verdict.finding:
        verdict.finding = default_finding(verdict)
    return verdict


def default_finding(verdict: Verdict) -> str:
    """The finding of a check that did not write its own: the verdict in words, with the
    corrected statement when there is one."""
    if verdict.verdict == "verified":
        return f"Holds as stated: {verdict.statement}."
    if verdict.verdict == "refuted":
        corrected = (
            f"; corrected: {verdict.corrected_statement}" if verdict.corrected_statement else ""
        )
        return f"False as stated{corrected}."
    if verdict.verdict == "measured" and verdict.measurement:
        return f"Measured {verdict.measurement['quantity']}: {verdict.measurement['value']}."
    return "Not settled by this check; see the scope for how far it got."


#: The bare verdicts as a reader says them.
PLAIN_WORDS = {
    "verified": "verified",
    "refuted": "refuted",
    "inconclusive": "not settled",
    "measured": "measured",
}


def verdict_words(cert: dict[str, Any]) -> str:
    """The verdict of a certificate as the reports and certificate pages print it: the
    claim's own words when it has them, "true in part" for a verified claim that carries a
    corrected statement, else the bare verdict."""
    _load_builtins()
    entry = _CLAIMS.get(str(cert.get("claim", "")))
    if entry is not None and entry.words is not None:
        words = entry.words(cert)
        if words:
            return words
    kind = str(cert.get("verdict", "?"))
    if kind == "verified" and cert.get("corrected_statement"):
        return "true in part"
    if kind == "verified" and cert.get("scope", {}).get("proof_for_every_size") is True:
        return "proved for every size (a written argument, checked by machine on small boards)"
    return PLAIN_WORDS.get(kind, kind)
