"""Markdown building blocks of the reports: tables, numbers as a reader says them, and the
claims table."""

from __future__ import annotations

from typing import Any


def table(header: list[str], rows: list[list[Any]]) -> list[str]:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def pct(value: Any) -> str:
    """A share as a percentage; two decimals near 0 and 100 % so 99.95 % does not print as 100."""
    if not isinstance(value, int | float):
        return "-"
    if 0 < value < 0.001 or 0.999 < value < 1:
        return f"{value:.2%}"
    return f"{value:.1%}"


def count(value: Any) -> str:
    """An integer with thousands separators; anything else unchanged."""
    return f"{value:,}" if isinstance(value, int) else str(value)


def code(text: Any) -> str:
    return f"`{text}`"


def moves_list(names: list[str], empty: str = "none") -> str:
    return ", ".join(f"`{n}`" for n in names) or empty


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def claim_finding(cert: dict[str, Any], limit: int = 400) -> str:
    """One or two sentences of what the checker found, for a reader who will not open the
    certificate: the verdict's own ``finding`` when the checker wrote one, else the corrected
    statement, else the evidence's summary, else its plain fields (``key: value``)."""
    finding = cert.get("finding")
    if isinstance(finding, str) and finding:
        return shorten(finding, limit)
    evidence = cert.get("evidence", {})
    if not isinstance(evidence, dict):
        evidence = {}
    texts = [cert.get("corrected_statement")]
    texts += [evidence.get(k) for k in ("summary", "assessment", "note", "argument", "conclusion")]
    for text in texts:
        if isinstance(text, str) and text:
            return shorten(text, limit)
    plain = []
    for key, value in evidence.items():
        if (
            isinstance(value, list)
            and len(value) <= 6
            and all(isinstance(v, str | int | float) for v in value)
        ):
            value = ", ".join(str(v) for v in value) or "none"
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(v, dict) and "winner" in v for v in value.values())
        ):
            value = ", ".join(f"{label} {v['winner']}" for label, v in value.items())
        if isinstance(value, str | int | float | bool):
            plain.append(f"{key.replace('_', ' ')}: {value}")
    return shorten("; ".join(plain), limit) if plain else "see the certificate"


def claims_section(certificates: dict[str, dict[str, Any]], heading: str = "##") -> list[str]:
    """The document's claims for one game: verdict, finding, link to the certificate."""
    from proofs.registry import verdict_words

    if not certificates:
        return []
    lines = [
        f"{heading} The document's claims",
        "",
        "Each claim is checked by `cgt check`; the certificate holds the scope, the evidence and "
        "the command that reproduces it.",
        "",
    ]
    rows = [
        [
            f"`{claim_id}`",
            cert.get("statement", ""),
            f"**{verdict_words(cert)}**",
            claim_finding(cert),
            f"[certificate](claims/{claim_id}.md)",
        ]
        for claim_id, cert in certificates.items()
    ]
    lines += table(["claim", "statement", "verdict", "what the check found", "details"], rows)
    lines += ["", "Reproduce: `cgt check " + " ".join(certificates) + "`", ""]
    return lines


def claim_link(claim_id: str) -> str:
    return f"[`{claim_id}`](claims/{claim_id}.md)"
