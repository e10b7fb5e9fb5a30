"""LAG rules on hand-built size-3 positions; every expected value is worked out by hand below.

Size-3 board, cells named by row letter from the top and index from the left, with axial
coordinates (q, r) (docs/rules.md, "Hexhex boards"):

    a1 (0,-2)  a2 (1,-2)  a3 (2,-2)
    b1 (-1,-1) b2 (0,-1)  b3 (1,-1)  b4 (2,-1)
    c1 (-2,0)  c2 (-1,0)  c3 (0,0)   c4 (1,0)   c5 (2,0)
    d1 (-2,1)  d2 (-1,1)  d3 (0,1)   d4 (1,1)
    e1 (-2,2)  e2 (-1,2)  e3 (0,2)

White's forward steps are NW (0,-1) and NE (+1,-1); Black's are SW (-1,+1) and SE (0,+1);
sideways is E/W (+-1, 0); a cell (q, r) is on the board iff max(|q|, |r|, |q+r|) <= 2.
"""

from __future__ import annotations

import pytest

from cgt.errors import ParameterError, PositionError
from cgt.games.lag import Lag
from cgt.protocol import Outcome
from cgt.registry import load_game


def move_names(game: Lag, text: str) -> set[str]:
    position = game.parse(text)
    return {game.move_name(position, m) for m in game.moves(position)}


@pytest.fixture
def lag3() -> Lag:
    return Lag(size=3)


def test_registered_and_standard_setup() -> None:
    game = load_game("lag")
    assert isinstance(game, Lag)
    # Each player fills the two rows nearest to them: 3 + 4 = 7 pieces, White to move.
    assert game.render(game.initial_position()) == "BBB/BBBB/...../WWWW/WWW W"
    size4 = Lag(size=4)
    assert size4.render(size4.initial_position()) == "BBBB/BBBBB/....../......./....../WWWWW/WWWW W"


def test_opening_moves(lag3: Lag) -> None:
    # One object each, so k = 1. Forward from the d row (d1..d4 = q -2..1, r 1) goes to
    # c(q, 0) by NW and c(q+1, 0) by NE: d1->c1,c2; d2->c2,c3; d3->c3,c4; d4->c4,c5.
    # The e row's forward cells are all White's own. Sideways moves keep one object: banned.
    start = lag3.render(lag3.initial_position())
    assert move_names(lag3, start) == {
        "d1-c1",
        "d1-c2",
        "d2-c2",
        "d2-c3",
        "d3-c3",
        "d3-c4",
        "d4-c4",
        "d4-c5",
    }


def test_one_object_moves_one_cell_forward_only(lag3: Lag) -> None:
    # White c3 alone: NW -> b2, NE -> b3; E/W would leave 1 object (not fewer); no backward.
    assert move_names(lag3, "B../..../..W../..../... W") == {"c3-b2", "c3-b3"}


def test_black_mirrors_white(lag3: Lag) -> None:
    # Black c3 alone moves forward = down: SW -> d2 (-1,1), SE -> d3 (0,1).
    assert move_names(lag3, "W../..../..B../..../... B") == {"c3-d2", "c3-d3"}


def test_two_objects_move_exactly_two_cells_jumping_and_capturing(lag3: Lag) -> None:
    # White c3 (0,0) and e1 (-2,2): two objects, k = 2.
    # c3: NW 2 -> a1 (0,-2), jumping the black b2, capturing the black a1; NE 2 -> a3 (2,-2);
    #     E 2 -> c5 keeps 2 objects (banned); W 2 -> c1 likewise.
    # e1: NW 2 -> c1 (-2,0); NE 2 -> c3 is White's own (banned); E 2 -> e3 keeps 2 objects.
    assert move_names(lag3, "B../.B../..W../..../W.. W") == {"c3xa1", "c3-a3", "e1-c1"}


