"""Self-play sections for any game's report, and the self-play benchmark page, from the JSON
that ``benchmarks/selfplay.py`` stores under ``reports/data/selfplay/``.

Nothing here knows a particular game: a game's report calls :func:`selfplay_section` with its
registry name and gets its designers' boards (``selfplay-*.json`` without an exact answer)
with their win rates, Wilson intervals and a trend figure, and beside them the calibration
on the same game's solved boards (``calibration-*.json``). Self-play numbers are always
called estimated; where self-play pointed the wrong way on a solved board the section says so
before any estimate.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

from cgtapp.report.data import data_dir
from cgtapp.report.document import Implication, ReportContext
from cgtapp.report.figures import pyplot, save
from cgtapp.report.tables import pct, table
from solvers.calibration import STAGES

SELFPLAY_DIR = "selfplay"


def _load(folder: Path, prefix: str) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob(f"{prefix}-*.json"))]


def _params_text(data: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in data["params"].items() if v is not None)


def _interval(level: dict[str, Any]) -> str:
    low, high = level["interval"]
    return f"{pct(low)} to {pct(high)}"


def level_rows(levels: list[dict[str, Any]]) -> list[list[Any]]:
    return [
        [
            f"{level['playouts']:,}",
            level["games"],
            level["first_wins"],
            level["second_wins"],
            level["draws"],
            pct(level["first_win_rate"]),
            _interval(level),
            f"{level['mean_length']:.1f}",
        ]
        for level in levels
    ]


LEVEL_HEADER = [
    "playouts a move",
    "games",
    "first player wins",
    "second player wins",
    "draws",
    "first player's win rate",
    "95% interval (Wilson)",
    "mean length",
]


def estimate_sentence(data: dict[str, Any]) -> str:
    """The answer at the strongest budget, in words that say it is an estimate."""
    strongest = data["levels"][-1]
    low, high = strongest["interval"]
    first = data["first_player"]
    second = next(p for p in data["players"] if p != first)
    where = (
        f"{strongest['games']} games at {strongest['playouts']:,} playouts a move, first player's "
        f"win rate {pct(strongest['first_win_rate'])}, 95% interval {_interval(strongest)}"
    )
    if low > 0.5:
        return f"Estimated: the first player ({first}) wins more often under self-play ({where})."
    if high < 0.5:
        return f"Estimated: the second player ({second}) wins more often under self-play ({where})."
    return f"Estimated: no side is shown stronger at this budget ({where}; the interval holds 50%)."


def completeness(data: dict[str, Any]) -> list[str]:
    """A line when the stored run is short of its plan (stopped part way; it resumes)."""
    planned = data.get("games_planned")
    budgets = data.get("budgets_planned", [])
    played = {level["playouts"]: level["games"] for level in data["levels"]}
    short = [b for b in budgets if played.get(b, 0) < (planned or 0)]
    if not short:
        return []
    return [
        "Stopped part way: "
        + ", ".join(f"{played.get(b, 0)} of {planned} games at {b:,} playouts" for b in short)
        + " (the same command resumes it)."
    ]


def trend_figure(boards: list[dict[str, Any]], path: Path, title: str) -> None:
    """The first player's win rate against the budget (log scale), with the intervals."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for data in boards:
        levels = data["levels"]
        x = [level["playouts"] for level in levels]
        y = [level["first_win_rate"] for level in levels]
        below = [r - level["interval"][0] for r, level in zip(y, levels, strict=True)]
        above = [level["interval"][1] - r for r, level in zip(y, levels, strict=True)]
        ax.errorbar(x, y, yerr=[below, above], marker="o", capsize=3, label=data["board"])
    ax.axhline(0.5, color="#888888", linewidth=0.8, linestyle="--")
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1)
    ax.set_xlabel("playouts a move (both sides)")
    ax.set_ylabel("first player's win rate")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="best")
    save(fig, path)


def _exact_text(exact: dict[str, Any]) -> str:
    if exact["side"] == "draw":
        return "draw (neither player)"
    return f"{exact['winner']} ({exact['side']} player)"


def _trend_text(row: dict[str, Any]) -> str:
    if "draw_rate" in row:
        return (
            f"{row['playouts']:,}: {pct(row['first_win_rate'])}, draws "
            f"{pct(row['draw_rate'])} ({row['says']})"
        )
    return f"{row['playouts']:,}: {pct(row['first_win_rate'])} ({row['says']})"


