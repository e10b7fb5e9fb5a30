"""Figures of the reports: move-value maps (cells coloured by value for placement games,
arrows coloured by value for movement games), positions with their cell names, and charts.

Every figure uses one colour-blind-safe palette (Paul Tol's high-contrast scheme) whose three
colours stay apart in grey-scale too: win dark blue, loss mid red, draw light yellow; arrows add
a line style (solid win, dashed draw, dotted loss) so a grey print still tells them apart.
PNG files carry no software version or date, so a rerun writes the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cgt.protocol import Game, Outcome

#: Outcome for the player who moves -> fill colour (Paul Tol, high contrast).
OUTCOME_COLOURS = {Outcome.WIN: "#004488", Outcome.DRAW: "#DDAA33", Outcome.LOSS: "#BB5566"}
#: Text drawn on each fill colour.
TEXT_ON = {Outcome.WIN: "white", Outcome.DRAW: "black", Outcome.LOSS: "white"}
#: Line style of an arrow of each value (grey-scale safety).
ARROW_STYLES: dict[Outcome, Any] = {
    Outcome.WIN: "solid",
    Outcome.DRAW: "dashed",
    Outcome.LOSS: "dotted",
}
#: Cells where no move lands.
NO_MOVE_COLOUR = "#f2f2f2"
OUTCOME_BY_LABEL = {o.label: o for o in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)}

#: Piece colours of the games' drawings, for legends: game -> (colour, label) pairs.


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "cgt"
    return plt


def save(fig: Any, path: Path) -> None:
    """Write ``fig`` as a PNG without metadata that changes between runs, and close it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, bbox_inches="tight", metadata={"Software": None})
    pyplot().close(fig)


def cell_names(game: Game[Any, Any]) -> dict[int, str]:
    """Every cell's name (``a1``, ...) as the game's move names use it; empty when the board
    names its cells on its edges instead (square boards draw files and ranks)."""
    board = getattr(game, "board", None)
    if (board is not None and hasattr(board, "width")) or getattr(game, "shape", "") == "square":
        return {}
    geometry_names = getattr(getattr(game, "geometry", None), "names", None)
    if isinstance(geometry_names, dict):
        return dict(geometry_names)
    namer = getattr(game, "cell_name", None) or getattr(board, "cell_name", None)
    size = getattr(board, "size", 0)
    return {c: namer(c) for c in range(size)} if callable(namer) else {}


def cell_centre(game: Game[Any, Any], cell: int) -> tuple[float, float]:
    """Where ``cell`` is drawn by the game's ``draw`` (hex boards: ``center``; square boards:
    unit squares with a1 at the origin)."""
    board = game.board  # type: ignore[attr-defined]
    if hasattr(board, "center"):
        x, y = board.center(cell)
        return float(x), float(y)
    return cell % board.width + 0.5, cell // board.width + 0.5


def _outcome(value: dict[str, Any]) -> Outcome:
    return OUTCOME_BY_LABEL[value["outcome"]]


def _rank(value: dict[str, Any]) -> tuple[int, int]:
    """Better moves first: win before draw before loss; quick wins, slow losses."""
    rem = value.get("remoteness") or 0
    return (int(_outcome(value)), -rem if _outcome(value) == Outcome.WIN else rem)


def _legend(
    fig: Any,
    player: str,
    outcomes: set[Outcome],
    arrows: bool,
    extra: str | None,
    shading: list[tuple[str, str]] | None = None,
) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = []
    for o in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS):
        if o not in outcomes:
            continue
        label = f"{o.label} for {player}"
        if arrows:
            handles.append(
                Line2D(
                    [0],
                    [0],
                    color=OUTCOME_COLOURS[o],
                    lw=2.5,
                    linestyle=ARROW_STYLES[o],
                    label=label,
                )
            )
        else:
            handles.append(Patch(facecolor=OUTCOME_COLOURS[o], edgecolor="#444444", label=label))
    if extra:
        handles.append(Patch(facecolor=NO_MOVE_COLOUR, edgecolor="#444444", label=extra))
    for colour, label in shading or []:
        handles.append(Patch(facecolor=colour, edgecolor="#444444", label=label))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=8)


