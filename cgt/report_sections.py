"""Game-specific sections of the reports: what a designer of that game asks first.

Each section takes a :class:`cgt.report.ReportContext` (the board, where to write, the claims'
certificates) and returns Markdown lines. Sections use the claims' evidence and the solvers,
never their own copy of the rules.

Results on boards beyond the reports' exhaustive analysis live in one table,
:data:`LARGER_BOARDS`: update an entry there when a solver gets further.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgt.protocol import Outcome
from cgt.registry import load_game
from cgt.report import (
    OUTCOME_COLOURS,
    PIECE_LEGENDS,
    ReportContext,
    draw_positions,
    opening_map,
    player_name,
    table,
)

Section = Callable[[ReportContext], list[str]]


def _rel(path: Path, ctx: ReportContext) -> str:
    return path.relative_to(ctx.out_dir).as_posix()


def _evidence(ctx: ReportContext, claim_id: str) -> dict[str, Any]:
    cert = ctx.certificates.get(claim_id) or {}
    evidence = cert.get("evidence")
    return evidence if isinstance(evidence, dict) else {}


# ======================================================================= larger boards
#: Marks an entry whose numbers are still being measured; the index and the reports show it
#: as pending.
PENDING = "PENDING"


@dataclass(frozen=True)
class LargerBoard:
    """A board beyond the reports' exhaustive analysis: what is known and how far the
    solvers got, with the command that reproduces it."""

    game: str
    board: str
    status: str
    how: str
    command: str = ""

    def row(self) -> list[str]:
        how = self.how + (f" Reproduce: `{self.command}`" if self.command else "")
        return [self.board, f"**{self.status}**" if self.status != PENDING else PENDING, how]


#: Every larger board, in one place (measured numbers; the commands reproduce them).
LARGER_BOARDS: list[LargerBoard] = [
    # ------------------------------------------------------------------ Control
    LargerBoard(
        "control",
        "size 3 (19 cells), perimeter opening",
        "solved: Black (the second player) wins against all 12 perimeter openings",
        "three roads agree: the compiled kernel (96k nodes, 0.06 s), proofs/control.py's "
        "ordered negamax (56,785 positions, 4.0 s) and pure-Python alpha-beta (703,275 "
        "positions, 111 s).",
        "cgt solve control -p size=3 --solver compiled --value-only",
    ),
    LargerBoard(
        "control",
        "size 3, free opening",
        "solved: White wins, but only by opening on one of the 7 interior cells",
        "proofs/control.py negamax, 64,405 positions, 4.4 s.",
        "cgt solve control -p size=3 -p opening=free --solver compiled --value-only",
    ),
    LargerBoard(
        "control",
        "size 3, control=sight",
        "solved (win or loss only): White (the first player) wins after every one of the 12 perimeter openings",
        "positions repeat (see control.sight-cycle). The compiled kernel is sound there: "
        "a position repeated on the search path scores a draw and no result that depended "
        "on such a cut-off is stored (graph-history-interaction-safe search), so every "
        "root value is exact; it agrees with retrograde on every size-2 position and on "
        "size-3 positions near the end, and with depth-bounded proofs on size-3 positions "
        "(tests/test_kernels_control.py). Value mode only: exact remoteness did not "
        "finish in 420 s. Timing: benchmarks/RESULTS.md, case control size 3 "
        "sight/compiled.",
        "cgt solve control -p size=3 -p control=sight --solver compiled --value-only",
    ),
    LargerBoard(
        "control",
        "size 4 (37 cells), perimeter opening",
        "not solved",
        "two perimeter openings up to symmetry (a1, a2). Compiled alpha-beta (value mode, "
        "8 GiB table) on the position after a1: open after 3,500 s and 10.2 billion nodes "
        "(2.9 million nodes per second, the other core busy). Compiled df-pn, 20 minutes per "
        "opening on a loaded machine: a1 open after 9.4 million nodes, a2 after 85.4 million. "
        "With the faster kernel of 2026-11-23 (child table buckets prefetched), the "
        "whole board in 600 s: open after 2.11 billion nodes (4.9 million nodes per second of "
        "CPU, 3.5 million of wall time on a shared machine). The document's engine-play impression (the second player seems favoured) stays "
        "unconfirmed. Needs hours per opening and a bigger table, or region decomposition "
        "inside the search.",
        "cgt solve control -p size=4 --solver compiled --value-only --max-seconds 1200",
    ),
    # ------------------------------------------------------------------ LAG
    LargerBoard(
        "lag",
        "size 3, standard setup (7 pieces each), goals standard / strict / far-row-one-object",
        "solved: White (the first player) wins under all three goals",
        "compiled kernel, value mode, standard goal: 79 million nodes, 25 s in the report run "
        "(about 40 million nodes, 15 s with a larger table); the only winning openings under "
        "the standard goal are d1-c2 and d4-c4; exact remoteness 26 plies (remoteness mode). "
        "Pure-Python alpha-beta gave no answer in 600 s.",
        "cgt solve lag -p size=3 --solver compiled --value-only",
    ),
    LargerBoard(
        "lag",
        "size 3, standard setup, goal=far-row",
        "solved: White (the first player) loses",
        "compiled kernel in seconds; pure-Python alpha-beta 4,899,010 nodes, 38 s.",
        "cgt solve lag -p size=3 -p goal=far-row --solver compiled --value-only",
    ),
    LargerBoard(
        "lag",
        "size 4 (37 cells), standard setup (9 pieces each)",
        "not solved",
        "compiled kernel, value mode: no answer after 542 s and 1.2 billion nodes.",
        "cgt solve lag -p size=4 --solver compiled --value-only --max-seconds 600",
    ),
    LargerBoard(
        "lag",
        "size 5 (61 cells), standard setup",
        "not solved",
        "compiled kernel, value mode, 2^26-slot table (2 GiB): no answer after 300 s and "
        "711 million nodes (2.4 million nodes per second); size 4 is not solved either.",
        "cgt solve lag -p size=5 --solver compiled --value-only --max-seconds 300 "
        "--tt-entries 67108864",
    ),
    # ------------------------------------------------------------------ Interleave
    LargerBoard(
        "interleave",
        "size 3, a single black stone on each distinct cell (4 cells up to symmetry)",
        "solved: Red wins from every one, under both win conditions and all three turn models",
        "proofs.interleave.solve_setup: at most 64,320 positions and 0.8 s per case; the "
        "corner setup cross-checked with pure-Python alpha-beta (loser model, 7 s).",
        "cgt check interleave.red-advantage",
    ),
    LargerBoard(
        "interleave",
        "size 3, every pie setup (3^19 - 2^19 = 1,161,737,179 setups, 96,992,232 up to symmetry)",
        "solved: Red wins 56,891,050 setups up to symmetry (58.7%) under win=stones and "
        "48,960,031 (50.5%) under win=groups, the same counts under turns=pass (either player "
        "first) and turns=loser",
        "one packed sweep over every placement per win condition and turn model "
        "(solvers/kernels/interleave.py, solve_every_setup; the pie chooser takes the winning "
        "colour; orbits counted by Burnside's lemma): stones/pass 455 s wall, 169 s CPU, "
        "2.2 GiB; stones/loser 144 s, 123 s CPU, 1.1 GiB; groups/pass 373 s, 246 s CPU; "
        "groups/loser 314 s, 209 s CPU (wall times on a shared machine). Under turns=pass no "
        "setup's winner depends on who moves first, under either win condition. "
        "Reproduce: python benchmarks/interleave_every_setup.py --size 3 --win stones",
    ),
    # ------------------------------------------------------------------ Super Nonnect
    LargerBoard(
        "super-nonnect",
        "hex7 (seven flowers of 7 cells), revised rule",
        "solved: the first player wins, with 7 winning first cuts",
        "compiled kernel, 183k nodes, 0.7 s (recomputed in the revised-rule report).",
        "cgt solve super-nonnect -p shape=hex7 -p rule=revised --solver compiled --value-only",
    ),
    LargerBoard(
        "super-nonnect",
        "3x3 (the document's board, 81 cells), revised rule",
        "not solved",
        "compiled kernel: the first root move alone was still open after 1,800 s and 312.8 "
        "million nodes. Every smaller shape is solved (see super-nonnect.revised-outcome).",
        "cgt solve super-nonnect -p rule=revised --solver compiled --value-only --max-seconds 1800",
    ),
    # ------------------------------------------------------------------ Entropy
    LargerBoard(
        "entropy",
        "5x5 from the standard start (7 pieces each)",
        "solved: a draw with perfect play; each of O's 35 first moves draws",
        "compiled packed retrograde over every placement of 7 O and 7 S pieces "
        "(solvers/kernels/entropy.py): 3,824,634,000 positions up to symmetry in 10.8 GiB, "
        "of which 248,376,742 are won and 53,201,944 lost for the player to move and the "
        "rest drawn; the longest forced win takes 171 plies. 1,127 s on 2 cores (scan 503 s, "
        "propagation 610 s; 2,073 s of CPU) on 2026-11-23. Checked by a second road in "
        "entropy.solved (cgt check entropy.solved --full): the start, every position after "
        "one move and 20,000 random positions satisfy the game's equations under the "
        "readable rules. Smaller 5x5 games are draws too: 3+3, 4+4 and 5+5 pieces.",
        "cgt solve entropy --solver compiled",
    ),
    LargerBoard(
        "entropy",
        "4x4 `SSSS/S..S/O..O/OOOO O` (6 pieces each)",
        "solved: draw",
        "two roads agree: pure-Python retrograde (418,950 reachable positions, 76 s) and the "
        "compiled packed retrograde (421,540 ranked positions, some unreachable, 0.06 s). "
        "Six pieces can never all be apart on 4x4, so nobody can meet the goal.",
        "cgt solve entropy -p width=4 -p height=4 -p 'setup=SSSS/S..S/O..O/OOOO O'",
    ),
]


def larger_boards_rows() -> list[tuple[str, str, str, str]]:
    """(game, board, status, how) of every larger board, for the index."""
    rows = []
    for entry in LARGER_BOARDS:
        board, status, how = entry.row()
        rows.append((entry.game, board, status, how))
    return rows


def larger_boards(ctx: ReportContext) -> list[str]:
    entries = [e for e in LARGER_BOARDS if e.game == ctx.board.game]
    if not entries:
        return []
    lines = [
        "## Larger boards",
        "",
        "Boards beyond this report's exhaustive analysis: what is known and how far the solvers "
        "got.",
        "",
    ]
    lines += table(["board", "status", "how far / how"], [e.row() for e in entries])
    return [*lines, ""]


# ======================================================================= Interleave
def interleave_pie(ctx: ReportContext) -> list[str]:
    """Which colour the pie chooser takes, for every setup of the board, split by the number
    of stones of each colour (which setups each colour wins)."""
    from proofs.interleave import pie_setups, solve_setup

    size = int(ctx.board.params.get("size", 2))
    if size > 2:
        return ["(The pie-setup table is computed for size 2 only: size 3 has 3^19 setups.)", ""]
    setups = pie_setups(size)
    rows = []
    by_stones: Counter[tuple[int, int, str]] = Counter()
    for win in ("stones", "groups"):
        for turns, first in (("pass", "red"), ("pass", "black"), ("loser", "red")):
            winners: Counter[str] = Counter()
            for r, b in setups:
                winner = solve_setup(size, r, b, win=win, turns=turns, first=first)["winner"]
                winners[winner] += 1
                if turns == "pass" and first == "red":
                    by_stones[(r.bit_count(), b.bit_count(), f"{win}:{winner}")] += 1
            model = "loser moves" if turns == "loser" else f"alternate, {first} first"
            red, black = winners.get("Red", 0), winners.get("Black", 0)
            rows.append([win, model, red, black, f"{red / len(setups):.0%}"])
    lines = [
        "## The pie setups and Red's advantage",
        "",
        f"Every legal setup of the size-{size} board (any stones of either colour, at least one "
        f"black), up to the 12 symmetries: {len(setups)} setups. The chooser takes the colour "
        "that wins with perfect play; there are no draws, so the chooser always wins and the "
        "setter's only hope is a setup the chooser misjudges. Red's share is the share of "
        "setups where Red is the colour to take.",
        "",
    ]
    lines += table(["win condition", "turn model", "Red wins", "Black wins", "Red's share"], rows)
    stone_counts = sorted({(r, b) for r, b, _ in by_stones})
    lines += [
        "",
        "Which setups each colour wins, by the number of red and black stones placed "
        "(alternating turns, Red first; the other turn models give the same winners, see "
        "`interleave.timing-independence`):",
        "",
    ]
    stone_rows = []
    for r, b in stone_counts:
        total = sum(by_stones[(r, b, f"stones:{w}")] for w in ("Red", "Black"))
        stone_rows.append(
            [
                r,
                b,
                total,
                f"{by_stones[(r, b, 'stones:Red')]} / {by_stones[(r, b, 'stones:Black')]}",
                f"{by_stones[(r, b, 'groups:Red')]} / {by_stones[(r, b, 'groups:Black')]}",
            ]
        )
    lines += table(
        [
            "red stones",
            "black stones",
            "setups",
            "win=stones: Red / Black wins",
            "win=groups: Red / Black wins",
        ],
        stone_rows,
    )
    lines += [
        "",
        "Reproduce: `cgt check interleave.red-advantage interleave.timing-independence`",
        "",
    ]
    return lines


# ======================================================================= Entropy
def entropy_figures(ctx: ReportContext) -> list[str]:
    """The document's figures 2 and 3, drawn, with what the checker found in them."""
    from proofs.entropy import FIGURE_2, FIGURE_3

    game = load_game("entropy")
    path = ctx.fig_dir / "entropy_figures.png"
    draw_positions(
        game,
        [
            ("Figure 2 (O to move)", game.parse(FIGURE_2)),
            ("Figure 3 (O to move)", game.parse(FIGURE_3)),
        ],
        path,
        PIECE_LEGENDS["entropy"],
    )
    lines = [
        "## The document's worked examples (5x5)",
        "",
        f"Figure 2: `{FIGURE_2}`; figure 3: `{FIGURE_3}` (O = the document's white, "
        "S = its red; rank 5 first).",
        "",
        f"![the document's figures 2 and 3]({_rel(path, ctx)})",
        "",
        "The document's statements about them are checked move by move by the rules of the "
        "game module; their verdicts (`entropy.fig2-*`, `entropy.fig3-*`) are in the claims "
        "table below.",
        "",
    ]
    return lines


