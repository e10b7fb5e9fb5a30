"""Super Nonnect: the document's 3x3 board under the original rule (the return strategy,
start by start), hex7 and 2x3 under both rules side by side, 2x2 for comparison."""

from __future__ import annotations

import json
from typing import Any

from cgt.protocol import Outcome
from cgt.registry import load_game
from cgtapp.report import analysis, data
from cgtapp.report.document import (
    APPENDIX,
    SQUARE_NOTATION,
    VALUE_NOTATION,
    GameReport,
    Implication,
    Opening,
    Question,
    ReportContext,
    attempts_section,
    certificates,
    claims,
    opening_sections,
    page_head,
    small_board_section,
    verdict,
)
from cgtapp.report.figures import NO_MOVE_COLOUR, OUTCOME_COLOURS, draw_positions, value_maps
from cgtapp.report.selfplay import estimated_implications, selfplay_section
from cgtapp.report.tables import count, moves_list, table

SLUG = "super-nonnect"
DATA = "super-nonnect-shapes"
COMMAND = "cgt report super-nonnect --refresh"
SHAPES: dict[str, dict[str, Any]] = {"hex7": {"shape": "hex7"}, "2x3": {"a": 2, "b": 3}}
RULES = ("original", "revised")
STRATEGY_CLAIM = "super-nonnect.original-first-player-wins"
REVISED_CLAIM = "super-nonnect.revised-outcome"
OPENINGS_3X3 = "super-nonnect-3x3-revised-openings"
#: Starts the return strategy fails from: neither a win nor a loss of the cut.
STRATEGY_FAILS_COLOUR = "#999999"
#: Colours of the 3x3 openings figure.
OPENING_COLOURS = {
    "win": OUTCOME_COLOURS[Outcome.WIN],
    "loss": OUTCOME_COLOURS[Outcome.LOSS],
    "open": NO_MOVE_COLOUR,
}
OPENING_WORDS = {"win": "wins", "loss": "loses", "open": "not decided within the budget"}


