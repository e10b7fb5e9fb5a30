"""The explorer in a real browser (Debian's Chromium driven by selenium): open the page, read
the move colours and values from the DOM, click moves, undo, redo, go back to the start and
paste a position, checking everything against ``cgt solve`` / ``cgt query``.

Skips, saying why, only where selenium or the system browser is missing; CI installs them
(``apt-get install -y chromium chromium-driver``, selenium from the test extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cgt.registry import load_game
from tests.explorer_support import (
    browser_missing,
    chromium,
    cli_json,
    explorer_server,
    wait_ready,
)

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))

LETTER = {"win": "W", "draw": "D", "loss": "L"}
ENTROPY_4X3 = ["-p", "width=4", "-p", "height=3", "-p", "setup=SS../..../..OO O"]


def palette(driver: Any) -> dict[str, str]:
    """The page's value colours as the browser computes them (``rgb(...)``)."""
    colours: dict[str, str] = driver.execute_script(
        """
        const probe = document.createElement('div');
        document.body.appendChild(probe);
        const out = {};
        for (const k of ['win', 'draw', 'loss']) {
            probe.style.color = `var(--${k})`;
            out[k] = getComputedStyle(probe).color;
        }
        probe.remove();
        return out;
        """
    )
    assert len(set(colours.values())) == 3
    return colours


def board_moves(driver: Any) -> dict[str, dict[str, str]]:
    """Every move drawn on the board: its value attributes, its colour and its label."""
    moves: dict[str, dict[str, str]] = driver.execute_script(
        """
        const out = {};
        for (const el of document.querySelectorAll('#board .move')) {
            const arrow = el.classList.contains('arrow');
            const painted = el.querySelector(arrow ? '.arrow-badge' : '.cell-shape');
            const label = el.querySelector(arrow ? '.arrow-label' : '.move-label');
            const line = arrow ? document.querySelector(
                `#board .arrow-line-group[data-move="${el.dataset.move}"] .arrow-line`) : null;
            out[el.dataset.move] = {
                outcome: el.dataset.outcome,
                remoteness: el.dataset.remoteness,
                colour: getComputedStyle(painted).fill,
                line: line === null ? null : getComputedStyle(line).stroke,
                label: label.textContent,
                kind: arrow ? 'arrow' : 'cell',
            };
        }
        return out;
        """
    )
    return moves


def check_against(driver: Any, reference: dict[str, Any], kind: str) -> None:
    """The board shows every move of ``reference`` in the colour and with the value it has."""
    colours = palette(driver)
    shown = board_moves(driver)
    assert set(shown) == {m["move"] for m in reference["moves"]}
    for move in reference["moves"]:
        drawn = shown[move["move"]]
        remoteness = "" if move["remoteness"] is None else str(move["remoteness"])
        assert drawn["kind"] == kind
        assert drawn["outcome"] == move["outcome"], move
        assert drawn["colour"] == colours[move["outcome"]], move
        assert drawn["line"] == (None if kind == "cell" else colours[move["outcome"]]), move
        assert drawn["label"] == LETTER[move["outcome"]] + remoteness, move
    position = driver.find_element("id", "position-text").get_attribute("value")
    assert position == reference["position"]


def clickable(driver: Any, name: str) -> bool:
    """True when the move's value badge (arrows) or cell is on top where a person clicks it."""
    return bool(
        driver.execute_script(
            """
            const el = document.querySelector(`#board .move[data-move="${arguments[0]}"]`);
            const box = (el.querySelector('.arrow-badge') || el).getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return hit !== null && hit.closest('.move') === el;
            """,
            name,
        )
    )


def click_move(driver: Any, name: str) -> None:
    from selenium.webdriver.common.by import By

    element = driver.find_element(By.CSS_SELECTOR, f'#board .move[data-move="{name}"]')
    target = element.find_elements(By.CSS_SELECTOR, ".arrow-badge") or [element]
    target[0].click()


def history(driver: Any) -> list[tuple[str, str]]:
    from selenium.webdriver.common.by import By

    entries = driver.find_elements(By.CSS_SELECTOR, "#history .history-entry")
    return [
        (e.find_element(By.CSS_SELECTOR, ".history-move").text, e.get_attribute("data-winner"))
        for e in entries
    ]


def winner(reference: dict[str, Any], game: Any, position: str) -> str:
    if reference["outcome"] == "draw":
        return "draw"
    mover = game.to_move(game.parse(position))
    return str(game.players[mover if reference["outcome"] == "win" else 1 - mover])


