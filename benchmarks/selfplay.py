"""Self-play on the designers' boards, its calibration on the solved boards, and the playout
speed: the stored data behind the reports' "estimated" sections and benchmarks/SELFPLAY.md.

    python benchmarks/selfplay.py calibrate [BOARD ...]   # solved boards: move accuracy, trend
    python benchmarks/selfplay.py calibrate entropy-5x5 --db FILE  # values from the stored
                                                    # solution (cgt solve entropy --save --db FILE)
    python benchmarks/selfplay.py balance [BOARD ...]     # designers' boards: self-play
    python benchmarks/selfplay.py pie [SIZE ...]          # Interleave's pie setups (3, 4)
    python benchmarks/selfplay.py speed                   # playouts/s per core, kernel nodes/s
    python benchmarks/selfplay.py --markdown              # benchmarks/SELFPLAY.md from the JSON

Everything is stored as it is computed under reports/data/selfplay/ (games as JSON lines,
positions of the move-accuracy sample one by one), so a stopped run resumes; each summary
JSON carries its command, date and commit. Run it under ``nice``: it is long.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from baseline_trees import provenance  # noqa: E402

from cgt.errors import CGTError  # noqa: E402
from cgt.protocol import Outcome  # noqa: E402
from cgt.registry import load_game  # noqa: E402
from proofs.interleave import WinnerSolver, board_string, random_setup  # noqa: E402
from solvers.api import solve  # noqa: E402
from solvers.calibration import (  # noqa: E402
    ExactAnswer,
    accuracy_by_value,
    judge_moves,
    random_position,
    sample_by_value,
    solved_answer,
    stored_answer,
    stored_provenance,
    trend_says,
)
from solvers.kernels import plugin_of  # noqa: E402
from solvers.player import playout_rules  # noqa: E402
from solvers.playout import compiled_search, seed_state  # noqa: E402
from solvers.selfplay import (  # noqa: E402
    GameStore,
    RecordStore,
    balance,
    game_seed,
    majority,
    pick_summary,
    stored_levels,
    wilson,
    winners_of,
)

DATA = ROOT / "reports" / "data" / "selfplay"
PAGE = ROOT / "benchmarks" / "SELFPLAY.md"

#: Boards with an exact answer: name -> (game, parameters). The budgets double.
SOLVED = {
    "control-2": ("control", {"size": 2}),
    "control-3": ("control", {"size": 3}),
    "control-3-free": ("control", {"size": 3, "opening": "free"}),
    "lag-3": ("lag", {"size": 3}),
    "lag-3-strict": ("lag", {"size": 3, "goal": "strict"}),
    "lag-3-far-row": ("lag", {"size": 3, "goal": "far-row"}),
    "lag-3-far-row-one-object": ("lag", {"size": 3, "goal": "far-row-one-object"}),
    "interleave-2": ("interleave", {"size": 2}),
    "interleave-3": ("interleave", {"size": 3}),
    "super-nonnect-2x3": ("super-nonnect", {"a": 2, "b": 3}),
    "super-nonnect-hex7": ("super-nonnect", {"shape": "hex7"}),
    "super-nonnect-3x3-revised": ("super-nonnect", {"rule": "revised"}),
    "entropy-5x5": ("entropy", {}),
}
#: Solved boards whose exact values are read from their stored solution (``--db``): solving
#: them again takes an hour (``cgt solve entropy --solver compiled --save``).
FROM_STORE = {"entropy-5x5"}
#: The designers' boards (nobody has solved them).
DESIGNERS = {
    "control-4": ("control", {"size": 4}),
    "control-5": ("control", {"size": 5}),
    "control-5-free": ("control", {"size": 5, "opening": "free"}),
    "control-7": ("control", {"size": 7}),
    "lag-4": ("lag", {"size": 4}),
    "lag-4-strict": ("lag", {"size": 4, "goal": "strict"}),
    "lag-4-far-row": ("lag", {"size": 4, "goal": "far-row"}),
    "lag-4-far-row-one-object": ("lag", {"size": 4, "goal": "far-row-one-object"}),
    "lag-5": ("lag", {"size": 5}),
    "interleave-4": ("interleave", {"size": 4}),
    "interleave-4-groups": ("interleave", {"size": 4, "win": "groups"}),
    "interleave-5": ("interleave", {"size": 5}),
    "super-nonnect-3x3": ("super-nonnect", {}),
    # the largest rectangle the compiled kernel takes (100 of its 128 cells; 3x4 has 144)
    "super-nonnect-2x5": ("super-nonnect", {"a": 2, "b": 5}),
    "super-nonnect-2x5-revised": ("super-nonnect", {"a": 2, "b": 5, "rule": "revised"}),
    "entropy-7x7": ("entropy", {"width": 7, "height": 7}),
}
#: Strengths (playouts a move) of the self-play runs, and games per strength.
SELFPLAY_BUDGETS = [100, 400, 1600]
SELFPLAY_GAMES = 24
#: Fewer games where a game costs most (boards of 100+ plies).
GAMES_BY_BOARD = {"control-7": 8, "entropy-7x7": 8, "super-nonnect-2x5": 96,
                  "super-nonnect-2x5-revised": 96}  # fmt: skip
BUDGETS_BY_BOARD = {"control-7": [100, 400], "entropy-7x7": [100, 400],
                    "super-nonnect-2x5": [100, 400, 1600, 6400],
                    "super-nonnect-2x5-revised": [100, 400, 1600, 6400]}  # fmt: skip
#: Budgets of the move-accuracy measurement, and positions sampled per board.
ACCURACY_BUDGETS = [100, 400, 1600, 6400]
ACCURACY_POSITIONS = 40
#: Exact solve of a sampled position: seconds before it is skipped (and counted).
SOLVE_SECONDS = 4.0
#: Boards read from a stored solution are sampled by value: random positions are drawn until
#: this many won and this many drawn positions where some move gives the value away have been
#: judged (lost positions are counted: every move keeps a loss), or the draws run out.
VALUE_QUOTA = 40
MAX_DRAWN = 20_000
#: The solution database of the FROM_STORE boards (``--db``; None: $CGT_DB or the user cache).
DATABASE: Path | None = None


def board_game(name: str) -> Any:
    game_name, params = {**SOLVED, **DESIGNERS}[name]
    return load_game(game_name, **params)


_HEADS: dict[str, dict[str, Any]] = {}


def head(command: str) -> dict[str, Any]:
    """Command, date, commit and machine, taken once per run (the commit of the code that
    runs, even if the work tree moves on while it runs)."""
    if command not in _HEADS:
        _HEADS[command] = provenance(command)
    return _HEADS[command]


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def _progress(label: str) -> Any:
    def report(info: dict[str, Any]) -> None:
        print(f"{label}: {info}", file=sys.stderr, flush=True)

    return report


# ------------------------------------------------------------------------ self-play
def run_selfplay(
    name: str, command: str, seed: int = 0, play: bool = True
) -> dict[str, Any] | None:
    """Self-play at the doubling budgets on board ``name``; summary JSON beside the games.
    ``play=False``: summarise the games stored so far (a run stopped part way), play none."""
    game = board_game(name)
    position = game.initial_position()
    budgets = BUDGETS_BY_BOARD.get(name, SELFPLAY_BUDGETS)
    games = GAMES_BY_BOARD.get(name, SELFPLAY_GAMES)
    store = DATA / "games" / f"{name}.jsonl"
    started = time.process_time()
    if not play:
        if not store.exists():
            return None
        levels = stored_levels(game, position, store, budgets, games, seed)
    else:
        levels = balance(
            game,
            position,
            games=games,
            budgets=budgets,
            store=store,
            seed=seed,
            progress=_progress(name),
        )
    data = {
        **head(command),
        "board": name,
        "game": game.name,
        "params": game.parameters,
        "first_player": game.players[game.to_move(position)],
        "players": list(game.players),
        "levels": [level.as_dict() for level in levels],
        "games_planned": games,
        "budgets_planned": budgets,
        "cpu_seconds_this_run": round(time.process_time() - started, 1),
    }
    _write(DATA / f"selfplay-{name}.json", data)
    return data


# ---------------------------------------------------------------------- calibration
def exact_method(game: Any) -> str:
    """df-pn where the kernel has it (it proved Super Nonnect 3x3 revised in 50 s, where
    alpha-beta ran 600 s without an answer), else alpha-beta."""
    plugin = plugin_of(game)
    with_dfpn = plugin is not None and "dfpn" in plugin.methods
    return "dfpn" if with_dfpn and game.acyclic else "alphabeta"


def exact_answer(name: str, game: Any, position: Any) -> ExactAnswer:
    """The exact value of ``position`` and its moves: read from the stored solution on a
    FROM_STORE board, else solved within SOLVE_SECONDS (a CGTError when that runs out)."""
    if name in FROM_STORE:
        return stored_answer(game, position, DATABASE)
    return solved_answer(game, position, method=exact_method(game), max_seconds=SOLVE_SECONDS)


def run_accuracy_by_value(name: str, seed: int = 0) -> dict[str, Any]:
    """Move accuracy on a board read from its stored solution, sampled by value
    (:func:`solvers.calibration.sample_by_value`): VALUE_QUOTA won and VALUE_QUOTA drawn
    positions where some move gives the value away, judged at every budget."""
    game = board_game(name)
    max_depth = max(4, int(0.8 * _typical_length(game, playout_rules(game))))
    records = sample_by_value(
        game,
        lambda position: exact_answer(name, game, position),
        DATA / "calibration" / f"{name}-positions.jsonl",
        max_depth=max_depth,
        budgets=ACCURACY_BUDGETS,
        quota=VALUE_QUOTA,
        max_drawn=MAX_DRAWN,
        seed=seed,
        progress=_progress(name),
    )
    summary = _accuracy_summary([r for r in records if "chosen" in r], max_depth)
    summary["positions"] = len(records)
    summary["values"] = {
        v: sum(1 for r in records if r["value"] == v) for v in ("win", "loss", "draw")
    }
    summary["by_value"] = accuracy_by_value(records, ACCURACY_BUDGETS, max_depth)
    summary["exact_source"] = "stored solution"
    return summary


def run_accuracy(name: str, command: str, seed: int = 0) -> dict[str, Any]:
    """Move accuracy on a solved board: positions from random play (depth uniform up to the
    mean self-play length), solved exactly; at each budget, does the search keep the value?"""
    if name in FROM_STORE:
        return run_accuracy_by_value(name, seed)
    game = board_game(name)
    records_path = DATA / "calibration" / f"{name}-positions.jsonl"
    records_path.parent.mkdir(parents=True, exist_ok=True)
    done: list[dict[str, Any]] = []
    if records_path.exists():
        done = [json.loads(line) for line in records_path.read_text().splitlines() if line]
    chooser = random.Random(seed)
    sampled = 0
    skipped = sum(1 for r in done if r.get("skipped"))
    rules = playout_rules(game)
    max_depth = max(4, int(0.8 * _typical_length(game, rules)))
    while sampled < ACCURACY_POSITIONS:
        drawn = random_position(game, chooser, max_depth)
        if drawn is None:
            continue
        position, depth = drawn
        sampled += 1
        if sampled <= len(done):
            continue  # stored by an earlier run (the sample is the same for the same seed)
        record: dict[str, Any] = {"position": game.render(position), "ply": depth}
        try:
            exact = exact_answer(name, game, position)
        except CGTError as exc:
            record["skipped"] = str(exc)
            skipped += 1
        else:
            record.update(
                value=exact.outcome.label, moves=len(exact.moves), keeping=len(exact.keeping)
            )
            record["chosen"] = judge_moves(game, position, exact.keeping, ACCURACY_BUDGETS, seed)
        with records_path.open("a") as stream:
            stream.write(json.dumps(record) + "\n")
        print(f"{name}: position {sampled}/{ACCURACY_POSITIONS}", file=sys.stderr, flush=True)
    records = [json.loads(line) for line in records_path.read_text().splitlines() if line]
    return _accuracy_summary(records, max_depth)


def _typical_length(game: Any, rules: Any) -> float:
    root = rules.encode(game.initial_position())
    count = 200
    plies = compiled_search(rules).random_playouts(
        root,
        rules.tables,
        rules.max_moves,
        rules.max_plies,
        seed_state(1),
        count,
    )
    return plies / count


def _accuracy_summary(records: list[dict[str, Any]], max_depth: int) -> dict[str, Any]:
    """Per budget: how often the chosen move keeps the exact value, over the won positions
    where some move does not (the choices that matter), and over all solved positions."""
    solved = [r for r in records if "chosen" in r]
    critical = [r for r in solved if r["value"] == "win" and r["keeping"] < r["moves"]]
    third = max(1, max_depth // 3)
    per_budget = []
    for budget in ACCURACY_BUDGETS:
        key = str(budget)
        row: dict[str, Any] = {"playouts": budget}
        for label, group in (("critical", critical), ("all", solved)):
            kept = sum(1 for r in group if r["chosen"][key][1])
            low, high = wilson(kept, len(group))
            row[label] = {
                "positions": len(group),
                "kept": kept,
                "rate": round(kept / len(group), 4) if group else None,
                "interval": [round(low, 4), round(high, 4)],
            }
        for stage, lo_ply, hi_ply in (
            ("early", 0, third),
            ("middle", third, 2 * third),
            ("late", 2 * third, 10**6),
        ):
            group = [r for r in critical if lo_ply <= r["ply"] < hi_ply]
            kept = sum(1 for r in group if r["chosen"][key][1])
            row[f"critical_{stage}"] = [kept, len(group)]
        per_budget.append(row)
    # the choices that matter where the sample has enough of them, else every position
    basis = "critical" if len(critical) >= 5 else "all"
    reaching = next(
        (
            row["playouts"]
            for row in per_budget
            if row[basis]["positions"] and row[basis]["rate"] >= 0.95
        ),
        None,
    )
    values = {v: sum(1 for r in solved if r["value"] == v) for v in ("win", "loss", "draw")}
    return {
        "positions": len(records),
        "skipped": sum(1 for r in records if r.get("skipped")),
        "values": values,
        "critical_positions": len(critical),
        "max_ply": max_depth,
        "budgets": per_budget,
        "budget_reaching_95": reaching,
        "basis_of_95": basis,
    }


def run_calibration(name: str, command: str) -> dict[str, Any]:
    """Move accuracy, and the self-play trend against the exact winner, on a solved board."""
    game = board_game(name)
    started = time.process_time()
    store = None
    if name in FROM_STORE:
        outcome = stored_answer(game, game.initial_position(), DATABASE).outcome
        store = stored_provenance(game, DATABASE)
    else:
        outcome = solve(
            game, remoteness=False, max_seconds=300, root_only=True, method=exact_method(game)
        ).outcome
    accuracy = run_accuracy(name, command)
    selfplay = run_selfplay(name, command)
    assert selfplay is not None
    first = selfplay["first_player"]
    exact_winner = (
        "draw"
        if outcome is Outcome.DRAW
        else first
        if outcome is Outcome.WIN
        else next(p for p in game.players if p != first)
    )
    games = GameStore(DATA / "games" / f"{name}.jsonl", game, game.initial_position()).records
    trend = []
    for level in selfplay["levels"]:
        says = trend_says(level["first_wins"], level["second_wins"], level["draws"])
        row = {"playouts": level["playouts"], "first_win_rate": level["first_win_rate"],
               "interval": level["interval"], "says": says}  # fmt: skip
        if outcome is Outcome.DRAW:
            # a game stopped at the ply cap counts as a draw: say how many were
            seeds = [game_seed(0, level["playouts"], i) for i in range(level["games"])]
            row["capped"] = sum(games[(level["playouts"], s)].capped for s in seeds)
            row["ply_cap"] = playout_rules(game).max_plies
            low, high = wilson(level["draws"], level["games"])
            row["draw_rate"] = round(level["draws"] / level["games"], 4)
            row["draw_interval"] = [round(low, 4), round(high, 4)]
            row["games"] = level["games"]
            row["first_wins"] = level["first_wins"]
            row["second_wins"] = level["second_wins"]
        trend.append(row)
    exact_side = {Outcome.WIN: "first", Outcome.LOSS: "second", Outcome.DRAW: "draw"}[outcome]
    right_from = None
    for row in reversed(trend):
        if row["says"] != exact_side:
            break
        right_from = row["playouts"]
    wrong = [row["playouts"] for row in trend if row["says"] not in (exact_side, "undecided")]
    data = {
        **head(command),
        "board": name,
        "game": game.name,
        "params": game.parameters,
        "exact": {"outcome": outcome.label, "winner": exact_winner, "side": exact_side},
        **({} if store is None else {"stored_solution": store}),
        "accuracy": accuracy,
        "trend": trend,
        "right_winner_from": right_from,
        "wrong_way_at": wrong,
        "cpu_seconds_this_run": round(time.process_time() - started, 1),
    }
    _write(DATA / f"calibration-{name}.json", data)
    return data


# ---------------------------------------------------------------------------- speed
def run_speed(command: str) -> dict[str, Any]:
    """Random playouts per second of process time on each designers' board, and the
    alpha-beta kernel's nodes per second on the same start where the kernel takes it."""
    rows = []
    for name in DESIGNERS:
        game = board_game(name)
        rules = playout_rules(game)
        root = rules.encode(game.initial_position())
        args = (root, rules.tables, rules.max_moves)
        random_playouts = compiled_search(rules).random_playouts
        random_playouts(*args, rules.max_plies, seed_state(0), 1)  # compile
        started = time.process_time()
        playouts = plies = 0
        while time.process_time() - started < 3.0:
            plies += random_playouts(*args, rules.max_plies, seed_state(playouts), 100)
            playouts += 100
        seconds = time.process_time() - started
        row: dict[str, Any] = {
            "board": name,
            "playouts_per_second": round(playouts / seconds),
            "plies_per_playout": round(plies / playouts, 1),
            "plies_per_second": round(plies / seconds),
        }
        with contextlib.suppress(CGTError):  # compile (its budget runs out at once)
            solve(game, solver="compiled", remoteness=False, max_seconds=0.01)
        started = time.process_time()
        try:
            solve(game, solver="compiled", remoteness=False, max_seconds=3.0)
            row["kernel"] = "solved the start within the 3 s of the measurement"
        except CGTError as exc:
            # alpha-beta nodes only (the sweeps of Interleave and Entropy count ranks)
            if getattr(exc, "unit", None) == "nodes searched":
                nodes = int(exc.nodes)  # type: ignore[attr-defined]
                row["kernel_nodes_per_second"] = round(nodes / (time.process_time() - started))
            else:
                row["kernel"] = str(exc)
        rows.append(row)
        print(row, file=sys.stderr, flush=True)
    data = {**head(command), "rows": rows}
    _write(DATA / "speed.json", data)
    return data


