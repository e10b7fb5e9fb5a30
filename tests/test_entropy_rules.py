"""Entropy's rules, checked against the document's worked examples and hand-built positions.

Every expected value here is derived by hand from the rule text (docs/rules.md, "Entropy", from
the Japanese column on Carreno's Entropy); the derivations are in the docstrings.
"""

from __future__ import annotations

import pytest

from cgt.errors import MoveError, ParameterError, PositionError
from cgt.games.entropy import PASS, PLAYER_O, PLAYER_S, Entropy, default_setup
from cgt.protocol import Outcome
from cgt.registry import load_game

START = "SSSSS/S...S/...../O...O/OOOOO O"
#: Figure 2 of the document (O to move): rank 5 first.
FIGURE_2 = "S.O.S/O...O/OSSOS/S..../..OOS O"
#: Figure 3 of the document (O to move).
FIGURE_3 = "S.O.O/O.SOS/S..../OOSSO/S.... O"

game = Entropy()


def names(position: tuple[int, int, int], g: Entropy = game) -> list[str]:
    return sorted(g.move_name(position, m) for m in g.moves(position))


def cell(name: str, g: Entropy = game) -> int:
    return g.board.cell_by_name(name)


def play_names(
    position: tuple[int, int, int], *moves: str, g: Entropy = game
) -> tuple[int, int, int]:
    for text in moves:
        position = g.play(position, g.parse_move(position, text))
    return position


def as_player(position: tuple[int, int, int], player: int, move: str) -> tuple[int, int, int]:
    """Play ``move`` for ``player`` whoever is to move (the document's "if S moved twice")."""
    return play_names(game.with_to_move(position, player), move)


# ----------------------------------------------------------------------------- setup
def test_start_position_is_the_documents_figure_1() -> None:
    start = game.initial_position()
    assert game.render(start) == START
    assert game.players[game.to_move(start)] == "O"
    assert game.piece_counts == (7, 7)
    assert default_setup(5, 5) == START


def test_registry_finds_entropy_and_its_variant() -> None:
    assert isinstance(load_game("entropy"), Entropy)
    assert load_game("entropy", goal="disable").parameters["goal"] == "disable"
    assert Entropy.variants["disable"] == {"goal": "disable"}


def test_a_move_may_isolate_the_movers_own_piece() -> None:
    """The document's note: from the start, moving to the centre c3 isolates that piece and
    is allowed. a1-c3 slides along a1-b2-c3 (b2 empty); c3's neighbours b2 c2 d2 b3 d3 b4 c4 d4
    are all empty."""
    start = game.initial_position()
    assert "a1-c3" in names(start)
    after = play_names(start, "a1-c3")
    assert game.is_isolated(after, cell("c3"))
    assert game.result(after) is None


# ----------------------------------------------------------------------------- figure 2
def test_figure_2_c5_is_isolated_and_the_legal_moves_are_exactly_those_resolving_it() -> None:
    """Figure 2, O to move. O: c5 a4 e4 a3 d3 c1 d1; S: a5 e5 b3 c3 e3 a2 e1.

    c5's neighbours b5 d5 b4 c4 d4 are all empty, so c5 is isolated and every O move must
    land on one of them (c5 itself has no friend and cannot move).
    Pieces with a friendly neighbour: a4 (a3), e4 (d3), a3 (a4), d3 (e4), c1 (d1), d1 (c1).
    - a4: up a5 is S; right b4 c4 d4 (then e4 O); up-right b5; down-right b3 is S -> b4 c4 d4 b5.
    - e4: up e5 is S; left d4 c4 b4 (then a4 O); up-left d5; down-left d3 O -> d4 c4 b4 d5.
    - a3: up-right b4 (then c5 O); down-right b2 (not next to c5); others blocked -> b4.
    - d3: up d4 d5; up-left c4 b5; down d2, down-left c2 b1, down-right e2 do not touch c5
      -> d4 d5 c4 b5.
    - c1: up c2 (c3 is S), up-left b2 (a3 O), up-right d2 (e3 S), left b1 a1: none touches c5.
    - d1: up d2 (d3 O), up-left c2 (b3 S), up-right e2: none touches c5.
    Thirteen moves; a3-b4 and d3-d5 (the document's examples) among them.
    """
    fig2 = game.parse(FIGURE_2)
    assert game.isolated_pieces(fig2, PLAYER_O) == [cell("c5")]
    expected = sorted(
        [
            "a4-b4",
            "a4-c4",
            "a4-d4",
            "a4-b5",
            "e4-d4",
            "e4-c4",
            "e4-b4",
            "e4-d5",
            "a3-b4",
            "d3-d4",
            "d3-d5",
            "d3-c4",
            "d3-b5",
        ]
    )
    assert names(fig2) == expected
    for move in game.moves(fig2):
        assert not game.is_isolated(game.play(fig2, move), cell("c5"))
    # the slide d3-d2 is a queen move of a movable piece but leaves c5 isolated
    with pytest.raises(MoveError):
        game.parse_move(fig2, "d3-d2")


