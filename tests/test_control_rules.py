"""Control rules on hand-built positions; every expected list is worked out from the rule text.

Size-2 board (rows top to bottom; axial (q, r)):
    a1 (0,-1)  a2 (1,-1)
  b1 (-1,0)  b2 (0,0)  b3 (1,0)
    c1 (-1,1)  c2 (0,1)
Neighbours: a1: a2 b1 b2 / a2: a1 b2 b3 / b1: a1 b2 c1 / b3: a2 b2 c2 / c1: b1 b2 c2 /
c2: c1 b2 b3 / b2: all six.
"""

from __future__ import annotations

import pytest

from cgt.errors import MoveError, ParameterError, PositionError
from cgt.games.control import BLACK, WHITE, Control, controller
from cgt.protocol import Outcome
from cgt.registry import load_game


def names(game: Control, text: str) -> list[str]:
    position = game.parse(text)
    return sorted(game.move_name(position, m) for m in game.moves(position))


@pytest.fixture
def size2() -> Control:
    return Control(size=2)


@pytest.fixture
def size3() -> Control:
    return Control(size=3)


def test_registered_with_defaults_and_variants() -> None:
    game = load_game("control")
    assert isinstance(game, Control)
    assert (game.size, game.control, game.opening) == (3, "adjacent", "perimeter")
    assert game.players == ("White", "Black")
    assert Control.variants["tumpletore-with-removal"] == {"control": "sight"}
    assert Control.variants["free-opening"] == {"opening": "free"}


@pytest.mark.parametrize("bad", [{"size": 1}, {"control": "diagonal"}, {"opening": "centre"}])
def test_bad_parameters_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(ParameterError):
        Control(**bad)


def test_perimeter_opening_size2(size2: Control) -> None:
    # 6 of the 7 cells touch the edge; only the centre b2 has six neighbours.
    assert names(size2, "../.../.. W") == ["a1", "a2", "b1", "b3", "c1", "c2"]


def test_perimeter_opening_size3(size3: Control) -> None:
    moves = names(size3, ".../..../...../..../... W")
    interior = {"b2", "b3", "c2", "c3", "c4", "d2", "d3"}  # the centre and its ring
    assert len(moves) == 12
    assert not interior & set(moves)


def test_free_opening_allows_every_cell() -> None:
    assert len(names(Control(size=2, opening="free"), "../.../.. W")) == 7
    assert len(names(Control(size=3, opening="free"), ".../..../...../..../... W")) == 19


def test_lone_piece_controls_its_neighbours(size2: Control) -> None:
    # W on a2 controls a1, b2, b3 (1 vs 0); a2's own neighbours are empty: no removal.
    assert names(size2, ".W/.../.. B") == ["b1", "c1", "c2"]


def test_tie_gives_nobody_control(size2: Control) -> None:
    # W a1, B b3. a2 and b2 see one of each (tie: open to both); b1 is White's, c2 Black's.
    assert names(size2, "W./..B/.. W") == ["a2", "b1", "b2", "c1"]


def test_removal_needs_control_and_the_cell_itself_does_not_count(size2: Control) -> None:
    # W a2, B b3, White to move. b3's neighbours a2 (W), b2, c2: White controls b3 even
    # though a black piece stands on it (counting it would make a tie), so xb3 is legal.
    assert names(size2, ".W/..B/.. W") == ["a1", "b1", "b2", "c1", "xb3"]


def test_no_removal_on_a_tied_cell(size2: Control) -> None:
    # W a1 a2, B b3, Black to move. a1: a2 W (White's). a2: a1 W vs b3 B (tie): no removal.
    # b1 (a1 W) and b2 (a1 a2 W vs b3 B, 2-1) are White's; c1 (none) and c2 (b3 B) are open.
    assert names(size2, "WW/..B/.. B") == ["c1", "c2"]


def test_strict_majority_two_against_one_size3(size3: Control) -> None:
    # W b2 b3 c2, B c4 d3 around the centre c3: 3 against 2 -> White controls c3.
    position = size3.parse(".../.WW./.W.B./..B./... B")
    board = size3.board
    centre = board.cell_by_name("c3")
    assert controller(board, position[0], position[1], centre) == WHITE
    assert "c3" not in names(size3, ".../.WW./.W.B./..B./... B")
    # d2 touches c2 (W), c3, d1, d3 (B), e1, e2: one each, a tie.
    assert controller(board, position[0], position[1], board.cell_by_name("d2")) is None
    # d4 touches c4 (B), c5, d3 (B), e3: Black's.
    assert controller(board, position[0], position[1], board.cell_by_name("d4")) == BLACK


