"""Screenshots of the explorer for the README, taken by the browser of the browser test.

    python docs/screenshots.py                  # every picture
    python docs/screenshots.py control          # docs/explorer-control.png only
    python docs/screenshots.py entropy          # docs/explorer-entropy.png only
    python docs/screenshots.py lag              # docs/explorer-lag.png only

Control size 3 is solved on demand (an empty database, so every value on the picture comes
from a solve of this run; some seconds per position). Entropy 5x5 reads the stored solution
of ``cgt solve entropy --solver compiled --save`` from the default database (``$CGT_DB`` or
``~/.cache/cgt/solutions.sqlite``); without it the picture would show "not solved", so the
script refuses. LAG size 3 opens solved from the report's stored result (``reports/data``)
and is played against the computer. Needs Debian's ``chromium`` and ``chromium-driver`` and selenium.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

from tests.explorer_support import chromium, explorer_server, wait_ready  # noqa: E402

#: Seconds the server may spend on one position of Control size 3.
CONTROL_BUDGET = 600
WINDOW = (1280, 900)


def play(driver: Any, move: str) -> None:
    """Click a move as a person does (its row in the move table)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    before = driver.find_element(By.ID, "position-text").get_attribute("value")
    driver.find_element(By.CSS_SELECTOR, f'#moves tr[data-move="{move}"]').click()
    wait_ready(driver, None, CONTROL_BUDGET)
    after = driver.find_element(By.ID, "position-text").get_attribute("value")
    if after == before:
        raise RuntimeError(f"playing {move} did not change the position")
    rest = driver.find_element(By.ID, "title")  # the pointer off the board and the table
    ActionChains(driver).move_to_element(rest).perform()


def best_move(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    row = driver.find_element(By.CSS_SELECTOR, "#moves tbody tr")
    return str(row.get_attribute("data-move"))


def control_picture(out: Path) -> None:
    """Control size 3 after three plies: White's opening, Black's best answer, White's best."""
    with tempfile.TemporaryDirectory() as empty:
        database = str(Path(empty) / "none.sqlite")
        args = ["control", "-p", "size=3", "--budget", str(CONTROL_BUDGET), "--db", database]
        with explorer_server(args) as url, chromium(*WINDOW) as driver:
            driver.get(url)
            wait_ready(driver, None, CONTROL_BUDGET)
            for move in ("b1", None, None):
                play(driver, move or best_move(driver))
            driver.save_screenshot(str(out))


def lag_picture(out: Path) -> None:
    """LAG size 3 against the computer (Black, perfect from the stored values): White's best
    opening and the computer's answer, both on the report's perfect line."""
    from selenium.webdriver.support.ui import Select

    with tempfile.TemporaryDirectory() as empty:
        database = str(Path(empty) / "none.sqlite")
        with (
            explorer_server(["lag", "-p", "size=3", "--db", database]) as url,
            chromium(*WINDOW) as driver,
        ):
            driver.get(url)
            wait_ready(driver, None, 120)
            Select(driver.find_element("id", "computer-side")).select_by_visible_text("Black")
            play(driver, "d1-c2")  # one of White's two winning openings, the report's
            wait_ready(driver, "BBB/BBB./.W..B/.WWW/WWW W", 120)  # Black's slowest loss
            driver.save_screenshot(str(out))


#: A line of drawn play after which S, to move, has three losing moves beside eleven drawn
#: ones: most 5x5 positions offer only draws, so the picture shows one that does not (found
#: by random walks through the stored solution).
ENTROPY_LINE = [
    "e1-b4",
    "d5-b3",
    "d1-d3",
    "c5-e3",
    "d3-c3",
    "e4-d3",
    "b1-c2",
    "b5-d5",
    "c1-d1",
    "d3-b5",
    "b4-d4",
    "b3-b2",
    "d1-d2",
    "d5-c4",
    "c3-a3",
    "c4-c3",
    "e2-c4",
]


def entropy_picture(out: Path) -> None:
    """Entropy 5x5 from the stored solution, after :data:`ENTROPY_LINE` (clicked move by
    move, so the strip shows the whole game so far)."""
    from solvers.database import default_path

    if not default_path().is_file():
        raise SystemExit(
            f"no solution database at {default_path()}: run "
            "'cgt solve entropy --solver compiled --save' first"
        )
    with explorer_server(["entropy"]) as url, chromium(*WINDOW) as driver:
        driver.get(url)
        wait_ready(driver, None, 120)
        source = driver.execute_script("return document.body.dataset.source")
        if source != "stored":
            raise SystemExit("the default database holds no stored 5x5 Entropy solution")
        for move in ENTROPY_LINE:
            play(driver, move)
        driver.save_screenshot(str(out))


def main(which: list[str]) -> None:
    pictures = {"control": control_picture, "entropy": entropy_picture, "lag": lag_picture}
    for name in which or list(pictures):
        out = DOCS / f"explorer-{name}.png"
        pictures[name](out)
        print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