def test_control_size_2_in_the_browser(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    game = load_game("control", size=2)
    solve = ["solve", "control", "-p", "size=2", "--json", "--position"]
    start = cli_json([*solve, "../.../.. W"])
    env = {"CGT_DB": str(tmp_path / "none.sqlite")}
    with explorer_server(["control", "-p", "size=2"], env) as url, chromium() as driver:
        driver.get(url)
        wait_ready(driver, start["position"])
        check_against(driver, start, "cell")
        status = driver.find_element(By.ID, "status").text
        assert status == f"White to move: White wins in {start['remoteness']} plies"

        child = game.render(game.play(game.initial_position(), 0))  # a1, the first cell
        click_move(driver, "a1")
        wait_ready(driver, child)
        after = cli_json([*solve, child])
        check_against(driver, after, "cell")
        assert history(driver) == [
            ("start", winner(start, game, start["position"])),
            ("a1", winner(after, game, child)),
        ]

        # the copy button puts the position string on the clipboard: paste it back
        driver.find_element(By.ID, "copy").click()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "copy").text == "copied")
        paste = driver.find_element(By.ID, "jump-text")
        paste.send_keys(Keys.CONTROL, "v")
        assert paste.get_attribute("value") == child
        paste.clear()
        driver.find_element(By.ID, "undo").click()
        wait_ready(driver, start["position"])
        check_against(driver, start, "cell")
        driver.find_element(By.ID, "redo").click()
        wait_ready(driver, child)
        driver.find_element(By.ID, "start").click()
        wait_ready(driver, start["position"])

        pasted = "W./.B./.. W"
        box = driver.find_element(By.ID, "jump-text")
        box.send_keys(pasted)
        box.submit()
        wait_ready(driver, pasted)
        check_against(driver, cli_json([*solve, pasted]), "cell")

        box.clear()
        box.send_keys("not a position")
        box.submit()
        message = driver.find_element(By.ID, "message")
        WebDriverWait(driver, 30, poll_frequency=0.05).until(lambda d: message.text)
        assert "expected" in message.text
        assert driver.find_element(By.ID, "position-text").get_attribute("value") == pasted


