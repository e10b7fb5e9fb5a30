"""Analysis reports: a solved board, its state space, design metrics and the document's claims,
written as Markdown with figures.

``write_report(board, out_dir)`` is the whole job for one board; ``write_all(out_dir)`` writes
the default boards of every seed game and ``README.md`` indexing them. Every number in a report
comes with the command that reproduces it.
"""

from __future__ import annotations

import json
import random
import shlex
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cgt.protocol import Game, Outcome
from cgt.registry import load_game

#: Colours of GamesmanUni: green win, yellow draw/tie, red loss (for the player moving).
OUTCOME_COLOURS = {Outcome.WIN: "#3cb44b", Outcome.DRAW: "#ffe119", Outcome.LOSS: "#e6194b"}

#: Cells of an opening map where no opening is played.
NO_OPENING_COLOUR = "#d9d9d9"

#: How each game is called in titles.
DISPLAY_NAMES: dict[str, str] = {
    "control": "Control",
    "lag": "LAG",
    "interleave": "Interleave",
    "super-nonnect": "Super Nonnect",
    "entropy": "Entropy",
    "tictactoe": "Tic-tac-toe",
}

#: A short introduction of each seed game, for readers who do not know it.
INTRODUCTIONS: dict[str, str] = {
    "control": (
        "Control (a descendant of SNORT) is played on a hexhex board that starts empty. A player "
        "*controls* a cell when a strict majority of the pieces on its neighbours are theirs. "
        "White opens on a perimeter cell; then each turn a player either places a piece on an "
        "empty cell the opponent does not control, or removes an opponent piece from a cell they "
        "control. A player with no legal move loses. The document plays on size 5 and reports "
        "that on size 4 the second player seems favoured."
    ),
    "lag": (
        "LAG is a race of groups on a hexhex board: each player starts with the two rows nearest "
        "them (White at the bottom, Black at the top). A piece moves in a straight line exactly "
        "as many cells as its owner has objects (connected groups), jumping over anything and "
        "capturing on landing; forward always, sideways only if it reduces the mover's "
        "objects, never backward. When the player to move has no move, fewer objects wins, "
        "ties go to the player who cannot move. The document plays on size 4 or 5 and worries "
        "that games are won with the winner's pieces still dispersed."
    ),
    "interleave": (
        "Interleave is a real-time placement game on a hexhex board. An empty cell is *seen* by "
        "the first stone along each of its six rays; a player may take a cell seen by strictly "
        "more opponent stones than own stones. After a pie setup (one player places any stones, "
        "the other picks a colour), the winner is decided by stone count or by the "
        "largest-group cascade, ties going to Red. For analysis the real-time game is given "
        "turns (alternating with passes, or the move to whoever is losing)."
    ),
    "super-nonnect": (
        "Super Nonnect is an impartial game on a board of mini-boards (the document: 3x3 "
        "mini-boards of 3x3 cells). Both players cut cells; the place of a cut inside its "
        "mini-board designates the mini-board of the next cut, the uncut cells must stay "
        "connected, and a player sent to a fully cut mini-board loses (original rule) or may "
        "not be sent there (revised rule). The document claims a simple first-player win under "
        "the original rule (the return strategy) and proposes the revised rule as the fix."
    ),
    "entropy": (
        "Entropy (Augustine Carreno, 1992) is played with seven pieces each on a 5x5 board. A "
        "piece moves like a queen but only if it touches a friendly piece; isolated pieces must "
        "be rescued first. You win when every piece of yours touches an enemy piece and no "
        "friendly one. Who wins 5x5 is unknown; this report solves a smaller board exactly and "
        "checks the document's worked examples on the real one."
    ),
    "tictactoe": (
        "Tic-tac-toe on 3x3: three in a row wins, a full board is a draw. It is here as a "
        "reference everybody knows the answer to (a draw), so the figures can be read against it."
    ),
}


@dataclass(frozen=True)
class Board:
    """One board of a report: a game name, its parameters and the report's file name."""

    game: str
    params: dict[str, Any] = field(default_factory=dict)
    #: File name stem of the report (default: made from the game and parameters).
    name: str | None = None
    #: One phrase saying what the board is, for titles and the index.
    caption: str | None = None

    @property
    def slug(self) -> str:
        if self.name:
            return self.name
        parts = [self.game] + [f"{k}-{v}" for k, v in sorted(self.params.items())]
        return "_".join(
            "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in str(p)) for p in parts
        )

    def options(self) -> str:
        return " ".join(f"-p {shlex.quote(f'{k}={v}')}" for k, v in self.params.items())

    def command(self, verb: str = "report", *extra: str) -> str:
        return " ".join(part for part in ("cgt", verb, self.game, self.options(), *extra) if part)

    def title(self) -> str:
        name = DISPLAY_NAMES.get(self.game, self.game)
        if self.caption:
            return f"{name}: {self.caption}"
        if not self.params:
            return name
        return f"{name}: " + ", ".join(f"{k}={v}" for k, v in self.params.items())


