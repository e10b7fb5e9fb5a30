"""The parts every report shares: the page frame (title, rules, notation, the designer's
questions), the small-board analysis section, the attempts at boards out of reach, the
claims, the index of all reports and the run log.

A game's own sections live in :mod:`cgtapp.report.games`; they hand this module Markdown lines
built from stored results (:mod:`cgtapp.report.data`), never numbers computed on the page.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cgt.errors import UnknownGameError
from cgt.progress import Progress
from cgt.protocol import Game
from cgt.registry import game_class, load_game
from cgtapp.report import analysis, data
from cgtapp.report.figures import (
    draw_positions,
    length_histogram,
    value_maps,
    value_remoteness_chart,
)
from cgtapp.report.tables import claim_link, claims_section, count, moves_list, pct, table

#: The heading of a report's appendix of small boards (one figure each).
APPENDIX = "## Appendix: small boards"


def display_name(game_name: str) -> str:
    """How a game is called in titles: its declared title (``Game.title``), else its name."""
    try:
        return game_class(game_name).title or game_name
    except UnknownGameError:
        return game_name


#: The project's rules document, relative to the reports directory.
RULES_DOCUMENT = "../docs/rules.md"

#: Random games played per small board.
RANDOM_SAMPLES = 2000


@dataclass
class ReportContext:
    """What a game's sections may use: where to write, whether to re-solve, the certificates
    of the document's claims, and a progress callback for long work."""

    out_dir: Path
    refresh: bool = False
    progress: Progress | None = None
    certificates: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Random games played on a small board computed for this report.
    samples: int = RANDOM_SAMPLES
    #: The opening sections of the page being built (what to change, the questions), kept
    #: for the Japanese page, which is written from the same objects.
    opening: Opening | None = None

    @property
    def fig_dir(self) -> Path:
        return self.out_dir / "figures"

    def figure(self, name: str) -> Path:
        self.fig_dir.mkdir(parents=True, exist_ok=True)
        return self.fig_dir / name

    def image(self, path: Path, alt: str) -> list[str]:
        return [f"![{alt}]({path.relative_to(self.out_dir).as_posix()})", ""]

    def drawn(self, path: Path, alt: str, draw: Callable[[], None]) -> list[str]:
        """The image lines of a figure ``draw`` writes to ``path``; none when the game cannot
        draw its positions."""
        try:
            draw()
        except NotImplementedError:
            from cgtapp.report.figures import pyplot

            pyplot().close("all")
            return []
        return self.image(path, alt)

    def stored(self, name: str, compute: Callable[[], dict[str, Any]], command: str) -> data.Stored:
        """The stored result ``name``, computed first when missing or on ``--refresh``."""
        if self.progress:
            self.progress({"phase": f"data {name}"})
        return data.ensure(self.out_dir, name, compute, command, self.refresh)

    def evidence_scope(self, claim_id: str, key: str) -> dict[str, Any]:
        """``scope[key]`` of a claim's certificate (empty when missing)."""
        value = (self.certificates.get(claim_id) or {}).get("scope", {}).get(key)
        return value if isinstance(value, dict) else {}

    def evidence(self, claim_id: str) -> dict[str, Any]:
        evidence = (self.certificates.get(claim_id) or {}).get("evidence")
        return evidence if isinstance(evidence, dict) else {}


@dataclass(frozen=True)
class Question:
    """One concern of the designer's document, answered: the question in the designer's
    terms, the answer with its number, and where that number is computed (a link); the
    same in Japanese for the Japanese page (same numbers, the document's vocabulary)."""

    asked: str
    answer: str
    where: str
    asked_ja: str = ""
    answer_ja: str = ""


#: How sure a sentence of "What this means for the rules" is.
Basis = Literal["exact", "estimated", "not yet estimated"]
BASIS_JA: dict[str, str] = {"exact": "厳密", "estimated": "推定", "not yet estimated": "未推定"}