# ------------------------------------------------------------------ Interleave's pie
#: Interleave's pie setups: board size -> stone counts sampled. Size 3 has every setup's
#: exact winner (the calibration); size 4 is the designers' board.
PIE_STONES = {3: list(range(1, 19)), 4: [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 21, 24, 28, 32, 36]}
#: Random setups per stone count, self-play games per setup (the pick is their majority),
#: and the budgets (playouts a move) of the games.
PIE_SETUPS = {3: 24, 4: 48}
PIE_GAMES = 3
PIE_BUDGETS = [400, 1600]
#: The turn model of the exact setup winners (the loser moves; the real game has no turns).
PIE_TURNS = "loser"
EXACT_SETUPS = ROOT / "reports" / "data" / "interleave-size-3-setups.json"


def exact_red_shares(win: str) -> dict[int, dict[str, int]]:
    """Per stone count, the size-3 pie setups (every placement with a black stone) and how
    many Red wins, from the stored exact sweep."""
    by_stones = json.loads(EXACT_SETUPS.read_text())["results"][win]["by_stones"]
    shares: dict[int, dict[str, int]] = {}
    for row in by_stones:
        if row["black_stones"] == 0:
            continue
        stones = row["red_stones"] + row["black_stones"]
        entry = shares.setdefault(stones, {"setups": 0, "red_wins": 0})
        entry["setups"] += row["setups"]
        entry["red_wins"] += row["red_wins"]
    return shares


