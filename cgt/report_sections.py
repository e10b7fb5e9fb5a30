"""Game-specific sections of the reports: what a designer of that game asks first.

Each function takes the board being reported, the output directory and its figure directory,
and returns Markdown lines. They use the claims' helpers and the solvers, never their own
copy of the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cgt.registry import load_game

Section = Callable[[Any, Path, Path], list[str]]


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def _draw_positions(game: Any, positions: list[tuple[str, str]], path: Path) -> None:
    """Draw several positions side by side with captions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(positions), figsize=(4.2 * len(positions), 4.4))
    if len(positions) == 1:
        axes = [axes]
    for ax, (caption, text) in zip(axes, positions):
        game.draw(game.parse(text), ax)
        ax.set_title(caption, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def interleave_pie(board: Any, out_dir: Path, fig_dir: Path) -> list[str]:
    """Which colour the pie chooser should take, for every setup of the board."""
    from proofs.interleave import pie_setups, solve_setup

    size = int(board.params.get("size", 2))
    if size > 2:
        return ["(The pie-setup table is computed for size 2 only: size 3 has 3^19 setups.)", ""]
    setups = pie_setups(size)
    rows = []
    for win in ("stones", "groups"):
        for turns, first in (("pass", "red"), ("pass", "black"), ("loser", "red")):
            winners = Counter(
                solve_setup(size, r, b, win=win, turns=turns, first=first)["winner"]
                for r, b in setups
            )
            model = "loser moves" if turns == "loser" else f"alternate, {first} first"
            red, black = winners.get("Red", 0), winners.get("Black", 0)
            rows.append([win, model, red, black, f"{red / len(setups):.0%}"])
    lines = [
        "## The pie setups",
        "",
        f"Every legal setup of the size-{size} board (at least one black stone), up to the "
        f"12 symmetries: {len(setups)} setups. The chooser takes the colour that wins.",
        "",
    ]
    lines += _table(["win condition", "turn model", "Red wins", "Black wins", "Red's share"], rows)
    lines += [
        "",
        "Reproduce: `cgt check interleave.red-advantage interleave.timing-independence`",
        "",
    ]
    return lines


def entropy_figures(board: Any, out_dir: Path, fig_dir: Path) -> list[str]:
    """The document's figures 2 and 3, drawn, with what the checker found in them."""
    from proofs.entropy import FIGURE_2, FIGURE_3

    game = load_game("entropy")
    path = fig_dir / "entropy_figures.png"
    _draw_positions(
        game, [("Figure 2 (O to move)", FIGURE_2), ("Figure 3 (O to move)", FIGURE_3)], path
    )
    return [
        "## The document's worked examples",
        "",
        f"Figure 2: `{FIGURE_2}`; figure 3: `{FIGURE_3}` (O = the document's white, "
        "S = its red; rank 5 first).",
        "",
        f"![figures]({path.relative_to(out_dir)})",
        "",
        "Their claims are checked below, move by move, by the rules of the game module.",
        "",
    ]


def control_values(board: Any, out_dir: Path, fig_dir: Path) -> list[str]:
    """CGT values of the positions after White's opening (and Black's reply) on size 2."""
    from cgt.algebra.notation import format_game
    from cgt.algebra.values import ValueCalculator

    game = load_game("control", size=2, **{k: v for k, v in board.params.items() if k != "size"})
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
        rows.append([f"`{game.render(after)}`", f"`{format_game(value)}`", value.outcome()])
        for reply in game.moves(after):
            child = game.play(after, reply)
            ckey = game.canonical_key(child)
            if ckey in seen:
                continue
            seen.add(ckey)
            cvalue = calc(child)
            rows.append([f"`{game.render(child)}`", f"`{format_game(cvalue)}`", cvalue.outcome()])
    lines = [
        "## CGT values of small positions",
        "",
        "Values of size-2 positions after one and two moves, up to symmetry (Left = White, "
        "Right = Black; CGSuite notation). Outcome classes: L Left wins, R Right wins, "
        "N the player to move wins, P the player to move loses.",
        "",
    ]
    lines += _table(["position", "value", "outcome"], rows)
    lines += ["", 'Reproduce one: `cgt value control ".W/.../.. B" -p size=2`', ""]
    return lines


#: Game name -> extra sections of its report.
SECTIONS: dict[str, list[Section]] = {
    "interleave": [interleave_pie],
    "entropy": [entropy_figures],
    "control": [control_values],
}


#: Boards attempted but not solved (or solved only outside the pure-Python reports), with
#: how far the solver got. Measured numbers; the commands reproduce them.
OPEN_BOARDS: dict[str, list[dict[str, str]]] = {
    "control": [
        {
            "board": "size 3 (19 cells), perimeter opening",
            "status": "solved: Black (the second player) wins against all 12 perimeter openings",
            "how": "two roads: proofs/control.py's ordered negamax (56,785 positions, 4.0 s) and "
            "`cgt solve control -p size=3 --solver alphabeta --value-only` (703,275 "
            "positions, 111 s); too large for the retrograde report (over 2 million "
            "reachable positions)",
        },
        {
            "board": "size 3, free opening",
            "status": "solved: White wins, but only by opening on one of the 7 interior cells",
            "how": "proofs/control.py negamax, 64,405 positions, 4.4 s",
        },
        {
            "board": "size 3, control=sight",
            "status": "not solved",
            "how": "cycles make memoised search unsound and the graph is too large for retrograde in Python",
        },
        {
            "board": "size 4 (37 cells)",
            "status": "not solved (see benchmarks/RESULTS.md)",
            "how": "the document reports from engine play that the second player seems favoured",
        },
    ],
    "lag": [
        {
            "board": "size 3, standard setup (7 pieces each), goal=far-row",
            "status": "solved: the first player (White) loses",
            "how": "`cgt solve lag -p size=3 -p goal=far-row --solver alphabeta --value-only`: "
            "4,899,010 nodes, 38 s",
        },
        {
            "board": "size 3, standard setup, goals standard / strict / far-row-one-object",
            "status": "not solved in pure Python",
            "how": "alpha-beta without an answer after 600 s (standard), 120 s (others, 6.8-10.8 "
            "million nodes); over 27 million reachable positions counted in 534 s",
        },
        {"board": "size 4 and 5", "status": "not attempted in pure Python", "how": ""},
    ],
    "interleave": [
        {
            "board": "size 3, a single black stone on each distinct cell (4 cells up to symmetry)",
            "status": "solved: Red wins from every one, under both win conditions and all three "
            "turn models",
            "how": "proofs.interleave.solve_setup: at most 64,320 positions and 0.8 s per case; "
            "the corner setup cross-checked with `solvers.alphabeta` (loser model, 7 s)",
        },
        {
            "board": "size 3, every pie setup",
            "status": "not solved",
            "how": "3^19 setups; sparse setups (at most 2 stones, 61 up to symmetry) are in "
            "interleave.red-advantage",
        },
    ],
    "entropy": [
        {
            "board": "5x5 from the standard start",
            "status": "not solved",
            "how": "about 1.5 x 10^10 positions before symmetry (3.06 x 10^10 bound with the side "
            "to move); a breadth-first count reached 159,031 positions (ply 4) in 5 s. "
            "Needs a packed-array retrograde with perfect ranking (issue 6).",
        },
        {
            "board": "4x4 `SSSS/S..S/O..O/OOOO O` (6 each)",
            "status": "solved: draw (418,950 positions, 76 s)",
            "how": "six pieces can never all be apart on 4x4, so nobody can meet the goal",
        },
    ],
}


def open_boards(board: Any, out_dir: Path, fig_dir: Path) -> list[str]:
    entries = OPEN_BOARDS.get(board.game, [])
    if not entries:
        return []
    lines = ["## Larger boards", ""]
    lines += _table(
        ["board", "status", "how far / how"], [[e["board"], e["status"], e["how"]] for e in entries]
    )
    return [*lines, ""]


for _name in OPEN_BOARDS:
    SECTIONS.setdefault(_name, []).append(open_boards)
