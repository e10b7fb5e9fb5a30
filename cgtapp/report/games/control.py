"""Control: size 3 with the perimeter opening and the free opening side by side, size 2 for
comparison, the size-4 attempt."""

from __future__ import annotations

from functools import partial
from typing import Any

from cgt.protocol import Outcome
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
from cgtapp.report.tables import count, moves_list, table

SLUG = "control"
DATA = "control-size-3"
QUESTIONS = "control-questions"
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


def compute_questions(ctx: ReportContext) -> dict[str, Any]:
    """Size 2, every position (retrograde, no symmetry): over every optimal line (the winner
    any fastest win, the loser any slowest loss) how often removal is played and how full
    the board is at the end; and at every position where the game could be ended by
    agreement, whether each of the document's two scorings names the perfect-play winner.
    Size 3: how full the board is at the end of each stored perfect line."""
    from solvers.retrograde import retrograde

    game = load_game("control", size=2)
    solution = retrograde(game, symmetry=False, keep_positions=True, progress=ctx.progress)
    cells = game.board.size  # type: ignore[attr-defined]
    memo: dict[Any, tuple[int, int, int, int]] = {}

    def lines(position: Any) -> tuple[int, int, int, int]:
        """(optimal lines, lines with a removal, removal moves, pieces at the end summed)."""
        key = game.key(position)
        if key in memo:
            return memo[key]
        values = solution.move_values(position)
        if not values:
            white, black = position[0], position[1]
            memo[key] = (1, 0, 0, int(white).bit_count() + int(black).bit_count())
            return memo[key]
        wins = [v for v in values if v.outcome == Outcome.WIN]
        if wins:
            best = min(v.remoteness or 0 for v in wins)
            chosen = [v for v in wins if v.remoteness == best]
        else:
            worst = max(v.remoteness or 0 for v in values)
            chosen = [v for v in values if v.remoteness == worst]
        total = [0, 0, 0, 0]
        for v in chosen:
            n, with_removal, removals, pieces = lines(game.play(position, v.move))
            removal = v.name.startswith("x")
            total[0] += n
            total[1] += n if removal else with_removal
            total[2] += removals + (n if removal else 0)
            total[3] += pieces
        memo[key] = (total[0], total[1], total[2], total[3])
        return memo[key]

    n, with_removal, removals, pieces = lines(game.initial_position())
    scoring: dict[str, dict[str, int]] = {}
    for method in ("empty", "territory"):
        tally = {"positions": 0, "names_the_winner": 0, "tie": 0, "names_the_loser": 0}
        for node in range(len(solution)):
            if solution.terminal[node]:
                continue
            position = solution.position_of(node)
            mover = game.to_move(position)
            scores = game.score(position, method)  # type: ignore[attr-defined]
            winner = mover if solution.outcome(position) == Outcome.WIN else 1 - mover
            tally["positions"] += 1
            if scores[0] == scores[1]:
                tally["tie"] += 1
            elif (scores[0] > scores[1]) == (winner == 0):
                tally["names_the_winner"] += 1
            else:
                tally["names_the_loser"] += 1
        scoring[method] = tally
    stored = data.load(ctx.out_dir, DATA)
    size3 = {}
    for opening, r in stored.results.items() if stored else []:
        g3 = load_game("control", size=3, opening=opening)
        position = g3.initial_position()
        for name in r["principal_variation"]:
            position = g3.play(position, g3.parse_move(position, name))
        size3[opening] = {
            "pieces_at_end": int(position[0]).bit_count() + int(position[1]).bit_count(),
            "cells": g3.board.size,  # type: ignore[attr-defined]
            "final_position": g3.render(position),
        }
    return {
        "size_2": {
            "cells": cells,
            "optimal_lines": n,
            "lines_with_a_removal": with_removal,
            "removal_moves": removals,
            "mean_pieces_at_end": round(pieces / n, 2),
            "agreed_end_scoring": scoring,
        },
        "size_3_perfect_lines": size3,
    }


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
        appendix=True,
    )
    per_wins = [m["move"] for m in perimeter["moves"] if m["outcome"] == "win"]
    free_wins = [m["move"] for m in free["moves"] if m["outcome"] == "win"]
    attempts = attempts_section(ctx, "control")
    asked_stored = ctx.stored(QUESTIONS, lambda: compute_questions(ctx), COMMAND)
    asked = asked_stored.results
    two = asked["size_2"]
    fill = asked["size_3_perfect_lines"]
    records = [a for a in data.attempts(ctx.out_dir) if a.get("game") == "control"]
    sight = next((a for a in records if "sight" in str(a.get("board"))), None)
    empty = two["agreed_end_scoring"]["empty"]
    terr = two["agreed_end_scoring"]["territory"]
    implications = [
        Implication(
            f"The perimeter opening over-corrects on size 3: Black, the second player, wins "
            f"against all {len(perimeter['moves'])} perimeter openings, while a free opening "
            f"lets White win from {len(free_wins)} of {len(free['moves'])} cells, all interior.",
            f"外周への初手制限はサイズ3では効きすぎます。外周の初手{len(perimeter['moves'])}通りの"
            f"すべてに対して後手の黒が勝ち、初手を自由にすると白は{len(free['moves'])}マス中"
            f"内側の{len(free_wins)}マスから勝ちます。",
            "exact",
        ),
        Implication(
            "So the opening rule alone decides who wins on size 3: any rule that allows one of "
            f"those {len(free_wins)} cells gives White the win, any rule that excludes them all "
            "gives it to Black; balance with perfect play can only come from a pie rule, which "
            f"would have {len(free_wins)} winning openings to offer.",
            f"サイズ3では初手の規則だけで勝者が決まります。その{len(free_wins)}マスのどれかを許す"
            "規則は白に、すべてを除く規則は黒に勝ちを与えます。完全なプレイでの均衡はパイルール"
            f"からしか生まれず、その場合は勝ちの初手{len(free_wins)}通りが選択肢になります。",
            "exact",
        ),
        Implication(
            f"The board fills: the size-3 perfect line ends with "
            f"{fill['perimeter']['pieces_at_end']} pieces on {fill['perimeter']['cells']} cells, "
            f"so Control does fix Snort's mostly empty end there.",
            f"盤は埋まります。サイズ3の完全な手順は{fill['perimeter']['cells']}マス中"
            f"{fill['perimeter']['pieces_at_end']}個の駒で終わり、SNORTの「ほとんど空のまま"
            "終わる」問題はここでは解消されています。",
            "exact",
        ),
        *estimated_implications(
            "control",
            ctx,
            ["control-5", "control-5-free", "control-7"],
            Implication(
                "Whether the perimeter opening still over-corrects on sizes 5 and 7, the boards the "
                "document plays, is not yet estimated; size 4 is not solved.",
                "文書が推奨するサイズ5・7で外周制限が効きすぎるかは、まだ推定していません"
                "（サイズ4も未解決です）。",
                "not yet estimated",
            ),
        ),
    ]
    questions = [
        Question(
            "Does the perimeter opening balance the first player's advantage?",
            f"On size 3 it over-corrects: Black, the second player, wins against all "
            f"{len(perimeter['moves'])} perimeter openings ({len(per_wins)} win for White), "
            f"and the game lasts {perimeter['remoteness']} plies with perfect play. On size 2 "
            f"the first player still wins ({size2['remoteness']} plies)." + _checked_sentence(ctx),
            "[size 3](#size-3-perimeter-opening-and-free-opening-side-by-side)",
            "外周への初手制限は先手の有利を打ち消すか？",
            f"サイズ3では効きすぎます。外周の初手{len(perimeter['moves'])}通りすべてで後手の黒が勝ち"
            f"（白の勝ちは{len(per_wins)}通り）、完全な手順で{perimeter['remoteness']}手かかります。"
            f"サイズ2では先手がなお勝ちます（{size2['remoteness']}手）。"
            + _checked_sentence_ja(ctx)
            + "［厳密］",
        ),
        Question(
            "What would a free opening do?",
            f"White wins size 3 with a free opening, but only from {len(free_wins)} of "
            f"{len(free['moves'])} cells, all interior: {moves_list(free_wins)}; every "
            f"perimeter cell loses. The fastest win takes {free['remoteness']} plies.",
            "[opening maps](#size-3-perimeter-opening-and-free-opening-side-by-side)",
            "初手を自由にするとどうなるか？",
            f"サイズ3では白が勝ちますが、{len(free['moves'])}マス中、内側の{len(free_wins)}マス"
            f"（{moves_list(free_wins)}）からだけです。外周のマスはすべて負けです。"
            f"最短の勝ちは{free['remoteness']}手です。［厳密］",
        ),
        Question(
            "Would a pie rule (a two-stone pie, the 12* protocol) balance it?",
            "With perfect play a swap after the first move gives the chooser the win in any "
            'game without draws, so the exact answer is always "the second player"; what '
            f"matters to a pie is how many openings are close, and on size 3 {len(free_wins)} "
            f"of {len(free['moves'])} free openings win for the opener. The toolkit does not "
            "implement the 12* protocol or a two-stone pie, so it cannot solve those.",
            "[opening maps](#size-3-perimeter-opening-and-free-opening-side-by-side)",
            "パイルール（2石のパイ、12*プロトコル）で均衡するか？",
            "引き分けのないゲームでは、完全なプレイのもとで初手後の交換は選ぶ側に勝ちを与えるので、"
            "厳密な答えは常に「後手」です。パイにとって重要なのは際どい初手の数で、サイズ3では"
            f"自由な初手{len(free['moves'])}通り中{len(free_wins)}通りが初手側の勝ちです。"
            "12*プロトコルと2石のパイは未実装のため解けません。",
        ),
        Question(
            "Is removal a move players rarely want?",
            "Measured, not judged (the document states no figure). Over every optimal line of "
            f"size 2 (the winner any fastest win, the loser any slowest loss): "
            f"{count(two['lines_with_a_removal'])} of {count(two['optimal_lines'])} lines play a "
            f"removal. On the one stored perfect line of size 3: perimeter opening "
            f"{perimeter['removals_on_line']} of {len(perimeter['principal_variation'])} moves, "
            f"free opening {free['removals_on_line']} of {len(free['principal_variation'])}. "
            "Every optimal line of size 3 is not counted: it needs the value of every position "
            "on those lines (one compiled solve each), and a trial walk did not finish within "
            "this session's CPU budget on the shared machine.",
            "[perfect lines](#size-3-perimeter-opening-and-free-opening-side-by-side)",
            "除去はめったに選ばれない手か？",
            f"サイズ2の最善手順すべて（勝つ側は最短の勝ち、負ける側は最長の負け）のうち"
            f"{count(two['optimal_lines'])}本中{count(two['lines_with_a_removal'])}本が除去を含みます。"
            f"サイズ3の保存された完全な手順1本では、外周初手で{len(perimeter['principal_variation'])}手中"
            f"{perimeter['removals_on_line']}手、自由な初手で{len(free['principal_variation'])}手中"
            f"{free['removals_on_line']}手です。サイズ3の最善手順すべては数えていません。［厳密］",
        ),
        Question(
            "Does Control fix Snort's weakness, a board left mostly empty at the end?",
            f"On the solved boards, yes: the size-3 perfect line ends with "
            f"{fill['perimeter']['pieces_at_end']} pieces on {fill['perimeter']['cells']} cells "
            f"(free opening: {fill['free']['pieces_at_end']}); over every optimal line of size 2 "
            f"the board ends with {two['mean_pieces_at_end']} pieces on {two['cells']} cells on "
            "average.",
            "[perfect lines](#size-3-perimeter-opening-and-free-opening-side-by-side)",
            "ControlはSNORTの「ほとんど空のまま終わる」問題を解消するか？",
            f"解けた盤では解消します。サイズ3の完全な手順は{fill['perimeter']['cells']}マス中"
            f"{fill['perimeter']['pieces_at_end']}個（自由な初手では{fill['free']['pieces_at_end']}個）"
            f"で終わり、サイズ2の最善手順すべての平均は{two['cells']}マス中"
            f"{two['mean_pieces_at_end']}個です。［厳密］",
        ),
        Question(
            "When players agree to end the game and count, does the count name the player "
            "who would win?",
            f"Measured on every position of size 2 where a game could be ended by agreement "
            f"({count(empty['positions'])}): counting controlled empty cells names the perfect-play "
            f"winner in {count(empty['names_the_winner'])}, ties in {count(empty['tie'])} and names "
            f"the loser in {count(empty['names_the_loser'])}; counting territory (own pieces and "
            f"controlled cells) names the winner in {count(terr['names_the_winner'])}, ties in "
            f"{count(terr['tie'])} and names the loser in {count(terr['names_the_loser'])}.",
            "computed from every position of size 2",
            "合意による終局で数えると、勝つはずのプレイヤーが勝つか？",
            f"サイズ2の全局面（{count(empty['positions'])}）で測定。制御している空きマスを数えると、"
            f"完全なプレイでの勝者と一致{count(empty['names_the_winner'])}、同数{count(empty['tie'])}、"
            f"敗者を勝ちとする{count(empty['names_the_loser'])}。テリトリー（自色の駒と制御マス）で"
            f"数えると一致{count(terr['names_the_winner'])}、同数{count(terr['tie'])}、"
            f"逆{count(terr['names_the_loser'])}です。［厳密］",
        ),
        Question(
            "Who wins the line-of-sight variant?",
            (
                f"Size 3 under sight control: {sight['status']} (from the stored record). "
                if sight
                else "No record of the sight variant. "
            )
            + "Larger boards of the variant are not solved.",
            "[larger boards](#larger-boards-solved-by-a-stored-proof)",
            "視線による制御の変種はどちらが勝つか？",
            (
                f"サイズ3の視線制御は解けています（保存された記録: {sight['status']}）。"
                if sight
                else "記録がありません。"
            )
            + "より大きい盤は未解決です。［厳密］",
        ),
        Question(
            "On size 4 the second player seemed favoured in Ludii play: is it so?",
            "Not known: size 4 is not solved. "
            + ("The attempts and how far they got are listed below. " if attempts else "")
            + f"Claim {verdict(ctx, 'control.size4-second-player')}.",
            "[boards out of reach](#boards-out-of-reach-how-far-the-attempts-got)"
            if attempts
            else "no attempt recorded",
            "サイズ4ではLudiiの対戦で後手が有利に見えたが、本当か？",
            "不明です。サイズ4は未解決です（試行とその到達点は英語版の表にあります）。",
        ),
        Question(
            "Is size 5 rich enough, and do large boards play well with such local influence?",
            "The toolkit cannot answer this: it is a question of taste, and size 5 "
            f"({load_game('control', size=5).board.size} cells) "  # type: ignore[attr-defined]
            "is far beyond exact solving (size 4 is open).",
            "not computed",
            "サイズ5は十分に奥深いか、局所的な影響のゲームは大きい盤でうまく遊べるか？",
            "ツールキットには答えられません。好みの問題であり、サイズ5"
            f"（{load_game('control', size=5).board.size}マス）は厳密解析の"  # type: ignore[attr-defined]
            "はるか先です（サイズ4も未解決）。",
        ),
        Question(
            "Does every game end, without draws?",
            f"Yes: the potential argument is checked move by move, {verdict(ctx, 'control.termination')}; "
            f"{verdict(ctx, 'control.no-draws')}.",
            "[claims](#the-documents-claims)",
            "すべてのゲームは引き分けなく終わるか？",
            "はい。ポテンシャルによる論証はすべてのサイズについて成り立ち、盤全体での照合は"
            + "、".join(
                f"{name}: {entry['method']}（{count(entry['moves'])}手）"
                for name, entry in ctx.evidence_scope("control.termination", "boards").items()
            )
            + "。［厳密］",
        ),
        Question(
            "After equal numbers of moves are the piece counts equal, and does the stuck player "
            "always have less territory?",
            f"{verdict(ctx, 'control.parity')}; {verdict(ctx, 'control.stuck-player-has-less-territory')}.",
            "[claims](#the-documents-claims)",
            "同じ手数の後で駒数は等しいか、手詰まりのプレイヤーは常にテリトリーが少ないか？",
            "どちらも証明書で確認済みです（英語版の主張の表を参照）。",
        ),
        Question(
            "Does line-of-sight control (Tumpletore with removal) really cycle?",
            f"{verdict(ctx, 'control.sight-cycle')}: a cooperative cycle exists, so the "
            "termination proof depends on adjacency.",
            "[claims](#the-documents-claims)",
            "視線による制御（除去ありのTumpletore）は本当に循環するか？",
            "はい。協力すれば循環する手順があるので、終了の証明は隣接による制御に依存します。［厳密］",
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
    lines += opening_sections(ctx, Opening(implications, questions))
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
        plies = ", ".join(str(p["ply"]) for p in size3[opening]["line"])
        lines += [
            f"Every move's value at plies {plies} of the perfect line, {label} (the whole "
            "line is drawn after it):",
            "",
        ]
        lines += ctx.image(path, f"move values along the perfect line, {label}")
        whole = ctx.figure(f"control_size-3_{opening}_whole-line.png")
        draw_line(game, size3[opening]["principal_variation"], whole, list(game.legend))
        lines += [
            f"The perfect line, {label}, every ply (`{' '.join(size3[opening]['principal_variation'])}`):",
            "",
        ]
        lines += ctx.image(whole, f"the whole perfect line, {label}")
    lines += [
        "Reproduce: `cgt solve control -p size=3 --solver compiled` and "
        "`cgt solve control -p size=3 -p opening=free --solver compiled`. "
        + stored.provenance()
        + " The designer's questions on removal, board fill and agreed-end scoring: "
        + asked_stored.provenance(),
        "",
    ]
    lines += attempts
    lines += selfplay_section("control", ctx)
    lines += claims(ctx)
    lines += [APPENDIX, ""]
    lines += small_lines
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


TITLE_JA = "Control: サイズ3、外周への初手と自由な初手"
RULES_JA = (
    "ヘックスグリッド正六角形ボード、開始時は空。あるマスに隣接するマスに置かれている駒の過半数"
    "の色を担当するプレイヤーがそのマスを*制御*します。白は最初にボードの外周のマスに駒を置き、"
    "以降は交互に、相手が制御していない空きマスに自色の駒を1個置くか、自身が制御しているマスの"
    "相手色の駒を1個取り除きます。手番に合法手がないプレイヤーの負けです。"
)

REPORT = GameReport("control", SLUG, build, headline, TITLE_JA, RULES_JA)


def _checked_strategies(ctx: ReportContext) -> list[dict[str, Any]]:
    """Black's size-3 strategies after the perimeter openings a1 and a2 that the size-4
    claim's certificate checked (the other ten openings are their mirror images)."""
    evidence = ctx.certificates.get("control.size4-second-player", {}).get("evidence", {})
    files = evidence.get("strategy_files", {})
    found = [files.get(f"control-3-perimeter-{cell}") for cell in ("a1", "a2")]
    return [f for f in found if f and f.get("verified")]


def _checked_sentence(ctx: ReportContext) -> str:
    found = _checked_strategies(ctx)
    if len(found) < 2:
        return ""
    return (
        " Black's win after a1 and after a2 (the other 10 perimeter openings are their mirror "
        "images) is proved, and the proof checked by an independent verifier: each is written "
        f"out as a strategy ({found[0]['entries']:,} and {found[1]['entries']:,} positions "
        f"with Black's move) that `{found[0]['check_command']}` and the same for a2 verify "
        "from the readable rules."
    )


def _checked_sentence_ja(ctx: ReportContext) -> str:
    found = _checked_strategies(ctx)
    if len(found) < 2:
        return ""
    return (
        f"a1とa2の後の黒の勝ちは戦略として書き出され（{found[0]['entries']:,}局面と"
        f"{found[1]['entries']:,}局面）、読みやすいルールから独立の検証器で確認済みです"
        "（他の10通りはその鏡像）。"
    )
