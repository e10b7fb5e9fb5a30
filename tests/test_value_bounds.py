"""Bounded value computations: ``--max-seconds``, ``--max-forms`` and ``--max-memory`` on
``cgt value`` and ``cgt eval`` (exit status 3 and one line when a bound stops the work), and
the sizes that used to break the engine (integers of 20,000, the 6x6 Domineering board)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from cgt.algebra import CanonicalForm
from cgt.algebra.budget import Budget, BudgetExceeded, parse_size
from cgt.algebra.expression import evaluate
from tests.test_cli import run


def test_large_integers_are_built_without_recursion() -> None:
    # {n-1 | } has n levels of subpositions: 20,000 used to raise RecursionError
    big = CanonicalForm.number(20000)
    assert big.birthday() == 20000
    assert big - CanonicalForm.number(19999) == 1
    assert str(evaluate("-20001 + 1/2")) == "-40001/2"


def test_form_bound_refuses_before_the_table_grows_past_it() -> None:
    budget = Budget(max_forms=CanonicalForm.number(0).id + 10)
    with pytest.raises(BudgetExceeded, match="--max-forms"), budget.active():
        evaluate("*300 + 10000")
    # outside the budget the same value is computed
    assert evaluate("*300 + *300") == 0


def test_sizes_read_as_people_write_them() -> None:
    assert parse_size("3G") == 3 << 30 and parse_size("512M") == 512 << 20
    assert parse_size("2.5GiB") == int(2.5 * (1 << 30)) and parse_size("1000") == 1000


def test_eval_stops_with_its_own_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "eval", "*100000", "--max-forms", "5000")
    assert code == 3 and out == ""
    assert "--max-forms 5,000" in err and err.strip().count("\n") == 0
    code, out, _ = run(capsys, "eval", "*100000", "--max-forms", "5000", "--json")
    assert code == 3 and json.loads(out)["stopped"] == "forms"


def test_value_reports_the_board_it_valued(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "value", "domineering", "...|...", "--json")
    data = json.loads(out)
    # 2 rows x 3 columns is {2|-1/2} (Winning Ways; CGSuite), and the parameters say 2 x 3, not 4 x 4
    assert code == 0 and data["canonical"] == "{2|-1/2}"
    assert (data["params"]["rows"], data["params"]["cols"]) == (2, 3)


def test_value_refuses_hopeless_boards_unless_given_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "value", "domineering", "-p", "rows=8", "-p", "cols=8")
    assert code == 2 and out == "" and "will not finish" in err
    code, out, err = run(
        capsys, "value", "domineering", "-p", "rows=7", "-p", "cols=7", "--max-seconds", "1"
    )
    assert code == 3 and "--max-seconds 1 reached" in err


def test_value_form_bound_on_a_real_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "value",
        "domineering",
        "-p",
        "rows=4",
        "-p",
        "cols=5",
        "--max-forms",
        "10",
        "--json",
    )
    assert code == 3 and json.loads(out)["stopped"] == "forms"


@pytest.mark.slow
def test_6x6_domineering_is_refused_within_its_memory_bound() -> None:
    """The board that grew to 20.5 GB: with --max-memory 1G it stops cleanly below 1 GiB
    plus the interpreter (measured: 2G bound, refused at 1.5 GiB after 825 s on a loaded
    machine)."""
    command = [
        sys.executable,
        "-m",
        "cgt",
        "value",
        "domineering",
        "-p",
        "rows=6",
        "-p",
        "cols=6",
        "--max-memory",
        "1G",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 3, done.stderr[-500:]
    assert json.loads(done.stdout)["stopped"] == "memory"
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    assert peak < (1 << 30) + (256 << 20)