def run_pie(size: int, command: str, seed: int = 0) -> dict[str, Any]:
    """Random pie setups of each stone count, each played out by self-play ``PIE_GAMES``
    times per budget under both win conditions; the pick (the colour a strong chooser
    takes) is the majority winner. On size 3 every pick is judged against the setup's exact
    winner. Every setup's games are stored as they end (the run resumes)."""
    started = time.process_time()
    per_win: dict[str, Any] = {}
    for win in ("stones", "groups"):
        game = load_game("interleave", size=size, win=win, turns=PIE_TURNS)
        store = RecordStore(
            DATA / "games" / f"pie-interleave-{size}-{win}.jsonl",
            {"game": game.name, "params": game.parameters, "seed": seed, "games": PIE_GAMES},
        )
        exact = WinnerSolver(game) if size in EXACT_SIZES else None
        for stones in PIE_STONES[size]:
            for index in range(PIE_SETUPS[size]):
                rng = random.Random(game_seed(seed, size * 1000 + stones, index))
                red, black = random_setup(size, stones, rng)
                position = game.position(red, black)
                for playouts in PIE_BUDGETS:
                    key = f"{stones}:{index}:{playouts}"
                    if key in store.records:
                        continue
                    seeds = [
                        game_seed(seed, playouts, (stones * 1000 + index) * 100 + g)
                        for g in range(PIE_GAMES)
                    ]
                    winners = winners_of(game, position, playouts, seeds)
                    store.add({
                        "key": key, "stones": stones, "index": index, "playouts": playouts,
                        "setup": board_string(size, red, black), "winners": winners,
                        "pick": majority(winners),
                        "exact": None if exact is None else exact.winner(position),
                    })  # fmt: skip
            print(f"interleave-{size} win={win}: {stones} stones", file=sys.stderr, flush=True)
        exact_shares = exact_red_shares(win) if size in EXACT_SIZES else {}
        levels = []
        for playouts in PIE_BUDGETS:
            rows = [r for r in store.records.values() if r["playouts"] == playouts]
            by_stones = []
            for stones in PIE_STONES[size]:
                row = {"stones": stones, **pick_summary(r for r in rows if r["stones"] == stones)}
                if stones in exact_shares:
                    every = exact_shares[stones]
                    row["exact_share_every_setup"] = round(every["red_wins"] / every["setups"], 4)
                by_stones.append(row)
            levels.append({"playouts": playouts, "all": pick_summary(rows), "by_stones": by_stones})
        per_win[win] = levels
    data = {
        **head(command),
        "board": f"interleave-{size}",
        "game": "interleave",
        "size": size,
        "turns": PIE_TURNS,
        "players": ["Red", "Black"],
        "setups_per_stone_count": PIE_SETUPS[size],
        "games_per_setup": PIE_GAMES,
        "budgets": PIE_BUDGETS,
        "exact": size in EXACT_SIZES,
        "wins": per_win,
        "cpu_seconds_this_run": round(time.process_time() - started, 1),
    }
    _write(DATA / f"pie-interleave-{size}.json", data)
    return data


