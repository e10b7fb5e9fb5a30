"""Certificates: a verdict written as JSON (for machines) and Markdown (for people), each
carrying the command that reproduces it."""

from __future__ import annotations

import json
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from proofs.registry import Verdict


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
    return {
        **verdict.as_dict(),
        "reproduce": f"cgt check {verdict.claim}{' --full' if verdict.mode == 'full' else ''} --json",
        "generated": {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": _commit(),
            "python": platform.python_version(),
        },
    }


def markdown_value(value: Any, depth: int = 0) -> list[str]:
    pad = "  " * depth
    if isinstance(value, dict):
        lines: list[str] = []
        for k, v in value.items():
            if isinstance(v, dict | list) and v:
                lines.append(f"{pad}- **{k}**:")
                lines.extend(markdown_value(v, depth + 1))
            else:
                lines.append(f"{pad}- **{k}**: {_inline(v)}")
        return lines
    if isinstance(value, list):
        if len(value) > 40:
            shown = [*value[:40], f"... {len(value) - 40} more (see the JSON certificate)"]
        else:
            shown = value
        lines = []
        for item in shown:
            if isinstance(item, dict | list):
                lines.append(f"{pad}-")
                lines.extend(markdown_value(item, depth + 1))
            else:
                lines.append(f"{pad}- {_inline(item)}")
        return lines
    return [f"{pad}{_inline(value)}"]


def _inline(value: Any) -> str:
    if isinstance(value, str) and ("/" in value or "." in value) and " " not in value.strip("`"):
        return f"`{value}`"
    if isinstance(value, list | dict):
        return f"`{json.dumps(value)}`"
    return str(value)


def markdown(verdict: Verdict) -> str:
    cert = certificate(verdict)
    lines = [
        f"# Claim `{verdict.claim}`: {verdict.verdict}",
        "",
        f"> {verdict.statement}",
        "",
        f"**Verdict: {verdict.verdict}**",
        "",
    ]
    if verdict.corrected_statement:
        lines += [f"**Corrected statement:** {verdict.corrected_statement}", ""]
    lines += [
        "## Scope",
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
        f"in {verdict.seconds:.1f} s.",
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
            return json_path, md_path
    json_path.write_text(json.dumps(certificate(verdict), indent=2, default=str) + "\n")
    md_path.write_text(markdown(verdict))
    return json_path, md_path