def calibration_rows(calibrations: list[dict[str, Any]]) -> list[list[Any]]:
    rows = []
    for data in calibrations:
        accuracy = data["accuracy"]
        by_budget = ", ".join(
            f"{row['playouts']:,}: {pct(row['critical']['rate'])}"
            for row in accuracy["budgets"]
            if row["critical"]["positions"]
        )
        trend = ", ".join(_trend_text(row) for row in data["trend"])
        reach = accuracy["budget_reaching_95"]
        rows.append(
            [
                data["board"],
                _exact_text(data["exact"]),
                trend,
                "-" if data["right_winner_from"] is None else f"{data['right_winner_from']:,}",
                f"{by_budget or '-'} (of {accuracy['critical_positions']})",
                "not reached" if reach is None else f"{reach:,} ({accuracy['basis_of_95']})",
            ]
        )
    return rows


CALIBRATION_HEADER = [
    "solved board",
    "exact winner",
    "self-play first player's win rate by budget (what it says)",
    "right winner from (playouts)",
    "winning move found, won positions with a losing move, by budget",
    "budget for 95% move accuracy",
]
CALIBRATION_NOTE = (
    "Move accuracy: positions from random play, solved exactly; a won position where some "
    "move loses counts when the search (same seed rule as `cgt move --playouts`) plays a "
    'winning move. "Says" is the side whose win rate interval excludes 50%, or undecided.'
)


#: Said under the table where a solved board is a draw.
DRAW_NOTE = (
    'On a drawn board the draws are shown beside the first player\'s win rate; "says" is '
    "draw where the draws' 95% interval lies above 50%, else the side whose share of the "
    "decided games has its interval away from 50%."
)


def calibration_notes(calibrations: list[dict[str, Any]]) -> list[str]:
    """The note under the calibration table (and the drawn boards' note where there is one)."""
    drawn = any(data["exact"]["side"] == "draw" for data in calibrations)
    return [CALIBRATION_NOTE + (" " + DRAW_NOTE if drawn else "")]


def _stage_text(row: dict[str, Any]) -> str:
    counts = row["by_stage"]
    stages = ", ".join(
        f"{stage} {counts[stage][0]}/{counts[stage][1]}" for stage in STAGES if counts[stage][1]
    )
    return f"{row['kept']} of {sum(t for _, t in counts.values())} ({pct(row['rate'])}; {stages})"


VALUE_WORDS = {
    "win": "won (a winning move kept)",
    "draw": "drawn (a drawing move kept)",
    "loss": "lost (every move loses)",
}


def accuracy_by_value_lines(calibrations: list[dict[str, Any]]) -> list[str]:
    """Per solved board whose sample was drawn by value (its exact values read from the
    stored solution): per value, the positions drawn, those where a move gives the value
    away, and per budget how often the search kept the value, by stage."""
    lines: list[str] = []
    for data in calibrations:
        by_value = data["accuracy"].get("by_value")
        if not by_value:
            continue
        accuracy = data["accuracy"]
        budgets = [row["playouts"] for row in accuracy["budgets"]]
        header = [
            "value for the player to move",
            "positions sampled",
            "a move gives the value away (judged)",
            *[f"kept at {b:,} playouts" for b in budgets],
            "95% reached at",
        ]
        rows = []
        for value, words in VALUE_WORDS.items():
            entry = by_value[value]
            reach = entry["budget_reaching_95"]
            rows.append(
                [
                    words,
                    f"{entry['positions']:,}",
                    f"{entry['informative']:,} ({entry['judged']:,})",
                    *[_stage_text(row) if entry["judged"] else "-" for row in entry["budgets"]],
                    "-"
                    if not entry["judged"]
                    else "not reached"
                    if reach is None
                    else f"{reach:,}",
                ]
            )
        lines += [
            f"### {data['board']}: move accuracy by value and stage ({accuracy.get('exact_source', 'solved')})",
            "",
            f"Random positions (a uniform number of random moves from the start, up to "
            f"{accuracy['max_ply']} plies; early, middle and late are its thirds), each valued "
            f"from the {accuracy.get('exact_source', 'exact solve')}, until "
            f"{by_value['win']['judged']} won and {by_value['draw']['judged']} drawn "
            "positions where some move gives the value away had been judged: the search "
            "(same seed rule as `cgt move --playouts`) keeps the value when its move is one "
            "of the moves that keep it. Lost positions are counted; every move keeps a loss.",
            "",
        ]
        lines += table(header, rows)
        store = data.get("stored_solution")
        if store:
            lines += [
                "",
                f"The stored solution read: `{store['file']}`, {store['records']:,} records, made "
                f"{store['created']} by `{store['command']}` at commit {store['git_commit']}.",
            ]
        lines.append("")
    return lines