#: Sizes whose every setup the exact sweep solved (reports/data/interleave-size-3-setups.json).
EXACT_SIZES = (3,)


# ------------------------------------------------------------------------- the page
def markdown() -> str:
    """benchmarks/SELFPLAY.md from the stored JSON (the same bytes every time)."""
    from cgtapp.report.selfplay import benchmark_page

    return benchmark_page(DATA)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what", nargs="?", choices=["calibrate", "balance", "speed", "summary", "pie"]
    )
    parser.add_argument("boards", nargs="*")
    parser.add_argument("--markdown", action="store_true", help="Write benchmarks/SELFPLAY.md.")
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="Solution database of the stored boards (entropy-5x5).",
    )
    args = parser.parse_args()
    global DATABASE
    DATABASE = args.db
    command = "python benchmarks/selfplay.py " + " ".join(sys.argv[1:])
    head(command)  # the commit of the code that runs, taken before any work
    if args.what == "calibrate":
        for name in args.boards or list(SOLVED):
            run_calibration(name, command)
    elif args.what == "balance":
        for name in args.boards or list(DESIGNERS):
            run_selfplay(name, command)
    elif args.what == "summary":  # the designers' boards' games stored so far, none played
        for name in args.boards or list(DESIGNERS):
            run_selfplay(name, command, play=False)
    elif args.what == "pie":
        for size in args.boards or [str(size) for size in PIE_STONES]:
            run_pie(int(size), command)
    elif args.what == "speed":
        run_speed(command)
    if args.markdown:
        PAGE.write_text(markdown())


if __name__ == "__main__":
    main()