def test_sight_sees_along_an_empty_ray() -> None:
    # W on c1 alone. Under sight, c3 is seen by c1 across the empty c2: White controls it and
    # Black may not place there; under adjacency c1 is too far away.
    text = ".../..../W..../..../... B"
    assert "c3" not in names(Control(size=3, control="sight"), text)
    assert "c3" in names(Control(size=3), text)


def test_sight_ray_is_blocked_by_the_first_piece() -> None:
    # W c1, B c2, W c5. From c3: west ray stops at c2 (B, hiding c1), east ray reaches c5 (W):
    # one each, nobody controls c3 under sight. Adjacency: only c2 touches c3 -> Black's.
    game = Control(size=3, control="sight")
    position = game.parse(".../..../WB..W/..../... B")
    centre = game.board.cell_by_name("c3")
    assert controller(game.board, position[0], position[1], centre, "sight") is None
    assert controller(game.board, position[0], position[1], centre, "adjacent") == BLACK
    assert "c3" in names(game, ".../..../WB..W/..../... B")


def test_no_move_loses(size2: Control) -> None:
    # Full board, Black to move: no empty cell, and every W piece stands on a cell Black does
    # not control (b1: B a1 vs W b2 c1; b2: 3-3 tie; c1: all W; c2: W c1 b2 vs B b3).
    position = size2.parse("BB/WWB/WW B")
    assert size2.moves(position) == []
    assert size2.result(position) == Outcome.LOSS


def test_play_and_move_names(size2: Control) -> None:
    position = size2.parse(".W/..B/.. W")
    after = size2.play(position, size2.parse_move(position, "xb3"))
    assert size2.render(after) == ".W/.../.. B"
    after = size2.play(position, size2.parse_move(position, "b2"))
    assert size2.render(after) == ".W/.WB/.. B"
    with pytest.raises(MoveError):
        size2.parse_move(position, "c2")  # Black controls c2
    with pytest.raises(MoveError):
        size2.parse_move(position, "xa2")  # own piece


@pytest.mark.parametrize(
    "text",
    [
        "",
        "../.../..",  # no side to move
        "../.../.. X",  # bad side
        "../... W",  # two rows
        "../..../.. W",  # row too long
        "..?/.../.. W",
        "W./.../.. W",  # one white, no black, White to move
        "../.../.. B",  # empty board, Black to move
        "WW/.../.. B",  # 2 W, 0 B with Black to move
        "B./.../.. W",
    ],
)
def test_parse_rejects_bad_strings(size2: Control, text: str) -> None:
    with pytest.raises(PositionError):
        size2.parse(text)


def test_parse_render_round_trip_and_notation_example(size2: Control) -> None:
    # docs/rules.md's example (Control, notation): one white stone, Black to move.
    position = size2.parse(".W/.../.. B")
    assert position == (1 << 1, 0, BLACK)
    assert size2.render(position) == ".W/.../.. B"
    assert size2.describe(position).splitlines()[-1] == "Black to move"


def test_territory_and_scores(size2: Control) -> None:
    # W a2, B b3. White controls a1 (a2) and b3 (its neighbours: a2 W, b2, c2); Black
    # controls c2 (b3) and a2 (its neighbours: a1, b2, b3 B); b2 is a tie.
    # Territory: White {a2, a1, b3} = 3, Black {b3, c2, a2} = 3. Empty: a1 vs c2.
    position = size2.parse(".W/..B/.. W")
    assert size2.score(position, "territory") == (3, 3)
    assert size2.score(position, "empty") == (1, 1)
    with pytest.raises(ParameterError):
        size2.score(position, "area")  # type: ignore[arg-type]


def test_with_to_move(size2: Control) -> None:
    position = size2.parse(".W/.../.. B")
    assert size2.with_to_move(position, WHITE) == (position[0], position[1], WHITE)
    with pytest.raises(ParameterError):
        size2.with_to_move(position, 2)


def test_draw_runs() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = Control(size=2)
    fig, ax = plt.subplots()
    game.draw(game.parse(".W/..B/.. W"), ax)
    assert len(ax.patches) == 7 + 2  # seven hexagons, two stones
    plt.close(fig)
