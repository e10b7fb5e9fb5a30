"""Check a strategy file (docs/strategy-format.md) from the readable rules alone.

Everything the check knows about the game comes from its rules module (``cgt/games/*.py``,
loaded by name from the file's header): ``parse`` and ``render`` of positions, ``moves``,
``move_name``/``parse_move``, ``play``, ``to_move``, ``key`` and ``result``. No solver and no compiled
kernel is used, so a referee who trusts the rules module, these lines and the file reader
(:func:`solvers.strategy.read_strategy`) trusts the result.

From the root, the check walks every line the strategy allows: at the winner's turn the one
move the file gives (which must be legal), at the loser's turn every legal move. It succeeds
when every line ends in a finished game the winner has won, every winner-to-move position met
has an entry, and no line comes back to a position already on it (a repeating line never ends).
Files whose game's positions can repeat also carry a rank per entry, checked to decrease
strictly from each winner's turn to the next. The walk is depth-first with the current line
on a stack, so a failure is reported with the moves that reach it.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgt.errors import CGTError
from cgt.protocol import Outcome
from solvers.strategy import StrategyFileError, read_strategy


@dataclass
class StrategyCheck:
    """The verdict on one file: ``failure`` is None when the strategy is verified."""

    path: str
    game: str
    root: str
    winner: str
    winner_name: str  # the winner as the game names its players (White, Black, First, ...)
    entries: int
    positions: int  # distinct positions visited
    lines: int  # complete lines of play from the root (the loser's choices)
    seconds: float
    failure: str | None = None
    line: tuple[str, ...] = ()

    @property
    def verified(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        """The one-line verdict."""
        if self.verified:
            return (
                f"verified: {self.path} ({self.game}, the {self.winner} player, "
                f"{self.winner_name}, wins from {self.root!r}): {self.positions:,} positions, {self.lines:,} lines, "
                f"{self.entries:,} entries, {self.seconds:.1f} s"
            )
        reached = " ".join(self.line) if self.line else "(the root)"
        return f"refuted: {self.path}: {self.failure}; line: {reached}"

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "line": list(self.line), "verified": self.verified}


#: The strategy files of the solved boards (written by ``python benchmarks/strategies.py``).
STRATEGY_DIR = Path(__file__).resolve().parent.parent / "reports" / "data" / "strategies"


def cite_strategy(name: str, directory: Path = STRATEGY_DIR) -> dict[str, Any]:
    """A claim certificate's citation of the stored strategy file ``name``, checked now by
    :func:`check_strategy`: the file, its SHA-256, the one-line verdict, whether it holds,
    and the command that repeats the check (``verified`` False for a file absent or refused)."""
    path = directory / f"{name}.jsonl.gz"
    shown = f"reports/data/strategies/{path.name}" if directory == STRATEGY_DIR else str(path)
    citation: dict[str, Any] = {"file": shown, "check_command": f"cgt check --strategy {shown}"}
    try:
        verdict = check_strategy(path)
    except CGTError as exc:
        return {**citation, "verified": False, "verdict": f"not checked: {exc}"}
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return {
        **citation,
        "sha256": digest,
        "verified": verdict.verified,
        "verdict": verdict.summary().replace(str(path), shown),
        "winner": verdict.winner,
        "winner_name": verdict.winner_name,
        "root": verdict.root,
        "entries": verdict.entries,
        "positions": verdict.positions,
        "seconds": round(verdict.seconds, 2),
    }


class _Refuted(Exception):
    pass


def check_strategy(path: Path | str) -> StrategyCheck:
    """Check the file at ``path``; :class:`StrategyFileError` when it cannot be read at all
    (damaged, truncated, foreign), a verdict with ``failure`` when it is read but wrong."""
    started = time.perf_counter()
    header, entries = read_strategy(path)
    try:
        game = header.load_game()
        root = game.parse(header.root)
    except CGTError as exc:
        raise StrategyFileError(
            f"{path}: header names no position of a known game ({exc})"
        ) from None
    table: dict[str, tuple[str, int | None]] = {}
    for position, move, rank in entries:
        if position in table:
            raise StrategyFileError(f"{path}: position {position!r} has two entries")
        table[position] = (move, rank)
    if not game.acyclic and not header.ranked:
        raise StrategyFileError(f"{path}: {game.name} positions can repeat; entries need ranks")
    mover = game.to_move(root)
    winner = mover if header.winner == "first" else 1 - mover
    # positions are told apart by the rules' own key and the player to move (the key of an
    # impartial game need not name the player), never by the file's strings
    lines: dict[Any, int] = {}  # finished positions -> lines from there
    on_line: set[Any] = set()

    def identity_of(position: Any) -> Any:
        return game.key(position), game.to_move(position)

    # one frame per position of the current line: [identity, children to visit, lines, move]
    stack: list[list[Any]] = []

    def line_moves() -> tuple[str, ...]:
        return tuple(frame[3] for frame in stack[1:])

    def rank_of(text: str) -> int:
        return table[text][1] if header.ranked else 0  # type: ignore[return-value]

    def enter(position: Any, move_name: str | None) -> None:
        text = game.render(position)
        identity = identity_of(position)
        if identity in on_line:
            raise _Refuted(f"the line comes back to {text!r}, so it may never end")
        result = game.result(position)
        children: list[tuple[str, Any]] = []
        if result is not None:
            if (result == Outcome.WIN) != (game.to_move(position) == winner):
                raise _Refuted(f"the game ends in {text!r} and the {header.winner} player lost")
        elif game.to_move(position) == winner:
            if text not in table:
                raise _Refuted(f"no entry for {text!r}, where the winner is to move")
            name = table[text][0]
            try:
                move = game.parse_move(position, name)
            except CGTError:
                raise _Refuted(f"the entry of {text!r} plays {name!r}, not a legal move") from None
            children = [(game.move_name(position, move), game.play(position, move))]
            if header.ranked:
                check_ranks(text, children[0][1])
        else:
            children = [(game.move_name(position, m), c) for m, c in game.children(position)]
        on_line.add(identity)
        stack.append([identity, children, 0 if children else 1, move_name])

    def check_ranks(text: str, after: Any) -> None:
        """The next winner's turns after the entry ``text`` have smaller ranks."""
        nexts = [after]
        if game.result(after) is None and game.to_move(after) != winner:
            nexts = [c for _, c in game.children(after)]
        for position in nexts:
            if game.result(position) is not None:
                continue
            if game.to_move(position) != winner:
                raise _Refuted("ranks are checked on alternating turns; the loser moves twice")
            later = game.render(position)
            if later in table and rank_of(later) >= rank_of(text):
                raise _Refuted(f"rank {rank_of(later)} of {later!r} is not below {rank_of(text)}")

    failure, reaching = None, ()  # enter() refuses a position before it is on the stack
    name = None  # the move being tried, for the line of a failure
    try:
        enter(root, None)
        while stack:
            frame = stack[-1]
            if frame[1]:
                name, child = frame[1].pop()
                done = lines.get(identity_of(child))
                if done is None:
                    enter(child, name)
                else:
                    frame[2] += done
                continue
            stack.pop()
            on_line.discard(frame[0])
            lines[frame[0]] = frame[2]
            if stack:
                stack[-1][2] += frame[2]
    except _Refuted as refuted:
        failure = str(refuted)
        reaching = (*line_moves(), *([name] if name is not None else []))
    return StrategyCheck(
        path=str(path),
        game=game.label(),
        root=header.root,
        winner=header.winner,
        winner_name=game.players[winner],
        entries=len(table),
        positions=len(lines),
        lines=lines.get(identity_of(root), 0),
        seconds=time.perf_counter() - started,
        failure=failure,
        line=reaching,
    )
