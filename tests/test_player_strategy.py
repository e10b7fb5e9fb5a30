"""The strong player plays from a winning strategy file where one covers the position: its
move there keeps the win by retrograde's values (the second road), and it says where the
move came from."""

from __future__ import annotations

import random
from pathlib import Path

from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers.player import choose_move
from solvers.retrograde import retrograde
from solvers.strategy import StrategyFile

STRATEGY = (
    Path(__file__).resolve().parent.parent / "reports/data/strategies/control-2-free.jsonl.gz"
)


def test_the_player_follows_the_strategy_and_keeps_the_win(tmp_path: Path) -> None:
    strategy = StrategyFile(STRATEGY)
    game = load_game("control", size=2, opening="free")
    start = game.initial_position()
    solution = retrograde(game, start)
    chooser = random.Random(5)
    covered = 0
    for _ in range(20):
        position = start
        while game.result(position) is None and game.moves(position):
            if strategy.covers(game, position):
                choice = choose_move(game, position, strategy=strategy, db=tmp_path / "none.db")
                assert choice.source == "strategy"
                after = game.play(position, choice.move)
                # the mover wins: the position after the move is lost for the player then
                # to move (players alternate in Control)
                assert solution.result(after).outcome == Outcome.LOSS
                covered += 1
                position = after
            else:
                position = game.play(position, chooser.choice(list(game.moves(position))))
    assert covered > 0


def test_without_the_file_the_player_does_not_claim_a_strategy(tmp_path: Path) -> None:
    game = load_game("control", size=2, opening="free")
    choice = choose_move(game, game.initial_position(), seconds=5, db=tmp_path / "none.db")
    assert choice.source != "strategy"