def provenance_lines(stored: list[dict[str, Any]]) -> list[str]:
    """One line per run that wrote some of ``stored``: its command, date, commit, boards."""
    runs: dict[tuple[str, str, str], list[str]] = {}
    for data in stored:
        runs.setdefault((data["command"], data["date"], data["commit"]), []).append(data["board"])
    return [
        f"Data: `{command}` ({date}, commit {commit}): {', '.join(boards)}."
        for (command, date, commit), boards in sorted(runs.items())
    ]


def wrong_way(calibrations: list[dict[str, Any]]) -> list[str]:
    """Plain sentences for every solved board where self-play pointed the wrong way."""
    return [
        f"**Self-play points the wrong way on {data['board']}**: the exact "
        + (
            "result is a draw, but self-play favoured one side at "
            if data["exact"]["side"] == "draw"
            else f"winner is {data['exact']['winner']}, but self-play favoured the other side at "
        )
        + ", ".join(f"{b:,}" for b in data["wrong_way_at"])
        + " playouts a move. Read the estimates below with that in mind."
        for data in calibrations
        if data["wrong_way_at"]
    ]


def selfplay_section(game_name: str, ctx: ReportContext) -> list[str]:
    """Markdown lines of the game's self-play estimates and their calibration (none if
    nothing is stored for the game)."""
    folder = data_dir(ctx.out_dir) / SELFPLAY_DIR
    calibrations = [d for d in _load(folder, "calibration") if d["game"] == game_name]
    solved = {d["board"] for d in calibrations}
    boards = [
        d for d in _load(folder, "selfplay") if d["game"] == game_name and d["board"] not in solved
    ]
    if not boards and not calibrations:
        return []
    lines = [
        "## Estimated by self-play: the designers' boards",
        "",
        "Exact solving stops at the small boards. On the boards the designers play, the "
        "toolkit's Monte-Carlo player (`cgt move`) plays both sides at doubling budgets "
        "(`cgt balance`); the numbers are estimates with their 95% intervals, never "
        "verified results. How far to trust them: the same method on this game's solved "
        "boards, in the calibration table.",
        "",
    ]
    lines += [*wrong_way(calibrations), ""] if wrong_way(calibrations) else []
    if calibrations:
        lines += ["### Calibration on the solved boards", ""]
        lines += table(CALIBRATION_HEADER, calibration_rows(calibrations))
        lines += ["", *calibration_notes(calibrations), *provenance_lines(calibrations), ""]
        lines += accuracy_by_value_lines(calibrations)
    if boards:
        figure = ctx.figure(f"{game_name}_selfplay_trend.png")
        trend_figure(boards, figure, f"{game_name}: self-play across strengths")
        lines += ctx.image(figure, "first player's win rate against the budget, by board")
    for data in boards:
        lines += [f"### {data['board']} ({_params_text(data)})", ""]
        lines += table(LEVEL_HEADER, level_rows(data["levels"]))
        openings = ", ".join(
            f"`{o['move']}` ({o['games']})" for o in data["levels"][-1]["openings"][:5]
        )
        lines += [
            "",
            estimate_sentence(data),
            *completeness(data),
            f"Openings chosen at the strongest budget: {openings}.",
            f"Data: `{data['command']}`, {data['date']}, commit {data['commit']}.",
            "",
        ]
    return lines


