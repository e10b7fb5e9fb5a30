"""The compiled Control kernel against the readable rules and the pure-Python solvers.

Independent sources: move lists come from cgt.games.control (the readable statement of the
rules), values from solvers.retrograde (every reachable position, exact remoteness, cycles as
draws). The kernel is a second statement of the rules (bit-sliced, padded layout), so any
disagreement is a bug in one of them.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cgt.errors import ParameterError, PositionError
from cgt.games.control import Control
from cgt.protocol import Outcome
from solvers.engine_dfpn import HINT_PROOF_SHIFT, HINT_REPLIES
from solvers.engine_search import S_ETC_CUTOFFS
from solvers.kernel_table import S_NODES, S_REPETITIONS
from solvers.kernels.control import PROOF_PER_OWN_MOVE, ControlKernel, solve_control, warm_up
from solvers.retrograde import PositionLimitExceeded, retrograde


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()  # compile (or load the cache) once, outside the per-test timings


def random_positions(game: Control, count: int, seed: int, min_plies: int = 0) -> list[Any]:
    """Positions met along random games (every position of each game from ply
    ``min_plies`` on, terminal ones too)."""
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        position = game.initial_position()
        for ply in range(60):
            if ply >= min_plies:
                positions.append(position)
            moves = game.moves(position)
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
    return positions[:count]


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("rule", ["adjacent", "sight"])
@pytest.mark.parametrize("opening", ["perimeter", "free"])
def test_move_generator_matches_readable_rules(size: int, rule: str, opening: str) -> None:
    game = Control(size=size, control=rule, opening=opening)
    kernel = ControlKernel(game, tt_entries=64)
    for position in random_positions(game, 300, seed=size * 10 + len(rule)):
        assert kernel.moves(position) == game.moves(position), game.render(position)


def test_move_generator_on_hand_position() -> None:
    # Size 2, White on a1 and a2, Black on the centre b2, Black to move (#W == #B + 1).
    game = Control(size=2)
    position = game.parse("WW/.B./.. B")
    # Placements: b1 (neighbours a1 W, b2 B, c1 empty) and b3 (a2 W, b2 B, c2 empty) are
    # ties, controlled by nobody; c1 and c2 see only b2, so Black controls them. Every empty
    # cell is open to Black. Removals: a1 (a2 W, b1 empty, b2 B) and a2 (a1 W, b2 B, b3
    # empty) are ties, so Black removes nothing.
    kernel = ControlKernel(game, tt_entries=64)
    names = [game.move_name(position, m) for m in kernel.moves(position)]
    assert names == ["b1", "b3", "c1", "c2"]


def _assert_same_values(game: Control, positions: list[Any], solution: Any) -> int:
    """Kernel values in every mode (alpha-beta with and without remoteness, symmetry,
    mobility ordering and enhanced transposition cut-offs; df-pn) equal retrograde's;
    returns the repetition cut-offs the kernels met (the cycle logic at work)."""
    remoteness_kernel = ControlKernel(game, remoteness=True, tt_entries=1 << 12)
    value_kernel = ControlKernel(game, remoteness=False, tt_entries=1 << 12)
    proof_kernel = (  # df-pn needs an acyclic rule
        ControlKernel(game, tt_entries=1 << 12, method="dfpn") if game.rule == "adjacent" else None
    )
    plain_kernel = ControlKernel(
        game,
        remoteness=True,
        tt_entries=1 << 12,
        symmetry_pieces=-1,
        mobility_ordering=False,
        etc=False,
    )
    for position in positions:
        expected = (solution.outcome(position), solution.remoteness(position))
        assert remoteness_kernel.value(position) == expected, game.render(position)
        assert plain_kernel.value(position) == expected, game.render(position)
        assert value_kernel.value(position) == (expected[0], None), game.render(position)
        if proof_kernel is not None:
            assert proof_kernel.value(position) == (expected[0], None), game.render(position)
    return sum(k.stat(S_REPETITIONS) for k in (remoteness_kernel, value_kernel, plain_kernel))


@pytest.mark.parametrize("rule", ["adjacent", "sight"])
@pytest.mark.parametrize("opening", ["perimeter", "free"])
def test_every_size2_position_matches_retrograde(rule: str, opening: str) -> None:
    game = Control(size=2, control=rule, opening=opening)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    positions = [solution.position_of(i) for i in range(len(solution))]
    _assert_same_values(game, positions, solution)


def near_end_positions(game: Control, count: int, seed: int, back: int) -> list[Any]:
    """Positions ``back`` plies before the end of random games: small enough for the
    pure-Python retrograde."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        line = [game.initial_position()]
        while len(line) < 200:
            moves = game.moves(line[-1])
            if not moves:
                break
            line.append(game.play(line[-1], rng.choice(moves)))
        if len(line) > back:
            found.append(line[-1 - back])
    return found


