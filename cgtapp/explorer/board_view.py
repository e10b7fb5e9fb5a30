"""The board of a position as plain data for the page: cells with their shape, centre, name
and content, and every legal move as the cells it leaves and acts on.

The geometry comes from the game's own board (:mod:`cgt.boards.hexhex`,
:mod:`cgt.boards.square`, or Super Nonnect's mini-board geometry); the content of each cell is
read from the position string, whose board part lists the cells row by row from the top in
every board game of the toolkit. A game without such a board (Nim, octal games, a game of
your own) is shown as its position string with a list of moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cgt.boards.hexhex import HexBoard
from cgt.boards.square import SquareBoard
from cgt.protocol import Game


@dataclass(frozen=True)
class Layout:
    """Where the cells of a game's board are: shape, centres (y downward) and names, in the
    order the position string lists them (rows from the top, left to right)."""

    shape: str  # "hex" or "square"
    cells: list[int]
    centres: dict[int, tuple[float, float]]
    names: dict[int, str]
    regions: dict[int, int] | None = None  # cell -> mini-board (Super Nonnect)


def board_layout(game: Game[Any, Any]) -> Layout | None:
    """The layout of the game's board, or ``None`` when it has none the page can draw."""
    geometry = getattr(game, "geometry", None)
    if geometry is not None and hasattr(geometry, "centres"):  # Super Nonnect
        shape = "square" if getattr(game, "shape", "square") == "square" else "hex"
        cells = [c for row in geometry.rows for c in row]
        return Layout(
            shape=shape,
            cells=cells,
            centres={c: (x, -y) for c, (x, y) in geometry.centres.items()},
            names=dict(geometry.names),
            regions=dict(geometry.board_of),
        )
    board = getattr(game, "board", None)
    if isinstance(board, HexBoard):
        cells = [c for row in board.rows for c in row]
        centres = {}
        for c in cells:
            x, y = board.center(c)
            centres[c] = (x, -y)
        return Layout("hex", cells, centres, {c: board.cell_name(c) for c in cells})
    if isinstance(board, SquareBoard):
        cells = [
            rank * board.width + f
            for rank in reversed(range(board.height))
            for f in range(board.width)
        ]
        centres = {c: (c % board.width + 0.5, board.height - c // board.width - 0.5) for c in cells}
        return Layout("square", cells, centres, {c: board.cell_name(c) for c in cells})
    return None


def cell_symbols(game: Game[Any, Any], layout: Layout, position: Any) -> dict[int, str] | None:
    """The symbol on every cell, read from the position string's board part."""
    text = game.render(position).split()
    if not text:
        return None
    symbols = text[0].replace("/", "")
    if len(symbols) != len(layout.cells):
        return None
    return dict(zip(layout.cells, symbols))


def board_data(game: Game[Any, Any], position: Any) -> dict[str, Any] | None:
    """The board part of the API's position answer (``None``: no drawable board)."""
    layout = board_layout(game)
    if layout is None:
        return None
    symbols = cell_symbols(game, layout, position)
    if symbols is None:
        return None
    designated = getattr(position, "designated", None)
    # Control: who controls each empty cell (a cell the opponent controls is no placement)
    controller = getattr(game, "controller", None)
    cells = []
    for c in layout.cells:
        x, y = layout.centres[c]
        cell: dict[str, Any] = {
            "cell": c,
            "name": layout.names[c],
            "x": round(x, 4),
            "y": round(y, 4),
            "symbol": symbols[c],
        }
        if callable(controller) and symbols[c] == ".":
            cell["controlled_by"] = controller(position, c)
        if layout.regions is not None:
            cell["region"] = layout.regions[c]
            cell["designated"] = designated is not None and layout.regions[c] == designated
        cells.append(cell)
    return {"shape": layout.shape, "cells": cells, "styles": piece_styles(game)}


def piece_styles(game: Game[Any, Any]) -> dict[str, dict[str, Any]]:
    """How the page draws each symbol the game declares (``Game.pieces``): ``stone`` a disc
    in ``fill`` (``ring``: a fixed piece), ``mark`` a letter, ``cut`` a cell taken out of
    play, ``void`` a fixed empty cell. Symbols not declared are drawn as their letter."""
    styles: dict[str, dict[str, Any]] = {}
    for piece in game.pieces:
        style: dict[str, Any] = {"kind": piece.kind}
        if piece.fill:
            style["fill"] = piece.fill
        if piece.ring:
            style["ring"] = True
        styles[piece.symbol] = style
    return styles


def move_cells(game: Game[Any, Any], position: Any, move: Any) -> tuple[int | None, int | None]:
    """``(source, target)`` cells of a move: the cell a piece leaves (movement games) and the
    cell the move acts on; ``None`` where there is none (a pass)."""
    return game.move_source(position, move), game.move_target(position, move)
