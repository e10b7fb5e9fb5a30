"""Snort on a graph: the territory game Control descends from (docs/rules.md, "Helper games").

Left (blue) and Right (red) take turns colouring an uncoloured vertex with their colour. A
player may not colour a vertex adjacent to one the opponent has coloured (touching their own
colour is fine). A player who cannot move loses (normal play). Every position of Snort is
either a number of moves or a hot game, which makes it a standard test of CGT values.

A position is ``SnortPosition(left, right, to_move)``: bitmasks of the vertices coloured by
Left and by Right, and 0 (Left) or 1 (Right). Notation: one character per vertex in vertex
order (``.`` uncoloured, ``L``, ``R``), a space, and the side to move: ``L..R. L``.
A move is a vertex number; its name is the number.

Graphs: ``graph=path|cycle|star|complete`` with ``n`` vertices (path ``0-1-...-(n-1)``; the
cycle closes it; the star's centre is vertex 0), ``graph=grid`` with ``rows`` x ``cols``
vertices numbered row by row, or ``edges="0-1,1-2"`` (with ``n`` for trailing isolated
vertices). Symmetries used: the dihedral group of the path, cycle and grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from cgt.boards.square import square_board
from cgt.errors import ParameterError, PositionError
from cgt.protocol import Game, Param
from cgt.registry import register

LEFT, RIGHT = 0, 1
SIDE_LETTERS = "LR"
GRAPH_FAMILIES = ("path", "cycle", "star", "complete", "grid")
DEFAULT_VERTICES = 5
DEFAULT_GRID_SIDE = 3


class SnortPosition(NamedTuple):
    """Vertices coloured by Left, by Right, and the player to move (0 Left, 1 Right)."""

    left: int
    right: int
    to_move: int


def family_edges(graph: str, n: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """Edge list of a named graph family."""
    if graph == "path":
        return [(i, i + 1) for i in range(n - 1)]
    if graph == "cycle":
        return [(i, (i + 1) % n) for i in range(n)]
    if graph == "star":
        return [(0, i) for i in range(1, n)]
    if graph == "complete":
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    # grid: vertex r * cols + c
    return [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)] + [
        (r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)
    ]


def parse_edges(text: str) -> list[tuple[int, int]]:
    """``"0-1,1-2"`` into ``[(0, 1), (1, 2)]``; :class:`ParameterError` on a bad edge."""
    edges = []
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        ends = item.split("-")
        if len(ends) != 2 or not all(e.isdigit() for e in ends):
            raise ParameterError(f"parameter edges: {item!r} is not an edge like '0-1'")
        a, b = int(ends[0]), int(ends[1])
        if a == b:
            raise ParameterError(f"parameter edges: {item!r} is a loop")
        edges.append((a, b))
    return edges


def vertex_permutations(graph: str | None, n: int, rows: int, cols: int) -> list[tuple[int, ...]]:
    """Automorphisms of the named families that are cheap to list (identity first)."""
    identity = tuple(range(n))
    if graph == "path" and n > 1:
        return [identity, tuple(reversed(identity))]
    if graph == "cycle":
        rotations = [tuple((i + k) % n for i in range(n)) for k in range(n)]
        return rotations + [tuple((k - i) % n for i in range(n)) for k in range(n)]
    if graph == "grid":
        board = square_board(cols, rows)
        # square-board cell (rank, file) is our vertex (rows - 1 - rank, file): same grid, flipped
        to_cell = [(rows - 1 - v // cols) * cols + v % cols for v in range(n)]
        from_cell = {cell: v for v, cell in enumerate(to_cell)}
        return [
            tuple(from_cell[board.symmetries[s][to_cell[v]]] for v in range(n))
            for s in board.symmetry_ids
        ]
    return [identity]


@register
class Snort(Game[SnortPosition, int]):
    """Snort on a named graph family or an explicit edge list."""

    name = "snort"
    summary = "Snort: colour a vertex not adjacent to the opponent's colour; last to move wins"
    title = "Snort"
    params = (
        Param("graph", str, None, help="path, cycle, star, complete or grid (default path)"),
        Param("n", int, None, help=f"number of vertices (default {DEFAULT_VERTICES})", minimum=1),
        Param("rows", int, None, help=f"rows of the grid (default {DEFAULT_GRID_SIDE})", minimum=1),
        Param(
            "cols", int, None, help=f"columns of the grid (default {DEFAULT_GRID_SIDE})", minimum=1
        ),
        Param("edges", str, None, help="explicit edge list, e.g. '0-1,1-2' (instead of graph)"),
    )
    players: ClassVar[tuple[str, str]] = ("Left", "Right")
    graph: str | None
    n: int | None
    rows: int | None
    cols: int | None
    edges: str | None

    def validate(self) -> None:
        if self.edges is not None:
            if self.graph is not None:
                raise ParameterError("give either graph or edges, not both")
            edge_list = parse_edges(self.edges)
            highest = max((max(e) for e in edge_list), default=-1)
            vertices = self.n if self.n is not None else highest + 1
            if highest >= vertices:
                raise ParameterError(f"parameter edges: vertex {highest} is not below n={vertices}")
            if vertices < 1:
                raise ParameterError("parameter edges: the graph needs at least one vertex")
            self.permutations = [tuple(range(vertices))]
        else:
            family = self.graph or "path"
            if family not in GRAPH_FAMILIES:
                raise ParameterError(
                    f"parameter graph: {family!r} is not one of {'|'.join(GRAPH_FAMILIES)}"
                )
            rows = cols = 0
            if family == "grid":
                if self.n is not None:
                    raise ParameterError("a grid takes rows and cols, not n")
                rows = self.rows if self.rows is not None else DEFAULT_GRID_SIDE
                cols = self.cols if self.cols is not None else DEFAULT_GRID_SIDE
                vertices = rows * cols
            else:
                if self.rows is not None or self.cols is not None:
                    raise ParameterError(f"rows and cols apply to graph=grid, not {family}")
                vertices = self.n if self.n is not None else DEFAULT_VERTICES
                if family == "cycle" and vertices < 3:
                    raise ParameterError(f"a cycle needs n >= 3, got {vertices}")
            edge_list = family_edges(family, vertices, rows, cols)
            self.permutations = vertex_permutations(family, vertices, rows, cols)
        self.vertex_count = vertices
        self.full_mask = (1 << vertices) - 1
        self.neighbour_mask = [0] * vertices
        for a, b in edge_list:
            self.neighbour_mask[a] |= 1 << b
            self.neighbour_mask[b] |= 1 << a
        self.symmetry_count = len(self.permutations)

    # ----------------------------------------------------------------- the rules
    def initial_position(self) -> SnortPosition:
        return SnortPosition(0, 0, LEFT)

    def to_move(self, position: SnortPosition) -> int:
        return position.to_move

    def neighbourhood(self, vertices: int) -> int:
        """Every vertex adjacent to one of ``vertices``."""
        out = 0
        for v in self.vertices_of(vertices):
            out |= self.neighbour_mask[v]
        return out

    @staticmethod
    def vertices_of(mask: int) -> list[int]:
        return [v for v in range(mask.bit_length()) if mask >> v & 1]

    def available(self, position: SnortPosition, player: int) -> int:
        """Vertices ``player`` may colour: uncoloured and not next to the opponent's colour."""
        opponent = position.right if player == LEFT else position.left
        return self.full_mask & ~(position.left | position.right | self.neighbourhood(opponent))

    def moves_for(self, position: SnortPosition, player: int) -> list[int]:
        """Moves of ``player`` whoever is to move (CGT values need both sides)."""
        return self.vertices_of(self.available(position, player))

    def moves(self, position: SnortPosition) -> Sequence[int]:
        return self.moves_for(position, position.to_move)

    def play_as(self, position: SnortPosition, player: int, move: int) -> SnortPosition:
        """The position after ``player`` colours ``move``; the other player is then to move."""
        if player == LEFT:
            return SnortPosition(position.left | 1 << move, position.right, RIGHT)
        return SnortPosition(position.left, position.right | 1 << move, LEFT)

    def play(self, position: SnortPosition, move: int) -> SnortPosition:
        return self.play_as(position, position.to_move, move)

    # ------------------------------------------------------------ identity and symmetry
    def permute(self, mask: int, symmetry: int) -> int:
        permutation = self.permutations[symmetry]
        return sum(1 << permutation[v] for v in self.vertices_of(mask))

    def transform(self, position: SnortPosition, symmetry: int) -> SnortPosition:
        return SnortPosition(
            self.permute(position.left, symmetry),
            self.permute(position.right, symmetry),
            position.to_move,
        )

    def transform_move(self, position: SnortPosition, move: int, symmetry: int) -> int:
        return self.permutations[symmetry][move]

    # ------------------------------------------------------------- CGT support
    def with_to_move(self, position: SnortPosition, player: int) -> SnortPosition:
        return position._replace(to_move=player)

    def components(self, position: SnortPosition) -> list[SnortPosition]:
        """One position per connected region of playable vertices, on the same graph.

        The standard decomposition: an uncoloured vertex that neither player may colour is
        dead for ever and tints nothing, so it is dropped; the game of a region of playable
        vertices depends only on which of them touch a Left or a Right colour (their tints).
        A component keeps every coloured vertex, so the tints stay, and has the playable
        vertices outside its region coloured (each by a player allowed to, so the position
        stays legal) or made dead; none of them touches the region, so the region's game is
        unchanged and nothing else is left to play. A finished position has no component.
        """
        playable = self.available(position, LEFT) | self.available(position, RIGHT)
        out = []
        remaining = playable
        while remaining:
            region = remaining & -remaining
            frontier = region
            while frontier:
                frontier = self.neighbourhood(frontier) & remaining & ~region
                region |= frontier
            remaining &= ~region
            component = position
            for v in self.vertices_of(playable & ~region):
                for player in (LEFT, RIGHT):
                    if self.available(component, player) >> v & 1:
                        component = self.play_as(component, player, v)
                        break
            out.append(component._replace(to_move=position.to_move))
        return out

    # ---------------------------------------------------------------- notation
    def parse(self, text: str) -> SnortPosition:
        parts = text.split()
        if not parts or len(parts) > 2:
            raise PositionError(
                f"expected vertex colours and an optional side to move, got {text!r}"
            )
        colours = parts[0].upper()
        if len(colours) != self.vertex_count:
            raise PositionError(
                f"expected {self.vertex_count} vertex colours, got {len(colours)} in {parts[0]!r}"
            )
        if set(colours) - set(".LR"):
            raise PositionError(f"vertex colours must be '.', 'L' or 'R', got {parts[0]!r}")
        left = sum(1 << v for v, ch in enumerate(colours) if ch == "L")
        right = sum(1 << v for v, ch in enumerate(colours) if ch == "R")
        if self.neighbourhood(left) & right:
            v = (self.neighbourhood(left) & right).bit_length() - 1
            raise PositionError(
                f"vertex {v} is coloured R next to an L vertex, which the rules forbid"
            )
        side = parts[1].upper() if len(parts) == 2 else "L"
        if side not in ("L", "R"):
            raise PositionError(f"side to move must be L or R, got {parts[1]!r}")
        return SnortPosition(left, right, SIDE_LETTERS.index(side))

    def render(self, position: SnortPosition) -> str:
        colours = "".join(
            "L" if position.left >> v & 1 else "R" if position.right >> v & 1 else "."
            for v in range(self.vertex_count)
        )
        return f"{colours} {SIDE_LETTERS[position.to_move]}"