#: The boards written by ``cgt report all``: small enough for an exact retrograde analysis of
#: every reachable position in seconds; the standard boards the compiled kernels reach are in
#: each report's game-specific sections.
DEFAULT_BOARDS: list[Board] = [
    Board("control", {"size": 2}, "control_size-2", "size 2 (7 cells)"),
    Board(
        "lag",
        {"size": 3, "setup": "B.B/..../...../..../W.W W"},
        "lag_size-3_two-pieces",
        "size 3 (19 cells), two pieces each",
    ),
    Board("interleave", {"size": 2}, "interleave_size-2", "size 2 (7 cells)"),
    Board(
        "super-nonnect",
        {"a": 2, "b": 2, "rule": "original"},
        "super-nonnect_2x2_original",
        "2x2 mini-boards of 2x2 cells, original rule",
    ),
    Board(
        "super-nonnect",
        {"a": 2, "b": 2, "rule": "revised"},
        "super-nonnect_2x2_revised",
        "2x2 mini-boards of 2x2 cells, revised rule",
    ),
    Board(
        "entropy",
        {"width": 4, "height": 3, "setup": "SSSS/..../OOOO O"},
        "entropy_4x3_four-pieces",
        "4x3 board, four pieces each",
    ),
    Board("tictactoe", {}, "tictactoe", "3x3"),
]

#: Variants compared side by side in a report (parameter overrides), per game.
VARIANT_TABLES: dict[str, list[dict[str, Any]]] = {
    "lag": [{"goal": g} for g in ("standard", "strict", "far-row-one-object", "far-row")],
    "control": [{"control": "adjacent"}, {"control": "sight"}],
    "interleave": [{"win": w, "turns": t} for w in ("stones", "groups") for t in ("pass", "loser")],
    "super-nonnect": [{"rule": "original"}, {"rule": "revised"}],
}


@dataclass
class ReportContext:
    """What a game-specific section may use: the board, where to write, and the certificates
    of the document's claims (claim id -> certificate dict), already up to date."""

    board: Board
    out_dir: Path
    fig_dir: Path
    certificates: dict[str, dict[str, Any]]


# ----------------------------------------------------------------------- metrics
def design_metrics(solution: Any) -> dict[str, Any]:
    """Exact metrics over every position of a solved state graph (up to symmetry), counted
    over the legal moves of each position (GamesCrafters and Ludii style).

    Forgiveness is the mean share of legal moves that keep a won position won: near 1 the
    game forgives slips, near 0 every won position is a knife edge.
    """
    legal_counts: list[int] = []
    winning_moves_hist: Counter[int] = Counter()
    shares: list[float] = []
    for node in range(len(solution)):
        if solution.terminal[node]:
            continue
        position = solution.position_of(node)
        values = solution.move_values(position)
        legal_counts.append(len(values))
        if Outcome(int(solution.outcomes[node])) == Outcome.WIN:
            keep = sum(1 for v in values if v.outcome == Outcome.WIN)
            winning_moves_hist[keep] += 1
            shares.append(keep / len(values))
    outcomes = solution.outcomes
    decided = float((outcomes != int(Outcome.DRAW)).mean()) if len(outcomes) else 0.0
    return {
        "branching_mean": float(np.mean(legal_counts)) if legal_counts else 0.0,
        "branching_max": max(legal_counts, default=0),
        "forgiveness": float(np.mean(shares)) if shares else 0.0,
        "won_positions": len(shares),
        "won_positions_with_single_winning_move": winning_moves_hist.get(1, 0),
        "winning_moves_histogram": dict(sorted(winning_moves_hist.items())),
        "decisiveness": decided,
        "drawishness": 1 - decided,
    }


@dataclass
class RandomPlay:
    """Games of uniformly random play from one root: their lengths and who won."""

    lengths: list[int]
    #: "first", "second", "draw" or "unfinished" (cap reached) -> games.
    winners: Counter[str]
    max_plies: int


