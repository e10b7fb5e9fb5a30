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
    APPENDIX,
    HEX_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Implication,
    Opening,
    Question,
    ReportContext,
    attempts_section,
    certificates,
    claims,
    line_caption,
    opening_sections,
    page_head,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import draw_line, value_maps
from cgtapp.report.selfplay import estimated_implications, selfplay_section
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


def line_depths(ctx: ReportContext) -> dict[str, Any]:
    """How far each side's pieces advance along each goal's stored perfect line: the most
    rows any piece of the side stands beyond its own home rows at any point of the line."""
    from cgtapp.report import data

    stored = data.load(ctx.out_dir, DATA)
    out: dict[str, Any] = {}
    for goal, entry in stored.results.items() if stored else []:
        game: Any = load_game("lag", size=3, goal=goal)
        rows = game.board.rows
        row_of = {cell: r for r, cells in enumerate(rows) for cell in cells}
        last = len(rows) - 1
        deepest = {"White": 0, "Black": 0}
        position = game.initial_position()
        start_rows = {
            side: {row_of[c] for c in range(game.board.size) if position[k] >> c & 1}
            for k, side in enumerate(("White", "Black"))
        }
        for name in entry["principal_variation"]:
            position = game.play(position, game.parse_move(position, name))
            for k, side in enumerate(("White", "Black")):
                cells = [c for c in range(game.board.size) if position[k] >> c & 1]
                # White advances upward (row 0 is its far row), Black downward
                reach = [
                    (min(start_rows[side]) - row_of[c])
                    if k == 0
                    else (row_of[c] - max(start_rows[side]))
                    for c in cells
                ]
                deepest[side] = max([deepest[side], *reach])
        out[goal] = {
            "rows_beyond_home": deepest,
            "rows_to_the_far_row": {
                "White": min(start_rows["White"]),
                "Black": last - max(start_rows["Black"]),
            },
        }
    return out


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
        ctx,
        "lag",
        TWO_PIECES,
        "lag-size-3-two-pieces",
        "Size 3 with two pieces each (comparison)",
        appendix=True,
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
    depths_stored = ctx.stored("lag-size-3-line-depths", lambda: line_depths(ctx), COMMAND)
    depths = depths_stored.results
    far = by_goal["far-row"]
    fro = by_goal["far-row-one-object"]
    std_wins = [m["move"] for m in std["moves"] if m["outcome"] == "win"]
    hist = measured.get("winner_objects_histogram") or {}
    dispersed = sum(v for k, v in hist.items() if k != "1")
    implications = [
        Implication(
            f"The far-row goal is too sharp: on size 3 Black, the second player, wins in "
            f"{far['remoteness']} plies and every one of White's {len(far['moves'])} openings "
            "loses, so it makes a race the first mover cannot win.",
            f"ファーロウ（相手側の端の列）に着いたら勝ちのゴールは鋭すぎます。サイズ3では後手の黒が"
            f"{far['remoteness']}手で勝ち、白の初手{len(far['moves'])}通りはすべて負けです。",
            "exact",
        ),
        Implication(
            f"The standard goal gives White, the first player, a {std['remoteness']}-ply win "
            f"from {len(std_wins)} of {len(std['moves'])} openings, and far row with one "
            f"object keeps that winner ({fro['remoteness']} plies, {fro['captures']} captures).",
            f"標準のゴールでは先手の白が初手{len(std['moves'])}通り中{len(std_wins)}通りから"
            f"{std['remoteness']}手で勝ち、オブジェクト1個でファーロウに着いたら勝ちのゴールでも"
            f"勝者は変わりません（{fro['remoteness']}手、除去{fro['captures']}回）。",
            "exact",
        ),
    ]
    if measured:
        implications.append(
            Implication(
                f"With perfect play the winner ends with one object on "
                f"{pct(measured.get('winner_one_object_share'))} of the "
                f"{count(measured.get('games'))} optimal lines, so the dispersed win the goal "
                "rule allows is almost never what the best play does on size 3.",
                f"完全なプレイでは、最善手順{count(measured.get('games'))}本の"
                f"{pct(measured.get('winner_one_object_share'))}で勝者がオブジェクト1個で終わり、"
                "ゴール規則が許す分散した勝ちはサイズ3の最善手ではほとんど起きません。",
                "exact",
            )
        )
    implications += estimated_implications(
        "lag",
        ctx,
        ["lag-4", "lag-4-strict", "lag-4-far-row-one-object", "lag-4-far-row", "lag-5"],
        Implication(
            "Whether the same holds on sizes 4 and 5, the boards the document recommends, is "
            "not yet estimated; neither is solved.",
            "文書が推奨するサイズ4・5で同じことが言えるかは、まだ推定していません"
            "（どちらも未解決です）。",
            "not yet estimated",
        ),
    )
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
            "勝者の駒が分散したまま勝つゲームはあるか？",
            (
                f"完全なプレイではまれです。標準のセットアップの最善手順{count(measured.get('games'))}本の"
                f"{pct(measured.get('winner_one_object_share'))}で勝者はオブジェクト1個で終わります。"
                if measured
                else ""
            )
            + f"英語版に描いた完全な手順では白が{std['remoteness']}手の後、オブジェクト"
            f"{std['winner_objects']}個で勝ちます。［厳密］",
        ),
        Question(
            "Can a player aim for a dispersed win on purpose?",
            (
                f"Among the {count(measured.get('games'))} fastest-win lines, {count(dispersed)} end "
                "with the winner holding more than one object, so a dispersed win is reachable "
                "while winning fastest. Whether the winner can force one against every defence "
                "is a different game (a win counts only when dispersed); it is not solved here: "
                "the compiled LAG kernel has no such goal, and the readable rules' solvers do not "
                "finish size 3 within this session's budget."
                if measured
                else "Not measured."
            ),
            "[measurement](claims/lag.ideal-goal-frequency.md)",
            "分散した勝ちを意図して狙えるか？",
            (
                f"最短で勝つ最善手順{count(measured.get('games'))}本のうち{count(dispersed)}本は"
                "勝者のオブジェクトが2個以上で終わるので、最短で勝ちながら分散した勝ちに届くことは"
                "あります。どんな守りに対しても分散した勝ちを強制できるかは別のゲーム"
                "（分散しているときだけ勝ち）で、ここでは解いていません。［厳密］"
                if measured
                else "測定していません。"
            ),
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
            "他のゴールはゲームをどう変えるか（勝者、長さ、除去の回数）？",
            "、".join(
                f"{g}: {'白（先手）' if by_goal[g]['winner'] == 'first' else '黒（後手）'}が"
                f"{by_goal[g]['remoteness']}手で勝ち、除去{by_goal[g]['captures']}回"
                for g in GOALS
            )
            + "。後手に勝ちを渡すのはファーロウのみのゴールだけです。［厳密］",
        ),
        Question(
            "Does the strict goal make play more passive (longer)?",
            ("No, not" if by_goal["strict"]["remoteness"] <= std["remoteness"] else "Yes, it is")
            + f" longer with perfect play: the strict goal lasts {by_goal['strict']['remoteness']} "
            f"plies against {std['remoteness']} under the standard goal, with "
            f"{by_goal['strict']['captures']} captures against {std['captures']}.",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side)",
            "厳格なゴールはプレイを消極的（長く）にするか？",
            f"完全なプレイでは厳格なゴールは{by_goal['strict']['remoteness']}手、標準のゴールは"
            f"{std['remoteness']}手、除去は{by_goal['strict']['captures']}回と{std['captures']}回です。"
            "［厳密］",
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
            + " White+Black). How deep the pieces go on the perfect lines, rows beyond "
            "their own home rows (of the rows to the far row): "
            + "; ".join(
                f"{g} White {d['rows_beyond_home']['White']} of {d['rows_to_the_far_row']['White']}, "
                f"Black {d['rows_beyond_home']['Black']} of {d['rows_to_the_far_row']['Black']}"
                for g, d in depths.items()
            )
            + ".",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side)",
            "ファーロウのゴールは駒が深く入る前にゲームを終わらせ、除去が増えるか？",
            f"オブジェクト1個でファーロウ: {fro['remoteness']}手、除去{fro['captures']}回。"
            f"ファーロウのみ: {far['remoteness']}手、除去{far['captures']}回。完全な手順で駒が"
            "自陣の列を越えて進んだ最大の列数（ファーロウまでの列数中）: "
            + "、".join(
                f"{g} 白{d['rows_beyond_home']['White']}/{d['rows_to_the_far_row']['White']}、"
                f"黒{d['rows_beyond_home']['Black']}/{d['rows_to_the_far_row']['Black']}"
                for g, d in depths.items()
            )
            + "。［厳密］",
        ),
        Question(
            "Does the far-row goal let the attacker threaten two ways (as in Onager)?",
            f"On size 3 the far-row goal is a win for the second player (Black) in "
            f"{by_goal['far-row']['remoteness']} plies: every one of White's "
            f"{len(by_goal['far-row']['moves'])} openings loses, so the first mover cannot "
            "make a double threat stick.",
            "[opening arrows](#size-3-standard-setup-the-four-goals-side-by-side)",
            "ファーロウのゴールで攻め手は（Onagerのように）二方向の脅威を作れるか？",
            f"サイズ3ではファーロウのゴールは後手（黒）の{far['remoteness']}手の勝ちで、白の初手"
            f"{len(far['moves'])}通りはすべて負けです。先手の二重の脅威は成立しません。［厳密］",
        ),
        Question(
            "Is capturing rare, as the document expects?",
            "Measured on the perfect lines (one optimal game per goal), captures: "
            + ", ".join(
                f"{g} {by_goal[g]['captures']} in {by_goal[g]['remoteness']} plies" for g in GOALS
            )
            + ". The document expects captures to be rare; it gives no figure, and on these "
            "lines a capture comes every "
            + ", ".join(
                f"{by_goal[g]['remoteness'] / by_goal[g]['captures']:.1f} plies ({g})"
                for g in GOALS
                if by_goal[g]["captures"]
            )
            + ".",
            "[the four goals](#size-3-standard-setup-the-four-goals-side-by-side)",
            "文書の予想どおり、除去はまれか？",
            "完全な手順（ゴールごとに最善の1局）での除去の回数: "
            + "、".join(
                f"{g} {by_goal[g]['remoteness']}手中{by_goal[g]['captures']}回" for g in GOALS
            )
            + "。文書は数値を示していません。［厳密］",
        ),
        Question(
            "Does every game end (the point of the current goal rule)?",
            f"{verdict(ctx, 'lag.termination')}.",
            "[claims](#the-documents-claims)",
            "すべてのゲームは終わるか（現在のゴール規則の目的）？",
            "はい。すべての合法手がポテンシャルを上げるので同じ局面は繰り返されません"
            "（すべてのサイズについての論証）。［厳密］",
        ),
        Question(
            "The document recommends size 4 or 5: who wins there?",
            "Not known: neither is solved. "
            + ("The attempts are listed below." if attempts else "No attempt is recorded."),
            "[boards out of reach](#boards-out-of-reach-how-far-the-attempts-got)"
            if attempts
            else "not computed",
            "文書はサイズ4か5を推奨している。そこではどちらが勝つか？",
            "不明です。どちらも未解決です（試行とその到達点は英語版の表にあります）。",
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
    lines += opening_sections(ctx, Opening(implications, questions))
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
        plies = ", ".join(str(p["ply"]) for p in std.get("line", []))
        lines += [
            f"Every move's value at plies {plies} of the perfect line (standard goal; the "
            "whole lines are drawn after it):",
            "",
        ]
        lines += ctx.image(path, "move values along the perfect line, standard goal")
    for goal, goal_game in zip(GOALS, games):
        whole = ctx.figure(f"lag_size-3_{goal}_whole-line.png")
        draw_line(goal_game, by_goal[goal]["principal_variation"], whole, list(goal_game.legend))
        lines += [f"The perfect line under goal={goal}, every ply:", ""]
        lines += ctx.image(whole, f"the whole perfect line, goal={goal}")
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
        + stored.provenance()
        + " How deep the pieces go on the perfect lines: "
        + depths_stored.provenance(),
        "",
    ]
    lines += attempts
    lines += selfplay_section("lag", ctx)
    lines += claims(ctx)
    lines += [APPENDIX, ""]
    lines += small_lines
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


TITLE_JA = "LAG: サイズ3、標準のセットアップ、4つのゴール"
RULES_JA = (
    "ヘックスグリッド正六角形ボード。各プレイヤーは自分の側の2列に自色の駒を配置します"
    "（白が下、黒が上）。手番では自色の駒を1個、グリッドに沿った直線上に、ボード上の自色の"
    "*オブジェクト*（隣接してひとつながりの駒）の数ちょうどの距離だけ移動させます。間の駒は"
    "飛び越せ、移動先の相手色の駒は除去されます。前へは常に、横へはオブジェクトの数が減る"
    "ときだけ動かせ、後ろへは動かせません。手番に動かせる駒がなければ、オブジェクトの少ない"
    "プレイヤーの勝ち、同数なら動けないプレイヤーの勝ちです。文書の他のゴールも並べて比べます。"
)

REPORT = GameReport("lag", SLUG, build, headline, TITLE_JA, RULES_JA)
