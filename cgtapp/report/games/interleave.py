"""Interleave: every pie setup of size 3 (which colour wins, by number of stones, with
example setups drawn), size 2 for comparison."""

from __future__ import annotations

from typing import Any

from cgt.registry import load_game
from cgtapp.report.document import (
    APPENDIX,
    HEX_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Implication,
    Opening,
    Question,
    ReportContext,
    certificates,
    claims,
    opening_sections,
    page_head,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import draw_positions, grouped_bars
from cgtapp.report.selfplay import (
    estimated_implications,
    pie_implications,
    pie_section,
    selfplay_section,
)
from cgtapp.report.tables import count, pct, table

SLUG = "interleave"
WINS = ("stones", "groups")
COMMAND = "cgt report interleave --refresh"
#: Black's share of the setups quoted as "a real chance" in what to change (a reading
#: mark, not a result: the shares themselves are on the page).
BLACK_SHARE_MARK = 0.4


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
        candidates = [r for r in rows if r[key] and r["black_stones"] >= 1]
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


def black_share_by_total(rows: list[dict[str, Any]]) -> dict[int, float]:
    """Black's share of the pie setups (at least one black) with each number of stones."""
    by_total: dict[int, list[int]] = {}
    for r in rows:
        if r["black_stones"] == 0:
            continue
        entry = by_total.setdefault(r["red_stones"] + r["black_stones"], [0, 0])
        entry[0] += r["setups"]
        entry[1] += r["setups"] - r["red_wins"]
    return {t: won / setups for t, (setups, won) in sorted(by_total.items())}


def red_share_by_stone_lead(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Pie setups (at least one black) by who placed fewer stones: -> (setups, Red wins)."""
    out: dict[str, list[int]] = {"Red fewer": [0, 0], "equal": [0, 0], "Black fewer": [0, 0]}
    for r in rows:
        if r["black_stones"] == 0:
            continue
        red, black = r["red_stones"], r["black_stones"]
        key = "Red fewer" if red < black else "equal" if red == black else "Black fewer"
        out[key][0] += r["setups"]
        out[key][1] += r["red_wins"]
    return {k: (v[0], v[1]) for k, v in out.items()}


def _no_black(rows: list[dict[str, Any]]) -> tuple[int, int]:
    setups = sum(r["setups"] for r in rows if r["black_stones"] == 0)
    red = sum(r["red_wins"] for r in rows if r["black_stones"] == 0)
    return setups, red


def setups_section(
    ctx: ReportContext, size: int, results: dict[str, Any], level: str, examples: bool = True
) -> list[str]:
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
    # the table's breakdown; series colours that are not the win/loss colours of the boards
    colours = {"stones": "#444444", "groups": "#AAAAAA"}
    series = []
    cats: list[str] = []
    for win in wins:
        shares = black_share_by_total(results[win]["by_stones"])
        cats = [str(t) for t in shares]
        series.append((f"win={win}", [1 - v for v in shares.values()], colours[win]))
    path = ctx.figure(f"interleave_size-{size}_red-share.png")
    grouped_bars(
        cats,
        series,
        path,
        f"Interleave size {size}: share of the pie setups Red wins, by stones placed",
        "share of the setups Red wins",
        xlabel="stones placed in the setup (at least one black)",
    )
    lines += ["The same shares drawn:", ""]
    lines += ctx.image(path, "Red's share by stones placed")
    drawn = _example_setups(size, results["stones"]["by_stones"]) if examples else []
    if drawn:
        path = ctx.figure(f"interleave_size-{size}_example-setups.png")
        draw_positions(
            game,
            [
                (f"{colour} wins (win=stones)\n{text}", game.parse(text + " R"))
                for colour, text in drawn
            ],
            path,
            list(game.legend),
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
        appendix=True,
    )
    s3, s2 = big.results, small.results
    pie = {w: s3[w]["pie_setups"] for w in WINS if w in s3}
    no_black, no_black_red = _no_black(s3["stones"]["by_stones"])
    examples = _example_setups(3, s3["stones"]["by_stones"])
    cells3 = load_game("interleave", size=3).board.size  # type: ignore[attr-defined]
    black_share = {w: black_share_by_total(s3[w]["by_stones"]) for w in pie}
    fewest = {w: min(t for t, v in black_share[w].items() if v > 0) for w in pie}
    mark = {
        w: next((t for t, v in black_share[w].items() if v >= BLACK_SHARE_MARK), None) for w in pie
    }
    lead = {w: red_share_by_stone_lead(s3[w]["by_stones"]) for w in pie}
    size2_share = (
        (ctx.certificates.get("interleave.red-advantage") or {})
        .get("measurement", {})
        .get("value", "not measured")
    )
    implications = [
        Implication(
            f"The groups condition almost neutralises Red's tie-break: over every size-3 pie "
            f"setup (up to symmetry) Red wins {_share(pie['groups'])} under win=groups against "
            f"{_share(pie['stones'])} under win=stones, so a designer who wants the pie to be a "
            "real choice should prefer win=groups.",
            f"最大グループカスケードは赤の同数時の有利をほぼ打ち消します。サイズ3のパイルールの"
            f"セットアップすべて（対称性を除く）で赤の勝ちは最大グループカスケードで"
            f"{_share(pie['groups'])}、駒数の勝利条件で{_share(pie['stones'])}です。",
            "exact",
        ),
        Implication(
            "Sparse setups are Red's: on size 3 Black's share of the setups grows with the "
            "stones placed, "
            + "; ".join(
                f"under win={w} from {pct(black_share[w][fewest[w]])} with {fewest[w]} stones, "
                f"reaching {pct(BLACK_SHARE_MARK)} only with {mark[w]} stones"
                for w in pie
            )
            + ", so a minimum number of stones in the setup rule would remove setups the "
            "chooser answers with Red on sight.",
            "まばらなセットアップは赤のものです。サイズ3で黒が勝つセットアップの割合は駒数とともに"
            "増え、"
            + "、".join(
                f"{w}では{fewest[w]}個で{pct(black_share[w][fewest[w]])}、"
                f"{pct(BLACK_SHARE_MARK)}に届くのは{mark[w]}個から"
                for w in pie
            )
            + "です。セットアップの駒数に下限を設ければ、一目で赤を選べるセットアップを除けます。",
            "exact",
        ),
        *estimated_implications(
            "interleave",
            ctx,
            ["interleave-4", "interleave-4-groups", "interleave-5"],
            Implication(
                "On sizes 4 and 5, the boards the designers play, Red's edge is not yet estimated.",
                "設計者が遊ぶサイズ4・5での赤の有利は、まだ推定していません。",
                "not yet estimated",
            ),
        ),
        *pie_implications("interleave", ctx),
    ]
    questions = [
        Question(
            "How strong is Red's tie-break?",
            f"On size 3, of the {count(pie['stones']['setups_up_to_symmetry'])} pie setups (up "
            "to symmetry), Red wins "
            + " and ".join(f"{_share(p)} under win={w}" for w, p in pie.items())
            + f" (every setup solved). On size 2, over the 6 turn and win models, claim "
            f"{verdict(ctx, 'interleave.red-advantage')}. The two boards give different "
            "shares; both are exact for their board.",
            "[every setup of size 3](#size-3-every-pie-setup)",
            "赤の同数時の有利はどれほど強いか？",
            f"サイズ3のパイルールのセットアップ{count(pie['stones']['setups_up_to_symmetry'])}通り"
            "（対称性を除く）で赤の勝ちは"
            + "、".join(f"{w}で{_share(p)}" for w, p in pie.items())
            + f"です。サイズ2では6つのモデルで赤の勝ち{size2_share}です。盤ごとに異なる値で、"
            "どちらもその盤について厳密です。［厳密］",
        ),
        Question(
            "How many stones does a setup need?",
            "Black wins no size-3 pie setup with fewer than "
            + " or ".join(f"{fewest[w]} stones (win={w})" for w in pie)
            + "; every setup with fewer is a Red win, the single black stone included. Black's "
            "share then grows with the stones: "
            + "; ".join(
                f"win={w}: " + ", ".join(f"{t}: {pct(v)}" for t, v in black_share[w].items())
                for w in pie
            )
            + " (stones placed: Black's share).",
            "[by number of stones](#which-setups-each-colour-wins-by-number-of-stones)",
            "セットアップには何個の駒が必要か？",
            "サイズ3で黒が勝つパイルールのセットアップは"
            + "、".join(f"{w}で{fewest[w]}個以上" for w in pie)
            + "のものだけで、それより少ないセットアップ（黒1個だけのものを含む）はすべて赤の勝ちです。"
            "［厳密］",
        ),
        Question(
            "Does the colour that placed fewer stones in the setup have the edge?",
            "Red's share of the size-3 pie setups (every setup counted) by who placed fewer: "
            + "; ".join(
                f"win={w}: "
                + ", ".join(f"{k} {pct(v[1] / v[0]) if v[0] else '-'}" for k, v in lead[w].items())
                for w in pie
            )
            + ".",
            "[by number of stones](#which-setups-each-colour-wins-by-number-of-stones)",
            "セットアップで駒が少ない色が有利か？",
            "サイズ3のパイルールのセットアップでの赤の勝率（どちらが少ないか別）: "
            + "。".join(
                f"{w}: "
                + "、".join(
                    f"{ {'Red fewer': '赤が少ない', 'equal': '同数', 'Black fewer': '黒が少ない'}[k] } "
                    f"{pct(v[1] / v[0]) if v[0] else '-'}"
                    for k, v in lead[w].items()
                )
                for w in pie
            )
            + "。［厳密］",
        ),
        Question(
            "Do colour-swap pairs (a setup and its colours swapped) go to the same colour on "
            "size 3?",
            "Counted on size 2 only (claim interleave.red-advantage). Size 3 is not counted: the "
            "stored sweep keeps the counts by number of stones, not each setup's winner; the "
            "winners setup by setup come from one more sweep per win condition "
            "(`solvers.kernels.interleave.setup_winners`, the full mode of "
            "interleave.timing-independence: minutes of CPU and over 2 GiB each), which this "
            "session's shared machine did not run.",
            "[claims](#the-documents-claims)",
            "色を入れ替えたセットアップの組は同じ色が勝つか（サイズ3）？",
            "サイズ2でのみ数えています。サイズ3は保存された集計が駒数別の数だけで、"
            "個々のセットアップの勝者を持たないため数えていません。",
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
            "なぜセットアップに黒の駒が必要か？",
            "黒がないと空の盤が合法なセットアップになり、そこでは誰も駒を配置できない（マスを見て"
            "いる相手の駒が自分の駒より多い必要がある）ので、同数で赤が一手も指さずに勝ちます。"
            f"サイズ3の黒のないセットアップ{count(no_black)}通り（空の盤を含む）のうち赤の勝ちは"
            f"{count(no_black_red)}（{pct(no_black_red / no_black)}）です。［厳密］",
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
            "どのセットアップが公平か？",
            "完全なプレイではどれも公平ではありません。引き分けがないので、どのセットアップも"
            "どちらかの色の勝ちで、選ぶ側はその色を取ります。セットアップする側が使えるのは駒数に"
            "よる勝者の分かれ目と、勝者が見えにくいセットアップで、ツールキットが測れるのは前者です。"
            "駒の最も少ない例: "
            + "、".join(f"{ {'Red': '赤', 'Black': '黒'}[c] }の勝ち `{t}`" for c, t in examples)
            + "。［厳密］",
        ),
        Question(
            "Is there really no race (nobody gains by placing first or blocking)?",
            f"Yes: {verdict(ctx, 'interleave.exclusive')}; {verdict(ctx, 'interleave.no-race')} "
            "(a per-line argument, checked exhaustively on small boards).",
            "[claims](#the-documents-claims)",
            "本当に早い者勝ちの競争はないか（先に置く・妨害する得はないか）？",
            "はい。直線ごとの論証（すべてのサイズ）と小さい盤での網羅的な確認によります。［厳密］",
        ),
        Question(
            "Do turns emerge: does only the losing player need to place?",
            f"{verdict(ctx, 'interleave.emergent-turn')}.",
            "[claims](#the-documents-claims)",
            "手番は自然に生まれるか（負けているプレイヤーだけが置けばよいか）？",
            "サイズ2（全局面）でのみ確認済みで、例外はありませんでした。大きい盤は未確認です。［厳密］",
        ),
        Question(
            "Does the turn model (Ai Ai's pass turns, the loser moves) change the winner?",
            f"No: {verdict(ctx, 'interleave.timing-independence')}.",
            "[claims](#the-documents-claims)",
            "手番のモデル（Ai Aiのパス手番、負けている側が動く）で勝者は変わるか？",
            "変わりません。サイズ2の全局面とサイズ3の全セットアップで、3つの手番モデルは毎回同じ"
            "勝者を出します。［厳密］",
        ),
        Question(
            "Is the game hard to read at the table (visibility)?",
            "The toolkit cannot answer this: it is about human perception, not about play.",
            "not computed",
            "盤面は卓上で読みにくいか（視認性）？",
            "ツールキットには答えられません。プレイではなく人の知覚の問題です。",
        ),
        Question(
            "Is there a 12*-protocol analogue, a rule that starts from the empty board, or a "
            "looser placement rule without races?",
            "Open design questions the toolkit does not answer; the no-race check "
            "(`interleave.no-race`) can test a proposed placement rule once it is written as a "
            "game variant.",
            "not computed",
            "12*プロトコルに相当するもの、空の盤から始める規則、競争のないより緩い配置規則はあるか？",
            "ツールキットが答えない設計上の問いです。提案された配置規則は、ゲームの変種として"
            "書けば競争がないことを確認できます（`interleave.no-race`）。",
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
    lines += opening_sections(ctx, Opening(implications, questions))
    lines += ["## Size 3: every pie setup", ""]
    lines += [
        f"Every setup of the {cells3} cells solved at once (one packed sweep over all "
        f"3^{cells3} "
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
    lines += selfplay_section("interleave", ctx)
    lines += pie_section("interleave", ctx)
    lines += claims(ctx)
    lines += [APPENDIX, ""]
    lines += ["### Size 2: every pie setup", ""]
    lines += setups_section(ctx, 2, s2, "####", examples=False)
    lines += [small.provenance(), ""]
    lines += small_lines
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


TITLE_JA = "Interleave: サイズ3のパイルールのセットアップすべて"
RULES_JA = (
    "ヘックスグリッド正六角形ボード、赤と黒の駒。空きマスは6方向それぞれの最初の駒に*見られ*"
    "ます（視線）。プレイヤーは、自分の駒より多くの相手の駒に見られている空きマスに駒を配置"
    "できます。パイルールのセットアップ（一方が黒を1個以上含む任意の駒を配置し、もう一方が色を"
    "選ぶ）の後、両者はリアルタイムで配置します。勝利条件は配置した駒が多い色（`win=stones`）か"
    "最大グループカスケード（`win=groups`）で、同数は赤の勝ちです。解析では手番を与えますが、"
    "勝者は手番のモデルによりません。"
)

REPORT = GameReport("interleave", SLUG, build, headline, TITLE_JA, RULES_JA)
