"""The proof of a stored Entropy solution (proofs/entropy_equations.py): its forward rules
agree with the readable module, its ranking with the store's, a correct solution passes,
every single wrong label is caught, and an interrupted check resumes to the same totals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cgt.boards.square import square_board
from cgt.games.entropy import PASS, Entropy, EntropyPosition
from cgt.protocol import Outcome
from proofs.entropy_equations import (
    DRAW,
    LOSS,
    NOT_A_POSITION,
    OUTCOME_SHIFT,
    WIN,
    EquationChecker,
    dihedral_permutations,
)
from proofs.registry import run_claim
from solvers.kernels.entropy import EntropySpace
from solvers.ranking import EntropyRanking

RULE_BOARDS = [
    Entropy(),
    Entropy(goal="disable"),
    Entropy(width=4, height=4, setup="SSS./..../..../.OOO O"),
    Entropy(width=3, height=3, setup="SS./.../.OO O"),
    Entropy(width=5, height=4),
    Entropy(width=4, height=3, setup="SSSS/..../OOOO O", goal="disable"),
]
#: A small board whose solution has wins, losses, draws and terminal positions.
SMALL = Entropy(width=4, height=3, setup="SSSS/..../OOOO O")
RESULT_FIELD = {Outcome.WIN: WIN, Outcome.LOSS: LOSS, Outcome.DRAW: DRAW}


def random_position(game: Entropy, rng: random.Random) -> EntropyPosition:
    cells = rng.sample(range(game.board.size), sum(game.piece_counts))
    k1 = game.piece_counts[0]
    o_cells = sum(1 << c for c in cells[:k1])
    s_cells = sum(1 << c for c in cells[k1:])
    return o_cells, s_cells, rng.randrange(2)


@pytest.fixture(scope="module")
def small_records() -> np.ndarray:
    space = EntropySpace(SMALL)
    space.solve()
    return space.records(0, space.size)


@pytest.fixture(scope="module")
def small_checker() -> EquationChecker:
    return EquationChecker(SMALL)


# ------------------------------------------------------------------ the forward rules
@pytest.mark.parametrize("game", RULE_BOARDS, ids=lambda g: f"{g.width}x{g.height}-{g.goal}")
def test_forward_moves_and_results_agree_with_the_readable_rules(game: Entropy) -> None:
    checker = EquationChecker(game)
    rng = random.Random(7)
    passes = finished = isolated = 0
    for _ in range(400):
        position = random_position(game, rng)
        readable = sorted(m for m in game.moves(position) if m != PASS)
        assert sorted(checker.moves(position)) == readable, game.render(position)
        result = game.result(position)
        assert checker.result(position) == (0 if result is None else RESULT_FIELD[result])
        passes += not readable
        finished += result is not None
        isolated += bool(game.isolated_pieces(position, position[2]))
    # the sample reaches the rules' corners: forced passes, finished games, isolation
    assert isolated > 0 and finished + passes > 0


def test_symmetries_are_the_boards_own() -> None:
    for width, height in ((5, 5), (4, 3), (3, 4), (1, 1)):
        board = square_board(width, height)
        ours = sorted(tuple(int(c) for c in row) for row in dihedral_permutations(width, height))
        theirs = sorted(tuple(board.symmetries[s]) for s in board.symmetry_ids)
        assert ours == theirs


@pytest.mark.parametrize("game", RULE_BOARDS[2:5], ids=lambda g: f"{g.width}x{g.height}")
def test_index_is_symmetric_and_is_the_stores_and_the_kernels(game: Entropy) -> None:
    checker = EquationChecker(game)
    space = EntropySpace(game)
    space.build_tables()
    ranking = EntropyRanking(space.ranking_meta())
    assert checker.ranking_mismatch(space.ranking_meta()) is None
    assert checker.size == space.size
    rng = random.Random(3)
    for _ in range(200):
        position = random_position(game, rng)
        index = checker.index(position)
        assert index == ranking.index(position) == space.index(position)
        for symmetry in range(game.symmetry_count):
            assert checker.index(game.transform(position, symmetry)) == index
        assert game.canonical_key(checker.position(index)) == game.canonical_key(position)


def test_a_different_ranking_is_refused(small_checker: EquationChecker) -> None:
    space = EntropySpace(SMALL)
    meta = space.ranking_meta()
    assert small_checker.ranking_mismatch(meta) is None
    moved = dict(meta, class_representatives=[*meta["class_representatives"][:-1], 10**6])
    assert "representatives" in str(small_checker.ranking_mismatch(moved))
    assert "classes" in str(small_checker.ranking_mismatch(dict(meta, classes=1)))


# ------------------------------------------------------------------ the equations
def test_a_correct_solution_passes(
    small_checker: EquationChecker, small_records: np.ndarray
) -> None:
    report = small_checker.check(small_records)
    counts = report.counts
    assert report.complete and counts["inconsistent"] == 0
    assert counts["positions"] + counts["non_canonical_indices"] == report.indices
    assert counts["wins"] + counts["losses"] + counts["draws"] == counts["positions"]
    # independent counts: the positions are the classes of placements under symmetry
    game = SMALL
    classes = {
        game.canonical_key(checker_position)
        for checker_position in (small_checker.position(i) for i in range(report.indices))
    }
    assert counts["positions"] == len(classes)
    assert min(counts["wins"], counts["losses"], counts["terminal"]) > 0


def _code(outcome: int, remoteness: int = 0) -> int:
    return outcome << OUTCOME_SHIFT | remoteness


def _tamperings(records: np.ndarray) -> dict[str, list[tuple[int, int]]]:
    """(index, wrong record) of each kind of single wrong label, a few of each."""
    field = records >> OUTCOME_SHIFT
    remote = records & ((1 << OUTCOME_SHIFT) - 1)
    wins = np.flatnonzero(field == WIN)
    losses = np.flatnonzero(field == LOSS)
    draws = np.flatnonzero(field == DRAW)
    absent = np.flatnonzero(field == NOT_A_POSITION)
    rng = np.random.default_rng(5)

    def some(indices: np.ndarray) -> list[int]:
        return [int(i) for i in rng.choice(indices, size=min(12, indices.size), replace=False)]

    return {
        "win relabelled draw": [(i, _code(DRAW)) for i in some(wins)],
        "win relabelled loss": [(i, _code(LOSS, int(remote[i]))) for i in some(wins)],
        "loss relabelled win": [(i, _code(WIN, int(remote[i]))) for i in some(losses)],
        "loss relabelled draw": [(i, _code(DRAW)) for i in some(losses)],
        "draw relabelled win": [(i, _code(WIN, 1)) for i in some(draws)],
        "draw relabelled loss": [(i, _code(LOSS, 1)) for i in some(draws)],
        "remoteness one more": [(i, int(records[i]) + 1) for i in some(np.r_[wins, losses])],
        "remoteness one less": [
            (i, int(records[i]) - 1) for i in some(np.r_[wins, losses]) if remote[i] > 0
        ],
        "position without a record": [(i, NOT_A_POSITION) for i in some(np.r_[wins, draws])],
        "record at a symmetric duplicate": [(i, _code(DRAW)) for i in some(absent)],
    }


def test_every_single_wrong_label_is_caught(
    small_checker: EquationChecker, small_records: np.ndarray
) -> None:
    kinds = _tamperings(small_records)
    assert all(kinds.values())
    for kind, cases in kinds.items():
        for index, wrong in cases:
            tampered = small_records.copy()
            tampered[index] = wrong
            report = small_checker.check(tampered)
            assert report.inconsistent >= 1, (kind, index)


def test_the_claim_refutes_a_store_with_one_flipped_label(tmp_path: Path) -> None:
    from solvers.database import SolutionDatabase
    from solvers.saved import packed_path
    from solvers.store import PackedSolution, write_packed_solution

    board = (4, 3, "SSSS/..../OOOO O")
    database = tmp_path / "solutions.sqlite"
    honest = run_claim("entropy.solved", full=True, full_board=board, samples=40,
                       database=database)  # fmt: skip
    assert honest.verdict == "verified"
    assert honest.evidence["proof"]["inconsistent"] == 0
    assert honest.evidence["proof"]["positions"] == honest.evidence["positions_up_to_symmetry"]
    path = packed_path(SolutionDatabase(database), SMALL, SMALL.render(SMALL.initial_position()))
    with PackedSolution.open(path) as stored:
        records, meta = stored.load_all(), stored.meta
    win = int(np.flatnonzero(records >> OUTCOME_SHIFT == WIN)[0])
    records[win] = _code(DRAW)
    write_packed_solution(path, records, meta)  # a new file: the old checkpoint is stale
    flipped = run_claim("entropy.solved", full=True, full_board=board, samples=40,
                        database=database)  # fmt: skip
    assert flipped.verdict == "refuted"
    assert flipped.evidence["proof"]["inconsistent"] >= 1
    example = flipped.evidence["proof"]["inconsistent_examples"][0]
    assert example["record"] == "draw None" or example["children"]


# ------------------------------------------------------------------ resumption
def test_an_interrupted_check_resumes_to_the_same_totals(
    tmp_path: Path, small_checker: EquationChecker, small_records: np.ndarray
) -> None:
    tampered = small_records.copy()
    tampered[int(np.flatnonzero(tampered >> OUTCOME_SHIFT == LOSS)[0])] = _code(WIN, 3)
    whole = small_checker.check(tampered, chunk_blocks=4)
    assert whole.chunks > 3 and whole.inconsistent >= 1
    out_of_time = small_checker.check(tampered, chunk_blocks=4, max_seconds=0)
    assert out_of_time.chunks_done == 0 and not out_of_time.complete
    checkpoint = tmp_path / "check.json"
    identity = {"records": "tampered"}
    first = small_checker.check(tampered, checkpoint=checkpoint, identity=identity,
                                chunk_blocks=4, stop_after_chunks=2)  # fmt: skip
    assert not first.complete and first.chunks_done == 2
    assert json.loads(checkpoint.read_text())["chunks_done"] == 2

    def interrupt(info: dict[str, Any]) -> None:
        raise KeyboardInterrupt  # Ctrl-C after the next chunk is recorded

    with pytest.raises(KeyboardInterrupt):
        small_checker.check(tampered, checkpoint=checkpoint, identity=identity,
                            chunk_blocks=4, progress=interrupt)  # fmt: skip
    assert json.loads(checkpoint.read_text())["chunks_done"] == 3
    rest = small_checker.check(tampered, checkpoint=checkpoint, identity=identity, chunk_blocks=4)
    assert rest.complete and rest.sessions == 3
    assert rest.counts == whole.counts
    assert rest.inconsistent_examples == whole.inconsistent_examples
    # a checkpoint of other records is not resumed
    other = small_checker.check(small_records, checkpoint=checkpoint,
                                identity={"records": "honest"}, chunk_blocks=4)  # fmt: skip
    assert other.sessions == 1 and other.inconsistent == 0