def _finding(cert: dict[str, Any]) -> str:
    from cgt.report import claim_finding

    text = claim_finding(cert, limit=240)
    return text[:1].upper() + text[1:]


# ======================================================================= Control
def control_values(ctx: ReportContext) -> list[str]:
    """CGT values of the positions after White's opening (and Black's reply) on size 2."""
    from cgt.algebra.notation import format_game
    from cgt.algebra.values import ValueCalculator

    params = {k: v for k, v in ctx.board.params.items() if k != "size"}
    game = load_game("control", size=2, **params)
    calc = ValueCalculator(game)
    start = game.initial_position()
    rows = []
    seen = set()
    for move in game.moves(start):
        after = game.play(start, move)
        key = game.canonical_key(after)
        if key in seen:
            continue
        seen.add(key)
        value = calc(after)
        rows.append(
            [
                f"`{game.move_name(start, move)}`",
                f"`{game.render(after)}`",
                f"`{format_game(value)}`",
                value.outcome(),
            ]
        )
        for reply in game.moves(after):
            child = game.play(after, reply)
            ckey = game.canonical_key(child)
            if ckey in seen:
                continue
            seen.add(ckey)
            cvalue = calc(child)
            rows.append(
                [
                    f"`{game.move_name(start, move)} {game.move_name(after, reply)}`",
                    f"`{game.render(child)}`",
                    f"`{format_game(cvalue)}`",
                    cvalue.outcome(),
                ]
            )
    lines = [
        "## CGT values of small positions",
        "",
        "Combinatorial values of the size-2 positions after one and two moves, up to symmetry "
        "(Left = White, Right = Black; CGSuite notation). Outcome classes: L Left wins, "
        "R Right wins, N the player to move wins, P the player to move loses.",
        "",
    ]
    lines += table(["moves", "position", "value", "outcome"], rows)
    example = rows[0][1].strip("`") if rows else ""
    lines += ["", f'Reproduce one: `cgt value control "{example}" -p size=2`', ""]
    return lines


