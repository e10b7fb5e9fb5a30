"""LAG: size 3 with the standard setup under all four goals side by side, the two-piece
board for comparison, the larger boards' attempts."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from cgt.protocol import Game, Outcome
from cgt.registry import load_game
from cgtapp.report import analysis, data
from cgtapp.report.document import (
    HEX_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Question,
    ReportContext,
    attempts_section,
    certificates,
    claims,
    line_caption,
    page_head,
    questions_section,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import value_maps
from cgtapp.report.tables import count, moves_list, pct, table

SLUG = "lag"
DATA = "lag-size-3"
COMMAND = "cgt report lag --refresh"
GOALS = ("standard", "strict", "far-row-one-object", "far-row")
GOAL_WORDS = {
    "standard": "standard: no move ends it, fewer objects wins, ties to the stuck player",
    "strict": "strict: at the end, one object wins, else lose",
    "far-row-one-object": "far row with one object wins at once",
    "far-row": "far row wins at once (Breakthrough-like)",
}
#: Plies of the standard goal's perfect line whose move values are drawn.
LINE_PLIES = [1, 2, 6]
TWO_PIECES = {"size": 3, "setup": "B.B/..../...../..../W.W W"}


def line_facts(game: Any, line: list[str]) -> dict[str, Any]:
    """What happens on a perfect line: captures, how it ends, the winner's objects."""
    position = game.initial_position()
    captures = 0
    for name in line:
        move = game.parse_move(position, name)
        captures += "x" in name
        position = game.play(position, move)
    mover = game.to_move(position)
    # the player to move at the end may be the winner (standard goal: ties go to the stuck player)
    winner = mover if game.result(position) == Outcome.WIN else 1 - mover
    loser = 1 - winner
    white, black = position[0], position[1]
    return {
        "line_winner": "White" if winner == 0 else "Black",
        "line_complete": game.result(position) is not None,
        "captures": captures,
        "ended_by": "far row" if game.goal_reached(position) else "no legal move",
        "winner_objects": game.objects(position, winner),
        "loser_objects": game.objects(position, loser),
        "pieces_left": {"White": int(white).bit_count(), "Black": int(black).bit_count()},
        "final_position": game.render(position),
    }


