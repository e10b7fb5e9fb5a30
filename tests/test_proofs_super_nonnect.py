"""The Super Nonnect claim checks: their verdicts on the real rules, and that each can fail
(a strategy with one wrong answer, or a deliberately broken rule, gives ``refuted``)."""

from __future__ import annotations

from test_super_nonnect_properties import SimpleModel

from cgt.games.super_nonnect import SuperNonnect, SuperNonnectPosition
from proofs.registry import run_claim
from proofs.super_nonnect import (
    FAIL_SENDS_TO_FULL,
    cell_at,
    no_line_of_three,
    original_first_player_wins,
    revised_blocks_return_strategy,
    revised_outcome,
    walk_strategy,
)


class FreeMoveWhenSentToFullBoard(SuperNonnect):
    """Broken rule: a player sent to a full mini-board may cut anywhere instead of losing."""

    def candidate_cells(self, position: SuperNonnectPosition) -> int:
        cells = super().candidate_cells(position)
        return cells or (self.full_mask & ~position.cut)


class NoConnectivityRule(SuperNonnect):
    """Broken rule: the board may fall apart."""

    def connected(self, uncut: int) -> bool:
        return True


class RevisedRuleIgnored(SuperNonnect):
    """Broken rule: rule=revised silently plays the original rule."""

    def __init__(self, **parameters: object) -> None:
        parameters["rule"] = "original"
        super().__init__(**parameters)


def one_wrong_answer(game: SuperNonnect, start: int, opponent_cut: int) -> int:
    """The return strategy except when the opponent cuts the cell at place start+1."""
    place = game.geometry.target_of[opponent_cut]
    if place == (start + 1) % game.board_count:
        place = (place + 1) % game.board_count
    return cell_at(game, place, start)


# --------------------------------------------------------------------------- return strategy
def test_return_strategy_holds_from_the_centre_only_on_3x3() -> None:
    verdict = run_claim("super-nonnect.original-first-player-wins", boards=("3x3", "2x2", "1x3"))
    assert verdict.verdict == "verified"
    per_board = verdict.evidence["per_board"]
    # by hand for the centre: the strategy cuts the centres of the eight outer boards, each
    # surrounded by its own ring of 8 uncut cells, so it never disconnects anything; the
    # opponent may order the 8 cuts of the centre board in at most 8! = 40320 ways, all legal
    # orders being the ones that keep it connected: every one is a line.
    centre = per_board["3x3"]["starts"][4]
    assert per_board["3x3"]["strategy_holds_from"] == [4]
    assert centre["first_cut"] == "e5" and centre["lines"] == 40320
    # 1x3 is a path: the strategy cannot even work, the second player wins (see rules tests)
    assert per_board["1x3"]["strategy_holds_from"] == []
    assert per_board["1x3"]["solved_winner"] == "second"
    assert "1x3" in verdict.evidence["note"]


def test_refuting_lines_really_are_legal_until_the_disconnecting_reply() -> None:
    """Replay each 3x3 refuting line on the simple model: all cuts but the last are legal and
    the last one (the strategy's reply) would disconnect the board."""
    verdict = original_first_player_wins(boards=("3x3",))
    model = SimpleModel()
    for start in verdict.evidence["per_board"]["3x3"]["starts"]:
        if start["holds"]:
            continue
        line = start["refuting_line"]
        cut: set[str] = set()
        designated = -1
        for name in line[:-1]:
            assert name in model.legal(cut, designated)
            cut.add(name)
            designated = model.place_of[name]
        last = line[-1]
        assert model.board_of[last] == designated and last not in cut
        assert not model.connected(set(model.coord) - cut - {last})


def test_one_wrong_answer_refutes_the_strategy() -> None:
    verdict = original_first_player_wins(boards=("3x3",), reply=one_wrong_answer)
    assert verdict.verdict == "refuted"
    assert all(not s["holds"] for s in verdict.evidence["per_board"]["3x3"]["starts"])


def test_a_broken_rule_refutes_the_strategy() -> None:
    verdict = original_first_player_wins(boards=("3x3",), make_game=FreeMoveWhenSentToFullBoard)
    assert verdict.verdict == "refuted"