@pytest.mark.parametrize("rule", ["adjacent", "sight"])
def test_size3_near_end_positions_match_retrograde(rule: str) -> None:
    """Positions a few plies before the end of random games; those whose reachable graph is
    too big for a quick pure-Python retrograde (sight has cycles) are skipped, but at least
    eight must be checked."""
    game = Control(size=3, control=rule)
    checked = repetitions = 0
    for position in near_end_positions(game, 20, seed=3, back=5):
        try:
            solution = retrograde(game, position, symmetry=True, max_positions=5_000)
        except PositionLimitExceeded:
            continue
        repetitions += _assert_same_values(game, [position], solution)
        checked += 1
    assert checked >= 8
    if rule == "sight":  # the repetition cut-offs (and the GHI flags) were exercised
        assert repetitions > 0


def test_solve_control_size2_root_and_every_move() -> None:
    game = Control(size=2)
    expected = retrograde(game, symmetry=False).result()
    result = solve_control(game, remoteness=True)
    assert (result.outcome, result.remoteness) == (expected.outcome, expected.remoteness)
    assert [(m.name, m.outcome, m.remoteness) for m in result.moves] == [
        (m.name, m.outcome, m.remoteness) for m in expected.moves
    ]
    assert result.solver == "compiled"
    assert result.extra["compile_seconds"] >= 0
    assert len(result.principal_variation) == result.remoteness


def test_symmetry_reduction_keeps_values_size3() -> None:
    """Every move of size-3 positions a few moves into random games, with and without
    canonical keys: same values (checks the canonical keys and the mapping of table moves
    back through the symmetry)."""
    game = Control(size=3)
    rng = random.Random(7)
    with_symmetry = ControlKernel(game, remoteness=True, tt_entries=1 << 16)
    without = ControlKernel(game, remoteness=True, tt_entries=1 << 16, symmetry_pieces=-1)
    # canonical keys up to 5 pieces: positions around 6 pieces cross the threshold both
    # ways (a removal back to 6 pieces rebuilds the images from scratch)
    below_six = ControlKernel(game, remoteness=True, tt_entries=1 << 16, symmetry_pieces=5)
    for _ in range(3):
        position = game.initial_position()
        for _ in range(6):
            position = game.play(position, rng.choice(game.moves(position)))
        expected = without.child_scores(position)
        assert with_symmetry.child_scores(position) == expected
        assert below_six.child_scores(position) == expected


def test_enhanced_transposition_cutoffs_keep_values_size3() -> None:
    """Value solve of size 3 with and without enhanced transposition cut-offs: the same
    value of every opening (second player wins all 12, as the pure-Python alpha-beta test
    below finds too), ETC cut-offs actually taken, and fewer nodes with them."""
    game = Control(size=3)
    with_etc = ControlKernel(game)
    without = ControlKernel(game, etc=False)
    position = game.initial_position()
    scores = with_etc.child_scores(position)
    assert scores == without.child_scores(position)
    assert [score for _, score in scores] == [-1] * 12
    assert with_etc.stat(S_ETC_CUTOFFS) > 0
    assert without.stat(S_ETC_CUTOFFS) == 0
    assert with_etc.stat(S_NODES) < without.stat(S_NODES)


def test_dfpn_and_alphabeta_agree_on_size3_openings() -> None:
    """Two search algorithms over the same compiled rules: the 12 openings of size 3."""
    game = Control(size=3)
    by_alphabeta = solve_control(game, principal_variation=False, tt_entries=1 << 18)
    by_dfpn = solve_control(game, principal_variation=False, tt_entries=1 << 18, method="dfpn")
    assert [(m.name, m.outcome) for m in by_dfpn.moves] == [
        (m.name, m.outcome) for m in by_alphabeta.moves
    ]


@pytest.mark.parametrize("size", [3, 4])
def test_dfpn_hints_count_both_players_moves_after_each_move(size: int) -> None:
    """A df-pn kernel's order hints against the readable rules, move by move on random
    positions: the replies the move leaves the opponent in the low bits, and above them 1 +
    PROOF_PER_OWN_MOVE x the moves the mover would have in the same position if it moved
    again; the alpha-beta kernel's hints are the replies alone (its ordering unchanged)."""
    game = Control(size=size)
    hinted = {
        method: ControlKernel(game, tt_entries=64, method=method).rules
        for method in ("alphabeta", "dfpn")
    }
    checked = 0
    for position in random_positions(game, 120, seed=40 + size):
        if not game.moves(position):
            continue
        side = position[2]
        children = [game.play(position, m) for m in game.moves(position)]
        replies = [len(game.moves(child)) for child in children]
        own_moves = [len(game.moves((w, b, side))) for w, b, _ in children]
        for method, rules in hinted.items():
            state = rules.encode(position)
            moves = np.zeros(rules.max_moves, dtype=np.int64)
            count = rules.generate(state, rules.tables, moves)
            assert [rules.move_of(position, int(c)) for c in moves[:count]] == game.moves(position)
            keys = np.zeros(rules.max_moves, dtype=np.int64)
            winner = rules.order(state, rules.tables, moves, 0, count, keys)
            # the first move that leaves no reply wins at once; no hint after it
            expected_winner = replies.index(0) if 0 in replies else -1
            assert winner == expected_winner, game.render(position)
            hinted_moves = count if winner < 0 else winner
            low = [int(k) & HINT_REPLIES for k in keys[:hinted_moves]]
            high = [int(k) >> HINT_PROOF_SHIFT for k in keys[:hinted_moves]]
            assert low == replies[:hinted_moves], game.render(position)
            if method == "dfpn":
                proofs = [1 + PROOF_PER_OWN_MOVE * n for n in own_moves[:hinted_moves]]
                assert high == proofs, game.render(position)
            else:
                assert high == [0] * hinted_moves
            checked += hinted_moves
    assert checked > 1000


