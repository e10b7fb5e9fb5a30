"""Super Nonnect rules on hand-built positions; every expected value is worked out by hand from
the rule text (docs/rules.md, "Super Nonnect") in the comments."""

from __future__ import annotations

import networkx as nx
import pytest
from test_super_nonnect_properties import SimpleModel

from cgt.errors import MoveError, ParameterError, PositionError
from cgt.games.super_nonnect import SuperNonnect
from cgt.protocol import Outcome
from cgt.registry import load_game


def names(game: SuperNonnect, text: str) -> list[str]:
    position = game.parse(text)
    return sorted(game.move_name(position, m) for m in game.moves(position))


def position_after(game: SuperNonnect, cuts: list[str]) -> str:
    """Play ``cuts`` through parse_move (each must be legal) and render the result."""
    position = game.initial_position()
    for name in cuts:
        position = game.play(position, game.parse_move(position, name))
    return game.render(position)


# --------------------------------------------------------------------------- notation
def test_initial_strings() -> None:
    assert (
        SuperNonnect(a=2, b=2).render(SuperNonnect(a=2, b=2).initial_position())
        == "..../..../..../.... -"
    )
    game = load_game("super-nonnect")
    assert game.render(game.initial_position()) == "/".join(["........."] * 9) + " -"
    assert game.to_move(game.initial_position()) == 0


def test_designation_follows_the_place_of_the_cut() -> None:
    # 3x3: a9 is the top-left cell of the top-left board (place 0); e5 the centre of the centre
    # board (place 4); c7 the bottom-right cell of the top-left board (place 8); g3 the
    # top-left cell of the bottom-right board (place 0)
    game = SuperNonnect()
    start = game.initial_position()
    for cell, place in (
        ("a9", 0),
        ("e5", 4),
        ("c7", 8),
        ("g3", 0),
        ("i1", 8),
        ("d6", 0),
        ("b2", 4),
    ):
        after = game.play(start, game.parse_move(start, cell))
        assert after.designated == place
        assert after.to_move == 1
    # after e5 the next cut must be in the centre board d4..f6, any of its 8 other cells
    assert names(game, position_after(game, ["e5"])) == [
        "d4",
        "d5",
        "d6",
        "e4",
        "e6",
        "f4",
        "f5",
        "f6",
    ]


def test_document_example_bottom_left_board() -> None:
    """Like the document's figure: play is sent to the bottom-left board (a1..c3) and some of
    its cells may not be cut because the uncut cells would fall apart.

    Cut b1, b2, b3 (the middle column of that board) and g7 (bottom-left cell of the top-right
    board, place 6, so the designated board is 6 = bottom left). Column a is then a dead end
    hanging from a4: cutting a2 strands a1, cutting a3 strands a1 and a2; a1 is an end and may
    go. Column c stays attached to d1, d2, d3 and c4, so c1, c2, c3 may all go.
    """
    game = SuperNonnect()
    text = SimpleModel().render({"b1", "b2", "b3", "g7"}, 6)
    assert names(game, text) == ["a1", "c1", "c2", "c3"]
    assert names(SuperNonnect(rule="revised"), text) == ["a1", "c1", "c2", "c3"]


def test_connectivity_counts_across_mini_board_borders() -> None:
    # 2x2: ranks 4..1, files a..d; board 0 = a4 b4 / a3 b3 (places 0 1 / 2 3), board 1 =
    # c4 d4 / c3 d3. Cut a3, c3, d3 and a2 (place 0 of board 2, so board 0 is designated).
    # c4 and d4 (board 1) now reach the rest only through b4 (board 0), and b4 only through
    # b3. Cutting b4 strands c4 and d4 in the *other* board; cutting b3 strands a4 b4 c4 d4;
    # a4 is an end. So the only legal cut is a4.
    game = SuperNonnect(a=2, b=2)
    text = SimpleModel(a=2, b=2).render({"a3", "c3", "d3", "a2"}, 0)
    assert text == "..../x.xx/x.../.... 0"
    assert names(game, text) == ["a4"]


def test_original_rule_sent_to_full_board_loses() -> None:
    # 2x2: board 0 (a4 b4 a3 b3) fully cut, then c2 (top-left of board 3 = place 0) sent play
    # to board 0, which has nothing left: the player to move has no cut and loses.
    game = SuperNonnect(a=2, b=2)
    position = game.parse("xx../xx../..x./.... 0")
    assert game.moves(position) == []
    assert game.result(position) == Outcome.LOSS
    with pytest.raises(PositionError, match="revised rule forbids"):
        SuperNonnect(a=2, b=2, rule="revised").parse("xx../xx../..x./.... 0")


def test_revised_rule_forbids_sending_to_a_full_board() -> None:
    # 2x2: board 0 fully cut, last cut b3 (place 3) sent play to board 3 = c2 d2 c1 d1.
    # Places there: c2 = 0, d2 = 1, c1 = 2, d1 = 3. Cutting any of them keeps the other 11
    # cells connected. Original: all four. Revised: c2 would send the opponent to the full
    # board 0, so it is forbidden.
    text = "xx../xx../..../.... 3"
    assert names(SuperNonnect(a=2, b=2), text) == ["c1", "c2", "d1", "d2"]
    assert names(SuperNonnect(a=2, b=2, rule="revised"), text) == ["c1", "d1", "d2"]