def test_figure_2_s_would_win_with_b3c2_and_c3c4() -> None:
    """After b3-c2 and c3-c4 (S moving twice) S stands on a5 e5 e3 a2 e1 c2 c4: no two are
    neighbours, and each touches O (a5-a4, e5-e4, e3-e4/d3, a2-a3, e1-d1, c2-c1/d1/d3,
    c4-c5/d3). O's d3 and e4 touch each other, so only S meets the goal."""
    fig2 = game.parse(FIGURE_2)
    halfway = as_player(fig2, PLAYER_S, "b3-c2")
    assert game.winner(halfway) is None  # c2 and c3 still touch
    threat = as_player(halfway, PLAYER_S, "c3-c4")
    assert game.goal_met(threat, PLAYER_S)
    assert not game.goal_met(threat, PLAYER_O)
    assert game.winner(threat) == PLAYER_S
    assert game.result(threat) == Outcome.LOSS  # O is to move and has lost


def test_figure_2_after_a4c4_s_must_resolve_a5_with_b3_or_c3() -> None:
    """After a4-c4, a5's neighbours a4 b5 b4 are empty: a5 is isolated. S pieces with a
    friend: b3 (c3, a2), c3 (b3), a2 (b3). Targets must be a4, b5 or b4:
    b3 reaches b4 b5 (up) and a4 (up-left); c3 reaches b4 (up-left, then a5 S); c3's up is
    c4 (O). a2's slides (b2.., a1, b1) touch none of them."""
    after = play_names(game.parse(FIGURE_2), "a4-c4")
    assert game.isolated_pieces(after, PLAYER_S) == [cell("a5")]
    assert names(after) == sorted(["b3-a4", "b3-b4", "b3-b5", "c3-b4"])


def test_figure_2_after_e4c4_s_has_one_legal_move_c3d4() -> None:
    """After e4-c4, e5's neighbours d5 d4 e4 are empty: e5 is isolated. S pieces with a
    friend: b3, c3, a2. b3: up b4 b5, up-right c4 is O: none next to e5. c3: up-right d4
    (then e5 S) touches e5; its other slides (b4, c2, b2 a1, d2) do not. a2: b2.. a1 b1 do
    not. So the move is unique, as the document says, but it is c3-d4: the document's
    "C3 -> E4" is not a queen move at all (two files, one rank)."""
    after = play_names(game.parse(FIGURE_2), "e4-c4")
    assert game.isolated_pieces(after, PLAYER_S) == [cell("e5")]
    assert names(after) == ["c3-d4"]
    with pytest.raises(MoveError):
        game.parse_move(after, "c3-e4")