def random_games(
    game: Game[Any, Any], root: Any, samples: int, seed: int = 1, max_plies: int = 500
) -> RandomPlay:
    """Play ``samples`` uniformly random games from ``root`` (seeded, so reproducible)."""
    rng = random.Random(seed)
    first = game.to_move(root)
    lengths: list[int] = []
    winners: Counter[str] = Counter()
    for _ in range(samples):
        position, plies = root, 0
        result = game.result(position)
        while plies < max_plies and result is None:
            moves = list(game.moves(position))
            position = game.play(position, rng.choice(moves))
            plies += 1
            result = game.result(position)
        lengths.append(plies)
        if result is None:
            winners["unfinished"] += 1
        elif result == Outcome.DRAW:
            winners["draw"] += 1
        else:
            mover_wins = result == Outcome.WIN
            first_to_move = game.to_move(position) == first
            winners["first" if mover_wins == first_to_move else "second"] += 1
    return RandomPlay(lengths, winners, max_plies)


def random_game_lengths(
    game: Game[Any, Any], root: Any, samples: int, seed: int = 1, max_plies: int = 500
) -> list[int]:
    """Lengths (plies) of uniformly random games from ``root``; capped games count as the cap."""
    return random_games(game, root, samples, seed, max_plies).lengths


# ----------------------------------------------------------------------- figures
def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _figure(path: Path, draw: Callable[[Any], None], size: tuple[float, float] = (6, 5)) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=size)
    draw(ax)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def cell_namer(game: Game[Any, Any]) -> Callable[[int], str] | None:
    """The game's name for a board cell (``a1``, ...), as its move names use it, if it has one."""
    namer = getattr(game, "cell_name", None)
    if callable(namer):
        return namer  # type: ignore[no-any-return]
    board = getattr(game, "board", None)
    namer = getattr(board, "cell_name", None)
    return namer if callable(namer) else None


def _outcome_legend(ax: Any, player: str, outcomes: set[Outcome], extra: str | None) -> None:
    from matplotlib.patches import Patch

    handles = [
        Patch(facecolor=OUTCOME_COLOURS[o], edgecolor="#444444", label=f"{o.label} for {player}")
        for o in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)
        if o in outcomes
    ]
    if extra:
        handles.append(Patch(facecolor=NO_OPENING_COLOUR, edgecolor="#444444", label=extra))
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=len(handles),
        frameon=False,
        fontsize=8,
    )


def opening_map(
    game: Game[Any, Any], root: Any, values: list[Any], path: Path, title: str | None = None
) -> bool:
    """Colour each cell by the value of the best opening that lands on it (GamesmanUni's
    colours) and write the cell's name and the opening's remoteness in it. Needs the game's
    ``move_target`` and ``draw``; returns False when the game cannot draw one."""
    cells: dict[int, Any] = {}
    for mv in values:
        cell = game.move_target(root, mv.move)
        if cell is None:
            continue
        best = cells.get(cell)
        rank = (
            int(mv.outcome),
            -(mv.remoteness or 0) if mv.outcome == Outcome.WIN else (mv.remoteness or 0),
        )
        if best is None or rank > best[0]:
            cells[cell] = (rank, mv)
    if not cells:
        return False
    namer = cell_namer(game)
    player = player_name(game, root)
    landing_moves = any("-" in mv.name or "x" in mv.name[1:] for mv in values)

    def draw(ax: Any) -> None:
        colours = {c: NO_OPENING_COLOUR for c in range(_cell_count(game))}
        colours.update({c: OUTCOME_COLOURS[mv.outcome] for c, (_, mv) in cells.items()})
        labels = {}
        for c, (_, mv) in cells.items():
            name = namer(c) if namer else ""
            rem = "" if mv.remoteness is None else str(mv.remoteness)
            labels[c] = "\n".join(part for part in (name, rem) if part)
        game.draw(root, ax, cell_colours=colours, cell_labels=labels)
        extra = "no opening there" if len(cells) < _cell_count(game) else None
        _outcome_legend(ax, player, {mv.outcome for _, mv in cells.values()}, extra)
        where = "lands on it" if landing_moves else "is played there"
        with_remoteness = any(mv.remoteness is not None for _, mv in cells.values())
        ax.set_title(
            (title or game.label())
            + f"\n{player} to move: value of the best opening that {where}"
            + ("\n(cell name, then remoteness in plies)" if with_remoteness else "\n(cell name)"),
            fontsize=9,
        )

    try:
        _figure(path, draw, size=(6, 5.6))
    except NotImplementedError:
        return False
    return True


def _cell_count(game: Game[Any, Any]) -> int:
    board = getattr(game, "board", None)
    size = getattr(board, "size", None)
    if isinstance(size, int):
        return size
    full = getattr(game, "full_mask", None)
    return int(full).bit_count() if isinstance(full, int) else 0