def estimated_implications(
    game_name: str, ctx: ReportContext, boards: list[str], otherwise: Implication
) -> list[Implication]:
    """Sentences of "What this means for the rules" for the designers' ``boards``, one each,
    from their stored self-play at the strongest budget, labelled estimated and followed by
    how the same method did on the game's solved boards; ``otherwise`` where none is stored.
    Every number in them is also in the self-play section of the page."""
    folder = data_dir(ctx.out_dir) / SELFPLAY_DIR
    stored = {d["board"]: d for d in _load(folder, "selfplay") if d["game"] == game_name}
    calibrations = [d for d in _load(folder, "calibration") if d["game"] == game_name]
    found = [stored[b] for b in boards if b in stored and stored[b]["levels"]]
    if not found:
        return [otherwise]
    out = []
    for data in found:
        top = data["levels"][-1]
        low, high = top["interval"]
        first = data["first_player"]
        if low > 0.5:
            verdict, verdict_ja = "the first player is favoured", "先手が有利です"
        elif high < 0.5:
            verdict, verdict_ja = "the second player is favoured", "後手が有利です"
        else:
            verdict = "neither side is shown stronger (the interval holds 50%)"
            verdict_ja = "どちらが有利とも言えません（区間が50%を含みます）"
        numbers = (
            f"{pct(top['first_win_rate'])} of {top['games']} games at {top['playouts']:,} "
            f"playouts a move, 95% interval {_interval(top)}"
        )
        out.append(
            Implication(
                f"On {data['board']} ({_params_text(data)}) self-play gave the first player "
                f"({first}) {numbers}: {verdict}.",
                f"{data['board']}（{_params_text(data)}）では、自己対戦で先手（{first}）の勝率が"
                f"{top['playouts']:,}プレイアウト/手の{top['games']}局で"
                f"{pct(top['first_win_rate'])}（95%区間 {_interval(top)}）：{verdict_ja}。",
                "estimated",
            )
        )
    right = [d["board"] for d in calibrations if d["right_winner_from"] is not None]
    wrong = [d["board"] for d in calibrations if d["wrong_way_at"]]
    trust = "How far to trust these: on the solved boards the same method "
    trust_ja = "信頼の程度：解決済みの盤で同じ方法は"
    if right:
        trust += f"named the exact winner on {', '.join(right)}"
        trust_ja += f"{', '.join(right)}で正しい勝者を示し"
    undecided = [
        d["board"] for d in calibrations if d["right_winner_from"] is None and not d["wrong_way_at"]
    ]
    if undecided:
        trust += ("; " if right else "") + f"stayed undecided on {', '.join(undecided)}"
        trust_ja += ("、" if right else "") + f"{', '.join(undecided)}では決めきれず"
    if wrong:
        trust += (
            "; " if right or undecided else ""
        ) + f"pointed the wrong way on {', '.join(wrong)}"
        trust_ja += ("、" if right or undecided else "") + f"{', '.join(wrong)}では逆を示し"
    if calibrations:
        out.append(Implication(trust + ".", trust_ja + "ました。", "estimated"))
    return out


# ------------------------------------------------------------------- pie setups
PIE_HEADER = [
    "stones in the setup",
    "setups",
    "first colour's picks",
    "first colour's share (95% interval)",
    "a strong chooser takes",
]
PIE_EXACT_HEADER = [
    "exact first colour's share, every setup of this count (exact winner first colour in the sample)",
    "picks equal to the exact winner",
]


def _chooser(row: dict[str, Any], players: list[str]) -> str:
    """The colour a strong chooser takes on most setups, where the interval says so."""
    low, high = row["interval"]
    if low > 0.5:
        return f"{players[0]} (most setups)"
    if high < 0.5:
        return f"{players[1]} (most setups)"
    return "either (the interval holds 50%)"


def pie_rows(data: dict[str, Any], level: dict[str, Any]) -> list[list[Any]]:
    players = data["players"]
    rows = []
    for row in level["by_stones"]:
        low, high = row["interval"]
        cells = [
            row["stones"],
            row["setups"],
            row["player_picks"],
            f"{pct(row['share'])} ({pct(low)} to {pct(high)})",
            _chooser(row, players),
        ]
        if data["exact"]:
            cells += [
                f"{pct(row.get('exact_share_every_setup'))} (sampled: {row['exact_player_wins']} "
                f"of {row['setups']})",
                f"{row['agree']} of {row['setups']}",
            ]
        rows.append(cells)
    return rows


def pie_calibration_line(data: dict[str, Any], win: str) -> str:
    """How often self-play's pick was the setup's exact winner, by budget."""
    parts = []
    for level in data["wins"][win]:
        summary = level["all"]
        low, high = summary["agreement_interval"]
        parts.append(
            f"{summary['agree']} of {summary['setups']} at {level['playouts']:,} playouts a move "
            f"({pct(summary['agreement'])}, 95% interval {pct(low)} to {pct(high)})"
        )
    return (
        f"Calibration (win={win}): self-play's pick was the exact winner of the setup in "
        + "; ".join(parts)
        + "."
    )