@dataclass(frozen=True)
class Implication:
    """One sentence of "What this means for the rules": a decision for the designer, backed
    by a number that appears on the page, labelled exact (solved) or estimated (self-play),
    or saying that the board it needs is not yet estimated."""

    en: str
    ja: str
    basis: Basis


@dataclass(frozen=True)
class Opening:
    """The opening sections of a report, in both languages: what to change, the questions."""

    implications: list[Implication]
    questions: list[Question]


def implications_section(implications: list[Implication]) -> list[str]:
    """ "What this means for the rules": one paragraph, each sentence labelled."""
    text = " ".join(f"{i.en} *[{i.basis}]*" for i in implications)
    return [
        "## What this means for the rules",
        "",
        text,
        "",
        "*[exact]*: solved with perfect play (or proved); *[estimated]*: measured by self-play, "
        "with its interval; *[not yet estimated]*: needs a board only self-play can reach.",
        "",
    ]


def questions_section(questions: list[Question]) -> list[str]:
    lines = [
        "## The designer's questions",
        "",
        "Every concern the source document raises, answered with the number behind it and "
        "where it is computed.",
        "",
    ]
    for q in questions:
        lines += [f"- **{q.asked}** {q.answer} ({q.where})", ""]
    return lines


def opening_sections(ctx: ReportContext, opening: Opening) -> list[str]:
    """What to change, then the designer's questions; kept on ``ctx`` for the Japanese page."""
    ctx.opening = opening
    return implications_section(opening.implications) + questions_section(opening.questions)


def japanese_page(
    ctx: ReportContext, slug: str, title: str, rules: str, english: str, body: list[str]
) -> list[str]:
    """The Japanese page: the rules in short, what to change, the designer's questions with
    their answers, from the opening the English page was built from (the same numbers), and
    the English page's first figure (the same file)."""
    opening = ctx.opening
    if opening is None:
        return []
    figure = next((line for line in body if line.startswith("![")), None)
    lines = [
        f"# {title}",
        "",
        f"英語版の完全なレポート: [{english}](../{english})（図・表・証明書へのリンクを含む）。"
        "数値はすべて英語版と同じ保存データ（[`data/`](../data/)）から生成しています。",
        "",
        "## ルールの要約",
        "",
        rules,
        "",
        "## ルールにとっての意味",
        "",
        "".join(f"{i.ja}［{BASIS_JA[i.basis]}］" for i in opening.implications),
        "",
        "［厳密］: 完全解析（または証明）による値。［推定］: 自己対戦による推定値。"
        "［未推定］: 自己対戦でしか届かない盤面で、まだ推定していない。",
        "",
        "## 設計者の問い",
        "",
    ]
    for q in opening.questions:
        if q.asked_ja:
            lines += [f"- **{q.asked_ja}** {q.answer_ja}", ""]
    if figure:
        lines += ["## 主な図（英語版と同じ図）", "", figure.replace("](", "](../", 1), ""]
    return lines


def page_head(
    title: str, rules: str, rules_anchor: str, notation: str, reproduce: str
) -> list[str]:
    """Title, a short statement of the rules (linking the full rules) and the notation."""
    return [
        f"# {title}",
        "",
        "## The rules in short",
        "",
        rules,
        "",
        f"The full rules, with the decisions taken where the source is ambiguous: "
        f"[docs/rules.md]({RULES_DOCUMENT}#{rules_anchor}).",
        "",
        f"**Notation.** {notation}",
        "",
        f"Regenerate this page: `{reproduce}` (from the stored results under "
        "[`data/`](data/); add `--refresh` to re-solve them).",
        "",
    ]


HEX_NOTATION = (
    "Cells are named by row and position: rows `a`, `b`, ... from the top edge, cells "
    "numbered from 1 left to right in each row (every board figure writes the name in the "
    "cell). A position string lists the rows from the top, separated by `/`, one character "
    "per cell (`.` empty), then a space and the player to move."
)
SQUARE_NOTATION = (
    "Squares are named as in chess: files `a`, `b`, ... left to right, ranks `1`, `2`, ... "
    "bottom to top (drawn on the figures' edges). A position string lists the ranks from the "
    "top, separated by `/`, one character per square (`.` empty), then a space and the player "
    "to move."
)
VALUE_NOTATION = (
    "Values are for the player who moves: **win**, **draw** or **loss** with perfect play; "
    "*remoteness* is the number of plies (single moves) to the end with perfect play, the move "
    "itself included (the winner hurries, the loser delays). Figures colour wins dark blue, "
    "losses red (hatched or dotted) and draws light yellow, which stay apart in grey-scale."
)