def _kernel_result(game: Any, **options: Any) -> Any:
    """The game's compiled solver (``solvers.kernels``), by registry name."""
    if game.name == "lag":
        from solvers.kernels.lag import solve_lag

        return solve_lag(game, **options)
    from solvers.kernels import KERNELS

    return KERNELS[game.name](game, **options)


def _kernel_openings_section(
    ctx: ReportContext,
    heading: str,
    intro: str,
    game: Any,
    command: str,
    figure_name: str,
    title: str,
    **options: Any,
) -> list[str]:
    """Solve the standard board with the compiled kernel and draw every opening's value."""
    started = time.perf_counter()
    try:
        result = _kernel_result(game, **options)
    except Exception as exc:  # the kernels are optional accelerators: report, do not fail
        return [f"## {heading}", "", f"The compiled kernel could not run here ({exc}).", ""]
    seconds = time.perf_counter() - started
    root = game.initial_position()
    first = player_name(game, root)
    verdict = {"first": f"{first} (the first player) wins", "second": f"{first} loses"}.get(
        result.winner, "a draw"
    )
    winning = [m.name for m in result.moves if m.outcome == Outcome.WIN]
    lines = [f"## {heading}", "", intro, ""]
    lines += [
        f"Result: **{verdict}**"
        + ("" if result.remoteness is None else f" in {result.remoteness} plies")
        + f"; winning openings: {', '.join(f'`{w}`' for w in winning) or 'none'} "
        f"({len(winning)} of {len(result.moves)}). "
        f"{result.extra.get('nodes', result.positions):,} nodes, {seconds:.2f} s.",
        "",
    ]
    path = ctx.fig_dir / figure_name
    if opening_map(game, root, result.moves, path, title):
        lines += [f"![openings on the standard board]({_rel(path, ctx)})", ""]
    lines += table(
        ["opening", f"outcome for {first}", "remoteness"],
        [
            [f"`{m.name}`", m.outcome.label, "-" if m.remoteness is None else m.remoteness]
            for m in result.moves
        ],
    )
    return [*lines, "", f"Reproduce: `{command}`", ""]