# ----------------------------------------------------------------------------- figure 3
def test_figure_3_legal_moves_and_the_movement_condition() -> None:
    """Figure 3, O to move. O: c5 e5 a4 d4 a2 b2 e2; S: a5 c4 e4 a3 c2 d2 a1.
    a4 (neighbours a5 S, a3 S, b5 b4 b3 empty) and e2 (d2 S, d3 e3 d1 e1 empty) have no
    friend and cannot move. a2 (friend b2): b3 (c4 S next), b1. b2 (a2): b3 b4 b5, b1, c3
    (d4 O next), c1. d4 (c5, e5): d5, d3 (d2 S next), c3 (b2 O next), e3. c5 (d4): b5, d5, b4
    (a3 S next). e5 (d4): d5."""
    fig3 = game.parse(FIGURE_3)
    assert not game.can_piece_move(fig3, cell("a4"))
    assert not game.can_piece_move(fig3, cell("e2"))
    assert names(fig3) == sorted(
        [
            "a2-b3",
            "a2-b1",
            "b2-b3",
            "b2-b4",
            "b2-b5",
            "b2-b1",
            "b2-c3",
            "b2-c1",
            "d4-d5",
            "d4-d3",
            "d4-c3",
            "d4-e3",
            "c5-b5",
            "c5-d5",
            "c5-b4",
            "e5-d5",
        ]
    )


def test_figure_3_s_threatens_d2e1_and_only_b2_leaving_c2_stops_every_immediate_win() -> None:
    """After d2-e1 (S moving now) no S pieces touch each other and each touches O: a5-a4,
    c4-c5/d4, e4-e5/d4, a3-a4/a2/b2, c2-b2, e1-e2, a1-a2/b2. c2's only O neighbour is b2, so
    O must take b2 off c2's neighbourhood (b1 c1 d1 b3 c3 d3 ...): of b2's moves only b4 and
    b5 do. a4 and e2, the only O contacts of a5 and e1, cannot move. After any other O move
    S wins at once with d2-e1."""
    fig3 = game.parse(FIGURE_3)
    threat = as_player(fig3, PLAYER_S, "d2-e1")
    assert game.winner(threat) == PLAYER_S
    stopping = []
    for move in game.moves(fig3):
        after = game.play(fig3, move)
        immediate = [m for m in game.moves(after) if game.winner(game.play(after, m)) == PLAYER_S]
        if immediate:
            assert "d2-e1" in [game.move_name(after, m) for m in immediate]
        else:
            stopping.append(game.move_name(fig3, move))
    assert sorted(stopping) == ["b2-b4", "b2-b5"]


def test_figure_3_after_b2b4_d2e1_s_can_never_move_again() -> None:
    """After b2-b4 and d2-e1 S stands on a5 c4 e4 a3 c2 e1 a1: no two are neighbours, so no
    S piece may move, and O's moves never change which S pieces touch each other. Nobody has
    won yet: c2 touches no O (b2 and d2 are empty)."""
    endgame = play_names(game.parse(FIGURE_3), "b2-b4", "d2-e1")
    assert game.render(endgame) == "S.O.O/OOSOS/S..../O.S.O/S...S O"
    assert game.result(endgame) is None
    assert game.real_moves(endgame, PLAYER_S) == []
    after_o = play_names(endgame, "c5-d5")
    assert game.moves(after_o) == [PASS]
    assert game.move_name(after_o, PASS) == "pass"
    assert game.play(after_o, PASS) == game.with_to_move(after_o, PLAYER_O)


def test_a_move_that_meets_only_the_opponents_goal_makes_the_opponent_win() -> None:
    """In the figure-3 endgame, b4-b3 puts an O next to c2, the only S piece touching no O:
    S meets its goal on O's move, and S (now to move) has won."""
    endgame = play_names(game.parse(FIGURE_3), "b2-b4", "d2-e1")
    after = play_names(endgame, "b4-b3")
    assert game.winner(after) == PLAYER_S
    assert game.result(after) == Outcome.WIN  # for S, the player to move


def test_disable_goal_needs_no_enemy_contact() -> None:
    """Under goal=disable S wins the figure-3 endgame at once: no two S pieces touch, even
    though c2 touches no O (the document's note: "there is no defence")."""
    disable = Entropy(goal="disable")
    endgame = play_names(disable.parse(FIGURE_3), "b2-b4", "d2-e1", g=disable)
    assert disable.winner(endgame) == PLAYER_S
    assert disable.result(endgame) == Outcome.LOSS  # O to move has lost
    assert game.winner(game.parse(game.render(endgame))) is None


