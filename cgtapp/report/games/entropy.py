"""Entropy: 5x5 from the standard start, from the stored solution of every position; the
document's figures 2 and 3 valued move by move; 4x3 solved exhaustively for comparison."""

from __future__ import annotations

from typing import Any

import numpy as np

from cgt.progress import Progress
from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.report import data
from cgtapp.report.document import (
    APPENDIX,
    SQUARE_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Implication,
    Opening,
    Question,
    ReportContext,
    certificates,
    claims,
    log,
    opening_sections,
    page_head,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import value_maps, value_remoteness_chart
from cgtapp.report.selfplay import drawn_board_answer, selfplay_section, stored_calibration
from cgtapp.report.tables import count, moves_list, pct, table

SLUG = "entropy"
DATA = "entropy-5x5"
COMMAND = "cgt report entropy --refresh"
#: The self-play calibration of the 5x5 start (benchmarks/selfplay.py calibrate entropy-5x5).
CALIBRATION_BOARD = "entropy-5x5"
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
    game_params: dict[str, Any], progress: Progress | None = None
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


def figure_3_under_disable() -> dict[str, Any]:
    """Figure 3 under the other sources' rule (``goal=disable``): for each of O's moves,
    S's replies that win at once (two plies, every move: exact for "indefensible")."""
    from proofs.entropy import FIGURE_3

    game = load_game("entropy", goal="disable")
    position = game.parse(FIGURE_3)
    replies = {}
    for move in game.moves(position):
        after = game.play(position, move)
        wins = [
            game.move_name(after, reply)
            for reply in game.moves(after)
            if game.result(game.play(after, reply)) is not None
            and game.winner(game.play(after, reply)) == 1 - game.to_move(position)  # type: ignore[attr-defined]
        ]
        replies[game.move_name(position, move)] = wins
    return {
        "position": FIGURE_3,
        "goal": "disable",
        "o_moves": len(replies),
        "o_moves_met_by_an_immediate_s_win": sum(1 for w in replies.values() if w),
        "s_winning_replies": replies,
    }


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
        appendix=True,
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

    share_draw = pct((totals["draw"] or 0) / r["positions"])
    disable_stored = ctx.stored("entropy-figure-3-disable", figure_3_under_disable, COMMAND)
    disable = disable_stored.results

    def figure_panel(figure: str, after: list[str]) -> dict[str, Any]:
        return next(
            (p for p in figures if p["figure"] == figure and p["after"] == after), {"moves": []}
        )

    def moves_of(figure: str, after: list[str], outcome: str) -> list[str]:
        return [m["move"] for m in figure_panel(figure, after)["moves"] if m["outcome"] == outcome]

    fig2_draws = moves_of("figure 2", [], "draw")
    s_losing = moves_of("figure 3", ["b2-b4"], "loss")
    s_moves = figure_panel("figure 3", ["b2-b4"])["moves"]
    implications = [
        Implication(
            f"Entropy needs a rule that ends the game: the 5x5 start is a {start['outcome']} "
            f"only because endless play counts as a draw, a rule the source does not state, and "
            f"{share_draw} of all {count(r['positions'])} positions are drawn the same way.",
            f"エントロピーにはゲームを終わらせる規則が必要です。5x5の初期状態が引き分けなのは"
            f"終わらないプレイを引き分けとした場合だけで、出典にはその規則がありません。全"
            f"{count(r['positions'])}局面の{share_draw}が同じ理由で引き分けです。",
            "exact",
        ),
        Implication(
            f"Where a win can be forced it can take long: the longest forced win lasts "
            f"{longest.get('remoteness', '?')} plies, so a move limit or a repetition rule would "
            "change the result of some won positions as well as end the drawn ones.",
            f"勝ちを強制できる局面でも長くかかることがあり、最長の強制勝ちは"
            f"{longest.get('remoteness', '?')}手です。手数制限や繰り返しの規則は、引き分けの局面を"
            "終わらせるだけでなく、一部の勝ちの局面の結果も変えます。",
            "exact",
        ),
    ]
    questions = [
        Question(
            "Who wins 5x5 Entropy with perfect play?",
            f"Nobody: the standard start is a **{start['outcome']}**, and each of O's "
            f"{len(start['moves'])} first moves draws. Solved over all "
            f"{count(r['positions'])} positions up to symmetry. Claim {verdict(ctx, 'entropy.solved')}.",
            "[the 5x5 board](#the-5x5-board-from-the-stored-solution)",
            "5x5のエントロピーは完全なプレイでどちらが勝つか？",
            f"どちらも勝ちません。初期状態は引き分けで、白(O)の初手{len(start['moves'])}通りはすべて"
            f"引き分けです（対称性を除く全{count(r['positions'])}局面を解析）。終わらないプレイを"
            "引き分けとした場合の結果です。［厳密］",
        ),
        Question(
            "How long are forced wins?",
            f"Of the positions where someone can force a win, the longest takes "
            f"{longest.get('remoteness', '?')} plies; {pct((totals['win'] or 0) / r['positions'])} of "
            f"all positions are won and {pct((totals['loss'] or 0) / r['positions'])} lost for the "
            "player to move, the rest drawn.",
            "[value and remoteness](#the-5x5-board-from-the-stored-solution)",
            "強制勝ちはどれくらい長いか？",
            f"最長の強制勝ちは{longest.get('remoteness', '?')}手です。全局面のうち手番側の勝ちは"
            f"{pct((totals['win'] or 0) / r['positions'])}、負けは"
            f"{pct((totals['loss'] or 0) / r['positions'])}、残りは引き分けです。［厳密］",
        ),
        Question(
            "Figure 2: must O resolve the isolated c5, and are a3-b4 and d3-d5 legal?",
            f"{verdict(ctx, 'entropy.fig2-must-resolve')}; with perfect play "
            + fig_values("figure 2", [])
            + ".",
            "[figure 2](#the-documents-figures-move-by-move)",
            "図2: 白は孤立した`c5`を解消しなければならないか、`a3-b4`と`d3-d5`は合法か？",
            f"はい、どちらも成り立ちます。図2では白の合法手{len(figure_panel('figure 2', [])['moves'])}通りが"
            f"すべて孤立を解消し、そのうち{len(fig2_draws)}通りが引き分けを保ちます。［厳密］",
        ),
        Question(
            "Figure 2: would S win with b3-c2 and c3-c4?",
            f"{verdict(ctx, 'entropy.fig2-threat')}.",
            "[claims](#the-documents-claims)",
            "図2: 赤は`b3-c2`と`c3-c4`で勝つか？",
            "はい。その2手で赤の勝利条件を満たす局面になります。［厳密］",
        ),
        Question(
            "Figure 2: after a4-c4 must S move b3 or c3; after e4-c4 is c3-e4 S's only move?",
            f"{verdict(ctx, 'entropy.fig2-a4c4')}; {verdict(ctx, 'entropy.fig2-e4c4')}. After a4-c4 "
            + fig_values("figure 2", ["a4-c4"])
            + "; after e4-c4 "
            + fig_values("figure 2", ["e4-c4"])
            + ".",
            "[figure 2](#the-documents-figures-move-by-move)",
            "図2: `a4-c4`の後、赤は`b3`か`c3`を動かす必要があるか。`e4-c4`の後、`c3-e4`が赤の唯一の手か？",
            "`a4-c4`の後は成り立ちます。`e4-c4`の後の唯一の手は"
            + moves_list(ctx.evidence("entropy.fig2-e4c4").get("legal_S_moves") or [])
            + "で、`c3-e4`はクイーンの動きでは"
            f"ないので誤植と思われます。`a4-c4`の後、赤の{len(figure_panel('figure 2', ['a4-c4'])['moves'])}手のうち"
            f"{len(moves_of('figure 2', ['a4-c4'], 'loss'))}手は負けです。［厳密］",
        ),
        Question(
            "Figure 3: is moving the b2 piece O's only defence against d2-e1?",
            f"{verdict(ctx, 'entropy.fig3-only-defence')}; " + fig_values("figure 3", []) + ".",
            "[figure 3](#the-documents-figures-move-by-move)",
            "図3: 赤の脅威を防ぐには`b2`の白を動かすしかないか？",
            f"はい。図3で白の{len(figure_panel('figure 3', [])['moves'])}手のうち引き分けを保つのは"
            f"{len(moves_of('figure 3', [], 'draw'))}手（`b2`の白の移動）だけです。［厳密］",
        ),
        Question(
            "Figure 3: after b2-b4 and d2-e1, does O win with correct play, and does moving b4 "
            "too early lose?",
            f"{verdict(ctx, 'entropy.fig3-endgame')}; after b2-b4 d2-e1 "
            + fig_values("figure 3", ["b2-b4", "d2-e1"])
            + ".",
            "[figure 3](#the-documents-figures-move-by-move)",
            "図3: `b2-b4`と`d2-e1`の後、白は正しく指せば勝つか、`b4`を先に動かすと負けるか？",
            f"白は{figure_panel('figure 3', ['b2-b4', 'd2-e1']).get('remoteness')}手で勝ちます。`b4`の移動の"
            "ほとんどは即座に赤の勝ちになりますが、"
            + moves_list(
                [
                    m
                    for m, v in ctx.evidence("entropy.fig3-endgame")
                    .get("first_moves_of_b4", {})
                    .items()
                    if v == "win"
                ]
            )
            + "は勝ちます（図4そのものは出典にないため、"
            "`d2-e1`の後の局面で確認）。［厳密］",
        ),
        Question(
            "Under the other sources' rule (win as soon as no piece of yours touches a friend), "
            "is figure 3 indefensible?",
            f"Yes, at once: under `goal=disable` each of O's {disable['o_moves']} moves in figure "
            f"3 meets an immediate S win ({disable['o_moves_met_by_an_immediate_s_win']} of "
            f"{disable['o_moves']}; every reply checked), as the document says. The whole 5x5 "
            "game under that rule is not solved: it needs a full packed solve like the "
            "standard rule's (see `entropy.solved`), over this session's budget.",
            "computed from figure 3 (two plies, every move)",
            "他の出典の規則（自分のコマが味方と接しなくなったら勝ち）では、図3は守りようがないか？",
            f"はい。その規則では図3の白の{disable['o_moves']}手のうち"
            f"{disable['o_moves_met_by_an_immediate_s_win']}手に赤の即勝ちがあります（すべての応手を"
            "確認）。その規則での5x5全体は解いていません（標準の規則と同じ全局面の解析が"
            "必要で、今回の予算を超えます）。［厳密］",
        ),
        Question(
            "Figure 2 in words: what does O's choice matter?",
            f"Nothing for the result: in figure 2 all {len(fig2_draws)} of O's legal moves hold "
            f"the draw (no move wins, none loses), the document's a4-c4 and e4-c4 included.",
            "[figure 2](#the-documents-figures-move-by-move)",
            "図2を言葉で: 白の選択は結果に影響するか？",
            f"しません。図2の白の合法手{len(fig2_draws)}通りはすべて引き分けを保ちます"
            "（勝つ手も負ける手もありません）。文書の`a4-c4`と`e4-c4`も含みます。［厳密］",
        ),
        Question(
            "Figure 3 after b2-b4: which of S's moves lose?",
            f"Only {moves_list(s_losing)}, of S's {len(s_moves)} moves: the document's own "
            "continuation is S's only losing move; every other move holds the draw (drawn below).",
            "[S's only losing move](#ss-only-losing-move)",
            "図3で`b2-b4`の後、赤のどの手が負けか？",
            f"赤の{len(s_moves)}手のうち{moves_list(s_losing)}だけです。文書が続けた手そのものが赤の"
            "唯一の負けの手で、他の手はすべて引き分けを保ちます（英語版に図があります）。［厳密］",
        ),
    ]
    calibration = stored_calibration(ctx, CALIBRATION_BOARD)
    if calibration is not None:
        en, ja = drawn_board_answer(calibration)
        questions.append(
            Question(
                "How far can self-play be trusted on Entropy? (its calibration on the solved 5x5)",
                en,
                "[calibration](#calibration-on-the-solved-boards)",
                "エントロピーで自己対戦はどこまで信頼できるか？（解決済みの5x5での較正）",
                ja,
            )
        )
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
    lines += opening_sections(ctx, Opening(implications, questions))
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
            shares=True,
        )
        lines += ctx.image(path, "positions by value and remoteness")
        lines += [
            "Left: positions at each remoteness, one point per count (log scale). The points "
            "form two bands: most wins end on the winner's own move (odd remoteness), but in "
            "Entropy a move can also complete the opponent's goal, so a second, lower band of "
            "wins lies at even remoteness, and of losses at odd. Right: each value's share of "
            f"all positions (linear scale): {pct(totals['draw'] / r['positions'])} are drawn.",
            "",
        ]
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
    if s_moves:
        lines += ["### S's only losing move", ""]
        s_panel = figure_panel("figure 3", ["b2-b4"])
        path = ctx.figure("entropy_figure-3_s-losing-move.png")
        value_maps(
            game,
            [("figure 3 after b2-b4: S to move", game.parse(s_panel["position"]), s_moves)],
            path,
        )
        lines += ctx.image(path, "figure 3 after b2-b4, every move of S valued")
    lines += [
        f"Figure 3 under `goal=disable` (every O move, every S reply): {disable_stored.provenance()}",
        "",
    ]
    lines += selfplay_section("entropy", ctx)
    lines += claims(ctx)
    lines += [APPENDIX, ""]
    lines += small_lines
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


TITLE_JA = "エントロピー: 5x5、標準の初期状態"
RULES_JA = (
    "5×5マスの盤面に各自7個のコマ（白(O)が先手、赤(S)）。コマはチェスのQueenと同じく縦横斜めに"
    "好きなだけ動けますが、飛び越せず、味方のコマと隣接しているコマだけが動けます。孤立した"
    "コマ（敵とも味方とも隣接しない）があれば先に解消しなければならず、できなければパスします。"
    "自分のすべてのコマが敵のコマと隣接し、味方のコマとは隣接していなければ勝ちです。両者が"
    "同時に満たした場合や、どちらも動けない場合は引き分けです。終わらないプレイは引き分けと"
    "します（このプロジェクトの規則で、出典にはありません）。"
)

REPORT = GameReport("entropy", SLUG, build, headline, TITLE_JA, RULES_JA)