def test_stored_entropy_in_the_browser(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    db = str(tmp_path / "solutions.sqlite")
    cli_json(["solve", "entropy", *ENTROPY_4X3, "--save", "--db", db, "--json"])
    query = ["query", "entropy", *ENTROPY_4X3, "--db", db, "--json"]
    start = cli_json(query)
    with explorer_server(["entropy", *ENTROPY_4X3, "--db", db]) as url, chromium() as driver:
        driver.get(url)
        wait_ready(driver, start["position"])
        check_against(driver, start, "arrow")
        # clicking a piece shows its arrows alone; clicking it again shows them all
        piece = start["moves"][0]["move"].split("-")[0]
        stone = f'#board .cell[data-cell="{piece}"] .stone'
        driver.find_element(By.CSS_SELECTOR, stone).click()
        own = {m["move"] for m in start["moves"] if m["move"].startswith(piece + "-")}
        assert set(board_moves(driver)) == own and len(own) < len(start["moves"])
        driver.find_element(By.CSS_SELECTOR, stone).click()
        check_against(driver, start, "arrow")
        # a losing move of the mover, then the answer to it
        losing = next(
            m["move"]
            for m in start["moves"]
            if m["outcome"] == "loss" and clickable(driver, m["move"])
        )
        click_move(driver, losing)
        game = load_game("entropy", width=4, height=3, setup="SS../..../..OO O")
        start_position = game.parse(start["position"])
        child = game.render(game.play(start_position, game.parse_move(start_position, losing)))
        wait_ready(driver, child)
        after = cli_json([*query[:2], child, *query[2:]])
        check_against(driver, after, "arrow")
        assert after["outcome"] == "win"  # a loss for the mover is a win for the opponent
        assert history(driver)[-1] == (losing, "S")


def chart_points(driver: Any) -> list[tuple[int, str, int]]:
    points: list[list[Any]] = driver.execute_script(
        """
        return [...document.querySelectorAll('#value-chart .point')].map(
            (p) => [Number(p.dataset.ply), p.dataset.winner, Number(p.dataset.remoteness)]);
        """
    )
    return [(int(ply), str(who), int(r)) for ply, who, r in points]


def wait_plies(driver: Any, plies: int, seconds: float = 60) -> None:
    """Wait until the line holds ``plies`` moves and the page is drawn."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds, poll_frequency=0.05).until(
        lambda d: d.execute_script(
            "return document.querySelectorAll('#history .history-entry').length === arguments[0]"
            " && document.body.dataset.ready === 'true'",
            plies + 1,
        )
    )


def test_playing_the_computer_in_the_browser(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    game = load_game("control", size=2)
    solve = ["solve", "control", "-p", "size=2", "--json", "--position"]
    start = cli_json([*solve, "../.../.. W"])
    env = {"CGT_DB": str(tmp_path / "none.sqlite")}
    with explorer_server(["control", "-p", "size=2"], env) as url, chromium() as driver:
        driver.get(url)
        wait_ready(driver, start["position"])
        # the game's title and its rules, from the rules document's Control section
        assert driver.find_element(By.ID, "title").text == "Control"
        assert driver.title.startswith("Control")
        rules = (Path(__file__).parent.parent / "docs" / "rules.md").read_text()
        section = rules.split("\n## Control\n")[1]
        driver.find_element(By.CSS_SELECTOR, "#rules summary").click()
        shown = driver.find_element(By.ID, "rules-text").text
        assert "Registry name control" in shown and "**" not in shown
        assert "**Board and material.** A hexhex board" in section
        assert "Board and material. A hexhex board" in shown

        # the person plays White, the computer Black at full strength (perfect here)
        Select(driver.find_element(By.ID, "computer-side")).select_by_visible_text("Black")
        click_move(driver, "a1")
        wait_plies(driver, 2)
        after_a1 = game.render(game.play(game.initial_position(), 0))
        reference = cli_json([*solve, after_a1])
        (_, _), (first, _), (answer, _) = history(driver)
        assert first == "a1" and answer in reference["best_moves"]
        box = driver.find_element(By.ID, "computer")
        assert box.get_attribute("data-kind") == "proven"
        assert box.text.startswith(f"computer (Black) played {answer}: ")
        assert f"loses in {reference['remoteness']} plies" in box.text  # Black loses size 2
        # the chart: one point per ply, each the value cgt solve gives that position
        positions = [start["position"], after_a1, driver.find_element(By.ID, "position-text")]
        texts = [*positions[:2], positions[2].get_attribute("value")]
        expected = []
        for ply, text in enumerate(texts):
            value = cli_json([*solve, text])
            expected.append((ply, winner(value, game, text), value["remoteness"]))
        assert chart_points(driver) == expected

        # undo goes back to the person's last turn: the start
        driver.find_element(By.ID, "undo").click()
        wait_ready(driver, start["position"])
        # the computer takes White and a new game: it opens
        Select(driver.find_element(By.ID, "computer-side")).select_by_visible_text("White")
        driver.find_element(By.ID, "new-game").click()
        wait_plies(driver, 1)
        assert history(driver)[1][0] in start["best_moves"]

        # blind: every move looks alike and no value is written
        driver.find_element(By.ID, "blind").click()
        hidden = driver.execute_script(
            """
            const moves = [...document.querySelectorAll('#board .move')];
            return {
              labels: moves.map((m) => getComputedStyle(m.querySelector('.move-label')).visibility),
              fills: [...new Set(moves.map((m) => getComputedStyle(m.querySelector('.cell-shape')).fill))],
              chart: getComputedStyle(document.getElementById('value-chart')).visibility,
              status: document.getElementById('status').textContent,
              told: [...document.querySelectorAll('#board title, #moves td')]
                .map((e) => e.textContent).filter((t) => /win|loss|draw|\u2605/.test(t)),
            };
            """
        )
        assert set(hidden["labels"]) == {"hidden"} and len(hidden["fills"]) == 1
        assert hidden["chart"] == "hidden" and hidden["status"] == "Black to move"
        assert hidden["told"] == []  # no tooltip, star or table cell names a value
        driver.find_element(By.ID, "blind").click()
        assert "wins" in driver.find_element(By.ID, "status").text


def test_lag_size_3_opens_solved_in_the_browser(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    # the size-3 value of README.md and benchmarks/LAG_TIERS.md (tier retrograde): White wins
    # in 26 plies, by d1-c2 or d4-c4; here read from the report's stored result, no solve
    env = {"CGT_DB": str(tmp_path / "none.sqlite")}
    with explorer_server(["lag", "-p", "size=3", "--budget", "1"], env) as url, chromium() as d:
        d.get(url)
        wait_ready(d, "BBB/BBBB/...../WWWW/WWW W")
        assert d.find_element(By.ID, "title").text == "LAG"
        assert d.find_element(By.ID, "status").text == "White to move: White wins in 26 plies"
        wins = {name for name, move in board_moves(d).items() if move["outcome"] == "win"}
        assert wins == {"d1-c2", "d4-c4"}
        assert len(board_moves(d)) == 8 and not d.find_element(By.ID, "message").is_displayed()