def remoteness_histogram(summary: dict[str, Any], path: Path, title: str) -> None:
    """Stacked bars: positions by remoteness, green won / red lost for the player to move,
    draws as a separate yellow bar."""

    def draw(ax: Any) -> None:
        table = summary["by_outcome_remoteness"]
        top = max([r for counts in table.values() for r in counts if r is not None] + [0])
        xs = np.arange(top + 1)
        bottom = np.zeros(top + 1)
        for label, outcome in (("win", Outcome.WIN), ("loss", Outcome.LOSS)):
            ys = np.array([table.get(label, {}).get(int(x), 0) for x in xs], dtype=float)
            ax.bar(
                xs,
                ys,
                bottom=bottom,
                color=OUTCOME_COLOURS[outcome],
                label=f"{label} for the mover",
            )
            bottom += ys
        draws = sum(table.get("draw", {}).values())
        ticks, names = list(xs), [str(x) for x in xs]
        if draws:
            ax.bar([top + 2], [draws], color=OUTCOME_COLOURS[Outcome.DRAW], label="draw")
            ticks.append(top + 2)
            names.append("draw")
        if len(ticks) <= 30:
            ax.set_xticks(ticks, names)
        # explicit limits: zero-height bars stacked at a bar's top would pin the autoscale
        ax.set_ylim(0, max(float(bottom.max(initial=0)), draws, 1) * 1.18)
        ax.set_xlabel("remoteness (plies to the end with perfect play)")
        ax.set_ylabel("positions (up to symmetry)")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=8)

    _figure(path, draw, size=(7, 4))


def length_histogram(lengths: list[int], perfect: int | None, path: Path, title: str) -> None:
    """Distribution of random-game lengths, one bar per length, with perfect play marked."""

    def draw(ax: Any) -> None:
        counts = Counter(lengths)
        xs = sorted(counts)
        ax.bar(xs, [counts[x] for x in xs], width=0.9, color="#4363d8", label="random play")
        if perfect is not None:
            ax.axvline(perfect, color="black", linestyle="--", label=f"perfect play ({perfect})")
        ax.margins(y=0.15)
        ax.set_xlabel("game length (plies)")
        ax.set_ylabel(f"games (of {len(lengths)})")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=8)

    _figure(path, draw, size=(7, 3.6))


def draw_positions(
    game: Game[Any, Any],
    positions: list[tuple[str, Any]],
    path: Path,
    legend: list[tuple[str, str]] | None = None,
) -> None:
    """Draw several positions side by side with captions; ``legend`` is (colour, label) pairs
    for the pieces."""
    from matplotlib.patches import Patch

    from cgt.boards.hexhex import HexBoard

    plt = _pyplot()
    fig, axes = plt.subplots(1, len(positions), figsize=(4.2 * len(positions), 4.6))
    if len(positions) == 1:
        axes = [axes]
    board = getattr(game, "board", None)
    names = (
        {c: board.cell_name(c) for c in range(board.size)} if isinstance(board, HexBoard) else None
    )
    for ax, (caption, position) in zip(axes, positions):
        game.draw(position, ax, cell_labels=names)
        ax.set_title(caption, fontsize=9)
    if legend:
        handles = [
            Patch(facecolor=colour, edgecolor="#222222", label=label) for colour, label in legend
        ]
        fig.legend(
            handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=8
        )
        fig.tight_layout(rect=(0, 0.07, 1, 0.96))
    else:
        fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


#: Piece colours of the games' drawings, for legends: game -> (colour, label) pairs.
PIECE_LEGENDS: dict[str, list[tuple[str, str]]] = {
    "control": [
        ("white", "White piece"),
        ("black", "Black piece"),
        ("#fbf7ee", "empty, White controls"),
        ("#b9ae98", "empty, Black controls"),
        ("#e6d5ae", "empty, nobody controls"),
    ],
    "lag": [("white", "White (moves up)"), ("black", "Black (moves down)")],
    "entropy": [("white", "O (the document's white)"), ("#c8322d", "S (the document's red)")],
    "interleave": [("#c0392b", "Red"), ("black", "Black")],
    "super-nonnect": [
        ("#f3e6c8", "uncut cell"),
        ("#555555", "cut cell"),
        ("#bfe3f5", "mini-board of the next cut"),
    ],
}


# ----------------------------------------------------------------------- the report
def table(header: list[str], rows: list[list[Any]]) -> list[str]:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


_table = table  # old name, kept for callers