def test_one_by_two_by_hand() -> None:
    """1x2 is the row a1 b1 | c1 d1 (places 0 1 | 0 1). Only ends can be cut.
    First cuts a1 (-> board 0), the reply must be b1 (-> board 1), then:
    original: c1 (-> the full board 0, opponent loses) or d1; revised: only d1, after which
    the opponent's only cell c1 would send to the full board 0, so the opponent cannot move.
    Under the original rule after d1 the opponent cuts c1, the last cell: the empty board
    counts as connected (module decision), so that cut is legal."""
    original, revised = SuperNonnect(a=1, b=2), SuperNonnect(a=1, b=2, rule="revised")
    assert names(original, "x... 0") == ["b1"]
    assert names(original, "xx.. 1") == ["c1", "d1"]
    assert names(revised, "xx.. 1") == ["d1"]
    assert names(revised, "xx.x 1") == []
    assert names(original, "xx.x 1") == ["c1"]
    assert original.moves(original.parse("xxxx 0")) == []


def test_one_by_three_second_player_wins_by_hand() -> None:
    """1x3 is a path of nine cells a1..i1; only its ends may be cut. After a1 (place 0) the
    reply b1 (place 1) is forced and sends play to d1 e1 f1, none of them an end: the first
    player loses. i1 is the mirror image. Both rules."""
    for rule in ("original", "revised"):
        game = SuperNonnect(a=1, b=3, rule=rule)
        assert names(game, "......... -") == ["a1", "i1"]
        assert names(game, "x........ 0") == ["b1"]
        assert names(game, "xx....... 1") == []
        assert names(game, "........x 2") == ["h1"]


def test_hex7_designation_and_names() -> None:
    game = SuperNonnect(shape="hex7")
    start = game.initial_position()
    for cell, flower in (("C.c", 0), ("NE.SW", 5), ("E.c", 0), ("W.E", 1), ("SE.SE", 6)):
        assert game.play(start, game.parse_move(start, cell)).designated == flower
    # after C.c play stays in the centre flower: its six petals
    assert names(game, position_after(game, ["C.c"])) == [
        "C.E",
        "C.NE",
        "C.NW",
        "C.SE",
        "C.SW",
        "C.W",
    ]
    # after NE.SW (a petal of the NE flower pointing south-west) play goes to the SW flower
    after = position_after(game, ["NE.SW"])
    assert after.endswith(" 5")
    assert {n.split(".")[0] for n in names(game, after)} == {"SW"}


def test_hex7_region_and_its_symmetries() -> None:
    """49 cells, 9 rows of 2 5 7 7 7 7 7 5 2; the flower tiling is chiral, so the
    designation-preserving automorphisms of the cell graph are the 6 rotations only."""
    game = SuperNonnect(shape="hex7")
    assert [len(row) for row in game.geometry.rows] == [2, 5, 7, 7, 7, 7, 7, 5, 2]
    assert game.symmetry_count == 6
    assert count_designation_automorphisms(game) == 6


def count_designation_automorphisms(game: SuperNonnect) -> int:
    """Graph automorphisms that map mini-boards to mini-boards and places to places with the
    same permutation, found by networkx (independent of the game's own symmetry list): each
    cell becomes a node linked to its neighbours, to a node for its board and, by a different
    edge kind, to the node of the board it designates."""
    g = game.geometry
    graph = nx.Graph()
    for cell in g.cells:
        graph.add_node(("cell", cell), kind="cell")
        for other in range(cell + 1, game.full_mask.bit_length()):
            if g.neighbour_masks[cell] >> other & 1:
                graph.add_edge(("cell", cell), ("cell", other), kind="adjacent")
        graph.add_edge(("cell", cell), ("board", g.board_of[cell]), kind="in")
        # a path of length two marks "designates", distinguishing it from "lies in"
        graph.add_edge(("cell", cell), ("arrow", cell), kind="designates")
        graph.add_edge(("arrow", cell), ("board", g.target_of[cell]), kind="designates")
    for m in range(game.board_count):
        graph.nodes[("board", m)]["kind"] = "board"
    for cell in g.cells:
        graph.nodes[("arrow", cell)]["kind"] = "arrow"
    matcher = nx.algorithms.isomorphism.GraphMatcher(
        graph,
        graph,
        node_match=lambda x, y: x["kind"] == y["kind"],
        edge_match=lambda x, y: x["kind"] == y["kind"],
    )
    return sum(1 for _ in matcher.isomorphisms_iter())


@pytest.mark.parametrize(("a", "b", "count"), [(2, 2, 8), (2, 3, 4), (1, 2, 2), (2, 1, 2)])
def test_square_symmetries_are_all_the_designation_automorphisms(
    a: int, b: int, count: int
) -> None:
    # by hand: a square grid has the 8 dihedral symmetries, a rectangle 4, a single row or
    # column of cells 2 (its top-bottom mirror moves nothing); all keep designation
    game = SuperNonnect(a=a, b=b)
    assert game.symmetry_count == count
    assert count_designation_automorphisms(game) == count