# ----------------------------------------------------------------------------- isolation
def test_several_isolated_pieces_must_all_be_resolved_by_one_move() -> None:
    """O on a5 c5 c3 c2, S on a1 e1. a5 (neighbours a4 b4 b5) and c5 (b5 d5 b4 c4 d4) are
    isolated; a legal move must land on a common neighbour, b4 or b5. c3 reaches b4 (up-left,
    then a5 O); c2 (friend c3) slides up-left to b3 a4, neither next to c5. c3-c4 resolves c5
    only and is illegal. So the only move is c3-b4."""
    g = Entropy(setup="O.O../...../..O../..O../S...S O")
    position = g.initial_position()
    assert sorted(g.isolated_pieces(position, PLAYER_O)) == sorted([cell("a5", g), cell("c5", g)])
    assert names(position, g) == ["c3-b4"]


def test_unresolvable_isolation_forces_a_pass_and_a_double_block_is_a_draw() -> None:
    """O on a5 e5 c3 c2, S on a1 e1. a5's neighbours (a4 b4 b5) and e5's (d4 d5 e4) share no
    cell, so no move resolves both: O must pass although c3 and c2 could slide. Then S's a1
    and e1 are isolated and friendless, so S cannot move either: neither player can move and
    nobody has won (O's a5 touches no S), a draw."""
    g = Entropy(setup="O...O/...../..O../..O../S...S O")
    position = g.initial_position()
    assert g.can_piece_move(position, cell("c3", g))
    assert g.moves(position) == [PASS]
    assert g.real_moves(position, PLAYER_S) == []
    assert g.result(position) == Outcome.DRAW


def test_a_player_without_moves_passes_while_the_other_can_move() -> None:
    """O on a5 e5 c3 c2 (as above, O must pass), S on a1 b1 (friends, so S can move): not a
    draw; O's only move is the pass and S moves next."""
    g = Entropy(setup="O...O/...../..O../..O../SS... O")
    position = g.initial_position()
    assert g.moves(position) == [PASS]
    assert g.result(position) is None
    after = g.play(position, PASS)
    assert g.to_move(after) == PLAYER_S
    assert g.moves(after) != [PASS]


def test_simultaneous_goals_are_a_draw() -> None:
    """3x3, O on a1 b1, S on b3 c1, O to move. a1 (friend b1) slides up to a3. Then O a3
    touches S b3, O b1 touches S c1, neither O touches O; S b3 touches O a3, S c1 touches O b1,
    the S pieces are apart. Both goals hold: a draw, not a win for the mover."""
    g = Entropy(width=3, height=3, setup=".S./.../OOS O")
    position = g.initial_position()
    assert g.result(position) is None
    after = play_names(position, "a1-a3", g=g)
    assert g.goal_met(after, PLAYER_O) and g.goal_met(after, PLAYER_S)
    assert g.winner(after) is None
    assert g.result(after) == Outcome.DRAW


def test_a_piece_touching_only_enemies_cannot_move() -> None:
    """3x3, O on a1 c3, S on b2 c1: a1 and c3 touch only S b2, so O has no real move; S's b2
    and c1 touch each other, so S can move. O must pass."""
    g = Entropy(width=3, height=3, setup="..O/.S./O.S O")
    position = g.initial_position()
    assert not g.can_piece_move(position, cell("a1", g))
    assert g.moves(position) == [PASS]
    assert g.can_piece_move(position, cell("b2", g))


# ----------------------------------------------------------------------------- notation
@pytest.mark.parametrize("text", [START, FIGURE_2, FIGURE_3, FIGURE_3.replace(" O", " S")])
def test_parse_render_round_trip(text: str) -> None:
    assert game.render(game.parse(text)) == text


