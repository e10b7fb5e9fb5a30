"""Analysis reports: a solved board, its state space, design metrics and the document's claims,
written as Markdown with figures.

``write_report(game, out_dir)`` is the whole job for one board; ``write_all(out_dir)`` writes
the default boards of every seed game and ``reports/README.md`` indexing them. Every number
in a report comes with the command that reproduces it.
"""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cgt.protocol import Game, Outcome
from cgt.registry import load_game

#: Colours of GamesmanUni: green win, yellow draw/tie, red loss (for the player moving).
OUTCOME_COLOURS = {Outcome.WIN: "#3cb44b", Outcome.DRAW: "#ffe119", Outcome.LOSS: "#e6194b"}

#: A short introduction of each seed game, for readers who do not know it.
INTRODUCTIONS: dict[str, str] = {
    "control": (
        "Control (a descendant of SNORT) is played on a hexhex board that starts empty. A player "
        "*controls* a cell when a strict majority of the pieces on its neighbours are theirs. "
        "White opens on a perimeter cell; then each turn a player either places a piece on an "
        "empty cell the opponent does not control, or removes an opponent piece from a cell they "
        "control. A player with no legal move loses."
    ),
    "lag": (
        "LAG is a race of groups on a hexhex board: each player starts with the two rows nearest "
        "them. A piece moves in a straight line exactly as many cells as its owner has objects "
        "(connected groups), jumping over anything and capturing on landing; forward always, "
        "sideways only if it reduces the mover's objects, never backward. When the player to "
        "move has no move, fewer objects wins, ties go to the player who cannot move."
    ),
    "interleave": (
        "Interleave is a real-time placement game on a hexhex board. An empty cell is *seen* by "
        "the first stone along each of its six rays; a player may take a cell seen by strictly "
        "more opponent stones than own stones. After a pie setup, the winner is decided by stone "
        "count or by the largest-group cascade, ties going to Red. For analysis the real-time "
        "game is given turns (alternating with passes, or the move to whoever is losing)."
    ),
    "super-nonnect": (
        "Super Nonnect is an impartial game on a board of mini-boards: each cut designates the "
        "mini-board of the next cut, the uncut cells must stay connected, and a player sent to a "
        "full mini-board loses (original rule) or may not be sent there (revised rule)."
    ),
    "entropy": (
        "Entropy (Augustine Carreno, 1992) is played with seven pieces each on a 5x5 board. A "
        "piece moves like a queen but only if it touches a friendly piece; isolated pieces must "
        "be rescued first. You win when every piece of yours touches an enemy piece and no "
        "friendly one."
    ),
}


@dataclass(frozen=True)
class Board:
    """One board of a report: a game name and its parameters."""

    game: str
    params: dict[str, Any]

    @property
    def slug(self) -> str:
        parts = [self.game] + [f"{k}-{v}" for k, v in sorted(self.params.items())]
        return "_".join(str(p).replace("/", "").replace(" ", "").replace("=", "-") for p in parts)

    def options(self) -> str:
        return " ".join(f"-p {shlex.quote(f'{k}={v}')}" for k, v in self.params.items())

    def command(self, verb: str = "report") -> str:
        return f"cgt {verb} {self.game} {self.options()}".strip()


#: The boards written by ``cgt report all``: small enough to solve in minutes on a laptop.
DEFAULT_BOARDS: list[Board] = [
    Board("control", {"size": 2}),
    Board("lag", {"size": 3, "setup": "B.B/..../...../..../W.W W"}),
    Board("interleave", {"size": 2}),
    Board("super-nonnect", {"a": 2, "b": 2, "rule": "original"}),
    Board("super-nonnect", {"a": 2, "b": 2, "rule": "revised"}),
    Board("entropy", {"width": 4, "height": 3, "setup": "SSSS/..../OOOO O"}),
    Board("tictactoe", {}),
]

#: Variants compared side by side in a report (parameter overrides), per game.
VARIANT_TABLES: dict[str, list[dict[str, Any]]] = {
    "lag": [{"goal": g} for g in ("standard", "strict", "far-row-one-object", "far-row")],
    "control": [{"control": "adjacent"}, {"control": "sight"}],
    "interleave": [{"win": w, "turns": t} for w in ("stones", "groups") for t in ("pass", "loser")],
    "super-nonnect": [{"rule": "original"}, {"rule": "revised"}],
}