def line_caption(game: Game[Any, Any], ply: int, position_text: str) -> str:
    """Caption of a panel of the perfect line: how far along, the position, who moves."""
    position = game.parse(position_text)
    mover = game.players[game.to_move(position)]
    where = "start" if ply == 0 else f"after {ply} {'ply' if ply == 1 else 'plies'}"
    return f"{where}, {mover} to move\n{position_text}"


def winner_phrase(winner: str, first: str, second: str) -> str:
    if first == "First":  # an impartial game: players have no names
        return {"first": "the first player wins", "second": "the second player wins"}.get(
            winner, "a draw"
        )
    return {
        "first": f"{first} (the first player) wins",
        "second": f"{second} (the second player) wins",
        "draw": "a draw",
    }.get(winner, winner)


def small_board_section(
    ctx: ReportContext,
    game_name: str,
    params: dict[str, Any],
    name: str,
    heading: str,
    *,
    level: str = "##",
    samples: int | None = None,
    appendix: bool = False,
) -> tuple[list[str], dict[str, Any]]:
    """A small board solved exhaustively (every reachable position): openings, value x
    remoteness, design metrics, random play, longest forced wins. Returns the lines and the
    stored results. In a report's ``appendix`` the board gets one figure (every move's value
    along the start of the perfect line) and its tables."""
    if appendix:
        level = "###"
    options = " ".join(f"-p '{k}={v}'" for k, v in params.items())
    stored = ctx.stored(
        name,
        lambda: analysis.exhaustive(
            game_name, params, samples if samples is not None else ctx.samples, ctx.progress
        ),
        f"cgt report {game_name} --refresh",
    )
    r = stored.results
    game = load_game(game_name, **params)
    root = game.initial_position()
    first = game.players[game.to_move(root)]
    solve_command = f"cgt solve {game_name} {options}".strip()
    winning = [m["move"] for m in r["openings"] if m["outcome"] == "win"]
    lines = [f"{level} {heading}", ""]
    lines += [
        f"Start `{r['start']}`. With perfect play: **{winner_phrase(r['winner'], first, 'the second player')}**"
        + ("" if r["remoteness"] is None else f" in {r['remoteness']} plies")
        + f"; {len(winning)} of {len(r['openings'])} openings win ({moves_list(winning)}). "
        f"Solved by retrograde analysis of all {count(r['reachable_positions'])} reachable "
        f"positions ({count(r['positions_up_to_symmetry'])} up to {r['symmetries']} symmetries).",
        "",
    ]
    if r["principal_variation"]:
        lines += [f"A perfect line: `{' '.join(r['principal_variation'])}`.", ""]
    panels = [
        (line_caption(game, p["ply"], p["position"]), game.parse(p["position"]), p["moves"])
        for p in r["perfect_line"][:3]
    ]
    if panels:
        path = ctx.figure(f"{name}_line.png")
        lines += ctx.drawn(
            path,
            "every move's value at the start and along the perfect line",
            lambda: value_maps(game, panels, path),
        )
    totals = r["by_outcome"]
    lines += table(
        ["measure", "value"],
        [
            [
                "positions reachable from the start (not every placement of the pieces)",
                count(r["reachable_positions"]),
            ],
            [
                "reachable positions up to symmetry, won / lost / drawn for the player to "
                "move (finished positions included)",
                " / ".join(count(totals[k]) for k in ("win", "loss", "draw")),
            ],
            [
                "legal moves per position (mean, max)",
                f"{r['metrics']['branching_mean']:.2f}, {r['metrics']['branching_max']}",
            ],
            [
                "forgiveness (share of moves that keep a won position won)",
                f"{r['metrics']['forgiveness']:.2f}",
            ],
            [
                "won positions with a move left (finished ones excluded): how many have a "
                "single winning move",
                f"{count(r['metrics']['won_positions_with_single_winning_move'])} of {count(r['metrics']['won_positions'])}",
            ],
            [
                "random games: first / second player wins"
                + (" / draws" if r["random_play"]["winners"].get("draw") else ""),
                " / ".join(
                    pct(r["random_play"]["winners"].get(k, 0) / r["random_play"]["games"])
                    for k in ("first", "second", "draw")
                    if k != "draw" or r["random_play"]["winners"].get("draw")
                ),
            ],
            [
                f"random game length, mean of {count(r['random_play']['games'])} (seed 1)",
                f"{r['random_play']['mean_length']:.1f} plies",
            ],
        ],
    )
    lines.append("")
    if not appendix:
        chart = ctx.figure(f"{name}_values.png")
        value_remoteness_chart(
            r["by_outcome_remoteness"],
            totals,
            chart,
            f"{heading}: positions by value and remoteness",
        )
        lines += ctx.image(chart, "positions by value and remoteness")
        lengths = ctx.figure(f"{name}_lengths.png")
        length_histogram(
            r["random_play"]["lengths"],
            r["remoteness"],
            lengths,
            f"{heading}: length of random games",
        )
        lines += ctx.image(lengths, "game lengths")
    if r["longest_wins"]:
        lines += ["Longest forced wins (the player to move wins, the loser resists longest):", ""]
        lines += table(
            ["position", "wins in", "line"],
            [
                [f"`{w['position']}`", w["remoteness"], f"`{' '.join(w['line'])}`"]
                for w in r["longest_wins"]
            ],
        )
        lines.append("")
        if not appendix:
            path = ctx.figure(f"{name}_longest-wins.png")
            wins = [
                (f"{w['position']}\nwins in {w['remoteness']}", game.parse(w["position"]))
                for w in r["longest_wins"]
            ]
            lines += ctx.drawn(
                path,
                "longest forced wins",
                lambda: draw_positions(game, wins, path, (list(game.legend) or None)),
            )
    lines += [f"Reproduce: `{solve_command}`. {stored.provenance()}", ""]
    return lines, r