def pie_section(game_name: str, ctx: ReportContext) -> list[str]:
    """Markdown lines of the game's pie setups under self-play (``pie-*.json``): per board
    size and win condition, per stone count, the share of random setups self-play gives the
    first colour (the colour a strong chooser takes there), with its interval; on a board
    whose every setup is solved, beside each row the exact share and how often the pick was
    the exact winner."""
    return pie_lines(data_dir(ctx.out_dir) / SELFPLAY_DIR, game_name)


def pie_lines(folder: Path, game_name: str) -> list[str]:
    """The lines of :func:`pie_section` from the JSON in ``folder``."""
    stored = [d for d in _load(folder, "pie") if d["game"] == game_name]
    if not stored:
        return []
    first = stored[0]["players"][0]
    lines = [
        "## Estimated by self-play: the pie setups by stone count",
        "",
        f"Random pie setups of each stone count (cells and colours uniform, at least one black "
        f"stone), each played out by the Monte-Carlo player on both sides; the colour that "
        f"wins most of the games is self-play's pick, the colour a strong chooser takes. The "
        f"share of setups picked for {first} is estimated, with its 95% Wilson interval over "
        f"the setups sampled; on the board whose every setup is solved, each pick is judged "
        f"against the setup's exact winner (the calibration).",
        "",
    ]
    for data in sorted(stored, key=lambda d: (not d["exact"], d["size"])):
        for win, levels in data["wins"].items():
            top = levels[-1]
            label = "solved: calibration" if data["exact"] else "estimated"
            lines += [
                f"### {data['board']}, win={win}, turns={data['turns']} ({label})",
                "",
                f"{data['setups_per_stone_count']} setups per stone count, "
                f"{data['games_per_setup']} games per setup at {top['playouts']:,} playouts a "
                f"move.",
                "",
            ]
            header = PIE_HEADER + (PIE_EXACT_HEADER if data["exact"] else [])
            header = [h.replace("first colour", first) for h in header]
            lines += table(header, pie_rows(data, top))
            overall = top["all"]
            low, high = overall["interval"]
            lines += [
                "",
                f"Estimated over all {overall['setups']} setups sampled: {first} is picked in "
                f"{overall['player_picks']} ({pct(overall['share'])}, 95% interval {pct(low)} "
                f"to {pct(high)}; the stone counts are weighted equally).",
            ]
            if data["exact"]:
                lines.append(pie_calibration_line(data, win))
            lines.append("")
        lines += [
            f"Data: `{data['command']}`, {data['date']}, commit {data['commit']}.",
            "",
        ]
    return lines


def pie_implications(game_name: str, ctx: ReportContext) -> list[Implication]:
    """Sentences of "What this means for the rules" for the pie setups of the boards nobody
    has solved, per win condition at the strongest budget (labelled estimated), each followed
    by the calibration on the solved board; every number also stands in :func:`pie_section`."""
    folder = data_dir(ctx.out_dir) / SELFPLAY_DIR
    stored = [d for d in _load(folder, "pie") if d["game"] == game_name]
    calibrations = [d for d in stored if d["exact"]]
    out = []
    for data in (d for d in stored if not d["exact"]):
        first = data["players"][0]
        for win, levels in data["wins"].items():
            top = levels[-1]["all"]
            low, high = top["interval"]
            interval = f"{pct(low)} to {pct(high)}"
            en = (
                f"Estimated: on {data['board']} (win={win}, turns={data['turns']}) a strong chooser takes {first} on "
                f"{pct(top['share'])} of random pie setups (95% interval {interval}; "
                f"{top['setups']} setups, stone counts weighted equally)"
            )
            ja = (
                f"推定：{data['board']}（win={win}, turns={data['turns']}）のランダムなパイ配置{top['setups']}個で、"
                f"強い選択者が{first}を取るのは{pct(top['share'])}（95%区間 {interval}）"
            )
            for solved in calibrations:
                check = solved["wins"][win][-1]["all"] if win in solved["wins"] else None
                if check is None:
                    continue
                en += (
                    f"; on {solved['board']}, where every setup is solved, self-play's pick was "
                    f"the exact winner in {check['agree']} of {check['setups']}"
                )
                ja += (
                    f"。全配置が解決済みの{solved['board']}では、自己対戦の選択が正解と一致したのは"
                    f"{check['setups']}個中{check['agree']}個"
                )
            out.append(Implication(en + ".", ja + "です。", "estimated"))
    return out