@pytest.mark.slow
def test_size3_openings_match_pure_python_alphabeta() -> None:
    """All 12 perimeter openings of size 3, compiled against pure-Python alpha-beta (minutes)."""
    from solvers.alphabeta import AlphaBeta

    game = Control(size=3)
    expected = AlphaBeta(game, remoteness=False, tt_entries=1 << 22).solve()
    result = solve_control(game, principal_variation=False)
    assert result.outcome == expected.outcome
    assert [(m.name, m.outcome) for m in result.moves] == [
        (m.name, m.outcome) for m in expected.moves
    ]


def test_bad_input_raises_toolkit_errors() -> None:
    with pytest.raises(ParameterError):
        ControlKernel(Control(size=5))
    with pytest.raises(ParameterError):
        ControlKernel(Control(size=2), tt_entries=1)
    kernel = ControlKernel(Control(size=2), tt_entries=64)
    with pytest.raises(PositionError):
        kernel.moves((1, 1, 0))  # a cell holding both colours
    with pytest.raises(PositionError):
        kernel.moves((1 << 7, 0, 0))  # off the 7-cell board
    with pytest.raises(PositionError):
        kernel.moves((0, 0, 2))
    with pytest.raises(ParameterError):
        ControlKernel(Control(size=2), method="dfpn", remoteness=True)
    with pytest.raises(ParameterError):
        ControlKernel(Control(size=2, control="sight"), method="dfpn")
    with pytest.raises(ParameterError):
        ControlKernel(Control(size=2), method="minimax")
    from cgt.games.nim import Nim

    with pytest.raises(ParameterError):
        solve_control(Nim())


class DepthBoundedProver:
    """Depth-bounded proofs over the readable rules (:class:`Control`), independent of the
    kernel and of retrograde: "the player to move wins within d plies" and "loses within d
    plies". A proof within a bound is sound even where positions repeat (a bounded line
    never needs the repetition rule), so it checks the kernel's cycle handling."""

    def __init__(self, game: Control) -> None:
        self.game = game
        self.memo: dict[tuple[Any, int, bool], bool] = {}

    def wins_within(self, position: Any, plies: int) -> bool:
        key = (self.game.canonical_key(position), plies, True)
        if key not in self.memo:
            self.memo[key] = plies >= 1 and any(
                self.loses_within(self.game.play(position, m), plies - 1)
                for m in self.game.moves(position)
            )
        return self.memo[key]

    def loses_within(self, position: Any, plies: int) -> bool:
        key = (self.game.canonical_key(position), plies, False)
        if key not in self.memo:
            moves = self.game.moves(position)
            self.memo[key] = not moves or (
                plies >= 2
                and all(self.wins_within(self.game.play(position, m), plies - 1) for m in moves)
            )
        return self.memo[key]


@pytest.mark.parametrize(
    ("plies", "least_proven"),
    [(7, 12), pytest.param(11, 12, marks=pytest.mark.slow)],  # 11: about a minute
)
def test_size3_sight_values_agree_with_depth_bounded_proofs(plies: int, least_proven: int) -> None:
    """Size 3 under sight, positions ``plies`` before the end of random games (cycles exist
    there): every win or loss the prover finds within ``plies`` is the kernel's value, and
    the kernel's repetition cut-offs were exercised on the way."""
    game = Control(size=3, control="sight")
    prover = DepthBoundedProver(game)
    kernel = ControlKernel(game, remoteness=False, tt_entries=1 << 14)
    proven = 0
    for position in near_end_positions(game, 24, seed=5, back=plies):
        outcome, _ = kernel.value(position)
        if prover.wins_within(position, plies):
            assert outcome == Outcome.WIN, game.render(position)
            proven += 1
        elif prover.loses_within(position, plies):
            assert outcome == Outcome.LOSS, game.render(position)
            proven += 1
    assert proven >= least_proven
    assert kernel.stat(S_REPETITIONS) > 0