#: The two tables of attempts: heading, and which records go there.
ATTEMPT_TABLES: tuple[tuple[str, Callable[[dict[str, Any]], bool]], ...] = (
    ("Larger boards solved by a stored proof", lambda a: not data.is_open(a)),
    ("Boards out of reach: how far the attempts got", data.is_open),
)


def attempt_status(record: dict[str, Any]) -> str:
    """An attempt's status, with the record that solved its board since when there is one."""
    status = str(record.get("status", "not solved"))
    since = record.get("superseded_by")
    return status + (f" (solved since: [record]({since}))" if since else "")


def attempts_section(ctx: ReportContext, game_name: str, level: str = "##") -> list[str]:
    """This game's attempts at larger boards, from the stored records: the boards solved
    (with the earlier attempts that did not get there), then the boards still out of reach."""
    records = [a for a in data.attempts(ctx.out_dir) if a.get("game") == game_name]
    lines: list[str] = []
    for heading, belongs in ATTEMPT_TABLES:
        rows = [
            [
                a.get("board", "?"),
                attempt_status(a),
                a.get("how_far", a.get("summary", "")),
                f"`{a['command']}`" if a.get("command") else "-",
                f"[record]({a['file']})",
            ]
            for a in records
            if belongs(a)
        ]
        if rows:
            lines += [f"{level} {heading}", ""]
            lines += table(["board", "status", "how far", "command", "data"], rows)
            lines.append("")
    return lines