# --------------------------------------------------------------------------- revised rule
def test_revised_rule_blocks_exactly_the_final_return() -> None:
    verdict = run_claim("super-nonnect.revised-blocks-return-strategy", boards=("3x3", "2x2"))
    assert verdict.verdict == "verified"
    (centre,) = verdict.evidence["per_board"]["3x3"]
    # every one of the 8! opponent orders ends with the forbidden final return
    assert centre["leaves"] == {FAIL_SENDS_TO_FULL: 40320}
    line = centre["where_it_breaks"][FAIL_SENDS_TO_FULL]
    # the line has 1 + 2*8 cuts: by then every cell of the centre board d4..f6 is cut
    centre_board = {f"{f}{r}" for f in "def" for r in "456"}
    assert len(line) == 17 and centre_board <= set(line[:-1])
    assert SimpleModel().place_of[line[-1]] == 4  # the blocked cut would send play to the centre


def test_walk_under_revised_rule_sends_nobody_to_a_full_board() -> None:
    game = SuperNonnect(a=2, b=2, rule="revised")
    walk = walk_strategy(game, 0)
    assert walk.lines == 6 and walk.leaves[FAIL_SENDS_TO_FULL] == 6  # 3! opponent orders


def test_ignoring_the_revised_rule_refutes_the_block_claim() -> None:
    verdict = revised_blocks_return_strategy(boards=("2x2",), make_game=RevisedRuleIgnored)
    assert verdict.verdict == "refuted"


# --------------------------------------------------------------------------- outcomes
def simple_model_first_player_wins(model: SimpleModel) -> bool:
    """Plain memoised negamax over the brute-force rules of the simple model."""
    memo: dict[tuple[frozenset[str], int], bool] = {}

    def wins(cut: frozenset[str], designated: int) -> bool:
        key = (cut, designated)
        if key not in memo:
            memo[key] = any(
                not wins(cut | {name}, model.place_of[name])
                for name in model.legal(set(cut), designated)
            )
        return memo[key]

    return wins(frozenset(), -1)


def test_revised_outcomes_on_small_shapes() -> None:
    verdict = revised_outcome(shapes=("1x2", "2x1", "1x3", "3x1", "2x2"))
    assert verdict.verdict == "verified"
    outcomes = verdict.evidence["outcomes"]
    winners = {k: v["winner"] for k, v in outcomes.items()}
    # 1x2, 2x1, 1x3, 3x1 by hand (HAND_OUTCOMES_REVISED); 2x2 by the simple model's negamax
    assert winners == {
        "1x2": "first",
        "2x1": "first",
        "1x3": "second",
        "3x1": "second",
        "2x2": "first"
        if simple_model_first_player_wins(SimpleModel(a=2, b=2, rule="revised"))
        else "second",
    }
    for entry in outcomes.values():
        assert entry["kernel"]["winner"] == entry["alphabeta_python"]["winner"]
    assert verdict.scope["shapes_not_solved"] == ["3x3"]


def test_wrong_expectation_or_broken_rule_refutes_the_outcomes() -> None:
    assert revised_outcome(shapes=("1x3",), expected={"1x3": "first"}).verdict == "refuted"
    # without the connectivity rule the readable rules change but the kernel's do not, and
    # 1x3 is no longer a path game: the roads part
    broken = revised_outcome(shapes=("1x2", "1x3"), make_game=NoConnectivityRule)
    assert broken.verdict == "refuted"
    assert any("1x3" in m for m in broken.evidence["mismatches"])


# --------------------------------------------------------------------------- lines of three
def test_no_line_search_is_honest_about_its_reach() -> None:
    verdict = no_line_of_three(rules=("revised",), budget_seconds_per_line=0.05, beam_width=10)
    assert verdict.verdict == "inconclusive"
    # exhaustive on 2x2: no two mini-boards are ever fully cut at the same time
    assert verdict.evidence["per_rule"]["revised"]["2x2_maximal_sets_of_full_mini_boards"] == [
        [0],
        [1],
        [2],
        [3],
    ]


def test_without_connectivity_every_line_can_be_cut() -> None:
    verdict = no_line_of_three(
        rules=("revised",), budget_seconds_per_line=1.0, beam_width=20, make_game=NoConnectivityRule
    )
    assert verdict.verdict == "refuted"
    witness = verdict.evidence["per_rule"]["revised"]["3x3"]["top row"]["witness"]
    model = SimpleModel(rule="revised")
    cut: set[str] = set()
    designated = -1
    for name in witness:  # designation and the revised rule still hold along the witness
        assert name not in cut and (designated < 0 or model.board_of[name] == designated)
        cut.add(name)
        designated = model.place_of[name]
    assert {n for n in model.coord if model.board_of[n] in (0, 1, 2)} <= cut