def test_no_landing_on_own_piece_and_one_object_of_two_pieces(lag3: Lag) -> None:
    # White c3 (0,0) + b2 (0,-1) touch: one object, k = 1. c3 NW -> b2 is own (banned),
    # c3 NE -> b3; b2 NW -> a1, NE -> a2; b2 E -> b3 (1,-1) still touches c3: 1 object, banned.
    assert move_names(lag3, "..B/.W../..W../..../... W") == {"c3-b3", "b2-a1", "b2-a2"}


def test_sideways_allowed_only_when_it_merges(lag3: Lag) -> None:
    # White c1 (-2,0) and c4+c5 (1,0),(2,0): two objects, k = 2.
    # c1 E 2 -> c3 (0,0) touches c4: one object, allowed. c4 W 2 -> c2 leaves {c1,c2},{c5}: 2,
    # banned. c5 W 2 -> c3 leaves {c3,c4},{c1}: 2, banned. Forward: c1 NE 2 -> a1 (0,-2),
    # c1 NW 2 -> (-2,-2) off; c4 NW 2 -> a2 (1,-2), NE 2 -> (3,-2) off; c5 NW 2 -> a3.
    assert move_names(lag3, ".../..../W..WW/..../..B W") == {"c1-c3", "c1-a1", "c4-a2", "c5-a3"}


def test_sideways_capture_still_needs_the_merge(lag3: Lag) -> None:
    # White c1 alone (k = 1) next to a black c2: capturing sideways leaves White 1 object,
    # not fewer, so it is banned; forward NW -> b0 is off the board, NE -> b1 (-1,-1).
    assert move_names(lag3, "B../..../WB.../..../... W") == {"c1-b1"}


def test_backward_never(lag3: Lag) -> None:
    # White a2 (1,-2) alone: forward leaves the board, sideways keeps one object, and the
    # backward cells b2, b3 are empty but forbidden. No legal move.
    position = lag3.parse(".W./..../...../..../B.. W")
    assert lag3.moves(position) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # White a1 alone cannot move: 1 object vs Black's 1 -> tie, White (no move) wins.
        ("W../..../...../..../B.. W", Outcome.WIN),
        # White 1 object vs Black 2 (e1, e3 apart): fewer, White wins.
        ("W../..../...../..../B.B W", Outcome.WIN),
        # White a1 + a3 (two objects, k = 2: a1 E2 -> a3 own, a3 W2 -> a1 own, forward off).
        # Black 1 object: Black has fewer, White loses.
        ("W.W/..../...../..../B.. W", Outcome.LOSS),
        # Black 2 objects (e1, e3): tie 2-2, the player without a move (White) wins.
        ("W.W/..../...../..../B.B W", Outcome.WIN),
    ],
)
def test_end_and_tie_rule(lag3: Lag, text: str, expected: Outcome) -> None:
    position = lag3.parse(text)
    assert lag3.moves(position) == []
    assert lag3.result(position) is expected


def test_game_goes_on_while_a_move_exists(lag3: Lag) -> None:
    assert lag3.result(lag3.initial_position()) is None


def test_player_without_pieces_has_no_move_and_wins_standard_loses_strict() -> None:
    # Documented decision: 0 objects < Black's 1, so White wins under the standard rule.
    text = "B../..../...../..../... W"
    standard, strict = Lag(size=3), Lag(size=3, goal="strict")
    assert standard.moves(standard.parse(text)) == []
    assert standard.result(standard.parse(text)) is Outcome.WIN
    assert strict.result(strict.parse(text)) is Outcome.LOSS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("W../..../...../..../B.B W", Outcome.WIN),  # stuck with one object: wins
        ("W.W/..../...../..../BBB W", Outcome.LOSS),  # stuck with two objects: loses
        ("W.W/..../...../..../B.B W", Outcome.LOSS),  # 2 vs 2: the standard tie win is gone
    ],
)
def test_strict_goal(text: str, expected: Outcome) -> None:
    game = Lag(size=3, goal="strict")
    assert game.result(game.parse(text)) is expected