def _draw_cells(
    game: Game[Any, Any], position: Any, values: Sequence[dict[str, Any]], ax: Any
) -> set[Outcome]:
    by_name = {game.move_name(position, m): m for m in game.moves(position)}
    best: dict[int, dict[str, Any]] = {}
    for value in values:
        move = by_name.get(value["move"])
        cell = None if move is None else game.move_target(position, move)
        if cell is None:
            continue
        if cell not in best or _rank(value) > _rank(best[cell]):
            best[cell] = value
    names = cell_names(game)
    # cells without a move are greyed on plain boards; games that shade cells themselves (cut
    # cells, the designated mini-board) keep their own shading there
    size = getattr(getattr(game, "board", None), "size", 0)
    colours = {c: NO_MOVE_COLOUR for c in range(size)}
    colours.update({c: OUTCOME_COLOURS[_outcome(v)] for c, v in best.items()})
    labels = dict(names)
    for c, v in best.items():
        rem = v.get("remoteness")
        labels[c] = "\n".join(p for p in (names.get(c, ""), "" if rem is None else str(rem)) if p)
    game.draw(position, ax, cell_colours=colours, cell_labels=labels)
    text_colours = {labels[c]: TEXT_ON[_outcome(v)] for c, v in best.items()}
    for text in ax.texts:  # readable on the dark win colour
        if text.get_text() in text_colours:
            text.set_color(text_colours[text.get_text()])
    return {_outcome(v) for v in best.values()}


def _draw_arrows(
    game: Game[Any, Any], position: Any, values: Sequence[dict[str, Any]], ax: Any
) -> set[Outcome]:
    from matplotlib.patches import FancyArrowPatch

    size = getattr(getattr(game, "board", None), "size", 0)
    plain = {c: "#ffffff" for c in range(size)}  # arrows read best on a white board
    game.draw(position, ax, cell_colours=plain or None, cell_labels=cell_names(game) or None)
    by_name = {game.move_name(position, m): m for m in game.moves(position)}
    order = sorted(values, key=_rank)  # best drawn last, on top
    for value in order:
        move = by_name.get(value["move"])
        if not isinstance(move, tuple) or len(move) != 2:
            continue
        outcome = _outcome(value)
        (x0, y0), (x1, y1) = cell_centre(game, move[0]), cell_centre(game, move[1])
        ax.add_patch(
            FancyArrowPatch(
                (x0, y0),
                (x1, y1),
                arrowstyle="-|>",
                mutation_scale=14,
                linewidth=2.2,
                linestyle=ARROW_STYLES[outcome],
                color=OUTCOME_COLOURS[outcome],
                shrinkA=6,
                shrinkB=6,
                zorder=5,
            )
        )
        rem = value.get("remoteness")
        if rem is not None:
            ax.text(
                x0 + 0.72 * (x1 - x0),
                y0 + 0.72 * (y1 - y0),
                str(rem),
                fontsize=7,
                ha="center",
                va="center",
                color=TEXT_ON[outcome],
                zorder=6,
                bbox={"boxstyle": "round,pad=0.15", "fc": OUTCOME_COLOURS[outcome], "ec": "none"},
            )
    return {_outcome(v) for v in values}


def is_movement_game(game: Game[Any, Any], position: Any) -> bool:
    """Whether moves go from a piece to a target (drawn as arrows) rather than onto a cell."""
    moves = list(game.moves(position))
    return any(isinstance(m, tuple) and len(m) == 2 for m in moves)