def control_standard(ctx: ReportContext) -> list[str]:
    """Every perimeter opening of size 3 by the compiled kernel, drawn on the board."""
    game = load_game("control", size=3)
    return _kernel_openings_section(
        ctx,
        "Size 3 (19 cells) by the compiled kernel",
        "The retrograde analysis above enumerates every position, which size 3 (over two "
        "million reachable positions) does not allow in Python; the compiled kernel searches "
        "it with exact remoteness.",
        game,
        "cgt solve control -p size=3 --solver compiled",
        "control_size-3_openings.png",
        "Control, size 3 (19 cells), perimeter opening",
        remoteness=True,
    )


# ======================================================================= LAG
#: Results of LAG size 3 with the standard setup by the compiled kernel, measured with
#: ``solvers.kernels.lag.solve_lag`` (value mode unless noted) on 2 busy cores; shown when a
#: report's time budget does not allow recomputing them.
LAG_STANDARD_MEASURED: dict[str, dict[str, Any]] = {
    "standard": {
        "winner": "first",
        "winning_openings": ["d1-c2", "d4-c4"],
        "openings": 8,
        "nodes": 77_761_841,
        "seconds": 75.3,
    },
    "strict": {
        "winner": "first",
        "winning_openings": ["d1-c1", "d4-c5"],
        "openings": 8,
        "nodes": 61_500_260,
        "seconds": 48,
    },
    "far-row-one-object": {
        "winner": "first",
        "winning_openings": ["d2-c3", "d3-c3"],
        "openings": 8,
        "nodes": 11_363_596,
        "seconds": 8,
    },
    "far-row": {
        "winner": "second",
        "winning_openings": [],
        "openings": 8,
        "nodes": 2_178_491,
        "seconds": 1,
    },
}

