"""Frontier proofs: jobs below the root, stored as they are proven, resumed, run anywhere.

The second road for every value here is solvers.retrograde, which enumerates the whole game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import solvers.frontier as frontier
from cgt.protocol import Outcome
from cgt.registry import load_game
from solvers.database import SolutionDatabase
from solvers.frontier import FrontierTree, build_tree, evaluate, relevant_jobs, solve_frontier
from solvers.kernel_table import S_NODES
from solvers.retrograde import retrograde
from solvers.split import solve_by_openings


def _database(tmp_path: Path, name: str = "jobs.sqlite") -> SolutionDatabase:
    return SolutionDatabase(tmp_path / name)


@pytest.mark.parametrize(
    ("name", "params", "depth"),
    [
        ("tictactoe", {}, 0),
        ("tictactoe", {}, 2),
        ("tictactoe", {}, 4),
        ("control", {"size": 2}, 1),
        ("control", {"size": 2}, 3),
        ("control", {"size": 2, "opening": "free"}, 2),
        ("nim", {"heaps": "1,2,3"}, 2),
    ],
)
def test_frontier_value_and_openings_equal_retrograde(
    tmp_path: Path, name: str, params: dict[str, Any], depth: int
) -> None:
    game = load_game(name, **params)
    solution = retrograde(game, game.initial_position())
    expected = solution.result(game.initial_position())
    status = solve_frontier(
        game, depth=depth, database=_database(tmp_path), backend="threading", solver="retrograde"
    )
    assert status.root == expected.outcome
    by_name = {m.name: m.outcome for m in expected.moves}
    for move, outcome in status.openings:
        if outcome is not None:  # a decided opening has retrograde's value
            assert outcome == by_name[move]


def _chain_tree() -> FrontierTree:
    """Root (0) with two moves to jobs 1 and 2; players alternate."""
    return FrontierTree(
        depth=1,
        keys=["r", "a", "b"],
        positions=["r", "a", "b"],
        levels=[0, 1, 1],
        children=[[(1, True), (2, True)], [], []],
        terminal=[None, None, None],
    )


def test_one_lost_child_decides_its_parent_and_the_other_job_is_no_longer_needed() -> None:
    tree = _chain_tree()
    value = evaluate(tree, {2: Outcome.LOSS})
    assert value[0] == Outcome.WIN
    assert relevant_jobs(tree, value) == []


def test_parent_is_lost_only_when_every_child_is_won() -> None:
    tree = _chain_tree()
    assert evaluate(tree, {1: Outcome.WIN})[0] is None
    assert relevant_jobs(tree, evaluate(tree, {1: Outcome.WIN})) == [2]
    assert evaluate(tree, {1: Outcome.WIN, 2: Outcome.WIN})[0] == Outcome.LOSS


def test_transposed_and_symmetric_positions_are_one_job() -> None:
    game = load_game("tictactoe")
    tree = build_tree(game, game.initial_position(), 2)
    # 3 openings and 12 replies up to symmetry (hand count: corner 5, edge 5, centre 2)
    assert sum(1 for level in tree.levels if level == 1) == 3
    assert len(tree.jobs) == 12
    assert len(build_tree(game, game.initial_position(), 2, symmetry=False).jobs) == 72


class _Interrupt(Exception):
    pass


def test_an_interrupted_run_resumes_without_solving_a_proven_job_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_game("tictactoe")
    database = _database(tmp_path)
    solved: list[Any] = []
    real = frontier.solve_job

    def counting(*args: Any) -> Any:
        solved.append(game.key(args[1]))
        return real(*args)

    monkeypatch.setattr(frontier, "solve_job", counting)

    def stop_after_three(info: dict[str, Any]) -> None:
        if info.get("this_run") == 3:  # the tree is reported first
            raise _Interrupt

    with pytest.raises(_Interrupt):
        solve_frontier(
            game,
            depth=3,
            database=database,
            backend="threading",
            solver="retrograde",
            progress=stop_after_three,
        )
    first_run = list(solved)
    assert len(first_run) == 3
    middle = solve_frontier(game, depth=3, database=database, run=False)
    assert middle.proven == 3 and middle.run_jobs == 0
    solved.clear()
    status = solve_frontier(
        game, depth=3, database=database, backend="threading", solver="retrograde"
    )
    assert not set(first_run) & set(solved)  # nothing proven before was solved again
    assert status.root == Outcome.DRAW
    assert status.proven >= 3


def test_a_job_out_of_budget_is_open_and_retried_only_with_a_larger_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_game("control", size=2)
    database = _database(tmp_path)
    budgets: list[float | None] = []
    real = frontier.solve_job

    def out_of_time(game: Any, position: Any, solver: str, tt: Any, budget: Any, *_: Any) -> Any:
        budgets.append(budget)
        return None, 10, 0.5

    monkeypatch.setattr(frontier, "solve_job", out_of_time)
    first = solve_frontier(game, depth=2, database=database, backend="threading", job_seconds=1)
    assert first.open == first.jobs and first.proven == 0 and first.root is None
    budgets.clear()
    again = solve_frontier(game, depth=2, database=database, backend="threading", job_seconds=1)
    assert budgets == [] and again.open == first.jobs  # the same budget skips open jobs
    monkeypatch.setattr(frontier, "solve_job", real)
    larger = solve_frontier(game, depth=2, database=database, backend="threading", job_seconds=60)
    assert larger.root == Outcome.WIN and larger.open == 0  # control size 2: first player wins


def test_a_dask_cluster_of_two_workers_gives_the_answer_of_one(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    game = load_game("tictactoe")
    expected = retrograde(game, game.initial_position()).result(game.initial_position())
    answers = []
    for workers in (1, 2):
        with (
            distributed.LocalCluster(
                n_workers=workers,
                # two slots in all, else joblib runs the jobs in-process, bypassing dask
                threads_per_worker=2 // workers,
                processes=True,
                dashboard_address=None,
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            with distributed.get_task_stream(client) as tasks:
                status = solve_frontier(
                    game,
                    depth=2,
                    database=_database(tmp_path, f"dask-{workers}.sqlite"),
                    jobs=2,  # joblib runs n_jobs=1 in-process, whatever the backend
                    backend="dask",
                    solver="retrograde",
                )
            workers_known = set(client.scheduler_info()["workers"])
            # ``cgt solve --jobs N --backend dask`` goes through the same joblib road
            split = solve_by_openings(
                game, jobs=2, backend="dask", database=_database(tmp_path, f"split-{workers}.db")
            )
            assert split.outcome == expected.outcome
            ran_on = {task["worker"] for task in tasks.data}
        assert status.run_jobs > 0
        assert ran_on and ran_on <= workers_known, (ran_on, workers_known)
        answers.append((status.root, status.openings, status.proven))
    assert answers[0] == answers[1]
    assert answers[0][0] == expected.outcome


def test_proof_numbers_follow_a_hand_computation() -> None:
    # root -> a, b (jobs). With a reply-count initialisation (proof 1, disproof = replies):
    # a has 1 reply, b has 3. pn(root) = min(dn(a), dn(b)) = 1, dn(root) = pn(a) + pn(b) = 2,
    # and the most-proving job is a, the cheaper one to refute.
    tree = _chain_tree()
    replies = {1: 1, 2: 3}
    value = evaluate(tree, {})
    proof, disproof = frontier.proof_numbers(tree, value, lambda n: (1, replies[n]), set())
    assert (proof[0], disproof[0]) == (1, 2)
    assert frontier.most_proving_job(tree, value, proof, disproof) == 1
    # with a excluded (handed to a worker), b is the job that can still move the root
    proof, disproof = frontier.proof_numbers(tree, value, lambda n: (1, replies[n]), {1})
    assert frontier.most_proving_job(tree, value, proof, disproof) == 2
    proof, disproof = frontier.proof_numbers(tree, value, lambda n: (1, replies[n]), {1, 2})
    assert frontier.most_proving_job(tree, value, proof, disproof) is None


def _budget_by_stones(stones_needed: int) -> Any:
    """A job solver that runs out of budget on positions with fewer than ``stones_needed``
    marks and solves the others with the retrograde solver."""
    real = frontier.solve_job

    def solver(game: Any, position: Any, solver: str, tt: Any, budget: Any, *_: Any) -> Any:
        if bin(position[0] | position[1]).count("1") < stones_needed:
            return None, 7, 0.01
        return real(game, position, "retrograde", tt, budget)

    return solver


def test_split_jobs_prove_the_root_with_retrograde_s_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_game("tictactoe")
    expected = retrograde(game, game.initial_position()).result(game.initial_position())
    monkeypatch.setattr(frontier, "solve_job", _budget_by_stones(4))
    database = _database(tmp_path)
    status = solve_frontier(
        game, depth=1, database=database, backend="threading", job_seconds=1, split=True
    )
    assert status.root == expected.outcome == Outcome.DRAW
    assert status.split > 0 and status.open == 0
    # without splitting the same budget leaves every job open and the root undecided
    plain = solve_frontier(
        game,
        depth=1,
        database=_database(tmp_path, "plain.sqlite"),
        backend="threading",
        job_seconds=1,
    )
    assert plain.root is None and plain.open == plain.jobs


def test_an_interrupted_split_run_resumes_with_its_splits_and_proofs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_game("tictactoe")
    database = _database(tmp_path)
    limited = _budget_by_stones(4)
    calls: list[Any] = []

    def counting(*args: Any) -> Any:
        calls.append(game.canonical_key(args[1]))
        return limited(*args)

    monkeypatch.setattr(frontier, "solve_job", counting)

    def stop_after(info: dict[str, Any]) -> None:
        if info.get("this_run") == 40:
            raise _Interrupt

    with pytest.raises(_Interrupt):
        solve_frontier(
            game,
            depth=1,
            database=database,
            backend="threading",
            job_seconds=1,
            split=True,
            progress=stop_after,
        )
    first_run = list(calls)
    middle = solve_frontier(game, depth=1, database=database, job_seconds=1, split=True, run=False)
    assert middle.split > 0 and middle.proven > 0
    calls.clear()
    status = solve_frontier(
        game, depth=1, database=database, backend="threading", job_seconds=1, split=True
    )
    assert not set(first_run) & set(calls)  # nothing tried before (proven or split) ran again
    assert status.root == Outcome.DRAW


def test_splitting_needs_a_job_budget(tmp_path: Path) -> None:
    from cgt.errors import ParameterError

    with pytest.raises(ParameterError, match="job budget"):
        solve_frontier(load_game("tictactoe"), depth=1, database=_database(tmp_path), split=True)


def test_untried_jobs_above_the_deepest_split_look_as_costly_as_their_subtrees() -> None:
    # 16 replies: below every split a job is (1, 16); one level above the deepest split it
    # stands for a split job two plies deep, sqrt(16) = 4 per ply: (16, 256) by hand.
    assert frontier.job_estimate(16, 4, 3) == (1, 16)
    assert frontier.job_estimate(16, 3, 3) == (4, 64)
    assert frontier.job_estimate(16, 2, 3) == (16, 256)
    assert frontier.job_estimate(16, 2, -1) == (1, 16)  # nothing split yet


def test_large_estimates_never_pass_for_infinity() -> None:
    # Many costly jobs under one node once summed past the old infinity (10**15), so every
    # job looked excluded and a run stopped with the root undecided.
    size = 41
    tree = FrontierTree(
        depth=1,
        keys=list(range(size)),
        positions=list(range(size)),
        levels=[0] + [1] * (size - 1),
        children=[[(i, True) for i in range(1, size)]] + [[] for _ in range(size - 1)],
        terminal=[None] * size,
    )
    value = evaluate(tree, {})
    proof, disproof = frontier.proof_numbers(tree, value, lambda n: (10**14, 10**14), set())
    assert disproof[0] == 40 * 10**14 < frontier.PN_INFINITY
    assert frontier.most_proving_job(tree, value, proof, disproof) == 1
    estimate = frontier.job_estimate(30, 1, 60)
    assert 40 * estimate[1] < frontier.PN_INFINITY


@pytest.mark.parametrize(
    ("name", "params"), [("control", {"size": 2}), ("super-nonnect", {"a": 2, "b": 2})]
)
def test_df_pn_jobs_give_retrograde_s_value(
    tmp_path: Path, name: str, params: dict[str, Any]
) -> None:
    game = load_game(name, **params)
    expected = retrograde(game, game.initial_position()).result(game.initial_position())
    status = solve_frontier(
        game,
        depth=2,
        database=_database(tmp_path),
        backend="threading",
        solver="compiled",
        method="dfpn",
    )
    assert status.root == expected.outcome


def test_df_pn_jobs_need_the_compiled_kernel(tmp_path: Path) -> None:
    from cgt.errors import ParameterError

    with pytest.raises(ParameterError, match="compiled"):
        solve_frontier(
            load_game("control", size=2), depth=1, database=_database(tmp_path), method="dfpn"
        )


@pytest.mark.parametrize(
    ("name", "params", "method"),
    [
        ("control", {"size": 2}, "alphabeta"),
        ("control", {"size": 2, "control": "sight"}, "alphabeta"),
        ("control", {"size": 2}, "dfpn"),
        ("lag", {"size": 3, "setup": "B.B/..../...../.W../W.W W"}, "dfpn"),
        ("super-nonnect", {"a": 2, "b": 2, "rule": "revised"}, "alphabeta"),
    ],
)
def test_jobs_sharing_one_kernel_keep_retrograde_values(
    name: str, params: dict[str, Any], method: str
) -> None:
    # one kernel, and its table, across many jobs of one game: every job's value is still
    # retrograde's, whatever the earlier jobs left in the table
    game = load_game(name, **params)
    solution = retrograde(game, symmetry=False, keep_positions=True)
    frontier._job_kernel.clear()
    kernel = None
    step = max(1, len(solution) // 150)
    for node in range(0, len(solution), step):
        position = solution.position_of(node)
        if game.result(position) is not None:
            continue
        code, _, _ = frontier.solve_job(game, position, "compiled", 1 << 12, None, method)
        assert code == int(solution.outcome(position)), game.render(position)
        kept = frontier._job_kernel[0][1]
        assert kernel is None or kept is kernel  # the same kernel job after job
        kernel = kept
    # a job that runs out counts its own nodes, not the kept kernel's since it was made
    hard = load_game("control", size=4)
    for _ in range(2):
        code, nodes, _ = frontier.solve_job(hard, hard.initial_position(), "compiled", 1 << 12, 0.2)
    assert code is None and 0 < nodes < frontier._job_kernel[0][1].stat(S_NODES)
    other = load_game("control", size=3)
    frontier.solve_job(other, other.initial_position(), "compiled", 1 << 12, None)
    assert frontier._job_kernel[0][1] is not kernel and len(frontier._job_kernel) == 1
    frontier._job_kernel.clear()


def test_a_ledger_carries_proven_jobs_to_a_fresh_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The open boards keep their jobs in a ledger file beside the reports, since a machine's
    database does not outlive the machine: a fresh database that takes the ledger resumes
    without solving a proven job again."""
    game = load_game("tictactoe")
    first_db = _database(tmp_path, "first.sqlite")

    def stop_after_four(info: dict[str, Any]) -> None:
        if info.get("this_run") == 4:  # the tree is reported first
            raise _Interrupt

    with pytest.raises(_Interrupt):
        solve_frontier(
            game, depth=3, database=first_db, backend="threading", solver="retrograde",
            progress=stop_after_four,
        )  # fmt: skip
    rows = frontier.JobStore(first_db, game).ledger()
    assert sum(row["outcome"] is not None for row in rows) == 4

    fresh = _database(tmp_path, "fresh.sqlite")
    store = frontier.JobStore(fresh, game)
    assert store.take_ledger(rows) == len(rows)
    assert store.take_ledger(rows) == 0  # a row with no more work than the database's is skipped
    assert store.ledger() == rows
    solved: list[Any] = []
    real = frontier.solve_job

    def counting(*args: Any) -> Any:
        solved.append(frontier.key_text(game.canonical_key(args[1])))
        return real(*args)

    monkeypatch.setattr(frontier, "solve_job", counting)
    status = solve_frontier(game, depth=3, database=fresh, backend="threading", solver="retrograde")
    proven_before = {row["key"] for row in rows if row["outcome"] is not None}
    assert solved and set(solved) <= {row["key"] for row in store.ledger()}  # same key text
    assert not proven_before & set(solved)
    assert status.root == Outcome.DRAW  # retrograde's value of tic-tac-toe