def test_three_by_three_symmetries_are_the_dihedral_maps_of_the_grid() -> None:
    """For a == b the symmetry applied to both the arrangement and inside each mini-board is
    exactly the dihedral symmetry of the 9x9 grid: compare with the 8 maps written here on
    (row, column) coordinates."""
    game = SuperNonnect()
    model = SimpleModel()
    n = 8
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - r),
        lambda r, c: (n - r, n - c),
        lambda r, c: (n - c, r),
        lambda r, c: (r, n - c),
        lambda r, c: (n - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - c, n - r),
    ]
    expected = {
        tuple(sorted((name, model.at[f(*model.coord[name])]) for name in model.coord)) for f in maps
    }
    start = game.initial_position()
    found = set()
    for s in range(game.symmetry_count):
        perm = game.geometry.symmetries[s][0]
        found.add(
            tuple(sorted((game.move_name(start, c), game.move_name(start, perm[c])) for c in perm))
        )
    assert found == expected


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("..../..../..../....", "expected the board"),
        ("..../..../.... -", "expected 4 rows"),
        ("..../..../..../... -", "row 4 should have 4"),
        ("..o./..../..../.... -", "unknown cell symbol"),
        ("..../..../..../.... 4", "designated mini-board must be"),
        ("x.../..../..../.... -", "exactly when nothing has been cut"),
        ("..../..../..../.... 0", "exactly when nothing has been cut"),
        ("..../xxxx/..../.... 0", "not connected"),
        ("x.../..../..../.... 1", "no cut cell designates mini-board 1"),
    ],
)
def test_parse_rejects(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        SuperNonnect(a=2, b=2).parse(text)


def test_parameters_and_moves_are_checked() -> None:
    with pytest.raises(ParameterError, match="a and b apply only"):
        SuperNonnect(shape="hex7", a=2)
    with pytest.raises(ParameterError, match="at least 2"):
        SuperNonnect(a=1, b=1)
    with pytest.raises(ParameterError, match="rule"):
        SuperNonnect(rule="strict")
    game = SuperNonnect(a=2, b=2)
    after = game.parse(position_after(game, ["a4"]))
    with pytest.raises(MoveError, match="not a legal cut"):
        game.parse_move(after, "d1")  # board 0 is designated, d1 is in board 3
    with pytest.raises(MoveError, match="not a cell"):
        game.parse_move(after, "z9")
    assert game.move_name(after, game.parse_move(after, "B4")) == "b4"


def test_describe_and_draw() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for game in (SuperNonnect(a=2, b=3), SuperNonnect(shape="hex7")):
        position = game.play(game.initial_position(), game.moves(game.initial_position())[0])
        text = game.describe(position)
        assert "Second to cut in" in text
        fig, ax = plt.subplots()
        game.draw(position, ax)
        plt.close(fig)


# --------------------------------------------------------------------------- small solves
def simple_first_player_wins(model: SimpleModel) -> bool:
    """Memoised negamax on the simple model (no symmetry): an independent solver."""
    memo: dict[tuple[frozenset[str], int], bool] = {}

    def wins(cut: frozenset[str], designated: int) -> bool:
        key = (cut, designated)
        if key not in memo:
            memo[key] = any(
                not wins(cut | {c}, model.place_of[c]) for c in model.legal(set(cut), designated)
            )
        return memo[key]

    return wins(frozenset(), -1)


@pytest.mark.parametrize("rule", ["original", "revised"])
@pytest.mark.parametrize(("a", "b"), [(1, 2), (2, 1), (1, 3), (2, 2)])
def test_small_solves_agree_with_a_simple_solver(a: int, b: int, rule: str) -> None:
    from proofs.super_nonnect import first_player_wins

    answer, _, _ = first_player_wins(SuperNonnect(a=a, b=b, rule=rule), budget_seconds=30)
    assert answer == simple_first_player_wins(SimpleModel(a=a, b=b, rule=rule))


@pytest.mark.parametrize("solver", ["retrograde", "alphabeta"])
def test_general_solvers_agree(solver: str) -> None:
    """The project's solvers (retrograde and alpha-beta) against this module's small solver
    and the hand results: 1x2 first, 1x3 second (both rules)."""
    solvers = pytest.importorskip("solvers")
    from proofs.super_nonnect import first_player_wins

    hand = {(1, 2): True, (2, 1): True, (1, 3): False}
    for a, b in ((1, 2), (2, 1), (1, 3), (2, 2)):
        for rule in ("original", "revised"):
            game = SuperNonnect(a=a, b=b, rule=rule)
            result = solvers.solve(game, solver=solver, remoteness=False)
            answer, _, _ = first_player_wins(game, budget_seconds=30)
            assert (result.outcome == Outcome.WIN) == answer == hand.get((a, b), answer)