#: Seconds a LAG report may spend on the compiled kernel (all goals together).
LAG_KERNEL_BUDGET_SECONDS = 150.0


def lag_goal_frequency(ctx: ReportContext) -> list[str]:
    """The ideal-goal measurement of ``lag.ideal-goal-frequency``: every kind of play it
    measured (perfect play, winner against random, random), goals side by side."""
    evidence = _evidence(ctx, "lag.ideal-goal-frequency")
    cert = ctx.certificates.get("lag.ideal-goal-frequency", {})
    scope = cert.get("scope", {}) if isinstance(cert.get("scope"), dict) else {}
    others = scope.get("other_measurements", {})
    others = others if isinstance(others, dict) else {}
    kinds = [
        ("per_goal", "perfect play", scope.get("play", "")),
        ("winner_vs_random", "winner perfect, loser random", others.get("winner_vs_random", "")),
        ("random", "both random", others.get("random", "")),
    ]
    rows = []
    notes = []
    for key, label, description in kinds:
        per_goal = evidence.get(key)
        if not isinstance(per_goal, dict):
            continue
        if description:
            notes.append(f"*{label}*: {description}")
        for goal, e in per_goal.items():
            if not isinstance(e, dict):
                continue
            hist = e.get("winner_objects_histogram", {})
            rows.append(
                [
                    label,
                    goal,
                    e.get("perfect_play_winner", "-"),
                    f"{e['games']:,}" if isinstance(e.get("games"), int) else "-",
                    _pct(e.get("winner_one_object_share")),
                    _pct(e.get("ideal_goal_share")),
                    _pct(e.get("far_row_goal_share")),
                    ", ".join(f"{k}: {v:,}" for k, v in hist.items()) if hist else "-",
                    e.get("mean_plies", "-"),
                ]
            )
    if not rows:
        return []
    setup = scope.get("setup_name") or scope.get("setup", "?")
    lines = [
        "## How often the ideal goal is reached",
        "",
        "The document worries that games are won with the winner's pieces still dispersed "
        "(more than one object) rather than by the ideal goal (unable to move, one object). "
        f"Measured by `lag.ideal-goal-frequency` on size {scope.get('size', '?')}, setup "
        f"{setup} (`{scope.get('setup', '?')}`), under these kinds of play:",
        "",
        *[f"- {note}" for note in notes],
        "",
    ]
    lines += table(
        [
            "play",
            "goal",
            "perfect-play winner",
            "games",
            "winner has one object",
            "ended by the ideal goal",
            "ended on the far row",
            "winner's objects: games",
            "mean plies",
        ],
        rows,
    )
    lines += [
        "",
        f"Verdict of `lag.ideal-goal-frequency`: **{cert.get('verdict', '?')}**. {_finding(cert)}",
        "",
        "Reproduce: `cgt check lag.ideal-goal-frequency`",
        "",
    ]
    return lines