def ensure_certificates(
    game_name: str, out_dir: Path, run_claims: bool, done: set[str] | None = None
) -> dict[str, dict[str, Any]]:
    """The certificate of every claim of ``game_name`` under ``out_dir/claims``: re-checked
    (``run_claims``) or loaded; ``done`` lists claims already checked in this run."""
    from proofs.certificates import write_certificate
    from proofs.registry import all_claims, run_claim

    claims_dir = out_dir / "claims"
    certificates = {}
    for c in all_claims():
        if c.game != game_name:
            continue
        cert = claims_dir / f"{c.id}.json"
        already = done is not None and c.id in done
        if (run_claims and not already) or not cert.exists():
            write_certificate(run_claim(c.id), claims_dir)
            if done is not None:
                done.add(c.id)
        certificates[c.id] = json.loads(cert.read_text())
    return certificates


def claim_finding(cert: dict[str, Any], limit: int = 400) -> str:
    """One or two sentences of what the checker found, for a reader who will not open the
    certificate: the corrected statement, else the evidence's own summary, else its plain
    fields (``key: value``)."""
    evidence = cert.get("evidence", {})
    if not isinstance(evidence, dict):
        evidence = {}
    texts = [cert.get("corrected_statement")]
    texts += [evidence.get(k) for k in ("summary", "assessment", "note", "argument", "conclusion")]
    for text in texts:
        if isinstance(text, str) and text:
            return _shorten(text, limit)
    plain = []
    for key, value in evidence.items():
        if (
            isinstance(value, list)
            and len(value) <= 6
            and all(isinstance(v, str | int | float) for v in value)
        ):
            value = ", ".join(str(v) for v in value) or "none"
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(v, dict) and "winner" in v for v in value.values())
        ):
            value = ", ".join(f"{label} {v['winner']}" for label, v in value.items())
        if isinstance(value, str | int | float | bool):
            plain.append(f"{key.replace('_', ' ')}: {value}")
    return _shorten("; ".join(plain), limit) if plain else "see the certificate"


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def claims_section(certificates: dict[str, dict[str, Any]]) -> list[str]:
    """The document's claims for this game: verdict, finding, link to the certificate."""
    if not certificates:
        return []
    lines = [
        "## The document's claims",
        "",
        "Each claim is checked by `cgt check`; the certificate holds the scope, the evidence and "
        "the command that reproduces it.",
        "",
    ]
    rows = []
    for claim_id, cert in certificates.items():
        rows.append(
            [
                f"`{claim_id}`",
                cert.get("statement", ""),
                f"**{cert['verdict']}**",
                claim_finding(cert),
                f"[certificate](claims/{claim_id}.md)",
            ]
        )
    lines += table(["claim", "statement", "verdict", "what the check found", "details"], rows)
    lines += ["", "Reproduce: `cgt check " + " ".join(certificates) + "`", ""]
    return lines


def _verdict_sentence(game: Game[Any, Any], winner: str, remoteness: int | None) -> str:
    first = game.players[game.to_move(game.initial_position())]
    named = "" if first.lower() == "first" else f" ({first})"
    verdict = {
        "first": f"the first player{named} wins",
        "second": "the second player wins",
        "draw": "a draw",
    }[winner]
    rem = "" if remoteness is None else f" in {remoteness} plies"
    return f"**{verdict}**{rem}"


def _variants_section(board: Board) -> list[str]:
    from solvers.retrograde import retrograde

    variants = VARIANT_TABLES.get(board.game)
    if not variants:
        return []
    rows = []
    for override in variants:
        params = {**board.params, **override}
        variant = Board(board.game, params)
        name = ", ".join(f"{k}={v}" for k, v in override.items())
        try:
            vgame = load_game(board.game, **params)
            vsol = retrograde(
                vgame, vgame.initial_position(), symmetry=True, max_positions=3_000_000
            )
            vres = vsol.result(vgame.initial_position())
            rows.append(
                [
                    name,
                    vres.winner,
                    "-" if vres.remoteness is None else vres.remoteness,
                    f"{len(vsol):,}",
                    f"{sum(1 for m in vres.moves if m.outcome == Outcome.WIN)}/{len(vres.moves)}",
                    f"`{variant.command('solve')}`",
                ]
            )
        except Exception as exc:  # a variant out of reach is reported, not fatal
            rows.append([name, f"not solved: {exc}", "", "", "", f"`{variant.command('solve')}`"])
    lines = [
        "## Variants side by side",
        "",
        "The same board under each rule variant of the document (winner = who wins the initial "
        "position with perfect play).",
        "",
    ]
    lines += table(
        [
            "variant",
            "winner",
            "remoteness",
            "positions (up to symmetry)",
            "winning openings",
            "command",
        ],
        rows,
    )
    return [*lines, ""]