def value_maps(
    game: Game[Any, Any],
    panels: Sequence[tuple[str, Any, Sequence[dict[str, Any]]]],
    path: Path,
    *,
    games: Sequence[Game[Any, Any]] | None = None,
    columns: int | None = None,
) -> None:
    """Every legal move of each panel's position coloured by its value for the player to move
    (GamesmanUni's view), with its remoteness: arrows from piece to target in movement games,
    the target cell otherwise. ``panels`` are (caption, position, move values as
    ``{"move", "outcome", "remoteness"}``); ``games`` gives a different game per panel."""
    plt = pyplot()
    n = len(panels)
    columns = columns or min(n, 3)
    rows = (n + columns - 1) // columns
    fig, axes = plt.subplots(
        rows, columns, figsize=(4.6 * columns, 5.0 * rows + 0.5), squeeze=False
    )
    outcomes: set[Outcome] = set()
    arrows = False
    uncovered = False
    player = "the player to move"
    movers = {
        (games[k] if games else game).players[(games[k] if games else game).to_move(p[1])]
        for k, p in enumerate(panels)
    }
    if len(movers) == 1:
        player = movers.pop()
        player = {"First": "the first player", "Second": "the second player"}.get(player, player)
    for k, (caption, position, values) in enumerate(panels):
        ax = axes[k // columns][k % columns]
        panel_game = games[k] if games else game
        if is_movement_game(panel_game, position):
            arrows = True
            outcomes |= _draw_arrows(panel_game, position, values, ax)
        else:
            outcomes |= _draw_cells(panel_game, position, values, ax)
            uncovered = uncovered or hasattr(panel_game, "board")
        ax.set_title(caption, fontsize=9)
    for k in range(n, rows * columns):
        axes[k // columns][k % columns].axis("off")
    extra = "no move there" if uncovered else None
    # games that shade the cells without a move themselves: say what the shades mean
    shading = None if uncovered or arrows else (list(game.legend) or None)
    _legend(fig, player, outcomes, arrows, extra, shading)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    save(fig, path)


def draw_positions(
    game: Game[Any, Any],
    positions: Sequence[tuple[str, Any]],
    path: Path,
    legend: list[tuple[str, str]] | None = None,
    colours: Sequence[dict[int, str] | None] | None = None,
    columns: int | None = None,
    scale: float = 1.0,
) -> None:
    """Several positions in rows of ``columns`` (default: one row) with captions and cell
    names; ``legend`` is (colour, label) pairs for the pieces, ``colours`` optional cell
    fills per panel, ``scale`` the size of a panel."""
    from matplotlib.patches import Patch

    plt = pyplot()
    columns = columns or len(positions)
    rows = (len(positions) + columns - 1) // columns
    fig, axes = plt.subplots(
        rows, columns, figsize=(4.2 * scale * columns, 4.8 * scale * rows), squeeze=False
    )
    names = cell_names(game)
    flat = [ax for row in axes for ax in row]
    for k, (ax, (caption, position)) in enumerate(zip(flat, positions)):
        fill = colours[k] if colours else None
        game.draw(position, ax, cell_colours=fill or None, cell_labels=names or None)
        ax.set_title(caption, fontsize=9)
    for ax in flat[len(positions) :]:
        ax.axis("off")
    if legend:
        handles = [Patch(facecolor=c, edgecolor="#222222", label=label) for c, label in legend]
        fig.legend(
            handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=8
        )
        fig.tight_layout(rect=(0, 0.07, 1, 1))
    else:
        fig.tight_layout()
    save(fig, path)


def value_remoteness_chart(
    by_remoteness: dict[str, dict[str, int]],
    totals: dict[str, int],
    path: Path,
    title: str,
    shares: bool = False,
) -> None:
    """Positions by value and remoteness on a log scale (left), and the totals of each value
    (right, log scale: draws may outnumber wins and losses a thousand to one); ``shares``
    draws the right panel as each value's share of all positions on a linear scale."""
    import numpy as np

    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6), gridspec_kw={"width_ratios": [4, 1]})
    top = max([int(r) for counts in by_remoteness.values() for r in counts] + [0])
    xs = np.arange(top + 1)
    for offset, (label, outcome) in zip(
        (-0.2, 0.2), (("win", Outcome.WIN), ("loss", Outcome.LOSS))
    ):
        counts = by_remoteness.get(label, {})
        ys = [counts.get(str(int(x)), 0) for x in xs]
        name = f"{label} for the player to move"
        if top > 40:  # too many bars to read: one point per non-zero count
            points = [(int(x), y) for x, y in zip(xs, ys) if y]
            left.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                color=OUTCOME_COLOURS[outcome],
                linestyle="none",  # odd and even remoteness differ a lot: no joining lines
                marker="o" if outcome == Outcome.WIN else "s",
                markersize=3 if outcome == Outcome.WIN else 2.5,
                label=name,
            )
            continue
        left.bar(
            xs + offset,
            ys,
            width=0.4,
            color=OUTCOME_COLOURS[outcome],
            label=name,
            hatch="" if outcome == Outcome.WIN else "//",
            edgecolor="white" if outcome == Outcome.WIN else "#552233",
            linewidth=0,
        )
    nonzero = [n for c in by_remoteness.values() for n in c.values() if n] + [
        n for n in totals.values() if n
    ]
    spread = max(nonzero, default=1) / max(min(nonzero, default=1), 1)
    log = spread > 50  # a linear axis hides the small bars when counts differ this much
    _scale(left, log)
    left.set_xlabel("remoteness (plies to the end with perfect play)")
    left.set_ylabel("positions (log scale)" if log else "positions")
    left.legend(fontsize=8)
    left.set_title(title, fontsize=9)
    labels = [k for k in ("win", "loss", "draw") if totals.get(k)]
    if shares:
        whole = sum(totals[k] for k in labels)
        values = [totals[k] / whole for k in labels]
        right.bar(
            range(len(labels)),
            values,
            color=[OUTCOME_COLOURS[OUTCOME_BY_LABEL[k]] for k in labels],
        )
        right.set_xticks(range(len(labels)), labels)
        right.set_ylim(0, 1.1)
        right.set_ylabel("share of all positions")
        right.set_title("all positions", fontsize=9)
        for k, value in enumerate(values):
            right.text(k, value, f"{value:.0%}", ha="center", va="bottom", fontsize=7)
        fig.tight_layout()
        save(fig, path)
        return
    right.bar(
        range(len(labels)),
        [totals[k] for k in labels],
        color=[OUTCOME_COLOURS[OUTCOME_BY_LABEL[k]] for k in labels],
    )
    right.set_xticks(range(len(labels)), labels)
    right.set_ylabel("positions (log scale)" if log else "positions")
    _scale(right, log)
    top_total = max((totals[k] for k in labels), default=1)
    right.set_ylim(top=top_total * (4 if log else 1.15))  # room for the numbers
    right.set_title("all positions", fontsize=9)
    for k, label in enumerate(labels):
        right.text(k, totals[label], _short(totals[label]), ha="center", va="bottom", fontsize=7)
    fig.tight_layout()
    save(fig, path)


