"""Sub-commands of ``cgt`` that live in their own modules."""

from __future__ import annotations

import click


def COMMANDS() -> list[click.Command]:  # noqa: N802 - a constant-like factory
    """The optional sub-commands, imported lazily so ``cgt --help`` stays fast."""
    from cgt.commands.report import report_command

    commands: list[click.Command] = [report_command]
    return commands