def _pct(value: Any) -> str:
    """A share as a percentage; two decimals near 0 and 100 % so 99.95 % does not print as 100."""
    if not isinstance(value, int | float):
        return "-"
    if 0 < value < 0.001 or 0.999 < value < 1:
        return f"{value:.2%}"
    return f"{value:.1%}"


def _measured_lag_result(measured: dict[str, Any]) -> tuple[Any, Any]:
    """The standard board's openings rebuilt from a measured result (for its figure)."""
    from types import SimpleNamespace

    from solvers.result import MoveValue

    game = load_game("lag", size=3)
    root = game.initial_position()
    moves = []
    for move in game.moves(root):
        name = game.move_name(root, move)
        won = name in measured["winning_openings"]
        moves.append(MoveValue(move, name, Outcome.WIN if won else Outcome.LOSS, None))
    return game, SimpleNamespace(moves=moves, principal_variation=[])


def lag_standard(ctx: ReportContext) -> list[str]:
    """The standard size-3 setup under every goal, by the compiled kernel within a budget;
    past the budget the measured results are shown with their commands."""
    goals = ("standard", "strict", "far-row-one-object", "far-row")
    started = time.perf_counter()
    rows = []
    standard: Any = None
    for goal in goals:
        game = load_game("lag", size=3, goal=goal)
        command = "cgt solve lag -p size=3" + (f" -p goal={goal}" if goal != "standard" else "")
        command += " --solver compiled --value-only"
        remaining = LAG_KERNEL_BUDGET_SECONDS - (time.perf_counter() - started)
        result = None
        note = ""
        if remaining > 5:
            t0 = time.perf_counter()
            try:
                result = _kernel_result(game, remoteness=False, max_seconds=remaining)
            except Exception as exc:  # out of budget, or no kernel: say so
                note = f"not recomputed in this run ({exc})"
            seconds = time.perf_counter() - t0
        else:
            note = "not recomputed in this run (report time budget spent)"
        if result is not None:
            winning = [m.name for m in result.moves if m.outcome == Outcome.WIN]
            rows.append(
                [
                    goal,
                    "White (first)" if result.winner == "first" else "Black (second)",
                    f"{len(winning)} of {len(result.moves)}: "
                    + (", ".join(f"`{w}`" for w in winning) or "none"),
                    f"{result.extra.get('nodes', 0):,} nodes, {seconds:.0f} s",
                    f"`{command}`",
                ]
            )
            if goal == "standard":
                standard = (game, result)
            continue
        measured = LAG_STANDARD_MEASURED.get(goal)
        if measured:
            rows.append(
                [
                    goal,
                    "White (first)" if measured["winner"] == "first" else "Black (second)",
                    f"{len(measured['winning_openings'])} of {measured['openings']}: "
                    + (", ".join(f"`{w}`" for w in measured["winning_openings"]) or "none"),
                    f"measured earlier: {measured['nodes']:,} nodes, {measured['seconds']} s; "
                    + note,
                    f"`{command}`",
                ]
            )
        else:
            known = {"far-row": "Black (second)"}.get(goal, "White (first)")
            rows.append([goal, f"{known} (measured earlier)", "-", note, f"`{command}`"])
    lines = [
        "## The standard size-3 board by the compiled kernel",
        "",
        "The standard setup of size 3 (`BBB/BBBB/...../WWWW/WWW W`, 7 pieces each) is out of "
        "reach of the pure-Python solvers; the compiled kernel proves the value of every "
        "opening (value mode: win or loss, no remoteness). The goals side by side:",
        "",
    ]
    lines += table(["goal", "winner", "winning openings", "search", "command"], rows)
    lines.append("")
    if standard is None and "standard" in LAG_STANDARD_MEASURED:
        standard = _measured_lag_result(LAG_STANDARD_MEASURED["standard"])
    if standard is not None:
        game, result = standard
        root = game.initial_position()
        path = ctx.fig_dir / "lag_size-3_standard_openings.png"
        if opening_map(game, root, result.moves, path, "LAG size 3, standard setup"):
            lines += [f"![openings of the standard size-3 board]({_rel(path, ctx)})", ""]
        if result.principal_variation:
            lines += [
                "A winning line for White (value mode proves the win but does not hurry, so "
                f"the line is not the shortest): `{' '.join(result.principal_variation)}`",
                "",
            ]
    lines += [
        "With exact remoteness (`cgt solve lag -p size=3 --solver compiled`, several times "
        "slower) White's win takes 26 plies against the best defence.",
        "",
    ]
    return lines