# ----------------------------------------------------------------------- metrics
def design_metrics(solution: Any) -> dict[str, Any]:
    """Exact metrics from a solved state graph (GamesCrafters and Ludii style)."""
    outcomes = solution.outcomes.astype(np.int64)
    ptr, kids, same = solution.child_ptr, solution.child_ids, solution.same_player
    nonterminal = ~solution.terminal
    degree = np.diff(ptr)
    parent_of_edge = np.repeat(np.arange(len(degree)), degree)
    child_for_parent = np.where(same, outcomes[kids], -outcomes[kids])
    keeps = child_for_parent == outcomes[parent_of_edge]
    wins = (outcomes == int(Outcome.WIN)) & nonterminal
    keep_counts = np.bincount(parent_of_edge[keeps], minlength=len(degree))
    forgiving = keep_counts[wins] / np.maximum(degree[wins], 1) if wins.any() else np.array([0.0])
    decided = (outcomes != int(Outcome.DRAW)).mean() if len(outcomes) else 0.0
    return {
        "branching_mean": float(degree[nonterminal].mean()) if nonterminal.any() else 0.0,
        "branching_max": int(degree.max()) if len(degree) else 0,
        "forgiveness": float(forgiving.mean()),
        "won_positions_with_single_winning_move": int((keep_counts[wins] == 1).sum()),
        "won_positions": int(wins.sum()),
        "decisiveness": float(decided),
        "drawishness": float(1 - decided),
    }


def random_game_lengths(
    game: Game[Any, Any], root: Any, samples: int, seed: int = 1, max_plies: int = 500
) -> list[int]:
    """Lengths (plies) of uniformly random games from ``root``; capped games count as the cap."""
    rng = random.Random(seed)
    lengths = []
    for _ in range(samples):
        position, plies = root, 0
        while plies < max_plies and game.result(position) is None:
            moves = game.moves(position)
            position = game.play(position, rng.choice(list(moves)))
            plies += 1
        lengths.append(plies)
    return lengths


# ----------------------------------------------------------------------- figures
def _figure(path: Path, draw: Callable[[Any], None], size: tuple[float, float] = (6, 5)) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=size)
    draw(ax)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def opening_map(game: Game[Any, Any], root: Any, values: list[Any], path: Path) -> bool:
    """Colour each cell by the value of the opening move that targets it. Needs the game's
    ``move_target`` and ``draw``; returns False when the game cannot draw one."""
    target = game.move_target
    cells: dict[int, Any] = {}
    for mv in values:
        cell = target(root, mv.move)
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

    def draw(ax: Any) -> None:
        from matplotlib.patches import Patch

        colours = {c: OUTCOME_COLOURS[mv.outcome] for c, (_, mv) in cells.items()}
        labels = {
            c: ("" if mv.remoteness is None else str(mv.remoteness)) for c, (_, mv) in cells.items()
        }
        game.draw(root, ax, cell_colours=colours, cell_labels=labels)
        ax.legend(
            handles=[
                Patch(color=OUTCOME_COLOURS[o], label=f"{o.label} for the mover")
                for o in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)
            ],
            loc="upper center",
            bbox_to_anchor=(0.5, 0.0),
            ncol=3,
            frameon=False,
            fontsize=8,
        )
        ax.set_title(
            f"{game.label()}\nvalue of each opening (number = remoteness)", fontsize=9, wrap=True
        )

    try:
        _figure(path, draw)
    except NotImplementedError:
        return False
    return True


