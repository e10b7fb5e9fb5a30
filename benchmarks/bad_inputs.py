"""Bad and edge inputs across every command and option, as a stranger would type them, each
with what counts as clean handling: the README's promise of one ``cgt: error:`` line and exit
status 2 (or a correct answer, or ``cgt: stopped:`` and exit 3), no traceback, within a time
bound. Every case runs in a fresh process of the checkout given by ``--root`` (default: this
one), so the same cases measure an older commit from its own worktree::

    python benchmarks/bad_inputs.py                         # this checkout
    python benchmarks/bad_inputs.py --root ../wt-old --out /tmp/old.json

Prints one line per case that is not handled cleanly and the count; ``--out`` keeps every
case's verdict as JSON (written as it goes; a second run with the same ``--out`` resumes).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: Outcomes a case may accept: exit statuses and what stderr must then show.
ERROR, OK, STOPPED = 2, 0, 3


@dataclass(frozen=True)
class Case:
    """One command line and what handling it cleanly means."""

    args: tuple[str, ...]
    accept: tuple[int, ...] = (ERROR,)
    stdout_has: str | None = None  # a correct answer must contain this
    seconds: float = 30.0
    env: tuple[tuple[str, str], ...] = ()
    stderr_has: str | None = None  # the error must name this


def case(*args: str, accept: tuple[int, ...] = (ERROR,), **kw: object) -> Case:
    return Case(tuple(args), accept, **kw)  # type: ignore[arg-type]


DOM = "...|..."
TTT = ("tictactoe",)

# fmt: off
CASES: list[Case] = [
    # --- the command line itself, --load, games
    case("games", "unexpected"),
    case("games", "--jsn"),
    case("--load", "{tmp}/missing_plugin.py", "games", stderr_has="missing_plugin"),
    case("--load", "", "games"),
    case("--load", "{tmp}/notes.txt", "games"),
    case("--load", "no_such_module_xyz", "games", stderr_has="no_such_module_xyz"),
    case("nosuchcommand"),
    case("--version", accept=(OK,), stdout_has="cgt"),
    case("games", "--json", accept=(OK,), stdout_has='"tictactoe"'),
    # --- show: games, parameters, positions
    case("show"),
    case("show", "chess", stderr_has="chess"),
    case("show", "tictactoe", "-p", "size=0"),
    case("show", "tictactoe", "-p", "size="),
    case("show", "tictactoe", "-p", "=3"),
    case("show", "tictactoe", "-p", "nosuch=1", stderr_has="nosuch"),
    case("show", "tictactoe", "-p", "size"),
    case("show", "tictactoe", "XXXX/.../..."),
    case("show", "tictactoe", "XXX/XXX/XXX"),
    case("show", "tictactoe", ""),
    case("show", "tictactoe", "\uff38../.../..."),
    case("show", "tictactoe", "XO./.../... O"),
    case("show", "control", "-p", "size=0"),
    case("show", "control", "-p", "size=100000", seconds=15),
    case("show", "lag", "-p", "goal=sideways"),
    case("show", "lag", "garbage/position"),
    case("show", "nim", "-p", "heaps=3,x,5"),
    case("show", "nim", "-p", "heaps=99999999999999999999999", accept=(OK, ERROR), seconds=15),
    case("show", "domineering", "-p", "rows=0"),
    case("show", "domineering", "..|...|."),
    case("show", "snort", "-p", "graph=nosuch"),
    case("show", "octal", "-p", "code=0.xyz"),
    case("show", "octal", "-p", "code=0.G"),
    case("show", "subtraction", "-p", "set=0"),
    case("show", "entropy", "-p", "width=1", "-p", "height=1"),
    case("show", "entropy", "-p", "setup=garbage"),
    case("show", "super-nonnect", "-p", "a=0"),
    case("show", "interleave", "-p", "win=nobody"),
    case("show", "tictactoe", "-p", "size=3", "-p", "size =4"),
    # --- solve
    case("solve", *TTT, "--solver", "magic"),
    case("solve", *TTT, "--max-seconds", "0"),
    case("solve", *TTT, "--max-seconds", "-1"),
    case("solve", *TTT, "--max-seconds", "nan"),
    case("solve", *TTT, "--max-seconds", "inf", accept=(OK, ERROR)),
    case("solve", *TTT, "--tt-entries", "1"),
    case("solve", *TTT, "--tt-entries", "999999999999999999", "--solver", "alphabeta"),
    case("solve", *TTT, "--jobs", "2", "--backend", "nosuch", "--db", "{tmp}/j.sqlite"),
    case("solve", *TTT, "--solver", "tiers"),
    case("solve", *TTT, "X../.../...", "--position", ".../.../..."),
    case("solve", *TTT, "--json", accept=(OK,), stdout_has='"winner": "draw"'),
    case("solve", "nim", "-p", "heaps=1,2,3", "--json", accept=(OK,), stdout_has='"second"'),
    case("solve", *TTT, "XXX/OO./...", accept=(OK,)),
    case("solve", *TTT, "--save", "--db", "{tmp}"),
    case("solve", *TTT, "--save", "--db", "{tmp}/notes.txt/x.sqlite"),
    case("solve", "lag", "--solver", "tiers", "--tiers-dir", "{tmp}/notes.txt"),
    case("solve", "control", "-p", "size=2", "--method", "dfpn", "--solver", "retrograde",
         accept=(OK, ERROR)),
    case("solve", "domineering", "-p", "rows=2", "-p", "cols=3", "--solver", "compiled",
         accept=(OK, ERROR)),
    case("solve", "control", "-p", "size=3", "--max-seconds", "0.5", accept=(OK, STOPPED),
         seconds=90),
    case("solve", "nim", "-p", "heaps=40,40,40", "--max-seconds", "1", accept=(OK, STOPPED),
         seconds=20),
    case("solve", "interleave", "-p", "size=2", "--no-symmetry", "--json", accept=(OK,),
         seconds=90),
    case("solve", *TTT, "--value-only", "--solver", "retrograde", accept=(OK,)),
    # --- query and db
    case("query", *TTT, "--db", "{tmp}/notes.txt"),
    case("query", "nosuchgame"),
    case("query", *TTT, "not a position", "--db", "{tmp}/q.sqlite"),
    case("query", *TTT, env=(("CGT_DB", "{tmp}/notes.txt"),)),
    case("db", accept=(OK, ERROR)),  # its commands, or one error line
    case("db", "list", "--db", "{tmp}/notes.txt"),
    case("db", "remove", *TTT, "-p", "size=banana", "--db", "{tmp}/r.sqlite"),
    # --- check
    case("check", "nosuch.claim", stderr_has="nosuch.claim"),
    case("check", ""),
    case("check", "--list", "--json", accept=(OK,), stdout_has='"claim"'),
    case("check", "--out", "{tmp}/notes.txt", "control.sight-cycle"),
    # --- value
    case("value", "lag"),
    case("value", *TTT),
    case("value", "domineering", "..|..."),
    case("value", "domineering", DOM, "--max-forms", "0"),
    case("value", "domineering", DOM, "--max-memory", "12Q"),
    case("value", "domineering", "..|..", accept=(OK,), stdout_has="1"),
    case("value", "nim", "1,2,3", "--json", accept=(OK,), stdout_has="0"),
    case("value", "kayles", "4", accept=(OK,), stdout_has="*"),
    case("value", "nosuchgame", "1"),
    # --- eval
    case("eval", ""),
    case("eval", "{|"),
    case("eval", "1/0"),
    case("eval", "nosuchfn(1)"),
    case("eval", "{1|-1}", "--plot", "{tmp}/notes.txt/plot.png"),
    case("eval", "1/3", accept=(OK, ERROR)),  # a rational number, no game
    case("eval", "{0|0} == *", accept=(OK,), stdout_has="true"),
    case("eval", "^^^^^^", "--json", accept=(OK,)),
    case("eval", "\u00bd"),
    case("eval", "1" * 5000, accept=(OK, ERROR), seconds=10),
    case("eval", "*" + "9" * 30, accept=(OK, ERROR, STOPPED), seconds=10),
    case("eval", "{" * 300 + "|" + "}" * 300, accept=(OK, ERROR)),
    # --- frontier
    case("frontier", *TTT, "--depth", "-1"),
    case("frontier", *TTT, "--split", "--db", "{tmp}/f.sqlite"),
    case("frontier", *TTT, "--depth", "2", "--db", "{tmp}/f2.sqlite", "--json", accept=(OK,),
         seconds=60),
    case("frontier", *TTT, "--db", "{tmp}/notes.txt", "--status"),
    # --- report and explore (only their options: the explorer's server is tested apart)
    case("report", "nosuch"),
    case("report", *TTT, "--out", "{tmp}/notes.txt"),
    case("report", *TTT, "--samples", "-1"),
    case("explore", *TTT, "--port", "70000"),
]
# fmt: on


def is_clean(item: Case, code: int | None, out: str, err: str, seconds: float) -> str | None:
    """Why the run is not clean, or None."""
    if code is None:
        return f"still running after {item.seconds:.0f} s"
    if "Traceback" in out + err:
        return "traceback"
    if code not in item.accept:
        return f"exit {code} (wanted {'/'.join(map(str, item.accept))})"
    lines = [line for line in err.replace("\r", "\n").splitlines() if line.strip()]
    if any(len(line) > 600 for line in lines):
        return "a stderr line of more than 600 characters"
    if code == ERROR:
        errors = [line for line in lines if line.startswith("cgt: error:")]
        others = [line for line in lines if not line.startswith(("cgt: error:", "cgt: warning"))]
        if len(errors) != 1 or others:
            return f"not one 'cgt: error:' line: {lines[:3]}"
        if item.stderr_has and item.stderr_has not in errors[0]:
            return f"the error does not name {item.stderr_has!r}"
    if code == STOPPED and not any(line.startswith("cgt: ") for line in lines):
        return "exit 3 without a 'cgt: ...' line saying why"
    if code == OK and item.stdout_has is not None and item.stdout_has not in out:
        return f"the answer lacks {item.stdout_has!r}"
    return None


def run_case(item: Case, root: Path, tmp: Path) -> dict[str, object]:
    def fill(text: str) -> str:
        return text.replace("{tmp}", str(tmp))

    args = [fill(a) for a in item.args]
    env = {**os.environ, "CGT_DB": str(tmp / "default.sqlite"), "PYTHONPATH": str(root)}
    env.update({k: fill(v) for k, v in item.env})
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cgtapp", *args],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=item.seconds,
        )
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as stopped:
        code, out, err = None, str(stopped.stdout or ""), str(stopped.stderr or "")
    seconds = time.perf_counter() - started
    why = is_clean(item, code, out, err, seconds)
    return {
        "args": args,
        "exit": code,
        "seconds": round(seconds, 2),
        "clean": why is None,
        "why": why,
        "stderr": err[-300:],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE, help="checkout to run")
    parser.add_argument("--out", type=Path, default=None, help="JSON of every verdict")
    parser.add_argument("--only", type=int, nargs="*", help="case numbers to run")
    options = parser.parse_args()
    done: dict[str, dict[str, object]] = {}
    if options.out is not None and options.out.exists():
        done = json.loads(options.out.read_text())["cases"]
    root = options.root.resolve()
    provenance = {
        "root": str(root),
        "commit": subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                 capture_output=True, text=True).stdout.strip(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_average": os.getloadavg()[0],
        "command": "python benchmarks/bad_inputs.py " + " ".join(sys.argv[1:]),
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        (tmp / "notes.txt").write_text("these are notes, not a database or a plug-in\n" * 50)
        for number, item in enumerate(CASES):
            if options.only and number not in options.only:
                continue
            if str(number) not in done:
                done[str(number)] = run_case(item, root, tmp)
                if options.out is not None:
                    summary = {**provenance, "cases": done}
                    options.out.write_text(json.dumps(summary, indent=1) + "\n")
            verdict = done[str(number)]
            if not verdict["clean"]:
                print(f"{number:3d} {verdict['why']}: cgt {' '.join(item.args)[:100]!r}")
                print(f"      {str(verdict['stderr']).strip()[-200:]!r}")
    clean = sum(1 for v in done.values() if v["clean"])
    print(f"{clean} of {len(done)} handled cleanly ({len(CASES)} cases)")


if __name__ == "__main__":
    main()