# ======================================================================= Super Nonnect
def _place_name(game: Any, board: int) -> str:
    """Where mini-board ``board`` sits in the arrangement, in words."""
    if game.shape != "square":
        from cgt.games.super_nonnect import PLACE_NAMES

        return str(PLACE_NAMES[board])
    rows, cols = game.a, game.b
    r, c = divmod(board, cols)
    vertical = (
        ["top", "middle", "bottom"] if rows == 3 else ["top", "bottom"] if rows == 2 else [""]
    )
    horizontal = (
        ["left", "centre", "right"] if cols == 3 else ["left", "right"] if cols == 2 else [""]
    )
    words = " ".join(w for w in (vertical[r], horizontal[c]) if w)
    return "centre" if words == "middle centre" else words or "the only one"


def super_nonnect_return_strategy(ctx: ReportContext) -> list[str]:
    """The return strategy from every starting mini-board of the document's 3x3 board."""
    from proofs.super_nonnect import cell_at, shape_parameters

    evidence = _evidence(ctx, "super-nonnect.original-first-player-wins")
    per_board = evidence.get("per_board")
    if not isinstance(per_board, dict) or not per_board:
        return []
    cert = ctx.certificates["super-nonnect.original-first-player-wins"]
    main = cert.get("scope", {}).get("claim_board", next(iter(per_board)))
    entry = per_board[main]
    game: Any = load_game("super-nonnect", rule="original", **shape_parameters(main))
    rows = []
    colours = {}
    for start in entry.get("starts", []):
        holds = bool(start.get("holds"))
        refutation = start.get("refuting_line")
        rows.append(
            [
                start["start"],
                _place_name(game, start["start"]),
                f"`{start['first_cut']}`",
                "**wins**" if holds else "fails",
                f"{start.get('lines', 0):,}",
                "-" if holds else f"{start.get('refutation', '')}: `{' '.join(refutation or [])}`",
            ]
        )
        cell = cell_at(game, start["start"], start["start"])
        colours[cell] = OUTCOME_COLOURS[Outcome.WIN if holds else Outcome.LOSS]
    lines = [
        "## The return strategy, start by start",
        "",
        "The document's strategy: cut the cell at place X of mini-board X, then answer every "
        "cut at place Y with the cell at place X of mini-board Y, which sends the opponent back "
        f"to X until X is full. Walked on the {main} board from each starting mini-board "
        "against every legal reply of the opponent (exhaustive):",
        "",
    ]
    lines += table(
        [
            "start X",
            "mini-board",
            "first cut",
            "strategy",
            "opponent lines checked",
            "why it fails",
            "a refuting line (first cut first)",
        ],
        rows,
    )
    path = ctx.fig_dir / f"super-nonnect_{main}_return-strategy.png"
    _draw_first_cuts(game, colours, path, f"Super Nonnect {main}, original rule")
    lines += ["", f"![where the return strategy wins]({_rel(path, ctx)})", ""]
    summary = []
    for label, e in per_board.items():
        starts = e.get("starts", [])
        summary.append(
            [
                label,
                f"{len(e.get('strategy_holds_from', []))} of {len(starts)}",
                _player(e.get("solved_winner", "-")),
            ]
        )
    lines += ["The same strategy on every shape checked, with the solved winner:", ""]
    lines += table(["shape", "starts where the strategy wins", "winner (solved)"], summary)
    holding = [s for s in entry.get("starts", []) if s.get("holds")]
    where = ", ".join(
        f"{_place_name(game, s['start'])} (first cut `{s['first_cut']}`)" for s in holding
    )
    lines += [
        "",
        f"Verdict of `super-nonnect.original-first-player-wins`: **{cert['verdict']}**. "
        + (
            f"On {main} the strategy wins only when started from: {where}; from the "
            f"{len(entry.get('starts', [])) - len(holding)} other starts the opponent refutes "
            "it, so the first player must start there. "
            if holding
            else f"On {main} the strategy fails from every start. "
        )
        + _finding(cert),
        "",
        "Reproduce: `cgt check super-nonnect.original-first-player-wins`",
        "",
    ]
    return lines


