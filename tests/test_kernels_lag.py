"""The compiled LAG kernel against the readable rules (cgt.games.lag) and the pure-Python
retrograde solver.

Two independent statements of the rules must agree: move lists (in order) and end-of-game
results on random positions of sizes 3 and 4 under every goal, then values (and remoteness)
on every position reachable from a small setup and on positions near the end of random games,
where solvers.retrograde enumerates the whole remaining graph.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cgt.errors import ParameterError, PositionError
from cgt.games.lag import FAR_ROW_GOALS, GOALS, Lag, LagPosition, count_objects
from cgt.protocol import Outcome
from proofs.lag import lag_with_rules
from solvers.kernels.lag import (
    MERGE_BONUS,
    LagKernel,
    LagTables,
    generate_moves,
    objects_after,
    solve_lag,
    warm_up,
)
from solvers.retrograde import PositionLimitExceeded, retrograde

SMALL_SETUP = "B.B/..../...../..../W.W W"
#: Every goal, and the far-row goals also with the other reading of who is checked (the
#: default checks both players after a move, ``goal_check=mover`` only the mover).
RULES = [{"goal": goal} for goal in GOALS] + [
    {"goal": goal, "goal_check": "mover"} for goal in FAR_ROW_GOALS
]
RULE_IDS = [" ".join(f"{k}={v}" for k, v in rules.items()) for rules in RULES]


def seed_of(rules: dict[str, str]) -> int:
    return RULES.index(rules)


#: Small tables keep the tests fast and make the replacement policy work hard.
SMALL_TABLE = 1 << 12


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def random_game(game: Lag, rng: random.Random) -> list[LagPosition]:
    """Every position of one uniformly random game from the initial position to its end."""
    position = game.initial_position()
    line = [position]
    while True:
        moves = game.moves(position)
        if not moves:
            return line
        position = game.play(position, rng.choice(moves))
        line.append(position)


def random_placement(game: Lag, rng: random.Random) -> LagPosition:
    """Pieces scattered at random: many objects, so long moves and sideways merges occur."""
    cells = list(range(game.board.size))
    rng.shuffle(cells)
    side = rng.randint(0, 1)
    counts = [rng.randint(1, 8), rng.randint(1, 8)]
    counts[side] = rng.randint(0, 8)  # the player who has just moved always has a piece
    white = sum(1 << c for c in cells[: counts[0]])
    black = sum(1 << c for c in cells[counts[0] : counts[0] + counts[1]])
    return (white, black, side)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
@pytest.mark.parametrize("size", [3, 4])
def test_moves_and_results_match_the_readable_rules(size: int, rules: dict[str, str]) -> None:
    game = Lag(size=size, **rules)
    kernel = LagKernel(game, tt_entries=2)
    rng = random.Random(size * 100 + seed_of(rules))
    positions: list[LagPosition] = []
    for _ in range(30):
        positions += random_game(game, rng)
    positions += [random_placement(game, rng) for _ in range(1500)]
    kinds = {"sideways": 0, "capture": 0, "terminal": 0}
    for position in positions:
        expected = game.moves(position)
        assert kernel.moves(position) == expected, game.render(position)
        assert kernel.result(position) == game.result(position), game.render(position)
        kinds["terminal"] += not expected
        for source, target in expected:
            kinds["capture"] += position[1 - position[2]] >> target & 1
            kinds["sideways"] += game.board.coords[source][1] == game.board.coords[target][1]
    assert all(count > 0 for count in kinds.values()), kinds  # every rule was exercised


CountAfter = Callable[[int, int, int], int]


def dense_placements(game: Lag, rng: random.Random, count: int) -> list[tuple[int, int]]:
    """(own, opponent) pieces at every density, so that lone pieces, cut points and targets
    between three groups all occur."""
    placements = []
    for _ in range(count):
        density = rng.uniform(0.1, 0.7)
        cells = [c for c in range(game.board.size) if rng.random() < density]
        own = sum(1 << c for c in cells if rng.random() < 0.7)
        opponent = sum(1 << c for c in cells) & ~own
        placements.append((own, opponent))
    return placements


def count_after_mismatches(
    game: Lag, count_after: CountAfter, placements: list[tuple[int, int]]
) -> list[str]:
    """Moves of a piece of ``own`` to a cell it does not hold after which ``count_after``
    differs from the readable rules' count of ``own`` (any distance: the count is
    geometry, not rules)."""
    nbr = game.board.neighbour_mask
    wrong = []
    for own, _ in placements:
        for source in game.board.cells_of(own):
            for target in range(game.board.size):
                if own >> target & 1 == 0:
                    expected = count_objects(own ^ (1 << source) | (1 << target), nbr)
                    if count_after(own, source, target) != expected:
                        wrong.append(f"{own:#x}: {source}->{target}, expected {expected}")
    return wrong


@pytest.mark.parametrize("size", [3, 4, 5])
def test_objects_after_a_move_match_the_readable_count(size: int) -> None:
    game = Lag(size=size)
    tables = LagTables(game, symmetry_pieces=-1)
    nbr = game.board.neighbour_mask
    placements = dense_placements(game, random.Random(size), 150)

    def compiled(own: int, source: int, target: int) -> int:
        return int(objects_after(np.uint64(own), source, target, tables.dest, tables.nbr))

    assert count_after_mismatches(game, compiled, placements) == []

    def objects(mask: int) -> int:
        return count_objects(mask, nbr)

    def splits(own: int, source: int) -> bool:  # the source is a cut point of its group
        lone = own & nbr[source] == 0
        return objects(own ^ (1 << source)) > objects(own) - lone

    # each kind of move the incremental count treats apart, one off: every one is caught
    planted: dict[str, Callable[[int, int, int], bool]] = {
        "a lone piece moves": lambda own, s, t: own & nbr[s] == 0,
        "the source is a cut point": lambda own, s, t: splits(own, s),
        "the target joins three groups": lambda own, s, t: (
            objects(own ^ (1 << s) | (1 << t)) <= objects(own ^ (1 << s)) - 2
        ),
    }
    for name, applies in planted.items():

        def off_by_one(own: int, s: int, t: int, applies: Any = applies) -> int:
            return compiled(own, s, t) + applies(own, s, t)

        assert count_after_mismatches(game, off_by_one, placements), name

    # the move generator's merge flags (the same count, stopped once it is decided)
    moves = np.zeros(4 * game.board.size, dtype=np.int64)
    order = np.zeros_like(moves)
    merges = 0
    for own, opponent in placements:
        k = objects(own)
        for side in (0, 1):
            listed = generate_moves(
                np.uint64(own), np.uint64(opponent), side, k, tables.dest, tables.nbr, moves, order
            )
            for code, key in zip(moves[:listed], order[:listed], strict=True):
                after = objects(own ^ (1 << int(code >> 6)) | (1 << int(code & 63)))
                assert bool(key & MERGE_BONUS) == (after < k), (hex(own), int(code))
                merges += after < k
    assert merges > 100


def readable_perft(game: Lag, position: LagPosition, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies, by the readable rules."""
    if depth == 0:
        return 1
    return sum(readable_perft(game, child, depth - 1) for _, child in game.children(position))


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_perft_matches_the_readable_rules(rules: dict[str, str]) -> None:
    game = Lag(size=3, **rules)
    kernel = LagKernel(game, tt_entries=2)
    start = game.initial_position()
    assert kernel.perft(start, 1) == 8  # the eight forward steps of the d row (hand count)
    assert kernel.perft(start, 4) == readable_perft(game, start, 4)