def write_report(
    board: Board,
    out_dir: Path,
    *,
    random_samples: int = 2000,
    run_claims: bool = True,
    progress: Callable[[dict[str, Any]], None] | None = None,
    claims_done: set[str] | None = None,
) -> Path:
    """Solve ``board`` and write ``<out_dir>/<slug>.md`` with its figures. Returns the path.

    ``claims_done`` (shared by :func:`write_all`) keeps a claim from being re-checked for a
    second board of the same game.
    """
    from solvers.retrograde import retrograde

    game = load_game(board.game, **board.params)
    root = game.initial_position()
    out_dir.mkdir(parents=True, exist_ok=True)
    fig_dir = out_dir / "figures"
    fig_dir.mkdir(exist_ok=True)
    certificates = ensure_certificates(board.game, out_dir, run_claims, claims_done)
    solution = retrograde(game, root, symmetry=True, progress=progress, keep_positions=True)
    plain = (
        retrograde(game, root, symmetry=False, progress=progress)
        if game.symmetry_count > 1
        else solution
    )
    result = solution.result(root)
    summary = solution.summary()
    metrics = design_metrics(solution)
    play = random_games(game, root, random_samples)
    lengths = play.lengths
    command = board.command()
    first = player_name(game, root)
    title = board.title()

    lines = [f"# {title}", "", INTRODUCTIONS.get(game.name, game.summary), ""]
    lines += ["This report's board and rules:", ""]
    lines += table(["parameter", "value"], [[k, f"`{v}`"] for k, v in game.parameters.items()])
    lines += [
        "",
        f"Starting position `{game.render(root)}` ({first} to move); it is drawn under the "
        "opening values below. Position strings list the rows from the top, separated by `/`, "
        "then the player to move.",
        "",
        f"Reproduce everything on this page: `{command}` (seeded; the random games use seed 1).",
        "",
    ]

    # ---- solved result
    lines += ["## Solved result", ""]
    lines += [
        f"With perfect play the game is {_verdict_sentence(game, result.winner, result.remoteness)}.",
        "",
    ]
    if result.principal_variation:
        cut = " (a draw never ends by force: the line stops when a position repeats)"
        lines += [
            f"A perfect line: `{' '.join(result.principal_variation)}`"
            + (cut if result.winner == "draw" else ""),
            "",
        ]
    winning = [m for m in result.moves if m.outcome == Outcome.WIN]
    drawing = [m for m in result.moves if m.outcome == Outcome.DRAW]
    lines += [
        f"{first} has {len(result.moves)} legal openings: {len(winning)} win, {len(drawing)} draw, "
        f"{len(result.moves) - len(winning) - len(drawing)} lose. Remoteness counts the plies to "
        "the end of the game with perfect play, the opening included (the winner hurries, the "
        "loser delays).",
        "",
    ]
    map_path = fig_dir / f"{board.slug}_openings.png"
    if opening_map(game, root, result.moves, map_path, title):
        lines += [f"![value of every opening]({map_path.relative_to(out_dir).as_posix()})", ""]
    lines += table(
        ["opening", f"outcome for {first}", "remoteness"],
        [
            [f"`{m.name}`", m.outcome.label, "-" if m.remoteness is None else m.remoteness]
            for m in result.moves
        ],
    )
    lines += ["", f"Reproduce: `{board.command('solve')}`", ""]

    # ---- state space
    rem_table = summary["by_outcome_remoteness"]
    top = max([r for counts in rem_table.values() for r in counts if r is not None] + [0])
    finished = [n for n in lengths if n < play.max_plies]
    lines += ["## State space", ""]
    lines += table(
        ["measure", "value"],
        [
            ["reachable positions", f"{len(plain):,}"],
            ["positions up to symmetry", f"{len(solution):,} ({game.symmetry_count} symmetries)"],
            ["terminal positions (up to symmetry)", f"{summary['terminal']:,}"],
            [
                "won / lost / drawn for the player to move (up to symmetry)",
                " / ".join(f"{summary['by_outcome'].get(k, 0):,}" for k in ("win", "loss", "draw")),
            ],
            [
                "branching factor: legal moves per non-terminal position (mean, max)",
                f"{metrics['branching_mean']:.2f}, {metrics['branching_max']}",
            ],
            [
                "game length with perfect play (plies)",
                "- (a draw)" if result.remoteness is None else result.remoteness,
            ],
            [
                f"game length in {len(lengths):,} uniformly random games (mean, median, min, max)",
                f"{np.mean(lengths):.1f}, {np.median(lengths):.0f}, {min(lengths)}, {max(lengths)}"
                + (
                    f" ({len(lengths) - len(finished)} stopped at {play.max_plies} plies)"
                    if len(finished) < len(lengths)
                    else ""
                ),
            ],
            [
                "solve time, retrograde (s)",
                f"{solution.seconds:.2f}" if solution.seconds >= 0.01 else "< 0.01",
            ],
        ],
    )
    lines += ["", "Positions by value and remoteness (up to symmetry, for the player to move):", ""]
    rows = [
        [label] + [rem_table.get(label, {}).get(r, 0) for r in range(top + 1)]
        for label in ("win", "loss")
    ]
    if summary["by_outcome"].get("draw", 0):
        rows.append(["draw", f"{summary['by_outcome']['draw']:,} (no remoteness)"] + [""] * top)
    lines += table(["remoteness"] + [str(r) for r in range(top + 1)], rows)
    lines.append("")
    hist_path = fig_dir / f"{board.slug}_remoteness.png"
    remoteness_histogram(summary, hist_path, f"{title}\npositions by value and remoteness")
    lines += [
        f"![positions by value and remoteness]({hist_path.relative_to(out_dir).as_posix()})",
        "",
    ]
    len_path = fig_dir / f"{board.slug}_lengths.png"
    length_histogram(lengths, result.remoteness, len_path, f"{title}\ngame length")
    lines += [f"![game lengths]({len_path.relative_to(out_dir).as_posix()})", ""]
    lines += [f"Reproduce: `{command}` (retrograde analysis of every reachable position).", ""]

    # ---- design metrics
    lines += _design_section(game, board, result, metrics, play, solution, fig_dir, out_dir)
    lines += _variants_section(board)

    from cgt.report_sections import SECTIONS

    context = ReportContext(board, out_dir, fig_dir, certificates)
    for section in SECTIONS.get(board.game, []):
        lines += section(context)
    lines += claims_section(certificates)
    path = out_dir / f"{board.slug}.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _design_section(
    game: Game[Any, Any],
    board: Board,
    result: Any,
    metrics: dict[str, Any],
    play: RandomPlay,
    solution: Any,
    fig_dir: Path,
    out_dir: Path,
) -> list[str]:
    winning = [m for m in result.moves if m.outcome == Outcome.WIN]
    games = sum(play.winners.values())
    random_split = ", ".join(
        f"{label} {play.winners.get(key, 0) / games:.0%}"
        for key, label in (
            ("first", "first player"),
            ("second", "second player"),
            ("draw", "draw"),
            ("unfinished", "unfinished"),
        )
        if play.winners.get(key, 0) or key in ("first", "second")
    )
    hist = metrics["winning_moves_histogram"]
    lines = ["## Design metrics", ""]
    lines += table(
        ["metric", "value", "meaning"],
        [
            [
                "first-player advantage (perfect play)",
                result.winner,
                "who wins the initial position: first, second or draw",
            ],
            [
                "first-player advantage (random play)",
                random_split,
                f"results of the {games:,} random games",
            ],
            [
                "winning openings",
                f"{len(winning)}/{len(result.moves)} ({len(winning) / max(len(result.moves), 1):.0%})",
                "openings that keep the first player's win",
            ],
            [
                "forgiveness",
                f"{metrics['forgiveness']:.2f}",
                "mean share of legal moves that keep the win, over won positions",
            ],
            [
                "knife-edge wins",
                f"{metrics['won_positions_with_single_winning_move']:,} of "
                f"{metrics['won_positions']:,}",
                "won positions with exactly one winning move",
            ],
            [
                "decisiveness",
                f"{metrics['decisiveness']:.3f}",
                "share of positions whose value is a win or a loss",
            ],
            [
                "drawishness",
                f"{metrics['drawishness']:.3f}",
                "share of positions that are draws with perfect play",
            ],
        ],
    )
    if hist:
        lines += ["", "How many moves keep a won position won (positions up to symmetry):", ""]
        lines += table(
            ["winning moves"] + [str(k) for k in hist], [["won positions", *list(hist.values())]]
        )
    lines.append("")
    longest = _longest_wins(solution, game, limit=3)
    if longest:
        lines += [
            "Longest forced wins: positions where the player to move wins but the loser can "
            "resist longest.",
            "",
        ]
        lines += table(
            ["position", "to move", "remoteness"],
            [[f"`{game.render(p)}`", player_name(game, p), r] for p, r in longest],
        )
        lines.append("")
        path = fig_dir / f"{board.slug}_longest-wins.png"
        try:
            draw_positions(
                game,
                [
                    (f"{player_name(game, p)} to move wins in {r}\n{game.render(p)}", p)
                    for p, r in longest
                ],
                path,
                PIECE_LEGENDS.get(game.name),
            )
        except NotImplementedError:
            pass
        else:
            lines += [f"![longest forced wins]({path.relative_to(out_dir).as_posix()})", ""]
    lines += [f"Reproduce: `{board.command()}`", ""]
    return lines