# ----------------------------------------------------------------------- benchmark page
def benchmark_page(folder: Path) -> str:
    """benchmarks/SELFPLAY.md: playout speed against the kernels' node rate, the calibration
    of every solved board, and every designers' board's self-play table."""
    lines = ["# Self-play: playout speed, calibration, estimates", ""]
    speed_path = folder / "speed.json"
    if speed_path.exists():
        speed = json.loads(speed_path.read_text())
        lines += [
            "## Playouts per second per core (random playouts from the start)",
            "",
            f"`{speed['command']}`, {speed['date']}, commit {speed['commit']}, {speed['machine']}.",
            "",
        ]
        rows = []
        for row in speed["rows"]:
            nodes = row.get("kernel_nodes_per_second")
            per_ply = "-" if not nodes else f"{nodes / row['plies_per_second']:.2f}"
            rows.append(
                [
                    row["board"],
                    f"{row['playouts_per_second']:,}",
                    row["plies_per_playout"],
                    f"{row['plies_per_second']:,}",
                    "-" if not nodes else f"{nodes:,}",
                    per_ply,
                ]
            )
        lines += table(
            [
                "board",
                "playouts/s",
                "plies per playout",
                "plies/s",
                "alpha-beta kernel nodes/s",
                "a playout ply costs (kernel nodes; goal: at most 1)",
            ],
            rows,
        )
        lines += [
            "",
            "The goal of issue 23 is a playout ply costing no more than one node of the game's "
            "alpha-beta kernel (last column at most 1: the kernel's nodes per second over the "
            "playouts' plies per second, both on one core). '-': no alpha-beta rate for that "
            "board: "
            + "; ".join(
                f"{row['board']}: {row['kernel']}" for row in speed["rows"] if "kernel" in row
            )
            + ".",
            "",
        ]
    calibrations = _load(folder, "calibration")
    if calibrations:
        lines += ["## Calibration on the solved boards", ""]
        lines += [*wrong_way(calibrations), ""] if wrong_way(calibrations) else []
        lines += table(CALIBRATION_HEADER, calibration_rows(calibrations))
        lines += ["", *calibration_notes(calibrations), "", *provenance_lines(calibrations), ""]
        lines += accuracy_by_value_lines(calibrations)
    solved = {d["board"] for d in calibrations}
    boards = [d for d in _load(folder, "selfplay") if d["board"] not in solved]
    if boards:
        lines += ["## Self-play on the designers' boards (estimated)", ""]
        for data in boards:
            lines += [f"### {data['board']} ({_params_text(data)})", ""]
            lines += table(LEVEL_HEADER, level_rows(data["levels"]))
            lines += ["", estimate_sentence(data), *completeness(data), ""]
        lines += [*provenance_lines(boards), ""]
    for game_name in sorted({d["game"] for d in _load(folder, "pie")}):
        lines += pie_lines(folder, game_name)
    return "\n".join(lines).rstrip() + "\n"


# ------------------------------------------------------------- a drawn solved board
def stored_calibration(ctx: ReportContext, board: str) -> dict[str, Any] | None:
    """The stored calibration of ``board`` (``calibration-<board>.json``), if any."""
    path = data_dir(ctx.out_dir) / SELFPLAY_DIR / f"calibration-{board}.json"
    return json.loads(path.read_text()) if path.exists() else None


def _reach_words(entry: dict[str, Any], budgets: list[int]) -> tuple[str, str]:
    reach = entry["budget_reaching_95"]
    if reach is None:
        top = f"{budgets[-1]:,}"
        return (
            f"not within the budgets tried (up to {top})",
            f"試した予算（{top}まで）では届きません",
        )
    return f"at {reach:,} playouts a move", f"{reach:,}プレイアウト/手で届きます"


