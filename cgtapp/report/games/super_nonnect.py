"""Super Nonnect: the document's 3x3 board under the original rule (the return strategy,
start by start), hex7 and 2x3 under both rules side by side, 2x2 for comparison."""

from __future__ import annotations

from typing import Any

from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.report import analysis
from cgtapp.report.document import (
    SQUARE_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Question,
    ReportContext,
    attempts_section,
    certificates,
    claims,
    page_head,
    questions_section,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import OUTCOME_COLOURS, draw_positions, value_maps
from cgtapp.report.tables import count, moves_list, table

SLUG = "super-nonnect"
DATA = "super-nonnect-shapes"
COMMAND = "cgt report super-nonnect --refresh"
SHAPES: dict[str, dict[str, Any]] = {"hex7": {"shape": "hex7"}, "2x3": {"a": 2, "b": 3}}
RULES = ("original", "revised")
STRATEGY_CLAIM = "super-nonnect.original-first-player-wins"


def compute_shapes(ctx: ReportContext) -> dict[str, Any]:
    """hex7 and 2x3 under both rules by the compiled solver, with exact remoteness."""
    out: dict[str, Any] = {}
    for label, params in SHAPES.items():
        for rule in RULES:
            game = load_game("super-nonnect", rule=rule, **params)
            out[f"{label} {rule}"] = analysis.compiled(game, progress=ctx.progress)
    return out


def _place_name(game: Any, board: int) -> str:
    """Where mini-board ``board`` sits in the arrangement, in words."""
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


def _who(winner: str) -> str:
    return {"first": "first player", "second": "second player"}.get(winner, winner)


def return_strategy(ctx: ReportContext) -> tuple[list[str], list[dict[str, Any]]]:
    """The return strategy from every starting mini-board of the 3x3 board (from the claim's
    exhaustive walk), drawn as the first cut of each start coloured by success."""
    from proofs.super_nonnect import cell_at

    per_board = ctx.evidence(STRATEGY_CLAIM).get("per_board", {})
    entry = per_board.get("3x3") if isinstance(per_board, dict) else None
    if not isinstance(entry, dict):
        return [], []
    game: Any = load_game("super-nonnect", rule="original")
    starts = entry.get("starts", [])
    rows = []
    colours = {}
    for start in starts:
        holds = bool(start.get("holds"))
        refutation = start.get("refuting_line") or []
        rows.append(
            [
                start["start"],
                _place_name(game, start["start"]),
                f"`{start['first_cut']}`",
                "**wins**" if holds else "fails",
                count(start.get("lines", 0)),
                "-" if holds else f"{start.get('refutation', '')}: `{' '.join(refutation)}`",
            ]
        )
        colours[cell_at(game, start["start"], start["start"])] = OUTCOME_COLOURS[
            Outcome.WIN if holds else Outcome.LOSS
        ]
    lines = [
        "## The 3x3 board, original rule: the return strategy from each start",
        "",
        "The document's strategy: cut the cell at place X of mini-board X, then answer every cut "
        "at place Y with the cell at place X of mini-board Y, which sends the opponent back to X "
        "until X is full. Walked from each of the nine starting mini-boards against every legal "
        "reply of the opponent (exhaustive):",
        "",
    ]
    lines += table(
        [
            "start X",
            "mini-board",
            "first cut",
            "strategy",
            "opponent lines checked",
            "a refuting line (first cut first)",
        ],
        rows,
    )
    lines.append("")
    path = ctx.figure("super-nonnect_3x3_return-strategy.png")
    draw_positions(
        game,
        [
            (
                "3x3, original rule: the first cut of the return strategy from each start",
                game.initial_position(),
            )
        ],
        path,
        [
            (OUTCOME_COLOURS[Outcome.WIN], "the strategy wins from this start"),
            (OUTCOME_COLOURS[Outcome.LOSS], "the opponent refutes it"),
        ],
        colours=[colours],
    )
    lines += ctx.image(path, "where the return strategy wins")
    summary = [
        [
            label,
            f"{len(e.get('strategy_holds_from', []))} of {len(e.get('starts', []))}",
            _who(str(e.get("solved_winner", "-"))),
        ]
        for label, e in per_board.items()
        if isinstance(e, dict)
    ]
    lines += ["The same strategy on every shape checked, with the solved winner:", ""]
    lines += table(["shape", "starts where the strategy wins", "winner (solved)"], summary)
    lines += ["", f"Reproduce: `cgt check {STRATEGY_CLAIM}`", ""]
    return lines, starts


def build(ctx: ReportContext) -> list[str]:
    ctx.certificates = certificates("super-nonnect", ctx)
    stored = ctx.stored(DATA, lambda: compute_shapes(ctx), COMMAND)
    shapes = stored.results
    strategy_lines, starts = return_strategy(ctx)
    holding = [s for s in starts if s.get("holds")]
    game3: Any = load_game("super-nonnect", rule="original")
    small_original, _ = small_board_section(
        ctx,
        "super-nonnect",
        {"a": 2, "b": 2, "rule": "original"},
        "super-nonnect-2x2-original",
        "2x2, original rule",
        level="###",
    )
    small_revised, _ = small_board_section(
        ctx,
        "super-nonnect",
        {"a": 2, "b": 2, "rule": "revised"},
        "super-nonnect-2x2-revised",
        "2x2, revised rule",
        level="###",
    )
    attempts = attempts_section(ctx, "super-nonnect")
    top_left = next((s for s in starts if s["start"] == 0), None)
    change = []
    for label in SHAPES:
        o, r = shapes[f"{label} original"], shapes[f"{label} revised"]
        change.append(
            f"{label}: {_who(o['winner'])} (original, {o['remoteness']} plies) and "
            f"{_who(r['winner'])} (revised, {r['remoteness']} plies)"
        )
    questions = [
        Question(
            "Is the original rule a simple first-player win by the return strategy?",
            (
                f"Only from {len(holding)} of {len(starts)} starts: the strategy wins when started "
                f"in the {', '.join(_place_name(game3, s['start']) for s in holding)} mini-board; "
                f"from the other {len(starts) - len(holding)} the opponent refutes it. "
                if starts
                else ""
            )
            + f"Claim {verdict(ctx, STRATEGY_CLAIM)}.",
            "[start by start](#the-3x3-board-original-rule-the-return-strategy-from-each-start)",
        ),
        Question(
            "Does the document's own example (starting in the top-left mini-board) work?",
            (
                "No: from the top-left start the opponent refutes it ("
                + str(top_left.get("refutation", ""))
                + f"), for example `{' '.join(top_left.get('refuting_line') or [])}`."
                if top_left and not top_left.get("holds")
                else "Yes: the strategy wins from the top-left start."
                if top_left
                else "Not checked."
            ),
            "[start by start](#the-3x3-board-original-rule-the-return-strategy-from-each-start)",
        ),
        Question(
            "Does the revised rule fix the game?",
            f"It blocks the return strategy's last step ({verdict(ctx, 'super-nonnect.revised-blocks-return-strategy')}), "
            f"but on the boards solved it does not change who wins: {'; '.join(change)}.",
            "[both rules side by side](#hex7-and-2x3-under-both-rules-side-by-side)",
        ),
        Question(
            "Who wins the 3x3 board under the revised rule (the document: a full analysis will "
            "take some effort)?",
            _revised_3x3_answer(ctx)
            + ("How far the attempts got is listed below. " if attempts else "")
            + f"Every smaller shape is: {verdict(ctx, 'super-nonnect.revised-outcome')}.",
            "[boards out of reach](#boards-out-of-reach-how-far-the-attempts-got)"
            if attempts
            else "[claims](#the-documents-claims)",
        ),
        Question(
            "Can a row, column or diagonal of three mini-boards be completely cut (the "
            "withdrawn figure)?",
            f"{verdict(ctx, 'super-nonnect.no-line-of-three')}.",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "Do other cell shapes (hexagons, triangles) work?",
            "The hexagonal board of seven flowers (hex7) is analysed below under both rules; "
            "triangular boards are not implemented, so the toolkit cannot answer for them.",
            "[both rules side by side](#hex7-and-2x3-under-both-rules-side-by-side)",
        ),
    ]
    lines = page_head(
        "Super Nonnect: the 3x3 board, and both rules side by side",
        "An impartial game on a board of mini-boards (the document: 3x3 mini-boards of 3x3 "
        "cells). Both players cut cells; the place of a cut inside its mini-board designates "
        "the mini-board of the next cut; the uncut cells must stay connected (a cut that "
        "disconnects them loses, like an illegal move). A player sent to a fully cut mini-board "
        "loses (original rule) or may not be sent there (revised rule).",
        "super-nonnect",
        SQUARE_NOTATION
        + " On the hex7 board a cell is named by its flower and its place in it (`c` centre, "
        "compass directions: `NE.SW` is the south-west cell of the north-east flower). Cut "
        "cells are `x`; after the space come the player to move and the designated mini-board. "
        + VALUE_NOTATION,
        "cgt report super-nonnect",
    )
    lines += questions_section(questions)
    lines += strategy_lines
    lines += ["## hex7 and 2x3 under both rules side by side", ""]
    rows = []
    for key, r in shapes.items():
        wins = [m["move"] for m in r["moves"] if m["outcome"] == "win"]
        rows.append(
            [
                key,
                _who(r["winner"]),
                r["remoteness"],
                f"{len(wins)} of {len(r['moves'])}: {moves_list(wins[:12])}"
                + (" ..." if len(wins) > 12 else ""),
                f"{r['nodes']:,}",
            ]
        )
    lines += table(
        [
            "shape and rule",
            "winner",
            "plies with perfect play",
            "winning first cuts",
            "nodes searched",
        ],
        rows,
    )
    lines.append("")
    games = [
        load_game("super-nonnect", rule=rule, **params)
        for params in SHAPES.values()
        for rule in RULES
    ]
    path = ctx.figure("super-nonnect_shapes_openings.png")
    value_maps(
        games[0],
        [
            (f"{key}: first cut", g.initial_position(), shapes[key]["moves"])
            for key, g in zip(shapes, games)
        ],
        path,
        games=games,
        columns=2,
    )
    lines += ctx.image(path, "value of every first cut, both rules")
    lines += [
        "Reproduce: `cgt solve super-nonnect -p shape=hex7 -p rule=revised --solver compiled` "
        "(and `-p a=2 -p b=3`, `-p rule=original`). " + stored.provenance(),
        "",
    ]
    lines += ["## 2x2 for comparison", ""]
    lines += small_original + small_revised
    lines += attempts
    lines += claims(ctx)
    return lines


def headline(ctx: ReportContext) -> str:
    from cgtapp.report import data

    stored = data.load(ctx.out_dir, DATA)
    if stored is None:
        return "-"
    r = stored.results
    return "; ".join(f"{k}: **{_who(v['winner'])} wins**" for k, v in r.items())


REPORT = GameReport("super-nonnect", SLUG, build, headline)


def _revised_3x3_answer(ctx: ReportContext) -> str:
    """The 3x3 revised board's answer from the claim certificate: solved by the stored proof
    it quotes, or not known."""
    cert = ctx.certificates.get("super-nonnect.revised-outcome", {})
    if "3x3" in cert.get("scope", {}).get("shapes_solved_by_stored_proof", []):
        from proofs.attempts import attempt_sentence

        record = cert.get("evidence", {}).get("solved_by_stored_proof", {}).get("3x3")
        if isinstance(record, dict):
            sentence = attempt_sentence(record, str(record.get("attempt")))
            return (
                f"{sentence[:1].upper()}{sentence[1:]}; the frontier of jobs reached the same "
                "answer (boards out of reach, below). "
            )
    return "Not known: the 3x3 board (81 cells) is not solved. "
