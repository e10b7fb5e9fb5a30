"""docs/rules.md, the project's own statement of the rules, against the code: every claim id,
every game with its parameters and variants, and the position strings it shows, parsed by the
games themselves; and no shipped file points at the source digests outside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgt.registry import BUILTIN_GAMES, game_class, load_game
from proofs.registry import all_claims

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
SEED_GAMES = ("control", "lag", "interleave", "super-nonnect", "entropy")


def test_every_claim_id_is_in_the_rules_document() -> None:
    missing = [c.id for c in all_claims() if f"`{c.id}`" not in RULES]
    assert missing == []


@pytest.mark.parametrize("name", SEED_GAMES)
def test_every_parameter_and_variant_of_a_seed_game_is_described(name: str) -> None:
    cls = game_class(name)
    for param in cls.params:
        assert f"`{param.name}`" in RULES, param.name
        for choice in param.choices or ():
            assert f"`{choice}`" in RULES or f"{param.name}={choice}" in RULES, (param, choice)
    for variant in cls.variants:
        assert f"`{variant}`" in RULES, variant


def test_every_registered_game_is_named() -> None:
    # the built-in games (a test may have loaded a plugin game such as the README's notakto)
    assert [name for name in BUILTIN_GAMES if f"`{name}`" not in RULES] == []


@pytest.mark.parametrize(
    ("name", "params", "text"),
    [
        ("control", {"size": 2}, ".W/.../.. B"),
        ("lag", {"size": 3}, "BBB/BBBB/...../WWWW/WWW W"),
        ("interleave", {"size": 2}, "../.B./.. R"),
        ("interleave", {"size": 2}, ".B/R.B/.. R+"),
        ("super-nonnect", {"a": 2, "b": 2}, "..../..../..../.... -"),
        ("entropy", {}, "SSSSS/S...S/...../O...O/OOOOO O"),
        ("entropy", {}, "S.O.S/O...O/OSSOS/S..../..OOS O"),
        ("entropy", {}, "S.O.O/O.SOS/S..../OOSSO/S.... O"),
        ("domineering", {}, "..#|... R"),
    ],
)
def test_position_strings_of_the_document_parse(
    name: str, params: dict[str, int], text: str
) -> None:
    assert text in RULES
    game = load_game(name, **params)
    game.parse(text)  # a PositionError fails the test


def test_the_default_setups_drawn_in_the_document_are_the_games_own() -> None:
    assert load_game("lag", size=3).render(load_game("lag", size=3).initial_position()) in RULES
    entropy = load_game("entropy")
    assert entropy.render(entropy.initial_position()) in RULES
    interleave = load_game("interleave", size=2)
    assert interleave.render(interleave.initial_position()) in RULES


def test_no_shipped_file_points_at_the_digests_outside_the_repository() -> None:
    digests = ("GAMES" + ".md", "ANCHORS" + ".md")  # spelled apart so this file does not match
    shipped = [ROOT / "README.md", ROOT / "DEVELOPERS.md"]
    for folder in ("cgt", "solvers", "proofs", "tests", "benchmarks", "docs", "reports"):
        shipped += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md")]
    offenders = [
        str(p.relative_to(ROOT))
        for p in shipped
        if any(d in p.read_text(encoding="utf-8", errors="replace") for d in digests)
    ]
    assert offenders == []