def test_describe_shows_ranks_files_and_side() -> None:
    lines = game.describe(game.initial_position()).splitlines()
    assert lines[0] == "5 S S S S S"
    assert lines[-2] == "  a b c d e"
    assert lines[-1] == "O to move"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("SSSSS/S...S/...../O...O/OOOOO", "expected"),
        ("SSSSS/S...S/...../O...O/OOOOO X", "side to move"),
        ("SSSSS/S...S/...../O...O O", "ranks"),
        ("SSSSS/S...S/...../O...O/OOOO O", "cells"),
        ("SSSSS/S...S/..x../O...O/OOOOO O", "symbol"),
        ("SSSSS/S...S/..O../O...O/OOOOO O", "8 O and 7 S"),
        ("...../...../...../O...O/OOOOO O", "at least one piece"),
    ],
)
def test_parse_rejects_bad_positions(text: str, fragment: str) -> None:
    with pytest.raises(PositionError, match=fragment):
        game.parse(text)


def test_parameters_are_checked() -> None:
    with pytest.raises(ParameterError, match="default setup"):
        Entropy(width=3, height=3)
    with pytest.raises(ParameterError, match="bad setup"):
        Entropy(width=4, height=4, setup=START)
    with pytest.raises(ParameterError, match="goal"):
        Entropy(goal="touch")
    assert Entropy(width=4, height=4).render(Entropy(width=4, height=4).initial_position()) == (
        "SSSS/S..S/O..O/OOOO O"
    )
    assert (
        Entropy(width=3, height=3, setup="SS./.../.OO").to_move(
            Entropy(width=3, height=3, setup="SS./.../.OO").initial_position()
        )
        == PLAYER_O
    )


# ----------------------------------------------------------------------------- symmetry
def test_symmetry_group_sizes() -> None:
    assert game.symmetry_count == 8
    assert Entropy(width=4, height=3, setup="SSSS/..../OOOO O").symmetry_count == 4


def test_left_right_mirror_of_a_move_by_hand() -> None:
    """Symmetry 4 mirrors files (a<->e): a3-b4 becomes e3-d4; figure 2 becomes
    S.O.S/O...O/SOSSO/....S/SOO.. O."""
    fig2 = game.parse(FIGURE_2)
    mirrored = game.transform(fig2, 4)
    assert game.render(mirrored) == "S.O.S/O...O/SOSSO/....S/SOO.. O"
    move = game.parse_move(fig2, "a3-b4")
    assert game.move_name(mirrored, game.transform_move(fig2, move, 4)) == "e3-d4"


@pytest.mark.parametrize("text", [FIGURE_2, FIGURE_3, START])
def test_moves_commute_with_every_symmetry(text: str) -> None:
    position = game.parse(text)
    for symmetry in range(game.symmetry_count):
        image = game.transform(position, symmetry)
        mapped = {game.transform_move(position, m, symmetry) for m in game.moves(position)}
        assert mapped == set(game.moves(image))
        assert game.result(image) == game.result(position)
        assert game.canonical_key(image) == game.canonical_key(position)


def test_rectangle_symmetries_keep_the_board_shape() -> None:
    g = Entropy(width=4, height=3, setup="SSS./..../O.OO O")
    position = g.initial_position()
    for symmetry in range(g.symmetry_count):
        image = g.transform(position, symmetry)
        assert g.render(g.parse(g.render(image))) == g.render(image)
        assert {g.transform_move(position, m, symmetry) for m in g.moves(position)} == set(
            g.moves(image)
        )


def test_draw_puts_one_stone_per_piece() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    game.draw(game.parse(FIGURE_3), ax)
    stones = [p for p in ax.patches if type(p).__name__ == "Circle"]
    assert len(stones) == 14
    assert sum(1 for s in stones if s.get_facecolor()[:3] == (1.0, 1.0, 1.0)) == 7
    plt.close(fig)
    fig, ax = plt.subplots()
    game.draw(game.parse(FIGURE_3), ax, cell_colours={0: "yellow"}, cell_labels={12: "x"})
    assert [t.get_text() for t in ax.texts].count("x") == 1
    plt.close(fig)


def test_move_target_is_the_destination_square() -> None:
    fig3 = game.parse(FIGURE_3)
    assert game.move_target(fig3, game.parse_move(fig3, "b2-b4")) == cell("b4")
    assert game.move_target(fig3, PASS) is None