def player_name(game: Game[Any, Any], position: Any) -> str:
    """The player to move, as a reader says it ("First player" in impartial games)."""
    name = game.players[game.to_move(position)]
    return f"{name} player" if name in ("First", "Second") else name


def _longest_wins(solution: Any, game: Game[Any, Any], limit: int) -> list[tuple[Any, int]]:
    wins = np.flatnonzero(solution.outcomes == int(Outcome.WIN))
    if not wins.size:
        return []
    rem = solution.remoteness_array[wins]
    order = wins[np.argsort(-rem, kind="stable")][:limit]
    return [
        (solution.position_of(int(node)), int(solution.remoteness_array[node])) for node in order
    ]


# ----------------------------------------------------------------------- the index
def _one_line_result(path: Path) -> str:
    """The bold verdict of a written report (its first ``**...**`` after "perfect play")."""
    for line in path.read_text().splitlines():
        if line.startswith("With perfect play"):
            return line.removeprefix("With perfect play the game is ").rstrip(".")
    return "-"


def write_index(
    out_dir: Path, boards: list[Board], paths: list[Path], seconds: float | None = None
) -> Path:
    """``README.md``: every report with its board and result, the boards beyond the reports'
    reach, and every claim with its verdict and certificate."""
    from cgt.report_sections import larger_boards_rows
    from proofs.registry import all_claims

    lines = [
        "# Reports",
        "",
        "Exact analyses of the seed games (see `docs/rules.md` for their rules): for each game a "
        "small board solved completely (every reachable position), the standard boards the "
        "compiled solvers reach, the document's claims with their verdicts, and the boards "
        "still out of reach.",
        "",
        "Regenerate everything in this directory: `cgt report all`"
        + (f" (this run took {seconds:.0f} s)." if seconds is not None else "."),
        "One report: `cgt report GAME [-p KEY=VALUE ...] [--out DIR]`.",
        "",
        "## Reports",
        "",
    ]
    rows = []
    for board, path in zip(boards, paths):
        rows.append(
            [
                DISPLAY_NAMES.get(board.game, board.game),
                board.caption or board.options() or "default",
                _one_line_result(path),
                f"[{path.stem}]({path.name})",
            ]
        )
    lines += table(["game", "board", "perfect play", "report"], rows)
    lines += ["", "## Larger boards", ""]
    lines += table(
        ["game", "board", "status", "how far / how"],
        [[DISPLAY_NAMES.get(g, g), b, s, h] for g, b, s, h in larger_boards_rows()],
    )
    lines += ["", "## The documents' claims", ""]
    claim_rows = []
    for c in all_claims():
        cert_path = out_dir / "claims" / f"{c.id}.json"
        if cert_path.exists():
            cert = json.loads(cert_path.read_text())
            claim_rows.append(
                [
                    DISPLAY_NAMES.get(c.game, c.game),
                    f"`{c.id}`",
                    c.statement,
                    f"**{cert['verdict']}**",
                    f"[certificate](claims/{c.id}.md)",
                ]
            )
        else:
            claim_rows.append(
                [DISPLAY_NAMES.get(c.game, c.game), f"`{c.id}`", c.statement, "not checked", "-"]
            )
    lines += table(["game", "claim", "statement", "verdict", "certificate"], claim_rows)
    lines += [
        "",
        "Re-check every claim: `cgt check` (and rewrite these certificates: "
        "`cgt check --out reports/claims`).",
        "",
    ]
    path = out_dir / "README.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def write_all(
    out_dir: Path,
    boards: list[Board] | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    random_samples: int = 2000,
) -> list[Path]:
    """Write every default board's report and ``README.md`` indexing them."""
    started = time.perf_counter()
    boards = boards or DEFAULT_BOARDS
    claims_done: set[str] = set()
    paths = [
        write_report(
            board,
            out_dir,
            progress=progress,
            random_samples=random_samples,
            claims_done=claims_done,
        )
        for board in boards
    ]
    write_index(out_dir, boards, paths, time.perf_counter() - started)
    return paths


__all__ = [
    "DEFAULT_BOARDS",
    "Board",
    "ReportContext",
    "design_metrics",
    "random_games",
    "write_all",
    "write_index",
    "write_report",
]
