"""The page's title and rules: each seed game's section of docs/rules.md under the name its
source document gives it, a helper game's bullet, a title the game declares, and a plug-in
game the document does not describe."""

from __future__ import annotations

from typing import Any

import pytest

from cgt.registry import game_class, load_game
from cgtapp.explorer.rules import game_rules


@pytest.mark.parametrize(
    ("name", "title"),
    [  # the names the five source articles use
        ("control", "Control"),
        ("lag", "LAG"),
        ("interleave", "Interleave"),
        ("super-nonnect", "Super Nonnect"),
        ("entropy", "Entropy"),
        ("tictactoe", "Tic-tac-toe"),  # declared by the game
        ("domineering", "Domineering"),
    ],
)
def test_each_game_has_its_title_and_its_own_rules(name: str, title: str) -> None:
    shown_title, rules = game_rules(load_game(name))
    assert shown_title == title
    assert f"`{name}`" in rules  # its own section names it
    others = {"control", "lag", "interleave", "super-nonnect", "entropy"} - {name}
    assert not any(f"Registry name `{other}`" in rules for other in others)


def test_a_declared_title_and_an_undocumented_game() -> None:
    tictactoe: Any = game_class("tictactoe")

    class Noughts(tictactoe):  # type: ignore[misc, valid-type]
        title = "Noughts and crosses"

    assert game_rules(Noughts())[0] == "Noughts and crosses"

    class Unknown(tictactoe):  # type: ignore[misc, valid-type]
        name = "not-in-the-rules"
        title = ""  # none declared
        summary = "a game of one's own"

    assert game_rules(Unknown()) == ("not-in-the-rules", "a game of one's own")
