"""Certificates: a verdict written as JSON (for machines) and Markdown (for people), each
carrying the command that reproduces it."""

from __future__ import annotations

import json
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from proofs.registry import Verdict, verdict_words


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def certificate(verdict: Verdict) -> dict[str, Any]:
    """The JSON certificate of a verdict."""
    plain = verdict.as_dict()
    return {
        **plain,
        "verdict_words": verdict_words(plain),
        "reproduce": f"cgt check {verdict.claim}{' --full' if verdict.mode == 'full' else ''} --json",
        "generated": {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": _commit(),
            "python": platform.python_version(),
        },
    }


def human_key(key: str) -> str:
    """A key as words: ``proof_for_every_size`` -> ``Proof for every size``."""
    words = str(key).replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _is_table(value: Any) -> bool:
    """A dict of dicts of plain values (boards x counts): shown as one Markdown table."""
    return (
        isinstance(value, dict)
        and len(value) > 1
        and all(isinstance(v, dict) and v for v in value.values())
        and all(not isinstance(x, dict | list) for v in value.values() for x in v.values())
    )


def _table(value: dict[str, dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in value.values():
        columns += [k for k in row if k not in columns]
    lines = [
        "| | " + " | ".join(human_key(c) for c in columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for name, row in value.items():
        cells = [_inline(row.get(c, "")) for c in columns]
        lines.append(f"| {human_key(name)} | " + " | ".join(cells) + " |")
    return lines


def markdown_value(value: Any, depth: int = 0) -> list[str]:
    """Scope or evidence as prose: one sentence-like line per entry, tables for dicts of
    dicts (boards by counts), at most 40 items of a long list (the JSON holds all)."""
    pad = "  " * depth
    if _is_table(value):
        return [*(pad + line for line in _table(value)), ""]
    if isinstance(value, dict):
        lines: list[str] = []
        for k, v in value.items():
            if _is_table(v):
                lines += [f"{pad}- {human_key(k)}:", "", *_table(v), ""]
            elif _is_record_list(v):
                lines += [f"{pad}- {human_key(k)}:", "", *_record_table(v), ""]
            elif isinstance(v, dict | list) and v and not _short_list(v):
                lines.append(f"{pad}- {human_key(k)}:")
                lines.extend(markdown_value(v, depth + 1))
            else:
                lines.append(f"{pad}- {human_key(k)}: {_inline(v)}")
        return lines
    if isinstance(value, list):
        if len(value) > 40:
            shown = [*value[:40], f"... {len(value) - 40} more (see the JSON certificate)"]
        else:
            shown = value
        lines = []
        for item in shown:
            if isinstance(item, dict) and item and not _is_table(item):
                first, *rest = markdown_value(item, depth + 1)
                lines.append(f"{pad}- {first.strip()[2:]}")
                lines.extend(rest)
            elif isinstance(item, dict | list):
                lines.append(f"{pad}-")
                lines.extend(markdown_value(item, depth + 1))
            else:
                lines.append(f"{pad}- {_inline(item)}")
        return lines
    return [f"{pad}{_inline(value)}"]


def _short_list(value: Any) -> bool:
    """A list of plain values short enough to write inline as "a, b, c"."""
    return (
        isinstance(value, list)
        and all(not isinstance(v, dict | list) for v in value)
        and len(", ".join(map(str, value))) <= 240
    )


def _flat_dict(value: Any) -> bool:
    """A small dict of plain values, written inline as "k: v; k: v"."""
    return (
        isinstance(value, dict)
        and len(value) <= 6
        and all(not isinstance(v, dict | list) or _short_list(v) for v in value.values())
    )


def _is_record_list(value: Any) -> bool:
    """A list of dicts whose values all fit in a table cell: shown as one table."""
    return (
        isinstance(value, list)
        and len(value) > 1
        and all(isinstance(v, dict) and v for v in value)
        and all(
            not isinstance(x, dict | list) or _short_list(x) or _flat_dict(x)
            for v in value
            for x in v.values()
        )
    )


def _record_table(value: list[dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in value:
        columns += [k for k in row if k not in columns]
    lines = [
        "| " + " | ".join(human_key(c) for c in columns) + " |",
        "|" + "---|" * len(columns),
    ]
    for row in value[:40]:
        lines.append("| " + " | ".join(_inline(row.get(c, "")) for c in columns) + " |")
    if len(value) > 40:
        lines.append(f"| ... {len(value) - 40} more rows in the JSON certificate |")
    return lines


def _inline(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str) and ("/" in value or "." in value) and " " not in value.strip("`"):
        return f"`{value}`"
    if _short_list(value):
        return ", ".join(_inline(v) for v in value) if value else "none"
    if _flat_dict(value):
        return "; ".join(f"{k}: {_inline(v)}" for k, v in value.items()) if value else "none"
    if isinstance(value, list | dict):
        return f"`{json.dumps(value)}`" if value else "none"
    if value is None:
        return "none"
    return str(value)


def markdown(verdict: Verdict, cert: dict[str, Any] | None = None) -> str:
    """The certificate for people: the finding first, then what was checked and what
    convinced, as prose and tables, then how to reproduce it; the JSON file beside it holds
    every number. ``cert`` is the stored certificate when the page is rewritten from it."""
    cert = cert or certificate(verdict)
    words = verdict_words(cert)
    lines = [
        f"# Claim `{verdict.claim}`: {words}",
        "",
        f"The document says: *{verdict.statement}*",
        "",
        f"**{words[:1].upper() + words[1:]}.** {verdict.finding}",
        "",
    ]
    if verdict.corrected_statement:
        lines += [f"**Corrected statement:** {verdict.corrected_statement}", ""]
    if verdict.measurement:
        measurement = dict(verdict.measurement)
        lines += [
            "## The measurement",
            "",
            f"{human_key(measurement.pop('quantity'))}: **{_inline(measurement.pop('value'))}**, "
            f"held against the document's words: *{measurement.pop('held_against')}*",
            "",
            *markdown_value(measurement),
            "",
        ]
    lines += [
        "## What was checked",
        "",
        *markdown_value(verdict.scope),
        "",
        "## Evidence",
        "",
        *markdown_value(verdict.evidence),
        "",
        "## Reproduce",
        "",
        "```",
        cert["reproduce"],
        "```",
        "",
        f"Generated {cert['generated']['date']} at commit {cert['generated']['commit']} "
        f"in {verdict.seconds:.1f} s. Every number is in `{verdict.claim}.json` beside this page.",
        "",
    ]
    return "\n".join(lines)


def write_certificate(verdict: Verdict, directory: Path) -> tuple[Path, Path]:
    """Write ``<claim>.json`` and ``<claim>.md`` under ``directory``.

    A quick re-check never replaces the certificate of a full run (``cgt check --full``)
    that reached a verdict: the quick mode only knows less."""
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / f"{verdict.claim}.json"
    md_path = directory / f"{verdict.claim}.md"
    if verdict.mode != "full" and json_path.exists() and md_path.exists():
        try:
            existing = json.loads(json_path.read_text())
        except json.JSONDecodeError:
            existing = {}
        if existing.get("mode") == "full" and existing.get("verdict") != "inconclusive":
            # keep the full run's verdict, in the current words
            existing["verdict_words"] = verdict_words(existing)
            json_path.write_text(json.dumps(existing, indent=2, default=str) + "\n")
            md_path.write_text(markdown(stored_verdict(existing), existing))
            return json_path, md_path
    json_path.write_text(json.dumps(certificate(verdict), indent=2, default=str) + "\n")
    md_path.write_text(markdown(verdict))
    return json_path, md_path


def stored_verdict(cert: dict[str, Any]) -> Verdict:
    """The verdict a stored certificate was written from."""
    return Verdict(
        cert["verdict"],
        cert.get("scope", {}),
        cert.get("evidence", {}),
        claim=cert.get("claim", ""),
        statement=cert.get("statement", ""),
        corrected_statement=cert.get("corrected_statement"),
        seconds=float(cert.get("seconds", 0.0)),
        mode=cert.get("mode", "quick"),
        finding=cert.get("finding", ""),
        measurement=cert.get("measurement"),
    )
