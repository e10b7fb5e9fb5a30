"""CGSuite's own test values, evaluated by ``cgt eval``'s evaluator: the printed output must be
CGSuite's, character for character.

The table ``tests/data/cgsuite_cases.json`` is extracted from CGSuite's Scala test sources
(aaron-siegel/cgsuite at the commit it records: GameTest, CanonicalShortGameTestCase,
EvalTest, CgsuiteLangTest) by ``tests/data/extract_cgsuite_cases.py``. CGSuite's language
is much larger than CGSuite notation for games (loops, lists, maps, classes, game grids), so a
case counts as *outside the toolkit* when reading or evaluating it fails for a missing
feature (syntax, an unknown function or name, loopy games) or a bound (CGSuite's integers of
2^31). Every other case must print CGSuite's output, except the documented differences below;
a case CGSuite answers with an error (``!!...``) must raise an error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgt.algebra.budget import Budget, BudgetExceeded
from cgt.algebra.expression import ExpressionError, LoopyNotSupported, evaluate, format_value
from cgt.errors import CGTError

TABLE = json.loads((Path(__file__).parent / "data" / "cgsuite_cases.json").read_text())
CASES: list[dict[str, Any]] = TABLE["cases"]

#: Forms one case may create (deterministic, unlike a time bound): CGSuite's machine-size
#: integers (2^31) and huge nimbers (*16384) are refused, every game value fits.
MAX_FORMS = 200_000

DIFFERENCES = {
    # cgt eval reads what CGSuite prints: x*m is x + *m and x^n is x + ^n (CGSuite prints
    # 1/2 + *2 as "1/2*2" but reads "1/2*2" as a product); products need spaces or ×.
    "3*5": "x*m is x + *m",
    "3^5": "x^n is x + ^n",
    "(1/2)^4": "x^n is x + ^n",
    "3^2^2^2": "x^n is x + ^n",
    "(*+*)*3": "x*m is x + *m",
    # CGSuite's tuples and sets of numbers are printed as lists here
    "(1,3)": "tuples print as lists",
    "{3,5,3,1}": "sets print as lists, unsorted",
    "+-(1,1+*)": "+-(A,B) is the switch +-{A,B}, CGSuite refuses it",
    "{2^100|0}": "x^n is x + ^n",
}


def _outcome(case: dict[str, Any]) -> tuple[str, str]:
    """``(kind, printed)``: ``ok`` with the printed value, ``error`` with the message, or
    ``outside`` (a feature or bound the toolkit does not have)."""
    try:
        with Budget(max_forms=MAX_FORMS).active():
            return "ok", format_value(evaluate(case["expression"]))
    except (LoopyNotSupported, BudgetExceeded) as exc:
        return "outside", str(exc)
    except ExpressionError as exc:
        message = str(exc)
        missing = (
            "syntax error",
            "unknown function",
            "unknown name",
            "needs arguments",
            # loopy features not implemented (README: loopy games): functions of loopy
            # arguments, sides that sidling does not settle, a side-only value as an option
            "not defined for loopy games",
            "not found by sidling",
            "has no game form",
        )
        if any(word in message for word in missing):
            return "outside", message
        return "error", message
    except CGTError as exc:
        return "error", str(exc)


RESULTS = [(case, *_outcome(case)) for case in CASES]


def _label(case: dict[str, Any]) -> str:
    return f"{case['file']}: {case['expression'][:60]}"


@pytest.mark.parametrize(
    ("case", "kind", "printed"),
    [r for r in RESULTS if r[1] != "outside"],
    ids=[_label(r[0]) for r in RESULTS if r[1] != "outside"],
)
def test_cgsuite_prints_the_same(case: dict[str, Any], kind: str, printed: str) -> None:
    expected = case["expected"]
    if case["expression"] in DIFFERENCES:
        pytest.skip(DIFFERENCES[case["expression"]])
    if expected.startswith("!!"):
        assert kind == "error", f"CGSuite refuses it ({expected[2:]}), the toolkit gave {printed}"
        return
    assert kind == "ok", printed
    assert printed == expected


def test_the_table_is_mostly_within_reach() -> None:
    """The comparison above covers the games: at least 560 of CGSuite's cases are evaluated
    (the rest is CGSuite's programming language, loopy games and game grids)."""
    inside = [r for r in RESULTS if r[1] != "outside"]
    assert len(inside) >= 560, len(inside)
    assert TABLE["commit"] == "e909ab8bc330e39bc837d26b22bc8a96f9fa512a"
