"""Entropy: 5x5 from the standard start, from the stored solution of every position; the
document's figures 2 and 3 valued move by move; 4x3 solved exhaustively for comparison."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.report import data
from cgtapp.report.document import (
    SQUARE_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Question,
    ReportContext,
    certificates,
    claims,
    log,
    page_head,
    questions_section,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import value_maps, value_remoteness_chart
from cgtapp.report.tables import count, pct, table

SLUG = "entropy"
DATA = "entropy-5x5"
COMMAND = "cgt report entropy --refresh"
#: The document's lines through its figures: (figure, moves played before the panel).
FIGURE_LINES: list[tuple[str, tuple[str, ...]]] = [
    ("figure 2", ()),
    ("figure 2", ("a4-c4",)),
    ("figure 2", ("e4-c4",)),
    ("figure 3", ()),
    ("figure 3", ("b2-b4",)),
    ("figure 3", ("b2-b4", "d2-e1")),
]


def _stored_space(game: Any) -> Any:
    """The stored packed solution of ``game`` (the solution store's public API)."""
    from solvers.database import SolutionDatabase

    database: Any = SolutionDatabase()
    entries = database.packed_solutions(game.name, dict(game.parameters))
    if not entries:
        raise data.ReportDataError(
            f"no stored solution of {game.label()}: run 'cgt solve entropy --solver compiled "
            "--save' first (it takes about 20 minutes and 11 GiB)"
        )
    return entries[0]


def _query(game: Any, position: Any) -> dict[str, Any]:
    from solvers.query import query_position

    answer = query_position(game, position)
    return {
        "outcome": answer.outcome.label,
        "remoteness": answer.remoteness,
        "moves": [m.as_dict() for m in answer.moves],
    }


def _perfect_line(game: Any, position: Any, limit: int = 400) -> list[str]:
    """The line from ``position`` where the winner always takes a fastest win and the loser
    a slowest loss, read from the stored values."""
    line: list[str] = []
    while len(line) < limit and game.result(position) is None:
        moves = _query(game, position)["moves"]
        if not moves:
            break
        wins = [m for m in moves if m["outcome"] == "win"]
        if wins:
            best = min(wins, key=lambda m: (m["remoteness"] or 0, m["move"]))
        elif all(m["outcome"] == "loss" for m in moves):
            best = max(moves, key=lambda m: (m["remoteness"] or 0, m["move"]))
        else:
            break  # a draw: no forced end
        line.append(best["move"])
        position = game.play(position, game.parse_move(position, best["move"]))
    return line


def compute_from_store(
    game_params: dict[str, Any], progress: Callable[[dict[str, Any]], None] | None = None
) -> dict[str, Any]:
    """Value x remoteness over every stored position, every opening, the longest forced win
    with its line, and (on 5x5) the document's figures move by move."""
    from solvers.kernels.entropy import EntropySpace
    from solvers.store import PackedSolution, decode_record

    game = load_game("entropy", **game_params)
    entry = _stored_space(game)
    histogram = np.zeros(1 << 16, dtype=np.int64)
    longest_index, longest_rem = -1, -1
    with PackedSolution.open(entry.path) as solution:
        offset = 0
        for number, (_, records) in enumerate(solution.iter_blocks()):
            histogram += np.bincount(records, minlength=1 << 16)
            wins = np.flatnonzero(records >> 14 == 1)
            if wins.size:
                rem = records[wins] & 0x3FFF
                top = int(rem.argmax())
                if int(rem[top]) > longest_rem:
                    longest_rem, longest_index = int(rem[top]), offset + int(wins[top])
            offset += len(records)
            if progress and number % 64 == 0:
                progress({"phase": "read store", "records": offset, "of": len(solution)})
    by_outcome = {"win": 0, "loss": 0, "draw": 0}
    by_rem: dict[str, dict[str, int]] = {"win": {}, "loss": {}}
    for record in np.flatnonzero(histogram):
        decoded = decode_record(int(record))
        if decoded is None:
            continue
        outcome, plies = decoded
        n = int(histogram[record])
        by_outcome[outcome.label] += n
        if outcome != Outcome.DRAW and plies is not None:
            by_rem[outcome.label][str(plies)] = by_rem[outcome.label].get(str(plies), 0) + n
    by_rem = {k: dict(sorted(v.items(), key=lambda kv: int(kv[0]))) for k, v in by_rem.items()}
    space = EntropySpace(game)
    space.build_tables()
    longest: dict[str, Any] = {}
    if longest_index >= 0:
        position = space.position(longest_index)
        longest = {
            "position": game.render(position),
            "remoteness": longest_rem,
            "line": _perfect_line(game, position),
            "moves": _query(game, position)["moves"],
        }
    root = game.initial_position()
    results: dict[str, Any] = {
        "board": game.render(root),
        "positions": int(sum(by_outcome.values())),
        "by_outcome": by_outcome,
        "by_outcome_remoteness": by_rem,
        "start": _query(game, root),
        "longest_win": longest,
        "store": {"file": entry.path.name},
    }
    if not game_params:
        from proofs.entropy import FIGURE_2, FIGURE_3

        figures = {"figure 2": FIGURE_2, "figure 3": FIGURE_3}
        panels = []
        for figure, moves in FIGURE_LINES:
            position = game.parse(figures[figure])
            for name in moves:
                position = game.play(position, game.parse_move(position, name))
            panels.append(
                {
                    "figure": figure,
                    "after": list(moves),
                    "position": game.render(position),
                    **_query(game, position),
                }
            )
        results["figures"] = panels
    return results


def _fallback(ctx: ReportContext) -> dict[str, Any]:
    """What the entropy.solved certificate stored, when no summary of the stored solution
    has been written yet."""
    e = ctx.evidence("entropy.solved")
    return {
        "positions": e.get("positions_up_to_symmetry"),
        "by_outcome": {"win": e.get("wins"), "loss": e.get("losses"), "draw": e.get("draws")},
        "start": {
            "outcome": e.get("winner"),
            "moves": [
                {"move": m, "outcome": v, "remoteness": None}
                for m, v in (e.get("openings") or {}).items()
            ],
        },
        "longest_win": {"remoteness": e.get("longest_forced_end_plies")},
    }


def build(ctx: ReportContext) -> list[str]:
    ctx.certificates = certificates("entropy", ctx)
    stored = data.load(ctx.out_dir, DATA)
    if stored is None or ctx.refresh:
        try:
            stored = data.save(ctx.out_dir, DATA, compute_from_store({}, ctx.progress), COMMAND)
        except (data.ReportDataError, ImportError, AttributeError) as exc:
            # no stored solution here (or no store at all): the page says so below
            log(ctx.out_dir, f"entropy: no summary of the stored solution: {exc}")
    r = stored.results if stored else _fallback(ctx)
    source = (
        stored.provenance()
        if stored
        else "Numbers from the [`entropy.solved`](claims/entropy.solved.md) certificate; the "
        "summary of the stored solution (`data/entropy-5x5.json`) has not been written yet "
        "(run `cgt solve entropy --solver compiled --save`, then `cgt report entropy --refresh`)."
    )
    small_lines, _ = small_board_section(
        ctx,
        "entropy",
        {"width": 4, "height": 3, "setup": "SSSS/..../OOOO O"},
        "entropy-4x3",
        "4x3, four pieces each (comparison)",
        level="##",
    )
    game = load_game("entropy")
    totals = r["by_outcome"]
    start = r["start"]
    longest = r.get("longest_win") or {}
    figures = r.get("figures") or []

    def fig_values(figure: str, after: list[str]) -> str:
        for panel in figures:
            if panel["figure"] == figure and panel["after"] == after:
                moves = panel["moves"]
                tally = {
                    k: sum(1 for m in moves if m["outcome"] == k) for k in ("win", "draw", "loss")
                }
                return (
                    f"the position is a **{panel['outcome']}** for the player to move"
                    + ("" if panel["remoteness"] is None else f" in {panel['remoteness']} plies")
                    + f" ({tally['win']} winning, {tally['draw']} drawing, {tally['loss']} losing moves)"
                )
        return "not valued yet (no summary of the stored solution)"

    questions = [
        Question(
            "Who wins 5x5 Entropy with perfect play?",
            f"Nobody: the standard start is a **{start['outcome']}**, and each of O's "
            f"{len(start['moves'])} first moves draws. Solved over all "
            f"{count(r['positions'])} positions up to symmetry. Claim {verdict(ctx, 'entropy.solved')}.",
            "[the 5x5 board](#the-5x5-board-from-the-stored-solution)",
        ),
        Question(
            "How long are forced wins?",
            f"Of the positions where someone can force a win, the longest takes "
            f"{longest.get('remoteness', '?')} plies; {pct((totals['win'] or 0) / r['positions'])} of "
            f"all positions are won and {pct((totals['loss'] or 0) / r['positions'])} lost for the "
            "player to move, the rest drawn.",
            "[value and remoteness](#the-5x5-board-from-the-stored-solution)",
        ),
        Question(
            "Figure 2: must O resolve the isolated c5, and are a3-b4 and d3-d5 legal?",
            f"{verdict(ctx, 'entropy.fig2-must-resolve')}; with perfect play "
            + fig_values("figure 2", [])
            + ".",
            "[figure 2](#the-documents-figures-move-by-move)",
        ),
        Question(
            "Figure 2: would S win with b3-c2 and c3-c4?",
            f"{verdict(ctx, 'entropy.fig2-threat')}.",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "Figure 2: after a4-c4 must S move b3 or c3; after e4-c4 is c3-e4 S's only move?",
            f"{verdict(ctx, 'entropy.fig2-a4c4')}; {verdict(ctx, 'entropy.fig2-e4c4')}. After a4-c4 "
            + fig_values("figure 2", ["a4-c4"])
            + "; after e4-c4 "
            + fig_values("figure 2", ["e4-c4"])
            + ".",
            "[figure 2](#the-documents-figures-move-by-move)",
        ),
        Question(
            "Figure 3: is moving the b2 piece O's only defence against d2-e1?",
            f"{verdict(ctx, 'entropy.fig3-only-defence')}; " + fig_values("figure 3", []) + ".",
            "[figure 3](#the-documents-figures-move-by-move)",
        ),
        Question(
            "Figure 3: after b2-b4 and d2-e1, does O win with correct play, and does moving b4 "
            "too early lose?",
            f"{verdict(ctx, 'entropy.fig3-endgame')}; after b2-b4 d2-e1 "
            + fig_values("figure 3", ["b2-b4", "d2-e1"])
            + ".",
            "[figure 3](#the-documents-figures-move-by-move)",
        ),
        Question(
            "Under the other sources' rule (win as soon as no piece of yours touches a friend), "
            "is figure 3 indefensible?",
            "The toolkit has that rule (`-p goal=disable`) but this report does not solve "
            "figure 3 under it.",
            "not computed",
        ),
    ]
    lines = page_head(
        "Entropy: 5x5 from the standard start",
        "5x5 board, seven pieces each (O, the document's white, moves first; S, its red). A "
        "piece moves like a queen, without jumping, but only if it touches a friendly piece; a "
        "player with an isolated piece (touching no piece) must rescue it first, or pass. You "
        "win when every piece of yours touches an enemy piece and no friendly one; if both "
        "players meet it at once, or nobody can move, it is a draw. Endless play is a draw.",
        "entropy",
        SQUARE_NOTATION + " Entropy's pieces: `O` and `S`; a move is written from-to "
        "(`a4-c4`), drawn as an arrow from the piece to its target coloured by value. "
        + VALUE_NOTATION,
        "cgt report entropy",
    )
    lines += questions_section(questions)
    lines += ["## The 5x5 board from the stored solution", ""]
    lines += [
        f"The standard start `{game.render(game.initial_position())}` is a **{start['outcome']}**. "
        f"All {count(r['positions'])} positions of seven O and seven S pieces up to the board's "
        f"8 symmetries, for the player to move: {count(totals['win'])} won, "
        f"{count(totals['loss'])} lost, {count(totals['draw'])} drawn.",
        "",
    ]
    if r.get("by_outcome_remoteness"):
        path = ctx.figure("entropy_5x5_values.png")
        value_remoteness_chart(
            r["by_outcome_remoteness"],
            totals,
            path,
            "Entropy 5x5: positions by value and remoteness",
        )
        lines += ctx.image(path, "positions by value and remoteness")
        top = max((int(k) for v in r["by_outcome_remoteness"].values() for k in v), default=0)
        step = max(1, (top + 1) // 12)
        buckets = list(range(0, top + 1, step))
        rows = []
        for label in ("win", "loss"):
            counts = r["by_outcome_remoteness"].get(label, {})
            rows.append(
                [label]
                + [
                    count(sum(counts.get(str(x), 0) for x in range(b, min(b + step, top + 1))))
                    for b in buckets
                ]
            )
        lines += table(
            ["remoteness"] + [f"{b}-{min(b + step, top + 1) - 1}" for b in buckets], rows
        )
        lines.append("")
    panels = [("standard start: O to move", game.initial_position(), start["moves"])]
    path = ctx.figure("entropy_5x5_openings.png")
    value_maps(game, panels, path)
    lines += ["Every opening (all draw):", ""]
    lines += ctx.image(path, "every opening of 5x5")
    if longest.get("position"):
        lines += [
            f"The longest forced win: `{longest['position']}`, won by the player to move in "
            f"{longest['remoteness']} plies:",
            "",
            f"`{' '.join(longest['line'])}`",
            "",
        ]
        pos = game.parse(longest["position"])
        path = ctx.figure("entropy_5x5_longest-win.png")
        value_maps(
            game,
            [
                (
                    f"wins in {longest['remoteness']}\n{longest['position']}",
                    pos,
                    list(longest.get("moves", [])),
                )
            ],
            path,
        )
        lines += ctx.image(path, "the longest forced win")
    elif longest.get("remoteness"):
        lines += [f"The longest forced win takes {longest['remoteness']} plies.", ""]
    lines += [f"Reproduce: `cgt solve entropy --solver compiled --save`. {source}", ""]
    lines += ["## The document's figures, move by move", ""]
    if figures:
        panels = []
        for panel in figures:
            pos = game.parse(panel["position"])
            after = " ".join(panel["after"])
            caption = (
                f"{panel['figure']}"
                + (f" after {after}" if after else "")
                + f"\n{game.players[game.to_move(pos)]} to move: {panel['outcome']}"
            )
            panels.append((caption, pos, panel["moves"]))
        path = ctx.figure("entropy_figures_values.png")
        value_maps(game, panels, path)
        lines += [
            "Every legal move of the document's figures and of the positions its text reaches, "
            "valued by the stored solution:",
            "",
        ]
        lines += ctx.image(path, "the document's figures, every move valued")
        lines += table(
            [
                "figure",
                "after",
                "to move",
                "value",
                "winning moves",
                "drawing moves",
                "losing moves",
            ],
            [
                [
                    p["figure"],
                    " ".join(p["after"]) or "-",
                    game.players[game.to_move(game.parse(p["position"]))],
                    p["outcome"] + ("" if p["remoteness"] is None else f" in {p['remoteness']}"),
                    ", ".join(f"`{m['move']}`" for m in p["moves"] if m["outcome"] == "win") or "-",
                    ", ".join(f"`{m['move']}`" for m in p["moves"] if m["outcome"] == "draw")
                    or "-",
                    ", ".join(f"`{m['move']}`" for m in p["moves"] if m["outcome"] == "loss")
                    or "-",
                ]
                for p in figures
            ],
        )
        lines.append("")
    else:
        lines += [
            "Not valued yet: the summary of the stored solution has not been written. The "
            "document's statements about them are checked by the claims below.",
            "",
        ]
    lines += small_lines
    lines += claims(ctx)
    return lines


def headline(ctx: ReportContext) -> str:
    stored = data.load(ctx.out_dir, DATA)
    if stored is not None:
        return f"5x5: **a draw**; the longest forced win takes {stored.results['longest_win'].get('remoteness')} plies"
    cert = ctx.out_dir / "claims" / "entropy.solved.json"
    if cert.exists():
        import json

        e = json.loads(cert.read_text()).get("evidence", {})
        return f"5x5: **a {e.get('winner')}**; the longest forced win takes {e.get('longest_forced_end_plies')} plies"
    return "-"


REPORT = GameReport("entropy", SLUG, build, headline)