def test_far_row_goals() -> None:
    # White b2 alone plays b2-a1 onto the far (top) row with one object.
    before = "..B/.W../...../..../... W"
    for goal, expected in [
        ("standard", None),
        ("strict", None),
        ("far-row", Outcome.LOSS),  # Black, to move, has lost
        ("far-row-one-object", Outcome.LOSS),
    ]:
        game = Lag(size=3, goal=goal)
        position = game.parse(before)
        after = game.play(position, game.parse_move(position, "b2-a1"))
        assert game.render(after) == "W.B/..../...../..../... B"
        assert game.result(after) is expected, goal
        assert (game.moves(after) == []) is (expected is not None)


def test_far_row_one_object_needs_one_object() -> None:
    # White a1 on the far row plus e3 far away: two objects. Black to move.
    text = "W../..B./...../..../..W B"
    assert (
        Lag(size=3, goal="far-row").result(Lag(size=3, goal="far-row").parse(text)) is Outcome.LOSS
    )
    game = Lag(size=3, goal="far-row-one-object")
    assert game.result(game.parse(text)) is None
    assert game.moves(game.parse(text))  # Black b3 can still move


def test_far_row_goal_with_two_objects_is_not_met_by_the_player_to_move() -> None:
    # White to move has a piece on the far row (a1, plus c3: two objects, k = 2, and
    # c3 NE 2 -> a3 is a move): far-row-one-object is not met, so play goes on.
    game = Lag(size=3, goal="far-row-one-object")
    position = game.parse("W../..B./..W../..../... W")
    assert game.result(position) is None


# White a1 (far row) and b2 form one object; Black's c3 has just captured White's stray piece.
# White, to move, meets far-row-one-object; b2-a2 would still be a legal move.
MET_BY_THE_PLAYER_TO_MOVE = "W../.W../..B../..../... W"


def test_far_row_goal_is_a_condition_on_the_board_checked_for_both_players() -> None:
    # docs/rules.md, LAG: the document states the goal as a state ("at least one piece on
    # the far row and one group: win"), so the player to move who meets it has won.
    game = Lag(size=3, goal="far-row-one-object")
    position = game.parse(MET_BY_THE_PLAYER_TO_MOVE)
    assert game.result(position) is Outcome.WIN
    assert game.moves(position) == []


def test_goal_check_mover_checks_only_the_player_who_moved() -> None:
    game = Lag(size=3, goal="far-row-one-object", goal_check="mover")
    position = game.parse(MET_BY_THE_PLAYER_TO_MOVE)
    assert game.result(position) is None
    assert [game.move_name(position, m) for m in game.moves(position)] == ["b2-a2"]


def test_when_both_meet_the_goal_the_player_who_moved_wins() -> None:
    # Black (just moved) has e2 on its far row, one object; White to move has a1 + b2.
    game = Lag(size=3, goal="far-row-one-object")
    assert game.result(game.parse("W../.W../...../..../.B. W")) is Outcome.LOSS


def test_far_row_fallback_is_the_standard_end_rule() -> None:
    game = Lag(size=3, goal="far-row-one-object")
    # White (who just moved) stands on the far row a3 with one object: White has won.
    assert game.result(game.parse("..W/..../..B../..../... B")) is Outcome.LOSS
    # Nobody on a far row. Black e1 + e3 apart (k = 2): forward leaves the board, sideways
    # lands on an own piece: stuck. Standard rule: Black 2 objects vs White's 1, Black loses.
    position = game.parse(".../.W../...../..../B.B B")
    assert game.moves(position) == []
    assert game.result(position) is Outcome.LOSS


