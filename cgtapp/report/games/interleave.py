"""Interleave: every pie setup of size 3 (which colour wins, by number of stones, with
example setups drawn), size 2 for comparison."""

from __future__ import annotations

from typing import Any

from cgt.registry import load_game
from cgtapp.report.document import (
    HEX_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Question,
    ReportContext,
    certificates,
    claims,
    page_head,
    questions_section,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import PIECE_LEGENDS, draw_positions, grouped_bars
from cgtapp.report.tables import count, pct, table

SLUG = "interleave"
WINS = ("stones", "groups")
COMMAND = "cgt report interleave --refresh"


def compute_setups(size: int, ctx: ReportContext) -> dict[str, Any]:
    """Every setup of the board by one packed sweep per win condition (turns=loser: the
    winner is the same under every turn model, see interleave.timing-independence)."""
    from solvers.kernels.interleave import every_setup_by_stones

    return {win: every_setup_by_stones(size, win, "loser", progress=ctx.progress) for win in WINS}


def _setup_string(size: int, red: int, black: int) -> str:
    from proofs.interleave import board_string

    return str(board_string(size, red, black))


def _example_setups(size: int, rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The first Black-won and Red-won setups with the fewest stones (at least one black)."""
    examples = []
    for key, colour in (("first_black_won", "Black"), ("first_red_won", "Red")):
        candidates = [
            r
            for r in rows
            if r[key] and r["black_stones"] >= 1 and r["red_stones"] + r["black_stones"] >= 2
        ]
        if not candidates:
            continue
        best = min(
            candidates, key=lambda r: (r["red_stones"] + r["black_stones"], -r["black_stones"])
        )
        red, black = best[key]
        examples.append((colour, _setup_string(size, red, black)))
    return examples


def _stones_table(rows: list[dict[str, Any]], limit: int) -> list[list[Any]]:
    """Rows of (total stones) -> setups, Red wins, Red's share, over pie setups (a black stone)."""
    by_total: dict[int, list[int]] = {}
    for r in rows:
        if r["black_stones"] == 0:
            continue
        total = r["red_stones"] + r["black_stones"]
        entry = by_total.setdefault(total, [0, 0])
        entry[0] += r["setups"]
        entry[1] += r["red_wins"]
    return [
        [t, count(s), count(w), pct(w / s)] for t, (s, w) in sorted(by_total.items()) if t <= limit
    ]


def _no_black(rows: list[dict[str, Any]]) -> tuple[int, int]:
    setups = sum(r["setups"] for r in rows if r["black_stones"] == 0)
    red = sum(r["red_wins"] for r in rows if r["black_stones"] == 0)
    return setups, red


def _share_by_black(rows: list[dict[str, Any]]) -> tuple[list[str], list[float]]:
    totals: dict[int, list[int]] = {}
    for r in rows:
        entry = totals.setdefault(r["black_stones"], [0, 0])
        entry[0] += r["setups"]
        entry[1] += r["red_wins"]
    keys = sorted(totals)
    return [str(k) for k in keys], [totals[k][1] / totals[k][0] for k in keys]


def setups_section(ctx: ReportContext, size: int, results: dict[str, Any], level: str) -> list[str]:
    game = load_game("interleave", size=size)
    lines = []
    rows = []
    wins = [w for w in WINS if w in results]
    for win in wins:
        pie = results[win]["pie_setups"]
        rows.append(
            [
                win,
                count(pie["setups"]),
                f"{count(pie['red_wins'])} ({pct(pie['red_wins'] / pie['setups'])})",
                count(pie["setups_up_to_symmetry"]),
                f"{count(pie['red_wins_up_to_symmetry'])} ({pct(pie['red_wins_up_to_symmetry'] / pie['setups_up_to_symmetry'])})",
            ]
        )
    lines += table(
        ["win condition", "pie setups", "Red wins", "up to symmetry", "Red wins up to symmetry"],
        rows,
    )
    lines += ["", f"{level} Which setups each colour wins, by number of stones", ""]
    lines += [
        "Red's share of the pie setups with each number of stones on the board (every setup "
        "counted, at least one black):",
        "",
    ]
    cells = game.board.size  # type: ignore[attr-defined]
    tables = [_stones_table(results[win]["by_stones"], cells) for win in wins]
    merged = [[row[0][0], row[0][1], *(t[3] for t in row)] for row in zip(*tables)]
    lines += table(["stones placed", "setups", *(f"Red wins (win={w})" for w in wins)], merged)
    lines.append("")
    colours = {"stones": "#004488", "groups": "#BB5566"}
    series = []
    cats: list[str] = []
    for win in wins:
        cats, share = _share_by_black(results[win]["by_stones"])
        series.append((f"win={win}", share, colours[win]))
    path = ctx.figure(f"interleave_size-{size}_red-share.png")
    grouped_bars(
        cats,
        series,
        path,
        f"Interleave size {size}: share of setups Red wins, by number of black stones",
        "share Red wins",
    )
    lines += [
        "Red's share of all setups by the number of black stones (0 black stones: the setups "
        "the pie rule forbids):",
        "",
    ]
    lines += ctx.image(path, "Red's share by number of black stones")
    examples = _example_setups(size, results["stones"]["by_stones"])
    if examples:
        path = ctx.figure(f"interleave_size-{size}_example-setups.png")
        draw_positions(
            game,
            [
                (f"{colour} wins (win=stones)\n{text}", game.parse(text + " R"))
                for colour, text in examples
            ],
            path,
            PIECE_LEGENDS["interleave"],
        )
        lines += [
            "Example setups with the fewest stones that each colour wins (win=stones; the pie "
            "chooser takes that colour):",
            "",
        ]
        lines += ctx.image(path, "example setups")
    return lines


def build(ctx: ReportContext) -> list[str]:
    ctx.certificates = certificates("interleave", ctx)
    big = ctx.stored("interleave-size-3-setups", lambda: compute_setups(3, ctx), COMMAND)
    small = ctx.stored("interleave-size-2-setups", lambda: compute_setups(2, ctx), COMMAND)
    small_lines, _ = small_board_section(
        ctx,
        "interleave",
        {"size": 2},
        "interleave-size-2",
        "Size 2, one black stone on the centre",
        level="###",
    )
    s3, s2 = big.results, small.results
    pie = {w: s3[w]["pie_setups"] for w in WINS if w in s3}
    no_black, no_black_red = _no_black(s3["stones"]["by_stones"])
    examples = _example_setups(3, s3["stones"]["by_stones"])
    questions = [
        Question(
            "How strong is Red's tie-break?",
            f"Of the {count(pie['stones']['setups_up_to_symmetry'])} size-3 pie setups (up to "
            "symmetry) Red wins "
            + " and ".join(f"{_share(p)} under win={w}" for w, p in pie.items())
            + f". Claim {verdict(ctx, 'interleave.red-advantage')}.",
            "[every setup of size 3](#size-3-every-pie-setup)",
        ),
        Question(
            "Why must a setup hold a black stone?",
            f"Without one the empty board is a legal setup, and on it nobody can ever place "
            f"(a cell needs more opponent than own stones seeing it), so the tie hands Red the "
            f"win without a move. Of the {count(no_black)} size-3 setups without a black stone "
            f"(the empty one included) Red wins {count(no_black_red)} "
            f"({pct(no_black_red / no_black)}); the rule forbids the setup that Red wins without "
            "a single placement.",
            "[by number of stones](#which-setups-each-colour-wins-by-number-of-stones)",
        ),
        Question(
            "Which setups are fair?",
            "With perfect play none is: there are no draws, so every setup is won by one colour "
            "and the chooser takes it. What the setter can use is the split by number of stones "
            "(where the winner flips) and setups whose winner is hard to see; the toolkit "
            "measures the first, not the second. Examples with the fewest stones: "
            + "; ".join(f"{c} wins `{t}`" for c, t in examples)
            + ".",
            "[by number of stones](#which-setups-each-colour-wins-by-number-of-stones)",
        ),
        Question(
            "Is there really no race (nobody gains by placing first or blocking)?",
            f"Yes: {verdict(ctx, 'interleave.exclusive')}; {verdict(ctx, 'interleave.no-race')} "
            "(a per-line argument, checked exhaustively on small boards).",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "Do turns emerge: does only the losing player need to place?",
            f"{verdict(ctx, 'interleave.emergent-turn')}.",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "Does the turn model (Ai Ai's pass turns, the loser moves) change the winner?",
            f"No: {verdict(ctx, 'interleave.timing-independence')}.",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "Is the game hard to read at the table (visibility)?",
            "The toolkit cannot answer this: it is about human perception, not about play.",
            "not computed",
        ),
        Question(
            "Is there a 12*-protocol analogue, a rule that starts from the empty board, or a "
            "looser placement rule without races?",
            "Open design questions the toolkit does not answer; the no-race check "
            "(`interleave.no-race`) can test a proposed placement rule once it is written as a "
            "game variant.",
            "not computed",
        ),
    ]
    lines = page_head(
        "Interleave: every pie setup of size 3",
        "Hexhex board, colours Red and Black. An empty cell is *seen* by the first stone along "
        "each of its six rays; a player may take a cell seen by strictly more opponent stones "
        "than own stones. After a pie setup (one player places any stones, at least one black; "
        "the other picks a colour) both place in real time; the winner has more stones "
        "(`win=stones`) or wins the largest-group cascade (`win=groups`), ties going to Red. "
        "For analysis the game is given turns; the winner does not depend on the turn model.",
        "interleave",
        HEX_NOTATION + " Interleave's stones: `R` Red, `B` Black; the letter after the space "
        "is who places next. " + VALUE_NOTATION,
        "cgt report interleave",
    )
    lines += questions_section(questions)
    lines += ["## Size 3: every pie setup", ""]
    lines += [
        "Every setup of the 19 cells solved at once (one packed sweep over all 3^19 "
        "placements per win condition, the loser-moves turn model); the pie chooser takes the "
        "winning colour.",
        "",
    ]
    lines += setups_section(ctx, 3, s3, "###")
    lines += [
        "Reproduce: `python benchmarks/interleave_every_setup.py --size 3 --win stones --turns loser`. "
        + big.provenance(),
        "",
    ]
    lines += ["## Size 2 for comparison", ""]
    lines += setups_section(ctx, 2, s2, "###")
    lines += [small.provenance(), ""]
    lines += small_lines
    lines += claims(ctx)
    return lines


def headline(ctx: ReportContext) -> str:
    from cgtapp.report import data

    stored = data.load(ctx.out_dir, "interleave-size-3-setups")
    if stored is None:
        return "-"
    shares = [
        f"**{_share(stored.results[w]['pie_setups'])}** (win={w})"
        for w in WINS
        if w in stored.results
    ]
    return "size 3: Red wins " + ", ".join(shares) + " of the pie setups up to symmetry"


def _share(pie: dict[str, Any]) -> str:
    return pct(pie["red_wins_up_to_symmetry"] / pie["setups_up_to_symmetry"])


REPORT = GameReport("interleave", SLUG, build, headline)