def drawn_board_answer(data: dict[str, Any]) -> tuple[str, str]:
    """The answer, in English and Japanese, to "how far can self-play be trusted here?" on a
    solved board whose exact result is a draw: the draw rate of self-play by budget and
    whether it rises toward the draw, and the move accuracy on won and drawn positions
    (every number is also in the calibration tables of the page)."""
    trend = data["trend"]
    first, last = trend[0], trend[-1]
    rates = ", ".join(f"{pct(row['draw_rate'])} at {row['playouts']:,}" for row in trend)
    rates_ja = "、".join(f"{row['playouts']:,}で{pct(row['draw_rate'])}" for row in trend)
    low, high = last["draw_interval"]
    games = last.get("games")
    overlap = first["draw_interval"][1] >= low
    steady = all(a["draw_rate"] <= b["draw_rate"] for a, b in pairwise(trend))
    if last["draw_rate"] > first["draw_rate"]:
        if steady:
            toward = "rises with every doubling, toward the exact draw"
            toward_ja = "予算を増やすたびに厳密な結果（引き分け）に向かって上がります"
        else:
            toward = "is higher at the strongest budget than at the weakest, but not at every step"
            toward_ja = "最強の予算では最弱より高いものの、段階ごとには上がっていません"
        if overlap:
            toward += (
                "; the weakest and strongest budgets' 95% intervals overlap, so no trend is shown"
            )
            toward_ja += "。最弱と最強の予算の95%区間は重なり、傾向は示されません"
    elif last["draw_rate"] == first["draw_rate"]:
        toward = f"stays at {pct(last['draw_rate'])}"
        toward_ja = f"{pct(last['draw_rate'])}のまま変わりません"
    else:
        toward = "falls, away from the exact draw"
        toward_ja = "下がり、厳密な結果（引き分け）から離れます"
    says = {"draw": "a draw", "first": "the first player", "second": "the second player"}.get(
        last["says"], "undecided"
    )
    says_ja = {"draw": "引き分け", "first": "先手有利", "second": "後手有利"}.get(
        last["says"], "決められない"
    )
    accuracy = data["accuracy"]
    budgets = [row["playouts"] for row in accuracy["budgets"]]
    by_value = accuracy["by_value"]
    won, drawn = by_value["win"], by_value["draw"]
    won_top, drawn_top = won["budgets"][-1], drawn["budgets"][-1]
    won_reach, won_reach_ja = _reach_words(won, budgets)
    drawn_reach, drawn_reach_ja = _reach_words(drawn, budgets)
    en = (
        f"Estimated, and measured against the exact answer: the start of {data['board']} is a "
        "draw, and "
        f"self-play drew {rates} playouts a move"
        + ("" if games is None else f" ({games} games a budget)")
        + (
            ""
            if "capped" not in last
            else "; the draws include games stopped at the "
            f"{last['ply_cap']}-ply cap ("
            + ", ".join(f"{row['capped']} at {row['playouts']:,}" for row in trend)
            + ")"
        )
        + f"; the draw rate {toward}. At {last['playouts']:,} playouts a move the draws' 95% "
        f"interval is {pct(low)} to {pct(high)}, the decided games split {last['first_wins']} "
        f"first-player wins to {last['second_wins']} second-player wins, and self-play says "
        f"{says}. In random positions "
        f"valued from the stored solution, the search at {budgets[-1]:,} playouts kept the win in "
        f"{won_top['kept']} of {won['judged']} won positions where some move does not win and the "
        f"draw in {drawn_top['kept']} of {drawn['judged']} drawn positions where some move loses; "
        f"95% move accuracy is reached on won positions {won_reach}, on drawn positions "
        f"{drawn_reach}."
    )
    ja = (
        f"推定値を厳密な答えと比べました。{data['board']}の初期状態は引き分けで、自己対戦の引き分け率は"
        f"{rates_ja}（プレイアウト/手）でした"
        + (
            ""
            if "capped" not in last
            else f"（{last['ply_cap']}手の上限で打ち切った対局を含みます："
            + "、".join(f"{row['playouts']:,}で{row['capped']}局" for row in trend)
            + "）"
        )
        + f"。引き分け率は{toward_ja}。"
        f"{last['playouts']:,}プレイアウト/手で引き分けの95%区間は{pct(low)}〜{pct(high)}、"
        f"決着した対局は先手の勝ち{last['first_wins']}局、後手の勝ち{last['second_wins']}局で、"
        f"自己対戦の判定は「{says_ja}」です。保存された解で値を付けたランダムな局面で、"
        f"{budgets[-1]:,}プレイアウトの探索は、勝たない手がある勝ちの局面{won['judged']}個のうち"
        f"{won_top['kept']}個で勝ちを保ち、負ける手がある引き分けの局面{drawn['judged']}個のうち"
        f"{drawn_top['kept']}個で引き分けを保ちました。手の正解率95%には、勝ちの局面では"
        f"{won_reach_ja}。引き分けの局面では{drawn_reach_ja}。［推定］"
    )
    return en, ja