def test_parse_rejects_bad_positions(lag3: Lag) -> None:
    for bad in [
        "BBB/BBBB/...../WWWW/WWW",  # no side to move
        "BBB/BBBB/...../WWWW/WWW X",  # bad side
        "BBB/BBBB/..../WWWW/WWW W",  # short row
        "BBB/BBBB/...../WWWW W",  # missing row
        "BBB/BBBB/..Q../WWWW/WWW W",  # unknown symbol
        "BBB/BBBB/W..../WWWW/WWW W",  # 8 white pieces: more than the setup's 7
    ]:
        with pytest.raises(PositionError):
            lag3.parse(bad)
    with pytest.raises(PositionError):
        lag3.parse("BBB/BBBB/...../..../... B")  # White just moved but has no piece


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # Black still stands exactly as set up, so Black never moved and never captured:
        # White cannot have lost a piece.
        ("BBB/BBBB/...../WWWW/WW. B", "never moved"),
        ("BBB/BBBB/..W../WW.W/W.W W", "never moved"),
        # White (who moves first) never moved: no move was made at all, so only the initial
        # position itself (White to move, Black as set up) can arise.
        ("BBB/BBBB/...../WWWW/WWW B", "never moved"),
        ("BB./BBBB/..B../WWWW/WWW W", "never moved"),
    ],
)
def test_parse_refuses_positions_that_cannot_arise(lag3: Lag, text: str, reason: str) -> None:
    # docs/rules.md, LAG, "Positions": no move goes backward, and a sideways move must merge
    # objects, so a side whose pieces stand exactly on its setup cells has never moved.
    with pytest.raises(PositionError, match=reason):
        lag3.parse(text)


def test_parse_accepts_positions_one_move_from_the_start(lag3: Lag) -> None:
    start = lag3.initial_position()
    for move in lag3.moves(start):
        after = lag3.play(start, move)
        assert lag3.parse(lag3.render(after)) == after
    assert lag3.parse(lag3.render(start)) == start


def test_round_trip_and_move_parse(lag3: Lag) -> None:
    text = "B../.B../..W../..../W.. W"
    position = lag3.parse(text)
    assert lag3.render(position) == text
    after = lag3.play(position, lag3.parse_move(position, "c3xa1"))
    assert lag3.render(after) == "W../.B../...../..../W.. B"


def test_parameters() -> None:
    with pytest.raises(ParameterError):
        Lag(size=1)
    with pytest.raises(ParameterError):
        Lag(size=2)  # home rows overlap: needs a setup
    with pytest.raises(ParameterError):
        Lag(goal="nonsense")
    with pytest.raises(ParameterError):
        Lag(size=3, setup="BBB/BBBB W")
    tiny = Lag(size=2, setup="BB/.../WW W")
    assert tiny.render(tiny.initial_position()) == "BB/.../WW W"
    assert set(Lag.variants) == {"standard", "strict", "far-row", "far-row-one-object"}


def test_mirror_symmetry(lag3: Lag) -> None:
    # The mirror reverses every row; the move set of the mirror image is the mirrored set.
    text = "B../.B../..W../..../W.. W"
    mirrored_text = "..B/..B./..W../..../..W W"
    position, mirrored = lag3.parse(text), lag3.parse(mirrored_text)
    assert lag3.transform(position, 1) == mirrored
    assert lag3.canonical_key(position) == lag3.canonical_key(mirrored)
    assert lag3.canonical_key(position) != lag3.canonical_key(
        lag3.parse(".B./.B../..W../..../W.. W")
    )
    images = {lag3.transform_move(position, m, 1) for m in lag3.moves(position)}
    assert images == set(lag3.moves(mirrored))
    # By hand: c3xa1, c3-a3, e1-c1 mirror to c3-a3 (a1 is now empty), c3xa3, e3-c5.
    assert move_names(lag3, mirrored_text) == {"c3-a1", "c3xa3", "e3-c5"}


def test_describe_and_draw(lag3: Lag) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    text = lag3.describe(lag3.initial_position())
    assert "White to move" in text and "White 1, Black 1" in text
    fig, ax = plt.subplots()
    lag3.draw(lag3.initial_position(), ax)
    lag3.draw(lag3.initial_position(), ax, cell_colours={9: "#88cc88"}, cell_labels={9: "+1"})
    assert lag3.move_target(lag3.initial_position(), (12, 7)) == 7
    plt.close(fig)