def _short(n: int) -> str:
    """1,234 -> "1,234"; 248,376,742 -> "248.4 M"; 3,523,055,314 -> "3.52 G"."""
    if n >= 10**9:
        return f"{n / 10**9:.2f} G"
    if n >= 10**6:
        return f"{n / 10**6:.1f} M"
    return f"{n:,}"


def _scale(ax: Any, log: bool) -> None:
    """A log axis with plain numbers (1, 10, 1,000, ...), or a linear one."""
    from matplotlib.ticker import FuncFormatter

    if log:
        ax.set_yscale("log")
        ax.set_ylim(bottom=0.7)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda value, _: ""))


def length_histogram(
    histogram: dict[str, int], perfect: int | None, path: Path, title: str
) -> None:
    """Random-game lengths, one bar per length, with the perfect-play length marked."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.4))
    xs = sorted(int(k) for k in histogram)
    ax.bar(xs, [histogram[str(x)] for x in xs], width=0.9, color="#777777", label="random play")
    if perfect is not None:
        ax.axvline(perfect, color="black", linestyle="--", label=f"perfect play ({perfect} plies)")
    ax.margins(y=0.15)
    ax.set_xlabel("game length (plies)")
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, path)


def grouped_bars(
    categories: list[str],
    series: list[tuple[str, list[float], str]],
    path: Path,
    title: str,
    ylabel: str,
    xlabel: str = "",
) -> None:
    """Bars per category for each (label, values, colour) series, side by side, each bar
    labelled with its value."""
    import numpy as np

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(5.0, 0.5 * len(categories) + 2), 3.6))
    width = 0.8 / max(len(series), 1)
    xs = np.arange(len(categories))
    hatches = ["", "//", "..", "xx"]
    for k, (label, values, colour) in enumerate(series):
        bars = ax.bar(
            xs + (k - (len(series) - 1) / 2) * width,
            values,
            width,
            label=label,
            color=colour,
            hatch=hatches[k % 4],
            edgecolor="white",
        )
        ax.bar_label(bars, labels=[f"{v:.0%}" for v in values], fontsize=6)
    ax.set_xticks(xs, categories, fontsize=8)
    ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, path)


def draw_line(
    game: Game[Any, Any],
    line: Sequence[str],
    path: Path,
    legend: list[tuple[str, str]] | None = None,
    columns: int = 6,
) -> None:
    """A perfect line drawn whole: the start, then the position after every ply with the
    ply's number and move, the last panel marked as the final position."""
    position = game.initial_position()
    panels = [("start", position)]
    for ply, name in enumerate(line, 1):
        mover = game.players[game.to_move(position)]
        position = game.play(position, game.parse_move(position, name))
        final = " (final position)" if ply == len(line) else ""
        panels.append((f"ply {ply}: {mover} {name}{final}", position))
    draw_positions(game, panels, path, legend, columns=columns, scale=0.55)
