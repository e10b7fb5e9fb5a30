"""The README's "Add your own game" example: it loads as a plugin, plays by its rules, solves
correctly, and the README shows exactly the file that these tests run.

Independent facts: on one board the first player wins Notakto by taking the centre (Plambeck
and Whitehead, "The Secrets of Notakto", 2013); the rest is checked against a minimax on
9-character strings written here.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from cgt.errors import PositionError
from cgt.protocol import Outcome
from cgt.registry import game_class, load_game, load_plugin

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "add_your_own_game.py"
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@pytest.fixture(scope="module")
def notakto_class():
    load_plugin(str(EXAMPLE))
    return game_class("notakto")


@cache
def reference_value(board: str, misere: bool) -> int:
    """+1 if the player to move wins, -1 if not; ``board[i]`` is square i (a1 b1 c1 a2 ...)."""
    if any(all(board[i] == "X" for i in line) for line in LINES):
        return 1 if misere else -1  # the previous player completed a line
    return max(
        -reference_value(board[:i] + "X" + board[i + 1 :], misere)
        for i in range(9)
        if board[i] == "."
    )


def test_example_is_short_and_self_contained():
    lines = EXAMPLE.read_text().splitlines()
    assert len(lines) < 60
    imports = [line for line in lines if line.startswith(("import ", "from "))]
    assert all(line.startswith("from cgt.") for line in imports)


def test_notakto_first_player_wins_by_the_centre_only(notakto_class):
    game = notakto_class()
    start = game.initial_position()
    assert reference_value("." * 9, True) == 1
    values = {
        game.move_name(start, m): reference_value(
            "".join("X" if i == m else "." for i in range(9)), True
        )
        for m in game.moves(start)
    }
    assert {name for name, v in values.items() if v == -1} == {"b2"}  # the opponent then loses

    solvers = pytest.importorskip("solvers")
    if not hasattr(solvers, "solve"):
        pytest.skip("solvers.solve is not written yet")
    result = solvers.solve(game)
    assert result.outcome == Outcome.WIN
    assert result.best_moves == ["b2"]
    assert solvers.solve(game, solver="alphabeta").outcome == Outcome.WIN


def test_normal_play_variant_against_reference(notakto_class):
    game = notakto_class(misere=False)
    expected = Outcome(reference_value("." * 9, False))
    solvers = pytest.importorskip("solvers")
    if not hasattr(solvers, "solve"):
        pytest.skip("solvers.solve is not written yet")
    assert solvers.solve(game).outcome == expected


def test_rules_notation_and_move_names(notakto_class):
    game = notakto_class()
    position = game.parse("X../.X./...")
    assert game.render(position) == "X../.X./..."
    assert game.to_move(position) == 0
    assert [game.move_name(position, m) for m in game.moves(position)] == [
        "a1",
        "b1",
        "c1",
        "a2",
        "c2",
        "b3",
        "c3",
    ]
    finished = game.play(position, game.parse_move(position, "c1"))  # a3-b2-c1 is a line
    assert game.render(finished) == "X../.X./..X"
    assert game.moves(finished) == [] and game.result(finished) == Outcome.WIN
    assert load_game("notakto", misere="false").result(finished) == Outcome.LOSS
    with pytest.raises(PositionError):
        game.parse("XO./.../...")


def readme_example_block(readme: Path = ROOT / "README.md") -> str | None:
    """The first ```python block under a heading "Add your own game", or None if no heading."""
    if not readme.is_file():
        return None
    text = readme.read_text()
    heading = re.search(r"^#+\s*Add your own game\b.*$", text, flags=re.MULTILINE | re.IGNORECASE)
    if heading is None:
        return None
    block = re.search(r"```python\n(.*?)```", text[heading.end() :], flags=re.DOTALL)
    assert block is not None, 'README.md has an "Add your own game" heading but no ```python block'
    return block.group(1)


def test_readme_shows_exactly_this_file():
    block = readme_example_block()
    if block is None:
        pytest.skip('README.md has no "Add your own game" section yet')
    assert block == EXAMPLE.read_text(), (
        "README.md's example differs from docs/add_your_own_game.py"
    )


def test_readme_block_extraction_can_fail(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Toolkit\n\n```python\nfirst = 1\n```\n")
    assert readme_example_block(readme) is None
    readme.write_text(
        "# Toolkit\n```python\nx = 0\n```\n## Add your own game\n\nText.\n\n```python\nx = 1\n```\n"
    )
    assert readme_example_block(readme) == "x = 1\n"
    assert readme_example_block(readme) != EXAMPLE.read_text()