def assert_agrees_with_retrograde(
    game: Lag, root: Any, kernels: list[LagKernel], *, every_position: bool
) -> int:
    """Compare the kernels' values with retrograde analysis on the graph below ``root``;
    return the number of positions compared."""
    solution = retrograde(game, root, symmetry=False, keep_positions=True)
    nodes = range(len(solution)) if every_position else [solution.id_of(root)]
    for node in nodes:
        position = solution.position_of(node)
        outcome, remoteness = solution.outcome(position), solution.remoteness(position)
        for kernel in kernels:
            expected = (outcome, remoteness if kernel.remoteness else None)
            assert kernel.value(position) == expected, (game.render(position), kernel.remoteness)
    return len(nodes)


#: Size 2 (7 cells) with two pieces a side, and the small size-3 setup: every position
#: reachable, with the fewest each graph has (under every goal).
WHOLE_GRAPHS = [(2, "BB/.../WW W", 100), (3, SMALL_SETUP, 200)]


@pytest.mark.parametrize(("size", "setup", "at_least"), WHOLE_GRAPHS, ids=["size 2", "size 3"])
@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_every_position_of_the_small_setup(
    rules: dict[str, str], size: int, setup: str, at_least: int
) -> None:
    game = Lag(size=size, setup=setup, **rules)
    kernels = [
        LagKernel(game, remoteness=remoteness, symmetry=symmetry, tt_entries=entries)
        for remoteness in (False, True)
        for symmetry in (False, True)
        for entries in (SMALL_TABLE, 4)
    ]
    compared = assert_agrees_with_retrograde(
        game, game.initial_position(), kernels, every_position=True
    )
    assert compared > at_least


