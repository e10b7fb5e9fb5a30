"""Control: size 3 with the perimeter opening and the free opening side by side, size 2 for
comparison, the size-4 attempt."""

from __future__ import annotations

from functools import partial
from typing import Any

from cgt.registry import load_game
from cgtapp.report import analysis
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
from cgtapp.report.tables import moves_list, table

SLUG = "control"
DATA = "control-size-3"
COMMAND = "cgt report control --refresh"
OPENINGS = {"perimeter": "perimeter opening (the document's rule)", "free": "free opening"}
#: Plies of the perfect line whose move values are drawn.
LINE_PLIES = [1, 2, 4]


def compute_size_3(ctx: ReportContext) -> dict[str, Any]:
    """Both openings of size 3 by the compiled solver with exact remoteness, and the move
    values along each perfect line."""
    out: dict[str, Any] = {}
    for opening in OPENINGS:
        game = load_game("control", size=3, opening=opening)
        root = analysis.compiled(game, progress=ctx.progress)
        line = analysis.along_line(
            game,
            root["principal_variation"],
            LINE_PLIES,
            partial(_solve_position, game, ctx),
        )
        removals = [m for m in root["principal_variation"] if m.startswith("x")]
        out[opening] = {**root, "line": line, "removals_on_line": len(removals)}
    return out


def _solve_position(game: Any, ctx: ReportContext, position: Any) -> dict[str, Any]:
    return analysis.compiled(game, position, progress=ctx.progress)


def _removals(line: list[str]) -> int:
    return sum(1 for m in line if m.startswith("x"))


