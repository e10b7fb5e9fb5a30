"""The game's title and rules for the page, from the project's rules document
(``docs/rules.md``): a seed game's section is the one that gives its registry name
("Registry name `lag`"), titled by its heading; a helper game's is its bullet
("- **tic-tac-toe** (`tictactoe`, ...)", the names in its parentheses). A game the document does not describe (a plug-in)
is titled by its registry name and described by its one-line summary. A title the game
declares itself (``Game.title``) wins over the document's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cgt.protocol import Game

#: The rules document of a source checkout (an installed package ships none).
RULES_DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def game_rules(game: Game[Any, Any], document: Path = RULES_DOCUMENT) -> tuple[str, str]:
    """``(title, rules as Markdown)`` of ``game``; a title the game declares (``title``)
    comes first."""
    declared = getattr(game, "title", "")
    title, rules = section(game, document)
    return declared or title, rules


def section(game: Game[Any, Any], document: Path) -> tuple[str, str]:
    """The title and rules of ``game`` in the rules document."""
    try:
        text = document.read_text(encoding="utf-8")
    except OSError:
        text = ""
    for section in re.split(r"(?m)^(?=## )", text):
        heading, _, body = section.partition("\n")
        if re.search(rf"Registry\s+name\s+`{re.escape(game.name)}`", body):
            return heading.removeprefix("## ").strip(), body.strip().removesuffix("---").strip()
    for bullet in re.finditer(r"(?ms)^- \*\*([^*]+)\*\* \(([^)]*)\).*?(?=^- |^\s*$|\Z)", text):
        if f"`{game.name}`" in bullet.group(2):
            return bullet.group(1), bullet.group(0).removeprefix("- ").strip()
    return game.name, game.summary