def openings_3x3(ctx: ReportContext) -> tuple[list[str], dict[str, Any]]:
    """The 3x3 board under both rules side by side: the winner and its basis, and the value
    of every first cut under the revised rule as far as the stored proofs got."""
    game: Any = load_game("super-nonnect", rule="revised")
    stored = data.load(ctx.out_dir, OPENINGS_3X3)
    openings = stored.results["openings"] if stored else {}
    strategy = ctx.evidence(STRATEGY_CLAIM).get("per_board", {}).get("3x3", {})
    e5 = [s["first_cut"] for s in strategy.get("starts", []) if s.get("holds")]
    revised = ctx.evidence(REVISED_CLAIM).get("solved_by_stored_proof", {}).get("3x3") or {}
    revised_wins = [m for m, v in (revised.get("openings") or {}).items() if v == "win"]
    lines = ["## The 3x3 board: original and revised rule side by side", ""]
    lines += table(
        ["rule", "winner", "a winning first cut", "how it is known", "plies with perfect play"],
        [
            [
                "original",
                _who(str(strategy.get("solved_winner", "-"))),
                moves_list(e5),
                f"the return strategy wins against every reply ({verdict(ctx, STRATEGY_CLAIM)})",
                "not computed (a strategy, not a solve)",
            ],
            [
                "revised",
                "first player" if revised_wins else "not known",
                moves_list(revised_wins),
                f"df-pn proof stored, not re-run ({verdict(ctx, REVISED_CLAIM)})",
                "not computed (df-pn proves the value only)",
            ],
        ],
    )
    lines.append("")
    if openings:
        rows = []
        colours = {}
        for entry in openings.values():
            rows.append(
                [
                    moves_list(entry["same_up_to_symmetry"]),
                    f"**{OPENING_WORDS[entry['outcome']]}**",
                    f"{entry['nodes']:,}",
                    f"{entry['seconds']:g} (budget {entry['max_seconds']:g})",
                ]
            )
            for name in entry["same_up_to_symmetry"]:
                move = game.parse_move(game.initial_position(), name)
                colours[game.move_target(game.initial_position(), move)] = OPENING_COLOURS[
                    entry["outcome"]
                ]
        tally = {
            k: sum(len(e["same_up_to_symmetry"]) for e in openings.values() if e["outcome"] == k)
            for k in OPENING_WORDS
        }
        root = game.initial_position()
        cuts = len(game.moves(root))
        lines += [
            "The first cuts under the revised rule, one df-pn proof per cut up to symmetry "
            f"(the value for the player who cuts), {sum(tally.values())} of the {cuts} cuts "
            f"tried: {tally['win']} win, {tally['loss']} lose, {tally['open']} not decided "
            "within the budget; the others are not tried (over this session's budget: a cut "
            "that stays open costs its whole budget).",
            "",
        ]
        lines += table(["first cuts (alike up to symmetry)", "value", "nodes", "seconds"], rows)
        lines.append("")
        path = ctx.figure("super-nonnect_3x3_revised_openings.png")
        draw_positions(
            game,
            [("3x3, revised rule: the value of every first cut", game.initial_position())],
            path,
            [
                (OPENING_COLOURS["win"], "the cut wins"),
                (OPENING_COLOURS["loss"], "the cut loses"),
                (OPENING_COLOURS["open"], "not decided"),
            ],
            colours=[colours],
        )
        lines += ctx.image(path, "value of every first cut of 3x3, revised rule")
        lines += [f"Reproduce: `{stored.command}`. {stored.provenance()}" if stored else "", ""]
    else:
        lines += ["The value of every first cut under the revised rule is not computed yet.", ""]
    return lines, {"openings": openings, "e5": e5, "revised_wins": revised_wins}


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
        # a start the strategy fails from is not a losing cut: grey, not the loss colour
        colours[cell_at(game, start["start"], start["start"])] = (
            OUTCOME_COLOURS[Outcome.WIN] if holds else STRATEGY_FAILS_COLOUR
        )
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
            (STRATEGY_FAILS_COLOUR, "the opponent refutes the strategy (not a value of the cut)"),
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
        appendix=True,
    )
    small_revised, _ = small_board_section(
        ctx,
        "super-nonnect",
        {"a": 2, "b": 2, "rule": "revised"},
        "super-nonnect-2x2-revised",
        "2x2, revised rule",
        appendix=True,
    )
    attempts = attempts_section(ctx, "super-nonnect")
    side_by_side, three = openings_3x3(ctx)
    top_left = next((s for s in starts if s["start"] == 0), None)
    change = []
    for label in SHAPES:
        o, r = shapes[f"{label} original"], shapes[f"{label} revised"]
        change.append(
            f"{label}: {_who(o['winner'])} (original, {o['remoteness']} plies) and "
            f"{_who(r['winner'])} (revised, {r['remoteness']} plies)"
        )
    same_start = [s["start"] for s in starts if s["first_cut"] in three["revised_wins"]]
    solved = [
        f"{label} ({_who(shapes[f'{label} original']['winner'])} under both)"
        for label in SHAPES
        if shapes[f"{label} original"]["winner"] == shapes[f"{label} revised"]["winner"]
    ]
    implications = [
        Implication(
            f"Under the original rule the first player wins the document's 3x3 board by "
            f"cutting {moves_list(three['e5'])} and playing the return strategy, which wins "
            f"against every reply from there ({len(holding)} of {len(starts)} starts); the "
            "document's top-left example is not one of them.",
            f"元のルールでは、先手は{moves_list(three['e5'])}を削って戻りの戦略を使えば3x3で勝ちます"
            f"（{len(starts)}通りの始点のうち{len(holding)}通りだけで、あらゆる応手に勝ちます）。"
            "文書の左上の例はその始点ではありません。",
            "exact",
        ),
        Implication(
            "The revised rule does not change the winner on any board solved so far: "
            + ", ".join(solved)
            + (
                f", and 3x3, where the first player wins with {moves_list(three['revised_wins'])}"
                if three["revised_wins"]
                else ""
            )
            + (
                ", which is the return strategy's own first cut from the "
                + ", ".join(_place_name(game3, x) for x in same_start)
                + " mini-board"
                if same_start
                else ""
            )
            + ". To take the win from the first player the revised rule is not enough.",
            "改訂ルールは、これまでに解けたどの盤でも勝者を変えません（"
            + "、".join(
                f"{label}はどちらのルールでも"
                f"{'先手' if shapes[f'{label} revised']['winner'] == 'first' else '後手'}の勝ち"
                for label in SHAPES
                if shapes[f"{label} original"]["winner"] == shapes[f"{label} revised"]["winner"]
            )
            + (
                f"、3x3では先手が{moves_list(three['revised_wins'])}で勝ちます"
                if three["revised_wins"]
                else ""
            )
            + ("。これは戻りの戦略の初手そのものです" if same_start else "")
            + "）。先手の勝ちをなくすには改訂ルールだけでは足りません。",
            "exact",
        ),
        *estimated_implications(
            "super-nonnect",
            ctx,
            ["super-nonnect-2x5", "super-nonnect-2x5-revised"],
            Implication(
                "On a board larger than 3x3 neither rule is estimated yet.",
                "3x3より大きい盤では、どちらのルールもまだ推定していません。",
                "not yet estimated",
            ),
        ),
    ]
    tried = sum(len(e["same_up_to_symmetry"]) for e in three["openings"].values())
    decided = sum(
        len(e["same_up_to_symmetry"]) for e in three["openings"].values() if e["outcome"] != "open"
    )
    questions = [
        Question(
            "Who wins the 3x3 board under the original rule?",
            f"The first player, by cutting {moves_list(three['e5'])} (the centre of the centre "
            "mini-board) and answering with the return strategy, which wins against every "
            f"reply from there. Claim {verdict(ctx, STRATEGY_CLAIM)}.",
            "[start by start](#the-3x3-board-original-rule-the-return-strategy-from-each-start)",
            "元のルールで3x3はどちらが勝つか？",
            f"先手です。{moves_list(three['e5'])}（中央の〈小盤〉の中央）を削り、戻りの戦略で応じれば、"
            "あらゆる応手に勝ちます。［厳密］",
        ),
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
            "元のルールは戻りの戦略による単純な先手必勝か？",
            f"{len(starts)}通りの始点のうち{len(holding)}通り"
            f"（{'、'.join(moves_list([s['first_cut']]) for s in holding)}）からだけ勝ちます。"
            f"他の{len(starts) - len(holding)}通りでは相手が戦略を崩します。［厳密］",
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
            "文書の例（左上の〈小盤〉から始める）はうまくいくか？",
            (
                f"いいえ。左上から始めると相手が崩します。例: `{' '.join(top_left.get('refuting_line') or [])}`。［厳密］"
                if top_left and not top_left.get("holds")
                else "はい。［厳密］"
            ),
        ),
        Question(
            "Does the revised rule fix the game?",
            f"It blocks the return strategy's last step ({verdict(ctx, 'super-nonnect.revised-blocks-return-strategy')}), "
            f"but on the boards solved it does not change who wins: {'; '.join(change)}.",
            "[both rules side by side](#hex7-and-2x3-under-both-rules-side-by-side)",
            "改訂ルールでゲームは直るか？",
            "戻りの戦略の最後の一手は禁じられますが、解けた盤では勝者は変わりません: "
            + "、".join(
                f"{label}は元のルールで{shapes[f'{label} original']['remoteness']}手、改訂ルールで"
                f"{shapes[f'{label} revised']['remoteness']}手、どちらも"
                f"{'先手' if shapes[f'{label} revised']['winner'] == 'first' else '後手'}の勝ち"
                for label in SHAPES
            )
            + "。［厳密］",
        ),
        Question(
            "Who wins the 3x3 board under the revised rule (the document: a full analysis will "
            "take some effort)?",
            _revised_3x3_answer(ctx)
            + ("How far the attempts got is listed below. " if attempts else "")
            + f"Every smaller shape is: {verdict(ctx, 'super-nonnect.revised-outcome')}.",
            "[larger boards solved](#larger-boards-solved-by-a-stored-proof)"
            if attempts
            else "[claims](#the-documents-claims)",
            "改訂ルールで3x3はどちらが勝つか（文書: 完全な解析には手間がかかりそう）？",
            (
                f"先手の勝ちです（{moves_list(three['revised_wins'])}で勝ち、保存されたdf-pnの証明）。"
                if three["revised_wins"]
                else "不明です。"
            )
            + "［厳密］",
        ),
        Question(
            "On 3x3 under the revised rule: how long is the game with perfect play, what is "
            "every opening worth, and what does a winning plan look like?",
            "Length: not computed; the proofs are df-pn, which proves the value and not the "
            "remoteness, and an exhaustive search of the board stayed open (boards table "
            "below). Every first cut: not known beyond the stored proof's winning cut "
            + moves_list(three["revised_wins"])
            + (
                f": of the {tried} cuts tried one by one (table below) {decided} were decided "
                "within the budget, and the others were not tried. "
            )
            + _plan_sentence(ctx),
            "[3x3 side by side](#the-3x3-board-original-and-revised-rule-side-by-side)",
            "改訂ルールの3x3: 完全なプレイでの手数、すべての初手の値、勝ち方の図は？",
            "手数は計算していません（df-pnは値だけを証明します）。初手の値: "
            + "保存された証明の勝ちの初手"
            + moves_list(three["revised_wins"])
            + f"以外は不明です。1つずつ試した{tried}通りのうち時間内に決まったのは{decided}通りで、"
            "他は試していません。" + _plan_sentence_ja(ctx),
        ),
        Question(
            "Can a row, column or diagonal of three mini-boards be completely cut (the "
            "withdrawn figure)?",
            f"{verdict(ctx, 'super-nonnect.no-line-of-three')}.",
            "[claims](#the-documents-claims)",
            "3つの〈小盤〉の縦・横・斜めの列を完全に削れるか（取り下げられた図）？",
            "削れません。協力しても、どの合法なゲームも"
            f"{len(ctx.certificates.get('super-nonnect.no-line-of-three', {}).get('scope', {}).get('lines', []))}"
            "本の列のどれも完全には削れません。［厳密］",
        ),
        Question(
            "Do other cell shapes (hexagons, triangles) work?",
            "The hexagonal board of flowers (hex7) is analysed below under both rules; "
            "triangular boards are not implemented, so the toolkit cannot answer for them.",
            "[both rules side by side](#hex7-and-2x3-under-both-rules-side-by-side)",
            "他のマスの形（六角形、三角形）でも成り立つか？",
            "花を並べた六角形の盤（hex7）は両方のルールで解析しています。三角形の盤は"
            "未実装のため答えられません。",
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
    lines += opening_sections(ctx, Opening(implications, questions))
    lines += strategy_lines
    lines += side_by_side
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
    lines += attempts
    lines += selfplay_section("super-nonnect", ctx)
    lines += claims(ctx)
    lines += [APPENDIX, ""]
    lines += small_original + small_revised
    return lines


def headline(ctx: ReportContext) -> str:
    from cgtapp.report import data

    stored = data.load(ctx.out_dir, DATA)
    if stored is None:
        return "-"
    r = stored.results
    parts = []
    for path, rule in ((STRATEGY_CLAIM, "original"), (REVISED_CLAIM, "revised")):
        cert_path = ctx.out_dir / "claims" / f"{path}.json"
        if not cert_path.exists():
            continue
        evidence = json.loads(cert_path.read_text()).get("evidence", {})
        if rule == "original":
            entry = evidence.get("per_board", {}).get("3x3", {})
            cuts = [s["first_cut"] for s in entry.get("starts", []) if s.get("holds")]
            winner = entry.get("solved_winner")
        else:
            record = evidence.get("solved_by_stored_proof", {}).get("3x3") or {}
            cuts = [m for m, v in (record.get("openings") or {}).items() if v == "win"]
            winner = "first" if cuts else None
        if winner in ("first", "second") and cuts:
            parts.append(f"3x3 {rule}: **{_who(winner)} wins** (from {', '.join(cuts)})")
    return "; ".join(parts + [f"{k}: **{_who(v['winner'])} wins**" for k, v in r.items()])


TITLE_JA = "Super Nonnect: 3x3の盤と、2つのルールの比較"
RULES_JA = (
    "〈小盤〉を並べた盤で遊ぶ、両者に共通の手を使うゲーム（文書: 3x3マスの〈小盤〉を3x3並べる）。"
    "両者は交互にマスを1つ削ります。削ったマスの〈小盤〉の中の位置が、次に削る〈小盤〉を指定"
    "します。削られていないマスはタテヨコでひとつながりでなければならず、盤面を分断する手は負け"
    "です。すべてのマスが削られた〈小盤〉を指定されたプレイヤーは負け（元のルール）、またはそこを"
    "指定する手が禁じられます（改訂ルール）。"
)

REPORT = GameReport("super-nonnect", SLUG, build, headline, TITLE_JA, RULES_JA)


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
                "answer (larger boards solved, below). "
            )
    cells = load_game("super-nonnect", rule="revised").full_mask.bit_count()  # type: ignore[attr-defined]
    return f"Not known: the 3x3 board ({cells} cells) is not solved. "


