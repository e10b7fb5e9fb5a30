"""One number per quantity: read every generated page and data file and list the quantities
that two of them state differently.

Each *reader* below finds one kind of quantity in the files (a board's status in the attempt
tables and the attempt records, a small board's counts in its page section and its data file,
the 3x3 Super Nonnect winners in the headlines, the certificate and the page, the numbers of
a Japanese page against its English page) and returns ``{quantity: {file: values}}``; a
quantity stated with more than one value across the files is a disagreement.
``python -m pytest tests/test_report_consistency.py`` runs it on the committed reports.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

from cgtapp.report import data

#: quantity -> file (relative to the project) -> the values that file states.
Statements = dict[str, dict[str, set[str]]]
Reader = Callable[[Path], Statements]


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _pages(root: Path) -> Iterator[Path]:
    reports = root / "reports"
    yield from sorted(reports.glob("*.md"))
    yield from sorted((reports / "ja").glob("*.md"))


def _tables_by_heading(text: str) -> Iterator[tuple[str, str]]:
    """(the heading above, row) for every Markdown table row of ``text``."""
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif line.startswith("|") and not line.startswith("|---"):
            yield heading, line


def attempt_status(root: Path) -> Statements:
    """Whether each attempt record's board is still open: the record itself (not solved and
    not superseded by a later record), and every table row that lists it under a heading
    of open boards or of solved ones (the reports, the index, benchmarks/RESULTS.md)."""
    out: Statements = defaultdict(lambda: defaultdict(set))
    records = data.attempts(root / "reports")

    def quantity(record: dict[str, object]) -> str:
        return f"board {record['board']} ({record['file']}) still open"

    for record in records:
        out[quantity(record)][f"reports/{record['file']}"].add(str(data.is_open(record)))
    sources = [*_pages(root), root / "benchmarks" / "RESULTS.md"]
    for path in sources:
        if not path.exists():
            continue
        for heading, row in _tables_by_heading(path.read_text()):
            link = re.search(r"\[record\]\((data/[^)]+\.json)\)", row)
            command = re.search(r"Reproduce: `([^`]+)`", row)
            matching = [
                r
                for r in records
                if str(r["board"]) in row
                and (
                    (link and r["file"] == link.group(1))
                    or (command and r.get("command") == command.group(1))
                )
            ]
            words = heading.lower()
            for record in matching:
                if "out of reach" in words or "open boards" in words:
                    out[quantity(record)][_rel(root, path)].add("True")
                elif "solved" in words:
                    out[quantity(record)][_rel(root, path)].add("False")
    return out


#: Rows of a small board's table, by the data field they state.
SMALL_BOARD_ROWS: dict[str, Callable[[dict[str, object]], str]] = {
    "positions reachable from the start": lambda r: f"{r['reachable_positions']:,}",
    "reachable positions up to symmetry, won / lost / drawn": lambda r: " / ".join(
        f"{r['by_outcome'][k]:,}"  # type: ignore[index]
        for k in ("win", "loss", "draw")
    ),
    "won positions with a move left": lambda r: (
        f"{r['metrics']['won_positions_with_single_winning_move']:,} of "  # type: ignore[index]
        f"{r['metrics']['won_positions']:,}"  # type: ignore[index]
    ),
}


def small_boards(root: Path) -> Statements:
    """A small board's counts: its data file, and the table of the page section that cites
    that data file."""
    out: Statements = defaultdict(lambda: defaultdict(set))
    folder = root / "reports" / "data"
    for path in sorted(folder.glob("*.json")):
        results = json.loads(path.read_text()).get("results", {})
        if "reachable_positions" not in results:
            continue
        for label, value in SMALL_BOARD_ROWS.items():
            out[f"{path.stem}: {label}"][_rel(root, path)].add(value(results))
    for page in sorted((root / "reports").glob("*.md")):
        sections = re.split(r"\n(?=#{2,3} )", page.read_text())
        for section in sections:
            cited = re.findall(r"Data: \[`data/([^`]+)\.json`\]", section)
            for name in cited:
                for label in SMALL_BOARD_ROWS:
                    for row in re.findall(
                        rf"^\| {re.escape(label)}[^|]* \| ([^|]+) \|$", section, re.M
                    ):
                        out[f"{name}: {label}"][_rel(root, page)].add(row.strip())
    return out


def super_nonnect_3x3(root: Path) -> Statements:
    """Who wins the 3x3 board under each rule: the certificates, the side-by-side table of
    the page, the index and the project's README."""
    out: Statements = defaultdict(lambda: defaultdict(set))
    claims = root / "reports" / "claims"
    original = claims / "super-nonnect.original-first-player-wins.json"
    if original.exists():
        entry = json.loads(original.read_text())["evidence"]["per_board"].get("3x3", {})
        out["3x3 original winner"][_rel(root, original)].add(str(entry.get("solved_winner")))
    revised = claims / "super-nonnect.revised-outcome.json"
    if revised.exists():
        record = json.loads(revised.read_text())["evidence"].get("solved_by_stored_proof", {})
        if "3x3" in record:
            out["3x3 revised winner"][_rel(root, revised)].add("first")
    page = root / "reports" / "super-nonnect.md"
    for path in (root / "README.md", root / "reports" / "README.md", page):
        if not path.exists():
            continue
        text = path.read_text()
        for rule, who in re.findall(
            r"3x3 (original|revised): \*\*(first|second) player wins", text
        ):
            out[f"3x3 {rule} winner"][_rel(root, path)].add(who)
        for rule, who in re.findall(
            r"^\| (original|revised) \| (first|second) player \|", text, re.M
        ):
            out[f"3x3 {rule} winner"][_rel(root, path)].add(who)
        if re.search(r"\| 3x3 \|[^\n]*not attempted", text):
            out["3x3 original winner"][_rel(root, path)].add("not attempted")
    return out