def compute_size_3(ctx: ReportContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for goal in GOALS:
        game = load_game("lag", size=3, goal=goal)
        root = analysis.compiled(game, progress=ctx.progress)
        entry = {**root, **line_facts(game, root["principal_variation"])}
        if goal == "standard":
            entry["line"] = analysis.along_line(
                game,
                root["principal_variation"],
                LINE_PLIES,
                partial(_solve_position, game, ctx),
            )
        out[goal] = entry
    return out


def _solve_position(game: Any, ctx: ReportContext, position: Any) -> dict[str, Any]:
    return analysis.compiled(game, position, progress=ctx.progress)


def known_positions(
    game: Game[Any, Any], out_dir: Path
) -> list[tuple[str, list[dict[str, Any]], data.Stored]]:
    """The start of size 3 under the game's goal, and for the standard goal the positions of
    its perfect line, with every move's value, as ``compute_size_3`` stored them."""
    stored = data.load(out_dir, DATA)
    if stored is None:
        return []
    for goal, entry in stored.results.items():
        if load_game("lag", size=3, goal=goal).parameters == game.parameters:
            lines = [entry, *entry.get("line", [])]
            return [(line["position"], line["moves"], stored) for line in lines]
    return []


def _who(winner: str) -> str:
    return "White (first)" if winner == "first" else "Black (second)"


def build(ctx: ReportContext) -> list[str]:
    ctx.certificates = certificates("lag", ctx)
    stored = ctx.stored(DATA, lambda: compute_size_3(ctx), COMMAND)
    by_goal = stored.results
    small_lines, two = small_board_section(
        ctx, "lag", TWO_PIECES, "lag-size-3-two-pieces", "Size 3 with two pieces each (comparison)"
    )
    ideal = ctx.evidence("lag.ideal-goal-frequency")
    per_goal = ideal.get("per_goal", {}) if isinstance(ideal.get("per_goal"), dict) else {}
    std = by_goal["standard"]
    measured = per_goal.get("standard", {})
    random_play = (
        (ideal.get("random") or {}).get("standard", {})
        if isinstance(ideal.get("random"), dict)
        else {}
    )
    attempts = attempts_section(ctx, "lag")
    questions = [
        Question(
            "Are games won with the winner's pieces still dispersed?",
            (
                f"Rarely with perfect play: over all {count(measured.get('games'))} optimal lines of the "
                f"standard setup, {pct(measured.get('winner_one_object_share'))} end with the winner "
                f"holding one object. "
                if measured
                else ""
            )
            + f"On the perfect line drawn below White wins with {std['winner_objects']} object"
            + ("s" if std["winner_objects"] != 1 else "")
            + f" after {std['remoteness']} plies"
            + (
                f"; in random play the winner has one object in {pct(random_play.get('winner_one_object_share'))} "
                f"of {count(random_play.get('games'))} games"
                if random_play.get("winner_one_object_share") is not None
                else ""
            )
            + f". Claim {verdict(ctx, 'lag.ideal-goal-frequency')}.",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side), "
            "[measurement](claims/lag.ideal-goal-frequency.md)",
        ),
        Question(
            "Can a player aim for a dispersed win on purpose?",
            "The toolkit cannot measure intent; what it can say is that under perfect play the "
            "winner reaches one object on "
            + (pct(measured.get("winner_one_object_share")) if measured else "the line shown")
            + " of the optimal lines, so a dispersed win is not what the best play aims for on size 3.",
            "[measurement](claims/lag.ideal-goal-frequency.md)",
        ),
        Question(
            "What do the other goals do to the game: who wins, how long, how many captures?",
            "; ".join(
                f"{g}: {_who(by_goal[g]['winner'])} in {by_goal[g]['remoteness']} plies, "
                f"{by_goal[g]['captures']} capture{'s' if by_goal[g]['captures'] != 1 else ''}"
                for g in GOALS
            )
            + ". Only the pure far-row goal hands the win to the second player.",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side)",
        ),
        Question(
            "Does the strict goal make play more passive (longer)?",
            ("No, not" if by_goal["strict"]["remoteness"] <= std["remoteness"] else "Yes, it is")
            + f" longer with perfect play: the strict goal lasts {by_goal['strict']['remoteness']} "
            f"plies against {std['remoteness']} under the standard goal, with "
            f"{by_goal['strict']['captures']} captures against {std['captures']}.",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side)",
        ),
        Question(
            "Do the far-row goals end the game before the pieces go deep, with more captures?",
            f"Far row with one object: {by_goal['far-row-one-object']['remoteness']} plies, "
            f"{by_goal['far-row-one-object']['captures']} captures, ended by "
            f"{by_goal['far-row-one-object']['ended_by']}; far row alone: "
            f"{by_goal['far-row']['remoteness']} plies, {by_goal['far-row']['captures']} captures, "
            f"ended by {by_goal['far-row']['ended_by']} (pieces left at the end: "
            + ", ".join(
                f"{g} {v['pieces_left']['White']}+{v['pieces_left']['Black']}"
                for g, v in by_goal.items()
            )
            + " White+Black).",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side)",
        ),
        Question(
            "Does the far-row goal let the attacker threaten two ways (as in Onager)?",
            f"On size 3 the far-row goal is a win for the second player (Black) in "
            f"{by_goal['far-row']['remoteness']} plies: every one of White's "
            f"{len(by_goal['far-row']['moves'])} openings loses, so the first mover cannot "
            "make a double threat stick.",
            "[opening arrows](#size-3-standard-setup-the-four-goals-side-by-side)",
        ),
        Question(
            "Is capturing rare, as the document expects?",
            "Measured on the perfect lines (one optimal game per goal), captures: "
            + ", ".join(
                f"{g} {by_goal[g]['captures']} in {by_goal[g]['remoteness']} plies" for g in GOALS
            )
            + ". The document gives no figure to hold this against.",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side)",
        ),
        Question(
            "Does every game end (the point of the current goal rule)?",
            f"{verdict(ctx, 'lag.termination')}.",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "The document recommends size 4 or 5: who wins there?",
            "Not known: neither is solved. "
            + ("The attempts are listed below." if attempts else "No attempt is recorded."),
            "[boards out of reach](#boards-out-of-reach-how-far-the-attempts-got)"
            if attempts
            else "not computed",
        ),
    ]
    lines = page_head(
        "LAG: size 3, standard setup, the four goals",
        "Hexhex board; each player fills the two rows nearest them (White at the bottom, Black "
        "at the top; 7 pieces each on size 3). A piece moves in a straight line exactly as many "
        "cells as its owner has *objects* (connected groups), jumping over anything and "
        "capturing on landing; forward always, sideways only if it reduces the mover's objects, "
        "never backward. When the player to move has no move, fewer objects wins, ties to the "
        "player who cannot move. The document's other goals are compared side by side.",
        "lag",
        HEX_NOTATION + " LAG's pieces: `W` White, `B` Black. A move is written from-to "
        "(`d1-c2`), a capture with `x` (`c2xb3`); the figures draw moves as arrows from the "
        "piece to its target, coloured by value. " + VALUE_NOTATION,
        "cgt report lag",
    )
    lines += questions_section(questions)
    lines += ["## Size 3, standard setup: the four goals side by side", ""]
    rows = []
    for goal in GOALS:
        r = by_goal[goal]
        wins = [m["move"] for m in r["moves"] if m["outcome"] == "win"]
        rows.append(
            [
                GOAL_WORDS[goal],
                _who(r["winner"]),
                f"{len(wins)} of {len(r['moves'])}: {moves_list(wins)}",
                r["remoteness"],
                r["captures"],
                r["ended_by"],
                r["winner_objects"],
                f"{r['nodes']:,}",
            ]
        )
    lines += table(
        [
            "goal",
            "winner",
            "winning openings",
            "plies with perfect play",
            "captures on the perfect line",
            "the perfect line ends by",
            "winner's objects at the end",
            "nodes searched",
        ],
        rows,
    )
    lines += ["", "The perfect lines:", ""]
    lines += table(
        ["goal", "line", "final position"],
        [
            [
                g,
                f"`{' '.join(by_goal[g]['principal_variation'])}`",
                f"`{by_goal[g]['final_position']}`",
            ]
            for g in GOALS
        ],
    )
    lines.append("")
    games = [load_game("lag", size=3, goal=g) for g in GOALS]
    path = ctx.figure("lag_size-3_openings.png")
    value_maps(
        games[0],
        [
            (f"goal={g}: White to move", gm.initial_position(), by_goal[g]["moves"])
            for g, gm in zip(GOALS, games)
        ],
        path,
        games=games,
        columns=2,
    )
    lines += [
        "Every opening under each goal (arrow from piece to target, number = remoteness):",
        "",
    ]
    lines += ctx.image(path, "value of every opening under each goal")
    game = games[0]
    panels = [
        (line_caption(game, p["ply"], p["position"]), game.parse(p["position"]), p["moves"])
        for p in std.get("line", [])
    ]
    if panels:
        path = ctx.figure("lag_size-3_standard_line.png")
        value_maps(game, panels, path)
        lines += ["Every move's value along the perfect line (standard goal):", ""]
        lines += ctx.image(path, "move values along the perfect line, standard goal")
    if per_goal:
        lines += ["### How often the ideal goal is reached", ""]
        lines += [
            "Measured by [`lag.ideal-goal-frequency`](claims/lag.ideal-goal-frequency.md) over "
            "every optimal line (the winner always plays a fastest win, the loser a slowest "
            "loss; exact counts, no sampling):",
            "",
        ]
        lines += table(
            [
                "goal",
                "optimal lines",
                "winner has one object",
                "ended on the far row",
                "winner's objects: lines",
            ],
            [
                [
                    g,
                    count(e.get("games")),
                    pct(e.get("winner_one_object_share")),
                    pct(e.get("far_row_goal_share")),
                    ", ".join(
                        f"{k}: {v:,}" for k, v in (e.get("winner_objects_histogram") or {}).items()
                    ),
                ]
                for g, e in per_goal.items()
                if isinstance(e, dict)
            ],
        )
        lines.append("")
    lines += [
        "Reproduce: `cgt solve lag -p size=3 -p goal=GOAL --solver compiled`. "
        + stored.provenance(),
        "",
    ]
    lines += small_lines
    lines += attempts
    lines += claims(ctx)
    _ = two
    return lines


def headline(ctx: ReportContext) -> str:
    from cgtapp.report import data

    stored = data.load(ctx.out_dir, DATA)
    if stored is None:
        return "-"
    r = stored.results
    return (
        f"size 3: **White wins** in {r['standard']['remoteness']} plies (standard goal); "
        + ", ".join(f"{g}: {_who(r[g]['winner'])}" for g in GOALS[1:])
    )


REPORT = GameReport("lag", SLUG, build, headline)
