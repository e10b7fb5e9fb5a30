"""Strategy files (solvers/strategy.py, proofs/strategy_check.py): written for a win, checked
from the readable rules, and every kind of broken file refuted or refused.

Independent sources: Nim's winning moves are the ones to nim-sum 0 (Bouton, by hand for
3,4,5: only 3->1); Control size 2's winner is the retrograde solver's (a second road to the
kernel's extraction)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from cgt.errors import CGTError
from cgt.protocol import Outcome
from cgt.registry import load_game
from proofs.strategy_check import check_strategy
from solvers.retrograde import retrograde
from solvers.strategy import (
    StrategyFile,
    StrategyFileError,
    read_strategy,
    write_strategy,
    write_strategy_file,
)
from tests.cli_runner import run


def nim_sum(heaps: tuple[int, ...]) -> int:
    total = 0
    for heap in heaps:
        total ^= heap
    return total


@pytest.fixture(scope="module")
def nim_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = load_game("nim", heaps="3,4,5")
    path = tmp_path_factory.mktemp("strategies") / "nim.jsonl.gz"
    write_strategy(game, game.initial_position(), path, command="test", commit="test")
    return path


@pytest.fixture(scope="module")
def control_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = load_game("control", size=2)
    path = tmp_path_factory.mktemp("strategies") / "control.jsonl.gz"
    write_strategy(
        game, game.initial_position(), path, command="test", commit="test", tt_entries=1 << 12
    )
    return path


@pytest.fixture(scope="module")
def sight_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = load_game("control", size=2, control="sight")
    path = tmp_path_factory.mktemp("strategies") / "sight.jsonl.gz"
    write_strategy(game, game.initial_position(), path, command="test", commit="test")
    return path


def rewrite(source: Path, target: Path, edit: object) -> Path:
    """A copy of ``source`` whose entries went through ``edit(entries) -> entries``."""
    header, entries = read_strategy(source)
    write_strategy_file(target, header, edit(list(entries)))  # type: ignore[operator]
    return target


def test_nim_strategy_plays_to_nim_sum_zero_and_is_verified(nim_file: Path) -> None:
    strategy = StrategyFile(nim_file)
    game = strategy.game
    root = game.initial_position()
    assert strategy.header.winner == "first"
    assert game.move_name(root, strategy.move_for(root)) == "3->1"
    for text, (move, _) in strategy.table.items():
        position = game.parse(text)
        after = game.play(position, game.parse_move(position, move))
        assert nim_sum(after.heaps if hasattr(after, "heaps") else after[0]) == 0
    verdict = check_strategy(nim_file)
    assert verdict.verified, verdict.summary()
    assert verdict.entries == len(strategy)


def test_control_size_2_strategy_from_the_kernel_matches_retrograde(control_file: Path) -> None:
    game = load_game("control", size=2)
    solution = retrograde(game, game.initial_position())
    expected = "first" if solution.outcome(game.initial_position()) == Outcome.WIN else "second"
    header, _ = read_strategy(control_file)
    assert header.winner == expected
    verdict = check_strategy(control_file)
    assert verdict.verified, verdict.summary()


def test_a_removed_entry_is_refuted_with_the_line_that_reaches_it(
    control_file: Path, tmp_path: Path
) -> None:
    header, entries = read_strategy(control_file)
    root_entry = next(e for e in entries if e[0] == header.root)
    broken = rewrite(control_file, tmp_path / "b.gz", lambda es: [e for e in es if e != root_entry])
    verdict = check_strategy(broken)
    assert not verdict.verified and "no entry" in (verdict.failure or "")
    assert verdict.line == ()  # the root itself
    deeper = rewrite(
        control_file, tmp_path / "c.gz", lambda es: [e for e in es if e[0] != es[-1][0]]
    )
    verdict = check_strategy(deeper)
    assert "no entry" in (verdict.failure or "") and len(verdict.line) >= 2


def test_an_illegal_move_is_refuted(control_file: Path, tmp_path: Path) -> None:
    broken = rewrite(control_file, tmp_path / "b.gz", lambda es: [(p, "z9", r) for p, _, r in es])
    verdict = check_strategy(broken)
    assert not verdict.verified and "not a legal move" in (verdict.failure or "")


def test_a_wrong_winner_is_refuted(control_file: Path, tmp_path: Path) -> None:
    header, entries = read_strategy(control_file)
    header.winner = "second" if header.winner == "first" else "first"
    write_strategy_file(tmp_path / "b.gz", header, list(entries))
    assert not check_strategy(tmp_path / "b.gz").verified


def test_a_losing_move_swapped_in_is_refuted(nim_file: Path, tmp_path: Path) -> None:
    def swap(entries: list[tuple[str, str, int | None]]) -> list[tuple[str, str, int | None]]:
        return [(p, "5->0" if p == "3,4,5" else m, r) for p, m, r in entries]

    verdict = check_strategy(rewrite(nim_file, tmp_path / "b.gz", swap))
    assert not verdict.verified
    assert verdict.line[0] == "5->0"


def test_a_rank_that_does_not_decrease_is_refuted(sight_file: Path, tmp_path: Path) -> None:
    header, _ = read_strategy(sight_file)
    assert header.ranked  # positions of Control under sight can repeat
    broken = rewrite(sight_file, tmp_path / "b.gz", lambda es: [(p, m, 7) for p, m, _ in es])
    verdict = check_strategy(broken)
    assert "rank" in (verdict.failure or "")
    assert check_strategy(sight_file).verified


def test_a_cyclic_game_without_ranks_is_refused(sight_file: Path, tmp_path: Path) -> None:
    header, entries = read_strategy(sight_file)
    unranked = [(p, m, None) for p, m, _ in entries]
    header.ranked = False
    write_strategy_file(tmp_path / "b.gz", header, unranked)
    with pytest.raises(StrategyFileError, match="need ranks"):
        check_strategy(tmp_path / "b.gz")


def _gzip_lines(path: Path, lines: list[str]) -> Path:
    with gzip.open(path, "wt") as stream:
        stream.write("".join(line + "\n" for line in lines))
    return path


def test_damaged_truncated_and_foreign_files_are_refused(
    control_file: Path, tmp_path: Path
) -> None:
    data = control_file.read_bytes()
    (tmp_path / "cut.gz").write_bytes(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    (tmp_path / "flipped.gz").write_bytes(bytes(flipped))
    (tmp_path / "text.gz").write_text("hello\n")
    text = gzip.decompress(data).decode().splitlines()
    _gzip_lines(tmp_path / "short.gz", text[:-1])  # one entry less than the header says
    _gzip_lines(tmp_path / "foreign.gz", [json.dumps({"format": "other/1"})])
    _gzip_lines(tmp_path / "garbage.gz", [text[0], "[1, 2"])
    for name, message in [
        ("cut.gz", "truncated"),
        ("flipped.gz", "damaged"),
        ("text.gz", "damaged"),
        ("short.gz", "header says"),
        ("foreign.gz", "not a strategy file"),
        ("garbage.gz", "not JSON"),
        ("missing.gz", "no such file"),
    ]:
        with pytest.raises(StrategyFileError, match=message):
            check_strategy(tmp_path / name)


def test_cli_check_verdicts_and_exit_statuses(
    capsys: pytest.CaptureFixture[str], control_file: Path, tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "check", "--strategy", str(control_file))
    assert code == 0 and out.startswith("verified:") and out.count("\n") == 1
    broken = rewrite(control_file, tmp_path / "b.gz", lambda es: es[1:])
    code, out, _ = run(capsys, "check", "--strategy", str(broken))
    assert code == 1 and out.startswith("refuted:") and "line:" in out
    (tmp_path / "cut.gz").write_bytes(control_file.read_bytes()[:100])
    code, out, err = run(capsys, "check", "--strategy", str(tmp_path / "cut.gz"))
    assert code == 2 and out == "" and err.startswith("cgt: error:") and err.count("\n") == 1


def test_cli_solve_writes_a_strategy_and_refuses_a_draw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "nim.gz"
    code, out, _ = run(capsys, "solve", "nim", "-p", "heaps=1,2", "--strategy", str(path))
    assert code == 0 and "first player" in out
    assert check_strategy(path).verified
    code, _, err = run(capsys, "solve", "tictactoe", "--strategy", str(tmp_path / "t.gz"))
    assert code == 2 and "draw" in err


def test_move_for_answers_only_where_the_winner_is_to_move(control_file: Path) -> None:
    strategy = StrategyFile(control_file)
    game = strategy.game
    root = game.initial_position()
    move = strategy.move_for(root)
    assert move in game.moves(root)
    assert strategy.move_for(game.play(root, move)) is None  # the loser to move
    with pytest.raises(CGTError):
        StrategyFile(control_file.parent / "absent.gz")


def test_frontier_jobs_write_strategies_that_verify(tmp_path: Path) -> None:
    from solvers.database import SolutionDatabase
    from solvers.frontier import solve_frontier

    game = load_game("control", size=2)
    database = SolutionDatabase(tmp_path / "db.sqlite")
    status = solve_frontier(
        game, depth=2, database=database, solver="compiled", strategy_dir=tmp_path
    )
    database.close()
    files = sorted(tmp_path.glob("*.jsonl.gz"))
    assert files and len(files) <= status.as_dict()["won"] + status.as_dict()["lost"]
    for path in files:
        assert check_strategy(path).verified


def test_the_explorer_plays_through_the_proof(control_file: Path, sight_file: Path) -> None:
    from cgtapp.explorer.values import StrategyValueSource

    game = load_game("control", size=2)
    solution = retrograde(game, game.initial_position())
    source = StrategyValueSource(game, StrategyFile(control_file), max_seconds=1.0)
    position = game.initial_position()
    for _ in range(3):  # the winner's move, then a loser's position with every reply
        found = source.values(position)
        assert found.source == "strategy"
        assert found.outcome == solution.outcome(position)
        if found.outcome == Outcome.LOSS:
            assert len(found.moves) == len(game.moves(position))
        position = game.play(position, found.moves[0].move)
    with pytest.raises(CGTError, match="is for"):
        StrategyValueSource(game, StrategyFile(sight_file))


def test_a_claim_cites_a_strategy_as_verified_only_when_it_checks(
    control_file: Path, tmp_path: Path
) -> None:
    from proofs.strategy_check import cite_strategy

    good = cite_strategy(control_file.name.removesuffix(".jsonl.gz"), control_file.parent)
    assert good["verified"] and good["winner_name"] == "White" and len(good["sha256"]) == 64
    rewrite(control_file, tmp_path / "broken.jsonl.gz", lambda es: es[1:])
    assert not cite_strategy("broken", tmp_path)["verified"]
    assert cite_strategy("absent", tmp_path)["verdict"].startswith("not checked")


def test_an_interrupted_extraction_resumes_from_its_partial_file(tmp_path: Path) -> None:
    game = load_game("nim", heaps="2,3,4")
    first = tmp_path / "first.gz"
    write_strategy(game, game.initial_position(), first, command="test", commit="test")
    _, entries = read_strategy(first)
    stored = sorted(entries)[:3]
    # what a stopped run leaves: the root line, then some entries (the last one torn)
    partial = tmp_path / "again.gz.partial"
    lines = [json.dumps({"root": game.render(game.initial_position())})]
    lines += [json.dumps(list(entry)) for entry in stored]
    partial.write_text("\n".join(lines) + '\n["torn')
    written = write_strategy(
        game, game.initial_position(), tmp_path / "again.gz", command="test", commit="test"
    )
    assert not partial.exists() and written["positions"] > len(stored)
    # a partial file cut in the middle of a line reads its whole lines and drops the rest
    from solvers.strategy import _read_partial

    partial.write_text("\n".join(lines) + '\n["torn')
    assert len(_read_partial(partial, game.render(game.initial_position()))) == len(stored)
    assert partial.read_text().endswith("\n") and "torn" not in partial.read_text()
    assert set(stored) <= set(read_strategy(tmp_path / "again.gz")[1])
    assert check_strategy(tmp_path / "again.gz").verified
    partial.write_text(json.dumps({"root": "9,9"}) + "\n")
    with pytest.raises(CGTError, match="another root"):
        write_strategy(game, game.initial_position(), tmp_path / "again.gz", command="t")


def test_a_repeating_game_extracted_by_its_kernel_is_ranked_and_verifies(
    sight_file: Path, tmp_path: Path
) -> None:
    game = load_game("control", size=2, control="sight")
    path = tmp_path / "kernel.gz"
    written = write_strategy(
        game, game.initial_position(), path, command="t", commit="t", solver="compiled"
    )
    assert written["ranked"] and "ranked by height" in written["source"]
    assert written["winner"] == read_strategy(sight_file)[0].winner  # retrograde's
    assert check_strategy(path).verified


def test_ranking_replaces_a_move_that_goes_round_a_cycle() -> None:
    from solvers.strategy import rank_by_height
    from tests.toy_games import GraphGame

    class NamedGraph(GraphGame):
        def parse(self, text: str) -> str:
            return text

    def graph(moves_of_p: list[tuple[str, str]]) -> NamedGraph:
        # P (the winner, player 0): "loop" lets the loser send play back to P, "win" ends
        # the game with the loser to move and no move left
        return NamedGraph(
            edges={"P": moves_of_p, "L1": [("back", "P")]},
            root="P",
            to_move={"L1": 1, "L2": 1},
        )

    both = graph([("loop", "L1"), ("win", "L2")])
    assert rank_by_height(both, [("P", "loop", None)], winner=0) == [("P", "win", 0)]
    with pytest.raises(CGTError, match="round a cycle"):
        rank_by_height(graph([("loop", "L1")]), [("P", "loop", None)], winner=0)
    # P2 is ranked through P's repair; Q waits for P2 and for U, which only loops: Q stays
    # unranked (each position is counted once, however it got its rank)
    tangled = graph([("loop", "L1"), ("win", "L2")])
    tangled.edges.update(
        {
            "P2": [("go", "L3")],
            "L3": [("to-p", "P")],
            "Q": [("split", "L4")],
            "L4": [("to-p2", "P2"), ("to-u", "U")],
            "U": [("loop", "L5")],
            "L5": [("back", "U")],
        }
    )
    tangled.players_to_move.update({"L3": 1, "L4": 1, "L5": 1})
    entries = [("P", "loop", None), ("P2", "go", None), ("Q", "split", None), ("U", "loop", None)]
    with pytest.raises(CGTError, match="2 positions unranked"):
        rank_by_height(tangled, entries, winner=0)
