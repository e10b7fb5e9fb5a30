"""Sub-commands of ``cgt`` that live in their own modules."""

from __future__ import annotations

import click


def COMMANDS() -> list[click.Command]:
    """The optional sub-commands, imported lazily so ``cgt --help`` stays fast."""
    from cgt.commands.eval import eval_command
    from cgt.commands.report import report_command
    from cgt.commands.value import value_command

    commands: list[click.Command] = [eval_command, report_command, value_command]
    return commands
