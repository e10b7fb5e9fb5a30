"""Sub-commands of ``cgt`` that live in their own modules."""

from __future__ import annotations

import click


def COMMANDS() -> list[click.Command]:
    """The optional sub-commands, imported lazily so ``cgt --help`` stays fast."""
    from cgtapp.commands.balance import balance_command
    from cgtapp.commands.db import db_command
    from cgtapp.commands.eval import eval_command
    from cgtapp.commands.explore import explore_command
    from cgtapp.commands.frontier import frontier_command
    from cgtapp.commands.move import move_command
    from cgtapp.commands.report import report_command
    from cgtapp.commands.value import value_command

    commands: list[click.Command] = [
        balance_command,
        db_command,
        eval_command,
        explore_command,
        frontier_command,
        move_command,
        report_command,
        value_command,
    ]
    return commands