def _draw_first_cuts(game: Any, colours: dict[int, str], path: Path, title: str) -> None:
    from matplotlib.patches import Patch

    from cgt.report import _pyplot

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 6.2))
    game.draw(game.initial_position(), ax, cell_colours=colours)
    ax.set_title(f"{title}\nfirst cut of the return strategy from each start", fontsize=9)
    ax.legend(
        handles=[
            Patch(facecolor=OUTCOME_COLOURS[Outcome.WIN], label="the strategy wins from here"),
            Patch(facecolor=OUTCOME_COLOURS[Outcome.LOSS], label="the opponent refutes it"),
        ],
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=2,
        frameon=False,
        fontsize=8,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


#: Revised-rule results by the compiled kernel, recomputed when a report runs (seconds each).
SUPER_NONNECT_KERNEL_SHAPES = ("hex7",)


def super_nonnect_revised_shapes(ctx: ReportContext) -> list[str]:
    """Who wins under the revised rule, shape by shape."""
    from proofs.super_nonnect import shape_parameters

    evidence = _evidence(ctx, "super-nonnect.revised-outcome")
    outcomes = evidence.get("outcomes", {}) if isinstance(evidence.get("outcomes"), dict) else {}
    hand = (
        evidence.get("hand_derived", {}) if isinstance(evidence.get("hand_derived"), dict) else {}
    )
    rows = []
    for label, e in outcomes.items():
        winner, how = (
            e.get("winner", "-"),
            (f"claim's negamax, {e.get('positions', 0):,} positions, {e.get('seconds', 0)} s"),
        )
        command = "cgt check super-nonnect.revised-outcome"
        if label in SUPER_NONNECT_KERNEL_SHAPES or winner == "inconclusive":
            params = shape_parameters(label)
            game = load_game("super-nonnect", rule="revised", **params)
            opts = " ".join(
                f"-p {k}={v}" for k, v in params.items() if k != "shape" or v != "square"
            )
            command = (
                f"cgt solve super-nonnect {opts} -p rule=revised --solver compiled --value-only"
            )
            if label in SUPER_NONNECT_KERNEL_SHAPES:
                t0 = time.perf_counter()
                try:
                    result = _kernel_result(game, remoteness=False)
                except Exception as exc:  # report, do not fail
                    how += f"; compiled kernel failed: {exc}"
                else:
                    wins = sum(1 for m in result.moves if m.outcome == Outcome.WIN)
                    winner = result.winner
                    how = (
                        f"compiled kernel, {result.extra.get('nodes', result.positions):,} nodes, "
                        f"{time.perf_counter() - t0:.1f} s; {wins} winning first cuts of "
                        f"{len(result.moves)}"
                    )
            else:
                winner = "not solved"
                larger = next(
                    (
                        e
                        for e in LARGER_BOARDS
                        if e.game == "super-nonnect" and label in e.board and "revised" in e.board
                    ),
                    None,
                )
                how = f"the claim's search stopped at its budget ({how}); " + (
                    larger.how if larger else "no compiled-kernel attempt recorded"
                )
        hand_note = f" (hand analysis: {hand[label]})" if label in hand else ""
        rows.append([label, f"**{_player(winner)}**{hand_note}", how, f"`{command}`"])
    if not rows:
        return []
    lines = [
        "## The revised rule, shape by shape",
        "",
        "Under the revised rule a cut may not send the opponent to a fully cut mini-board. Who "
        "wins the empty board with perfect play (first = the player who cuts first):",
        "",
    ]
    lines += table(["shape", "winner", "how", "command"], rows)
    cert = ctx.certificates.get("super-nonnect.revised-outcome", {})
    lines += [
        "",
        f"Verdict of `super-nonnect.revised-outcome`: **{cert.get('verdict', '?')}** (the "
        "claim's own budgeted search; the kernel rows above go further).",
        "",
    ]
    return lines


def _player(winner: str) -> str:
    """``first`` -> ``first player``; other words unchanged."""
    return f"{winner} player" if winner in ("first", "second") else winner


def super_nonnect_specifics(ctx: ReportContext) -> list[str]:
    """The original-rule report shows the return strategy, the revised-rule report the
    outcome per shape; each points to the other."""
    rule = ctx.board.params.get("rule", "original")
    if rule == "revised":
        return [
            *super_nonnect_revised_shapes(ctx),
            "The return strategy of the original rule, start by start, is in the "
            f"{_sibling_report(ctx, 'original')}.",
            "",
        ]
    return [
        *super_nonnect_return_strategy(ctx),
        f"The revised rule's outcome on every shape is in the {_sibling_report(ctx, 'revised')}.",
        "",
    ]


def _sibling_report(ctx: ReportContext, rule: str) -> str:
    """A link to the default report of the same game under ``rule`` (written by
    ``cgt report all``)."""
    from cgt.report import DEFAULT_BOARDS

    for board in DEFAULT_BOARDS:
        if board.game == ctx.board.game and board.params.get("rule") == rule:
            return f"[{rule}-rule report]({board.slug}.md) (written by `cgt report all`)"
    return f"{rule}-rule report"


#: Game name -> extra sections of its report, in order.
SECTIONS: dict[str, list[Section]] = {
    "control": [control_values, control_standard, larger_boards],
    "lag": [lag_goal_frequency, lag_standard, larger_boards],
    "interleave": [interleave_pie, larger_boards],
    "super-nonnect": [super_nonnect_specifics, larger_boards],
    "entropy": [entropy_figures, larger_boards],
}