def _checked_strategy(ctx: ReportContext) -> dict[str, Any] | None:
    """The 3x3 revised strategy file the claim's certificate checked, if it verified."""
    evidence = ctx.certificates.get("super-nonnect.revised-outcome", {}).get("evidence", {})
    found = evidence.get("strategy_files", {}).get("3x3")
    return found if found and found.get("verified") else None


def _plan_sentence(ctx: ReportContext) -> str:
    found = _checked_strategy(ctx)
    if found is None:
        return "A winning plan is not written out: no strategy file is checked for 3x3."
    return (
        f"A winning plan is written out: the first player's strategy, {found['entries']:,} "
        f"positions with their moves (`{found['file']}`), proved, and the proof checked by an "
        f"independent verifier from the readable rules (`{found['check_command']}`); it is "
        "not drawn as a figure."
    )


def _plan_sentence_ja(ctx: ReportContext) -> str:
    found = _checked_strategy(ctx)
    if found is None:
        return "勝ち方は書き出していません（3x3の戦略ファイルは未検証です）。"
    return (
        f"勝ち方は先手の戦略として{found['entries']:,}局面とその手で書き出され"
        f"（`{found['file']}`）、証明は読みやすいルールから独立の検証器で確認済みです"
        f"（`{found['check_command']}`）。図にはしていません。"
    )