def certificates(game_name: str, ctx: ReportContext) -> dict[str, dict[str, Any]]:
    """The certificate of every claim of ``game_name`` under ``claims/``: re-checked on
    ``--refresh`` or when missing, else read."""
    from proofs.certificates import write_certificate
    from proofs.registry import all_claims, run_claim

    claims_dir = ctx.out_dir / "claims"
    found = {}
    for c in all_claims():
        if c.game != game_name:
            continue
        path = claims_dir / f"{c.id}.json"
        if ctx.refresh or not path.exists():
            if ctx.progress:
                ctx.progress({"phase": f"claim {c.id}"})
            write_certificate(run_claim(c.id), claims_dir)
        found[c.id] = json.loads(path.read_text())
    return found


def claims(ctx: ReportContext) -> list[str]:
    return claims_section(ctx.certificates)


def verdict(ctx: ReportContext, claim_id: str) -> str:
    """The claim's link and its verdict in words (scope and basis included)."""
    from proofs.registry import verdict_words

    cert = ctx.certificates.get(claim_id)
    return f"{claim_link(claim_id)}: **{verdict_words(cert) if cert else 'not checked'}**"


# ------------------------------------------------------------------------ writing pages
@dataclass(frozen=True)
class GameReport:
    """One game's report: its file name, title, and the function writing its body."""

    game: str
    slug: str
    build: Callable[[ReportContext], list[str]]
    #: The one-line result for the index, from the stored results.
    headline: Callable[[ReportContext], str]
    #: The Japanese page's title and rules in short (none: no Japanese page).
    title_ja: str = ""
    rules_ja: str = ""


def generic_report(game_name: str, params: dict[str, Any]) -> GameReport:
    """The report of any board of any game: its exhaustive analysis (small boards only)."""
    parts = [game_name] + [f"{k}-{v}" for k, v in sorted(params.items())]
    slug = "_".join(
        "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in str(p)) for p in parts
    )
    game: Game[Any, Any] = load_game(game_name, **params)
    title = display_name(game_name) + (
        ": " + ", ".join(f"{k}={v}" for k, v in params.items()) if params else ""
    )
    options = " ".join(f"-p '{k}={v}'" for k, v in params.items())

    def build(ctx: ReportContext) -> list[str]:
        command = f"cgt report {game_name} {options}".strip()
        lines = [f"# {title}", "", game.summary, "", f"Regenerate: `{command}`", ""]
        body, _ = small_board_section(ctx, game_name, params, slug, "Solved result")
        ctx.certificates = certificates(game_name, ctx)
        return [*lines, *body, *claims(ctx)]

    def headline(ctx: ReportContext) -> str:
        stored = data.load(ctx.out_dir, slug)
        if stored is None:
            return "-"
        r = stored.results
        first = game.players[game.to_move(game.initial_position())]
        return f"**{winner_phrase(r['winner'], first, 'the second player')}**" + (
            "" if r["remoteness"] is None else f" in {r['remoteness']} plies"
        )

    return GameReport(game_name, slug, build, headline)


#: Languages of the pages: code -> folder under the reports directory.
LANGUAGES = {"en": "", "ja": "ja"}


def write_page(
    report: GameReport, ctx: ReportContext, languages: tuple[str, ...] = ("en",)
) -> Path:
    """Build the page once and write it in each of ``languages`` (the Japanese page, under
    ``ja/``, from the same build); the path of the first."""
    started = time.perf_counter()
    lines = report.build(ctx)
    pages = {"en": lines}
    if report.title_ja:
        pages["ja"] = japanese_page(
            ctx, report.slug, report.title_ja, report.rules_ja, f"{report.slug}.md", lines
        )
    written = []
    for language in languages:
        if not pages.get(language):
            raise ValueError(f"no {language} page for {report.game}")
        path = ctx.out_dir / LANGUAGES[language] / f"{report.slug}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(pages[language]).rstrip("\n") + "\n")
        written.append(path)
    log(ctx.out_dir, f"{report.slug} written in {time.perf_counter() - started:.1f} s")
    return written[0]


def log(out_dir: Path, message: str) -> None:
    """One line of the run log (``run-log.txt``, not committed): timings of this run."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
    with (out_dir / "run-log.txt").open("a") as handle:
        handle.write(f"{stamp} {message}\n")
