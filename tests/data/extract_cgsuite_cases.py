"""Extract CGSuite's own expected outputs for short games from its Scala test sources.

Usage: python tests/data/extract_cgsuite_cases.py CGSUITE_CHECKOUT > tests/data/cgsuite_cases.json

Reads lib/core/src/test/scala/org/cgsuite/lang/{GameTest,CanonicalShortGameTestCase,
EvalTest,CgsuiteLangTest}.scala at the checkout's HEAD (``git show``) and writes every (expression,
expected output) pair as JSON, with the commit. Which pairs the toolkit can evaluate is
decided in tests/test_cgsuite_cases.py, by the features an expression uses, never by
whether it passes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

FILES = ["GameTest", "CanonicalShortGameTestCase", "EvalTest", "CgsuiteLangTest"]
"""The files whose tuples are (name, expression, expected) or (expression, expected); the
game-grid and heap tests tabulate other things (rules and Grundy sequences)."""
STRING = r'"((?:[^"\\]|\\.)*)"'
TRIPLE = re.compile(rf"^\s*\(\s*{STRING}\s*,\s*{STRING}\s*,\s*{STRING}\s*\)")
PAIR = re.compile(rf"^\s*\(\s*{STRING}\s*,\s*{STRING}\s*\)")
CASE_FIELDS = [
    "atomicWeight",
    "birthday",
    "leftOptions",
    "rightOptions",
    "leftStop",
    "rightStop",
    "mean",
    "temperature",
    "outcomeClass",
    "reducedCanonicalForm",
    "isInfinitesimal",
    "isAllSmall",
    "isNumber",
    "isNimber",
    "isUptimal",
    "isNumberTiny",
    "isAtomic",
    "leftIncentives",
    "rightIncentives",
    "incentives",
]
METHOD = {name: name[0].upper() + name[1:] for name in CASE_FIELDS}


def unescape(text: str) -> str:
    return json.loads(f'"{text}"')


def main(checkout: str) -> None:
    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True)
    cases = []
    for name in FILES:
        path = f"lib/core/src/test/scala/org/cgsuite/lang/{name}.scala"
        source = subprocess.check_output(["git", "-C", checkout, "show", f"HEAD:{path}"], text=True)
        if name == "CanonicalShortGameTestCase":
            for block in source.split("CanonicalShortGameTestCase(")[1:]:
                head = re.match(rf"\s*{STRING}\s*,\s*{STRING}", block)
                if head is None:
                    continue
                x, x_out = unescape(head.group(1)), unescape(head.group(2))
                cases.append({"file": name, "expression": x, "expected": x_out})
                for field in CASE_FIELDS:
                    # a long value is written as "..." + "..." over several lines
                    found = re.search(rf"\b{field}\s*=\s*((?:{STRING}\s*\+\s*)*{STRING})", block)
                    if found:
                        pieces = re.findall(STRING, found.group(1))
                        cases.append(
                            {
                                "file": name,
                                "expression": f"({x}).{METHOD[field]}",
                                "expected": "".join(unescape(piece) for piece in pieces),
                            }
                        )
            continue
        for line in source.splitlines():
            triple = TRIPLE.match(line)
            if triple:
                expression, expected = triple.group(2), triple.group(3)
            else:
                pair = PAIR.match(line)
                if not pair:
                    continue
                expression, expected = pair.group(1), pair.group(2)
            cases.append(
                {"file": name, "expression": unescape(expression), "expected": unescape(expected)}
            )
    json.dump({"commit": commit.strip(), "cases": cases}, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
