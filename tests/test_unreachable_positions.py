"""Every game's parser refuses what its rules cannot reach (docs/rules.md: "A string that is
malformed or describes a position the rules cannot reach is refused"): on small boards the
positions reachable from the start are enumerated by playing the rules (an independent road
from the parser's checks), and every one-character change of a reachable position string that
the parser accepts must be among them. Where the parser checks the conditions its section of
docs/rules.md lists (necessary, not a search of the game), a position built to break each
condition is refused."""

from __future__ import annotations

from typing import Any

import pytest

from cgt.errors import CGTError
from cgt.protocol import Game
from cgt.registry import BUILTIN_GAMES, load_game
from tests.toy_games import reachable

#: Games whose parser is exact on a small board: it accepts what the rules reach from the
#: start and nothing else.
EXACT: dict[str, dict[str, Any]] = {"tictactoe": {}, "control": {"size": 2}}
#: Games whose parser refuses what docs/rules.md lists (necessary conditions, not a search):
#: one position built to break each listed condition, with the words the refusal must use.
BUILT_UNREACHABLE: dict[str, list[tuple[dict[str, Any], str, str]]] = {
    "lag": [
        ({}, "BBBB/BBBB/...../WWWW/WWW B", "row"),  # malformed, for contrast
        ({}, "BBB/BBBB/WWWWW/WWWW/WWW B", "more than"),  # more pieces than the setup
        ({}, ".../..../...../WWWW/WWW W", "no pieces"),  # the last mover has none
        ({}, "BB./BBBB/...../WWWW/WWW B", "never moved"),  # capture by a side that never moved
        ({}, "BBB/BBBB/...../WWWW/WWW B", "never moved"),  # the first side never moved
        ({}, "BBB/BBBB/.W.../WWWW/.WW W", "never moved"),  # White moved, Black never did
        ({}, "BBB/BBBB/..W../WWWW/.WW B", "never moved"),  # no single move gives it
    ],
    "interleave": [
        ({"size": 2}, "../.../.. R", "black stone"),
        ({"size": 2}, "../.B./.. R+++", "two"),
        ({"size": 2, "turns": "loser"}, "../.B./.. B", "losing"),
    ],
    "super-nonnect": [
        ({"a": 2, "b": 2}, "..../..../..../.... 3", "designation"),
        ({"a": 2, "b": 2}, "x.../..../..../.... -", "designation"),
        ({"a": 2, "b": 2}, "..x./..x./.xxx/x... 0", "connected"),
    ],
    "entropy": [
        ({"width": 3, "height": 3, "setup": "SS./.../.OO O"}, "SSS/.../.OO O", "pieces"),
        ({"width": 3, "height": 3, "setup": "SS./.../.OO O"}, "SS./.../... O", "piece"),
    ],
}
#: Games whose position strings stand for any game of their family (CGT values of any heaps,
#: any board): every well-formed string is a position in its own right.
ANY_POSITION = {"nim", "octal", "kayles", "dawsons-kayles", "subtraction", "grundys-game",
                "domineering", "snort"}  # fmt: skip


def reachable_texts(game: Game[Any, Any]) -> set[str]:
    return {game.render(position) for position in reachable(game)}


def one_character_changes(texts: set[str]) -> set[str]:
    alphabet = {c for text in texts for c in text if c not in "/ "}
    changed = set()
    for text in sorted(texts):
        for i, old in enumerate(text):
            if old in "/ ":
                continue
            changed.update(text[:i] + new + text[i + 1 :] for new in alphabet - {old})
    return changed - texts


def test_every_built_in_game_is_classified() -> None:
    assert set(BUILTIN_GAMES) == set(EXACT) | set(BUILT_UNREACHABLE) | ANY_POSITION


@pytest.mark.parametrize("name", sorted(EXACT))
def test_the_parser_accepts_only_reachable_positions(name: str) -> None:
    game = load_game(name, **EXACT[name])
    reachable = reachable_texts(game)
    accepted_unreachable = []
    for text in sorted(one_character_changes(reachable)):
        try:
            position = game.parse(text)
        except CGTError:
            continue
        if game.render(position) not in reachable:
            accepted_unreachable.append(text)
    assert accepted_unreachable == [], f"{len(accepted_unreachable)} accepted"
    for text in sorted(reachable)[:50]:  # and the reachable ones stay accepted
        assert game.render(game.parse(text)) == text


@pytest.mark.parametrize(
    ("name", "params", "text", "words"),
    [(name, *built) for name, cases in BUILT_UNREACHABLE.items() for built in cases],
)
def test_positions_built_to_be_unreachable_are_refused(
    name: str, params: dict[str, Any], text: str, words: str
) -> None:
    with pytest.raises(CGTError, match=words):
        load_game(name, **params).parse(text)


def test_lag_refuses_a_move_by_white_when_black_never_moved() -> None:
    # Black stands as set up, so White moved once at most and Black is to move; here White
    # is to move with a piece two rows ahead (the "first player wins" for it)
    game = load_game("lag", size=3)
    with pytest.raises(CGTError, match="never moved"):
        game.parse("BBB/BBBB/.W.../WWWW/.WW W")
    assert game.render(game.parse("BBB/BBBB/.W.../.WWW/WWW B")) == "BBB/BBBB/.W.../.WWW/WWW B"