#: A number as the pages write it: 1,234 / 12.5% / 0.79 (not inside a word or a cell name).
NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?(?![A-Za-z0-9_])")


def _numbers(text: str) -> set[str]:
    text = re.sub(r"`[^`]*`", " ", text)  # position strings, cell and move names, commands
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets
    return set(NUMBER.findall(text))


def japanese_numbers(root: Path) -> Statements:
    """Every number of a Japanese page appears on its English page (one source): a number
    the English page does not state is a disagreement."""
    out: Statements = defaultdict(lambda: defaultdict(set))
    for ja in sorted((root / "reports" / "ja").glob("*.md")):
        en = root / "reports" / ja.name
        if not en.exists():
            continue
        english = _numbers(en.read_text())
        for number in sorted(_numbers(ja.read_text()) - english):
            # a number of the Japanese page that the English page lacks
            out[f"{ja.name}: the number {number}"][_rel(root, ja)].add(number)
            out[f"{ja.name}: the number {number}"][_rel(root, en)].add("absent")
    return out


def entropy_5x5(root: Path) -> Statements:
    """The 5x5 Entropy counts: the certificate, the stored summary and the page."""
    out: Statements = defaultdict(lambda: defaultdict(set))
    cert = root / "reports" / "claims" / "entropy.solved.json"
    if cert.exists():
        e = json.loads(cert.read_text())["evidence"]
        out["Entropy 5x5 positions"][_rel(root, cert)].add(f"{e['positions_up_to_symmetry']:,}")
        out["Entropy 5x5 drawn positions"][_rel(root, cert)].add(f"{e['draws']:,}")
    stored = data.load(root / "reports", "entropy-5x5")
    if stored:
        path = f"reports/data/{stored.name}.json"
        out["Entropy 5x5 positions"][path].add(f"{stored.results['positions']:,}")
        out["Entropy 5x5 drawn positions"][path].add(f"{stored.results['by_outcome']['draw']:,}")
    page = root / "reports" / "entropy.md"
    if page.exists():
        text = page.read_text()
        for n in re.findall(r"All ([\d,]+) positions of seven", text):
            out["Entropy 5x5 positions"][_rel(root, page)].add(n)
        for n in re.findall(r"([\d,]+) drawn\.", text):
            out["Entropy 5x5 drawn positions"][_rel(root, page)].add(n)
    return out


READERS: tuple[Reader, ...] = (
    attempt_status,
    small_boards,
    super_nonnect_3x3,
    japanese_numbers,
    entropy_5x5,
)


def statements(root: Path, readers: tuple[Reader, ...] = READERS) -> Statements:
    """Every quantity the readers find, with the values each file states."""
    found: Statements = defaultdict(lambda: defaultdict(set))
    for reader in readers:
        for quantity, by_file in reader(root).items():
            for file, values in by_file.items():
                found[quantity][file] |= values
    return found


def disagreements(root: Path, readers: tuple[Reader, ...] = READERS) -> list[str]:
    """One line per quantity stated with different values: the quantity, each file and what
    it states."""
    lines = []
    for quantity, by_file in sorted(statements(root, readers).items()):
        values = set().union(*by_file.values())
        if len(values) > 1:
            stated = "; ".join(f"{f}: {', '.join(sorted(v))}" for f, v in sorted(by_file.items()))
            lines.append(f"{quantity}: {stated}")
    return lines
