"""Write benchmarks/TUNING.md from benchmarks/tuning_history.json: the measurements taken
while tuning the kernels, which their docstrings once quoted.

    python benchmarks/tuning_history.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def page(record: dict[str, object]) -> str:
    entries = record["entries"]
    assert isinstance(entries, list)
    lines = [
        "# Tuning history of the compiled kernels",
        "",
        f"{record['about']}",
        "",
        "Written by `python benchmarks/tuning_history.py` from `benchmarks/tuning_history.json`.",
        "",
        "| component | choice | measured | commit | date |",
        "|---|---|---|---|---|",
    ]
    for e in entries:
        lines.append(
            f"| `{e['component']}` | {e['choice']} | {e['measurement']} | `{e['commit']}` "
            f"| {e['date']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    record = json.loads((HERE / "tuning_history.json").read_text())
    (HERE / "TUNING.md").write_text(page(record))


if __name__ == "__main__":
    main()