def build(ctx: ReportContext) -> list[str]:
    ctx.certificates = certificates("control", ctx)
    stored = ctx.stored(DATA, lambda: compute_size_3(ctx), COMMAND)
    size3 = stored.results
    perimeter, free = size3["perimeter"], size3["free"]
    small_lines, size2 = small_board_section(
        ctx,
        "control",
        {"size": 2},
        "control-size-2",
        "Size 2 (7 cells), perimeter opening",
        level="##",
    )
    per_wins = [m["move"] for m in perimeter["moves"] if m["outcome"] == "win"]
    free_wins = [m["move"] for m in free["moves"] if m["outcome"] == "win"]
    attempts = attempts_section(ctx, "control")
    questions = [
        Question(
            "Does the perimeter opening balance the first player's advantage?",
            f"On size 3 it over-corrects: Black, the second player, wins against all "
            f"{len(perimeter['moves'])} perimeter openings ({len(per_wins)} win for White), "
            f"and the game lasts {perimeter['remoteness']} plies with perfect play. On size 2 "
            f"the first player still wins ({size2['remoteness']} plies).",
            "[size 3](#size-3-perimeter-opening-and-free-opening-side-by-side)",
        ),
        Question(
            "What would a free opening do?",
            f"White wins size 3 with a free opening, but only from {len(free_wins)} of "
            f"{len(free['moves'])} cells, all interior: {moves_list(free_wins)}; every "
            f"perimeter cell loses. The fastest win takes {free['remoteness']} plies.",
            "[opening maps](#size-3-perimeter-opening-and-free-opening-side-by-side)",
        ),
        Question(
            "Would a pie rule (a two-stone pie, the 12* protocol) balance it?",
            "With perfect play a swap after the first move gives the chooser the win in any "
            'game without draws, so the exact answer is always "the second player"; what '
            f"matters to a pie is how many openings are close, and on size 3 {len(free_wins)} "
            f"of {len(free['moves'])} free openings win for the opener. The toolkit does not "
            "implement the 12* protocol or a two-stone pie, so it cannot solve those.",
            "[opening maps](#size-3-perimeter-opening-and-free-opening-side-by-side)",
        ),
        Question(
            "Is removal a move players rarely want?",
            "Measured, not judged (the document states no figure): removals among the moves of "
            "the perfect lines, size 3 "
            f"perimeter opening {perimeter['removals_on_line']} of "
            f"{len(perimeter['principal_variation'])}, free opening {free['removals_on_line']} of "
            f"{len(free['principal_variation'])}; size 2, {_removals(size2['principal_variation'])} "
            f"of {len(size2['principal_variation'])}. One optimal game per board, not every "
            "optimal game.",
            "[perfect lines](#size-3-perimeter-opening-and-free-opening-side-by-side)",
        ),
        Question(
            "On size 4 the second player seemed favoured in Ludii play: is it so?",
            "Not known: size 4 is not solved. "
            + ("The attempts and how far they got are listed below. " if attempts else "")
            + f"Claim {verdict(ctx, 'control.size4-second-player')}.",
            "[boards out of reach](#boards-out-of-reach-how-far-the-attempts-got)"
            if attempts
            else "no attempt recorded",
        ),
        Question(
            "Is size 5 rich enough, and do large boards play well with such local influence?",
            "The toolkit cannot answer this: it is a question of taste, and size 5 (61 cells) "
            "is far beyond exact solving (size 4 is open).",
            "not computed",
        ),
        Question(
            "Does every game end, without draws?",
            f"Yes: the potential argument is checked move by move, {verdict(ctx, 'control.termination')}; "
            f"{verdict(ctx, 'control.no-draws')}.",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "After equal numbers of moves are the piece counts equal, and does the stuck player "
            "always have less territory?",
            f"{verdict(ctx, 'control.parity')}; {verdict(ctx, 'control.stuck-player-has-less-territory')}.",
            "[claims](#the-documents-claims)",
        ),
        Question(
            "Does line-of-sight control (Tumpletore with removal) really cycle?",
            f"{verdict(ctx, 'control.sight-cycle')}: a cooperative cycle exists, so the "
            "termination proof depends on adjacency.",
            "[claims](#the-documents-claims)",
        ),
    ]
    lines = page_head(
        "Control: size 3, perimeter and free opening",
        "Hexhex board, empty at the start. A player *controls* a cell when a strict majority "
        "of the pieces on its neighbours are theirs. White opens on a perimeter cell; then "
        "each turn a player places a piece on an empty cell the opponent does not control, or "
        "removes an opponent piece from a cell they control. A player with no legal move loses.",
        "control",
        HEX_NOTATION + " Control's pieces: `W` White, `B` Black. A removal is written `x` "
        "and the cell (`xb2`). " + VALUE_NOTATION,
        "cgt report control",
    )
    lines += questions_section(questions)
    lines += ["## Size 3: perimeter opening and free opening side by side", ""]
    rows = []
    for opening, label in OPENINGS.items():
        r = size3[opening]
        wins = [m["move"] for m in r["moves"] if m["outcome"] == "win"]
        rows.append(
            [
                label,
                "White (first)" if r["winner"] == "first" else "Black (second)",
                r["remoteness"],
                f"{len(wins)} of {len(r['moves'])}: {moves_list(wins)}",
                f"`{' '.join(r['principal_variation'])}`",
                f"{r['nodes']:,}",
            ]
        )
    lines += table(
        [
            "opening",
            "winner",
            "plies with perfect play",
            "winning openings",
            "a perfect line",
            "nodes searched",
        ],
        rows,
    )
    lines.append("")
    games = [load_game("control", size=3, opening=o) for o in OPENINGS]
    path = ctx.figure("control_size-3_openings.png")
    value_maps(
        games[0],
        [
            (f"size 3, {label}: White to move", g.initial_position(), size3[o]["moves"])
            for (o, label), g in zip(OPENINGS.items(), games)
        ],
        path,
        games=games,
    )
    lines += ctx.image(path, "value of every opening, perimeter and free")
    for (opening, label), game in zip(OPENINGS.items(), games):
        panels = [
            (line_caption(game, p["ply"], p["position"]), game.parse(p["position"]), p["moves"])
            for p in size3[opening]["line"]
        ]
        path = ctx.figure(f"control_size-3_{opening}_line.png")
        value_maps(game, panels, path, games=[game] * len(panels))
        lines += [f"Every move's value along the perfect line, {label}:", ""]
        lines += ctx.image(path, f"move values along the perfect line, {label}")
    lines += [
        "Reproduce: `cgt solve control -p size=3 --solver compiled` and "
        "`cgt solve control -p size=3 -p opening=free --solver compiled`. " + stored.provenance(),
        "",
    ]
    lines += small_lines
    lines += attempts
    lines += claims(ctx)
    return lines


def headline(ctx: ReportContext) -> str:
    from cgtapp.report import data

    stored = data.load(ctx.out_dir, DATA)
    if stored is None:
        return "-"
    p, f = stored.results["perimeter"], stored.results["free"]
    return (
        f"size 3: **Black (second) wins** against every perimeter opening ({p['remoteness']} plies); "
        f"with a free opening **White wins** from {sum(m['outcome'] == 'win' for m in f['moves'])} interior cells"
    )


REPORT = GameReport("control", SLUG, build, headline)