def remoteness_histogram(summary: dict[str, Any], path: Path, title: str) -> None:
    def draw(ax: Any) -> None:
        table = summary["by_outcome_remoteness"]
        top = max([r for counts in table.values() for r in counts if r is not None] + [0])
        xs = np.arange(top + 1)
        bottom = np.zeros(top + 1)
        for label, outcome in (("win", Outcome.WIN), ("loss", Outcome.LOSS)):
            ys = np.array([table.get(label, {}).get(int(x), 0) for x in xs], dtype=float)
            ax.bar(
                xs, ys, bottom=bottom, color=OUTCOME_COLOURS[outcome], label=f"{label} (to move)"
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
        ax.set_xlabel("remoteness (plies to the end with perfect play)")
        ax.set_ylabel("positions")
        ax.set_title(title, fontsize=9, wrap=True)
        ax.legend()

    _figure(path, draw, size=(7, 4))


def length_histogram(lengths: list[int], perfect: int | None, path: Path, title: str) -> None:
    def draw(ax: Any) -> None:
        ax.hist(
            lengths,
            bins=range(0, max(lengths) + 2),
            color="#4363d8",
            alpha=0.8,
            label="uniformly random play",
        )
        if perfect is not None:
            ax.axvline(perfect, color="black", linestyle="--", label=f"perfect play ({perfect})")
        ax.set_xlabel("game length (plies)")
        ax.set_ylabel("games")
        ax.set_title(title, fontsize=9, wrap=True)
        ax.legend()

    _figure(path, draw, size=(7, 3.6))


# ----------------------------------------------------------------------- the report
def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def _claims_section(game_name: str, out_dir: Path, run_claims: bool) -> list[str]:
    from proofs.certificates import markdown_value, write_certificate
    from proofs.registry import all_claims, run_claim

    claims = [c for c in all_claims() if c.game == game_name]
    if not claims:
        return []
    lines = ["## The document's claims", ""]
    claims_dir = out_dir / "claims"
    rows = []
    for c in claims:
        cert = claims_dir / f"{c.id}.json"
        if run_claims or not cert.exists():
            verdict = run_claim(c.id)
            write_certificate(verdict, claims_dir)
            kind = verdict.verdict
        else:
            kind = json.loads(cert.read_text())["verdict"]
        rows.append([f"`{c.id}`", c.statement, f"**{kind}**", f"[certificate](claims/{c.id}.md)"])
    lines += _table(["claim", "statement", "verdict", "details"], rows)
    lines += ["", "Reproduce: `cgt check " + " ".join(c.id for c in claims) + "`", ""]
    for c in claims:
        cert = json.loads((claims_dir / f"{c.id}.json").read_text())
        lines += [f"### `{c.id}`: {cert['verdict']}", ""]
        if cert.get("corrected_statement"):
            lines += [f"Corrected statement: {cert['corrected_statement']}", ""]
        lines += [
            "<details><summary>scope and evidence</summary>",
            "",
            *markdown_value({"scope": cert["scope"], "evidence": cert["evidence"]}),
            "",
            "</details>",
            "",
        ]
    return lines


def write_report(
    board: Board,
    out_dir: Path,
    *,
    random_samples: int = 2000,
    run_claims: bool = True,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> Path:
    """Solve ``board`` and write ``<out_dir>/<slug>.md`` with its figures. Returns the path."""
    from solvers.retrograde import retrograde

    game = load_game(board.game, **board.params)
    root = game.initial_position()
    out_dir.mkdir(parents=True, exist_ok=True)
    fig_dir = out_dir / "figures"
    fig_dir.mkdir(exist_ok=True)
    solution = retrograde(game, root, symmetry=True, progress=progress, keep_positions=True)
    plain = (
        retrograde(game, root, symmetry=False, progress=progress)
        if game.symmetry_count > 1
        else solution
    )
    result = solution.result(root)
    summary = solution.summary()
    metrics = design_metrics(solution)
    lengths = random_game_lengths(game, root, random_samples)
    command = board.command()
    first = game.players[game.to_move(root)]

    lines = [
        f"# {game.label()}",
        "",
        INTRODUCTIONS.get(game.name, game.summary),
        "",
        f"Reproduce everything on this page: `{command}`",
        "",
    ]
    lines += ["## Solved result", ""]
    verdict = {
        "first": f"the first player ({first}) wins",
        "second": "the second player wins",
        "draw": "a draw",
    }[result.winner]
    rem = "" if result.remoteness is None else f" in {result.remoteness} plies"
    lines += [f"With perfect play the game is **{verdict}**{rem}.", ""]
    if result.principal_variation:
        lines += [f"A perfect line: `{' '.join(result.principal_variation)}`", ""]
    winning = [m for m in result.moves if m.outcome == Outcome.WIN]
    lines += [
        f"Openings: {len(result.moves)} legal, {len(winning)} winning "
        f"({len(winning) / max(len(result.moves), 1):.0%}).",
        "",
    ]
    lines += _table(
        ["opening", "outcome for the mover", "remoteness"],
        [
            [f"`{m.name}`", m.outcome.label, "-" if m.remoteness is None else m.remoteness]
            for m in result.moves
        ],
    )
    lines.append("")
    map_path = fig_dir / f"{board.slug}_openings.png"
    if opening_map(game, root, result.moves, map_path):
        lines += [f"![openings]({map_path.relative_to(out_dir)})", ""]
    lines += [f"Command: `{board.command('solve')}`", ""]

    lines += ["## State space", ""]
    lines += _table(
        ["measure", "value"],
        [
            ["reachable positions", f"{len(plain):,}"],
            ["positions up to symmetry", f"{len(solution):,}"],
            ["terminal positions (up to symmetry)", f"{summary['terminal']:,}"],
            [
                "wins / losses / draws for the player to move",
                " / ".join(f"{summary['by_outcome'].get(k, 0):,}" for k in ("win", "loss", "draw")),
            ],
            [
                "distinct successors per position (mean, max)",
                f"{metrics['branching_mean']:.2f}, {metrics['branching_max']}",
            ],
            [
                "game length with perfect play",
                "-" if result.remoteness is None else result.remoteness,
            ],
            [
                f"game length in {len(lengths)} random games (mean, min, max)",
                f"{np.mean(lengths):.1f}, {min(lengths)}, {max(lengths)}",
            ],
            ["solve time (s)", f"{solution.seconds:.2f}"],
        ],
    )
    lines.append("")
    rem_table = summary["by_outcome_remoteness"]
    top = max([r for counts in rem_table.values() for r in counts if r is not None] + [0])
    lines += ["Positions by value and remoteness (up to symmetry):", ""]
    lines += _table(
        ["remoteness"] + [str(r) for r in range(top + 1)],
        [
            [label] + [rem_table.get(label, {}).get(r, 0) for r in range(top + 1)]
            for label in ("win", "loss")
        ],
    )
    lines.append("")
    hist_path = fig_dir / f"{board.slug}_remoteness.png"
    remoteness_histogram(summary, hist_path, f"{game.label()}\npositions by value and remoteness")
    lines += [f"![remoteness]({hist_path.relative_to(out_dir)})", ""]
    len_path = fig_dir / f"{board.slug}_lengths.png"
    length_histogram(lengths, result.remoteness, len_path, f"{game.label()}\ngame length")
    lines += [f"![lengths]({len_path.relative_to(out_dir)})", ""]

    lines += ["## Design metrics", ""]
    lines += _table(
        ["metric", "value", "meaning"],
        [
            ["first-player result", result.winner, "who wins the initial position"],
            [
                "winning openings",
                f"{len(winning)}/{len(result.moves)}",
                "openings that keep the win",
            ],
            [
                "forgiveness",
                f"{metrics['forgiveness']:.2f}",
                "mean share of moves that keep the win, over won positions",
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
                "share of positions that are not draws",
            ],
        ],
    )
    lines.append("")
    longest = _longest_wins(solution, game, limit=3)
    if longest:
        lines += ["Longest forced wins (the player to move wins, slowest resistance):", ""]
        lines += _table(["position", "remoteness"], [[f"`{p}`", r] for p, r in longest])
        lines.append("")

    variants = VARIANT_TABLES.get(board.game)
    if variants:
        lines += ["## Variants side by side", ""]
        rows = []
        for override in variants:
            params = {**board.params, **override}
            try:
                vgame = load_game(board.game, **params)
                vsol = retrograde(
                    vgame, vgame.initial_position(), symmetry=True, max_positions=3_000_000
                )
                vres = vsol.result(vgame.initial_position())
                rows.append(
                    [
                        ", ".join(f"{k}={v}" for k, v in override.items()),
                        vres.winner,
                        "-" if vres.remoteness is None else vres.remoteness,
                        f"{len(vsol):,}",
                        sum(1 for m in vres.moves if m.outcome == Outcome.WIN),
                    ]
                )
            except Exception as exc:  # a variant out of reach is reported, not fatal
                rows.append(
                    [
                        ", ".join(f"{k}={v}" for k, v in override.items()),
                        f"not solved: {exc}",
                        "",
                        "",
                        "",
                    ]
                )
        lines += _table(["variant", "winner", "remoteness", "positions", "winning openings"], rows)
        lines.append("")

    from cgt.report_sections import SECTIONS

    for section in SECTIONS.get(board.game, []):
        lines += section(board, out_dir, fig_dir)
    lines += _claims_section(board.game, out_dir, run_claims)
    path = out_dir / f"{board.slug}.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def _longest_wins(solution: Any, game: Game[Any, Any], limit: int) -> list[tuple[str, int]]:
    wins = np.flatnonzero(solution.outcomes == int(Outcome.WIN))
    if not wins.size:
        return []
    rem = solution.remoteness_array[wins]
    order = wins[np.argsort(-rem, kind="stable")][:limit]
    out = []
    for node in order:
        text = game.render(solution.position_of(int(node)))
        out.append((text, int(solution.remoteness_array[node])))
    return out


def write_all(
    out_dir: Path,
    boards: list[Board] | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> list[Path]:
    """Write every default board's report and ``README.md`` indexing them."""
    paths = []
    for board in boards or DEFAULT_BOARDS:
        paths.append(write_report(board, out_dir, progress=progress))
    index = ["# Reports", "", "Regenerate all: `cgt report all`.", ""]
    index += [f"- [{p.stem}]({p.name})" for p in paths]
    claims = sorted((out_dir / "claims").glob("*.md"))
    if claims:
        index += ["", "## Claim certificates", ""] + [
            f"- [{c.stem}](claims/{c.name})" for c in claims
        ]
    (out_dir / "README.md").write_text("\n".join(index) + "\n")
    return paths


__all__ = ["DEFAULT_BOARDS", "Board", "design_metrics", "write_all", "write_report"]