def test_a_board_whose_jobs_were_lost_says_so_with_the_earlier_numbers() -> None:
    """The Control size-4 page quotes the earlier runs' stored status (the jobs proven before
    the ledger, lost with their database) beside the frontier that starts again."""
    import json

    from cgtapp.report.data import history_summary

    root = Path(__file__).resolve().parent.parent / "reports"
    record = json.loads((root / "data/frontier/control-4-history.json").read_text())
    sentence = history_summary(record)
    earlier = record["earlier_status"]
    assert f"{earlier['proven']:,} of {earlier['jobs']:,} jobs" in sentence
    assert record["earlier_run"]["commit"] in sentence
    assert sentence in (root / "control.md").read_text()
    ledger = root / "data/frontier/control-4-jobs.jsonl.gz"
    assert ledger.exists()


def test_runs_quote_their_rate_and_the_load_they_recorded() -> None:
    from cgtapp.report.data import runs_summary

    run = {"search": "s", "dates": "d", "commit": "c", "proven": 3, "job_seconds": 1800.0}
    record = {
        "about": "a",
        "searches": [{**run, "nodes": 9e9}, {**run, "nodes": 0, "load_average": [4.5, 6.25]}],
    }
    first, second = runs_summary(record).split("; ")
    assert "3 jobs proven in 1,800 s of job time, 6 an hour, 5.0 M nodes a second" in first
    assert "load" not in first
    assert "(s, commit c, load average 4.5-6.25)" in second