def small_graph_root(game: Lag, line: list[LagPosition], limit: int) -> LagPosition | None:
    """The earliest position of a game's last plies whose remaining graph has at most
    ``limit`` positions (walking back from the end until the graph gets too big)."""
    root = None
    for position in reversed(line[:-1]):
        try:
            retrograde(game, position, symmetry=False, max_positions=limit)
        except PositionLimitExceeded:
            break
        root = position
    return root


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_positions_near_the_end_of_random_games(rules: dict[str, str]) -> None:
    game = Lag(size=3, **rules)
    kernels = [LagKernel(game, remoteness=r, tt_entries=SMALL_TABLE) for r in (False, True)]
    rng = random.Random(7 + seed_of(rules))
    compared = 0
    for _ in range(15):
        root = small_graph_root(game, random_game(game, rng), limit=2000)
        if root is not None:
            compared += assert_agrees_with_retrograde(game, root, kernels, every_position=True)
    assert compared >= 300


def test_solve_gives_every_root_move_and_a_legal_principal_variation() -> None:
    game = Lag(size=3, goal="standard", setup=SMALL_SETUP)
    expected = retrograde(game, symmetry=False).result()
    for remoteness in (False, True):
        result = solve_lag(game, remoteness=remoteness, tt_entries=SMALL_TABLE)
        assert result.outcome == expected.outcome
        assert result.remoteness == (expected.remoteness if remoteness else None)
        got = {m.name: (m.outcome, m.remoteness) for m in result.moves}
        want = {m.name: (m.outcome, m.remoteness if remoteness else None) for m in expected.moves}
        assert got == want
        position = game.initial_position()
        for name in result.principal_variation:
            position = game.play(position, game.parse_move(position, name))
        assert game.result(position) is not None  # the line plays the game to its end
        if remoteness:
            assert len(result.principal_variation) == result.remoteness
        assert result.extra["nodes"] > 0 and "compile_seconds" in result.extra


def test_terminal_root() -> None:
    # White to move on the far-row board where Black has just reached White's home row.
    game = Lag(size=3, goal="far-row", setup="B.B/..../...../..../B.W W")
    result = solve_lag(game, tt_entries=SMALL_TABLE)
    assert result.outcome == Outcome.LOSS and result.moves == []


def test_bad_input_is_refused() -> None:
    game = Lag(size=3)
    kernel = LagKernel(game, tt_entries=SMALL_TABLE)
    with pytest.raises(PositionError):
        kernel.moves((1, 1, 0))  # both colours on cell 0
    with pytest.raises(PositionError):
        kernel.moves((1 << 40, 0, 0))  # beyond the 19 cells
    with pytest.raises(PositionError):
        kernel.moves((0, 1, 2))
    with pytest.raises(PositionError):
        kernel.moves("BBB/BBBB W")
    with pytest.raises(ParameterError):
        LagKernel(lag_with_rules("backward-allowed", size=3))
    with pytest.raises(ParameterError):
        LagKernel(lag_with_rules("free-sideways", size=3))
    with pytest.raises(ParameterError):
        LagKernel(game, tt_entries=1)


def test_kernels_load_from_the_disk_cache() -> None:
    # Numba crashes on recursive functions loaded from its disk cache when a recursive call
    # casts an argument (numba issue #6713): run every kernel in fresh processes, the
    # second of which loads what the first (or this test session) cached.
    script = (
        "from cgt.games.lag import Lag; from solvers.kernels.lag import LagKernel, warm_up; "
        "warm_up(); game = Lag(size=3); kernel = LagKernel(game, tt_entries=1 << 10); "
        "print(kernel.perft(game.initial_position(), 3), len(kernel.moves(game.initial_position())))"
    )
    root = Path(__file__).resolve().parent.parent
    for _ in range(2):
        run = subprocess.run(
            [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr[-500:]
        assert run.stdout.split()[1] == "8"


@pytest.mark.slow
def test_size_3_far_row_agrees_with_pure_python_alpha_beta() -> None:
    # solvers.alphabeta solved this board in 38 s (4.9 M nodes): White, who moves first, loses.
    result = solve_lag(Lag(size=3, goal="far-row"), tt_entries=1 << 21, principal_variation=False)
    assert result.outcome == Outcome.LOSS
    assert all(m.outcome == Outcome.LOSS for m in result.moves)


@pytest.mark.parametrize(
    ("goal_check", "expected"), [("both", Outcome.WIN), ("mover", None)], ids=["both", "mover"]
)
def test_the_goal_met_by_the_player_to_move_under_both_readings(
    goal_check: str, expected: Outcome | None
) -> None:
    # White to move: a1 on the far row and b2, one object (docs/rules.md, LAG goals); the
    # same hand-derived outcome the readable rules' tests assert.
    game = Lag(size=3, goal="far-row-one-object", goal_check=goal_check)
    position = game.parse("W../.W../..B../..../... W")
    kernel = LagKernel(game, tt_entries=2)
    assert kernel.result(position) is expected
    assert kernel.moves(position) == game.moves(position)
