"""Winning strategies written out as files anyone can check (docs/strategy-format.md).

A strategy file is gzip-compressed JSON lines: a header object, then one ``[POSITION, MOVE]``
(or ``[POSITION, MOVE, RANK]``) per position the winner meets with the move the winner
plays there, positions and moves written exactly as ``cgt show`` reads and lists them.
:func:`write_strategy` extracts one for any game through the shared solver interfaces, never
a per-game copy:

* games with a compiled kernel class (:data:`solvers.kernels.KERNEL_CLASSES`) whose positions
  cannot repeat: the kernel proves the root, then every winner-to-move position the strategy
  reaches gets a move whose child the kernel proves won, asked first with a tiny node budget
  (a transposition-table hit costs a few nodes) and then with budgets growing 64 times at a
  time, so the move kept is one proven within the smallest budget (a small proof); a child
  already in the strategy is taken before any search (proofs merged by transposition). A
  subtree whose table entry was overwritten is simply searched again.
* every other game (and by default every game whose positions can repeat):
  :func:`solvers.retrograde.retrograde` solves the whole graph, the winner plays a fastest
  win and each entry carries its remoteness as the rank that decreases along the strategy.
  With ``solver="compiled"`` a repeating game's kernel chooses the moves instead and the
  entries are ranked by their height (:func:`rank_by_height`, which refuses a cycle).

Extraction stores what it has as it goes (``FILE.partial``, one JSON line per entry) and takes
it up again when run again. :class:`StrategyFile` reads a file for play
(:meth:`StrategyFile.move_for`); the checker is :mod:`proofs.strategy_check`.
"""

from __future__ import annotations

import gzip
import json
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cgt.errors import CGTError, ParameterError
from cgt.progress import Progress
from cgt.protocol import Game, Outcome
from cgt.registry import load_game
from solvers.retrograde import retrograde

#: The ``format`` of every header this module writes and reads.
FORMAT = "cgt-strategy/1"
#: Header fields every file has (docs/strategy-format.md).
REQUIRED_FIELDS = ("format", "game", "params", "root", "winner", "positions", "commit", "command")
#: Node budgets of the successive probes of a child (None: no limit).
PROBE_BUDGETS: tuple[int | None, ...] = (64, 1 << 12, 1 << 18, 1 << 24, None)
#: Times a repeating game's strategy is extracted again where it goes round a cycle.
MAX_RANK_ROUNDS = 30
#: Seconds between two progress reports and two flushes of the partial file.
REPORT_SECONDS = 2.0


class UnrankedPositions(ParameterError):
    """A strategy of a repeating game that goes round a cycle at ``positions``."""

    def __init__(self, message: str, positions: list[str]) -> None:
        super().__init__(message)
        self.positions = positions


class StrategyFileError(CGTError):
    """A strategy file that cannot be read: damaged, truncated, foreign or malformed."""


@dataclass
class StrategyHeader:
    """The first line of a strategy file (``extra``: every field beyond the required ones)."""

    game: str
    params: dict[str, Any]
    root: str
    winner: str
    positions: int
    commit: str | None
    command: str
    ranked: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "params": self.params,
            "root": self.root,
            "winner": self.winner,
            "positions": self.positions,
            "ranked": self.ranked,
            "commit": self.commit,
            "command": self.command,
            **self.extra,
        }

    @classmethod
    def from_dict(cls, data: Any, path: Path) -> StrategyHeader:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StrategyFileError(f"{path}: not a strategy file (no {FORMAT!r} header)")
        missing = [name for name in REQUIRED_FIELDS if name not in data]
        if missing:
            raise StrategyFileError(f"{path}: header lacks {', '.join(missing)}")
        if data["winner"] not in ("first", "second"):
            raise StrategyFileError(f"{path}: winner must be first or second")
        if not isinstance(data["positions"], int) or data["positions"] < 0:
            raise StrategyFileError(f"{path}: positions must be a count")
        if not isinstance(data["params"], dict) or not isinstance(data["root"], str):
            raise StrategyFileError(f"{path}: params must be an object and root a string")
        known = {*REQUIRED_FIELDS, "ranked"}
        return cls(
            game=str(data["game"]),
            params=data["params"],
            root=data["root"],
            winner=data["winner"],
            positions=data["positions"],
            commit=data["commit"],
            command=str(data["command"]),
            ranked=bool(data.get("ranked", False)),
            extra={k: v for k, v in data.items() if k not in known},
        )

    def load_game(self) -> Game[Any, Any]:
        return load_game(self.game, **self.params)


Entry = tuple[str, str, int | None]


def _lines(path: Path) -> Iterator[str]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            yield from stream
    except FileNotFoundError:
        raise StrategyFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise StrategyFileError(f"{path}: is a directory, not a strategy file") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        # gzip.BadGzipFile is an OSError; EOFError is a truncated stream
        raise StrategyFileError(f"{path}: damaged or truncated gzip data ({exc})") from None


def read_strategy(path: Path | str) -> tuple[StrategyHeader, Iterator[Entry]]:
    """The header and an iterator over the entries ``(position, move, rank or None)``;
    :class:`StrategyFileError` for a file that is not gzip, not JSON lines, not a strategy,
    has a malformed entry or fewer or more entries than its header says (a truncated file)."""
    path = Path(path)
    lines = _lines(path)
    try:
        first = next(lines)
    except StopIteration:
        raise StrategyFileError(f"{path}: empty file") from None
    try:
        header = StrategyHeader.from_dict(json.loads(first), path)
    except json.JSONDecodeError:
        raise StrategyFileError(f"{path}: not a strategy file (header is not JSON)") from None

    def entries() -> Iterator[Entry]:
        count = 0
        for number, line in enumerate(lines, start=2):
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                raise StrategyFileError(f"{path}: line {number} is not JSON") from None
            width = 3 if header.ranked else 2
            if (
                not isinstance(item, list)
                or len(item) != width
                or not all(isinstance(x, str) for x in item[:2])
                or (header.ranked and (not isinstance(item[2], int) or item[2] < 0))
            ):
                shape = "[POSITION, MOVE, RANK]" if header.ranked else "[POSITION, MOVE]"
                raise StrategyFileError(f"{path}: line {number} is not {shape}")
            count += 1
            yield item[0], item[1], item[2] if header.ranked else None
        if count != header.positions:
            raise StrategyFileError(
                f"{path}: {count:,} entries where the header says {header.positions:,} "
                "(truncated or damaged)"
            )

    return header, entries()


def write_strategy_file(path: Path | str, header: StrategyHeader, entries: list[Entry]) -> int:
    """Write the file (entries sorted, so the same strategy gives the same bytes apart from
    the header) and return its size in bytes."""
    path = Path(path)
    header.positions = len(entries)
    temporary = path.with_name(path.name + ".writing")
    # mtime 0: the bytes depend on the content only
    with open(temporary, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as stream:
        stream.write((json.dumps(header.as_dict(), sort_keys=True) + "\n").encode())
        for position, move, rank in sorted(entries):
            item: list[Any] = [position, move] if rank is None else [position, move, rank]
            stream.write((json.dumps(item) + "\n").encode())
    temporary.replace(path)
    return path.stat().st_size


class StrategyFile:
    """A strategy file loaded for play: the winner's move in any position it covers."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.header, entries = read_strategy(self.path)
        self.game = self.header.load_game()
        self.table: dict[str, tuple[str, int | None]] = {}
        for position, move, rank in entries:
            self.table[position] = (move, rank)
        root = self.game.parse(self.header.root)
        mover = self.game.to_move(root)
        #: index (into ``game.players``) of the player the strategy wins for
        self.winner = mover if self.header.winner == "first" else 1 - mover

    def __len__(self) -> int:
        return len(self.table)

    def covers(self, game: Game[Any, Any], position: Any) -> bool:
        return (
            game.name == self.game.name
            and game.parameters == self.game.parameters
            and game.render(position) in self.table
        )

    def move_for(self, position: Any) -> Any | None:
        """The strategy's move in ``position`` (a move of the game), None where the file has
        no entry (the loser to move, or a position the strategy never reaches)."""
        entry = self.table.get(self.game.render(position))
        return None if entry is None else self.game.parse_move(position, entry[0])

    def rank_of(self, position: Any) -> int | None:
        entry = self.table.get(self.game.render(position))
        return None if entry is None else entry[1]


# ----------------------------------------------------------------------------- extraction


@dataclass
class Extraction:
    """What an extraction did, for the header and the benchmark page."""

    entries: list[Entry]
    winner: str
    visited: int
    nodes: int
    seconds: float
    source: str


def _wins_for(game: Game[Any, Any], position: Any, winner: int) -> bool | None:
    """Whether a finished ``position`` is won by ``winner`` (None: not finished)."""
    result = game.result(position)
    if result is None:
        return None
    return (result == Outcome.WIN) == (game.to_move(position) == winner)


class KernelChooser:
    """Moves proved by a compiled kernel (value mode), a small proof preferred."""

    def __init__(self, game: Game[Any, Any], kernel: Any) -> None:
        self.game = game
        self.kernel = kernel
        self.winner = 0
        self.strategy_keys: set[Any] = set()
        #: position string -> names of moves not to choose there (they went round a cycle)
        self.banned: dict[str, set[str]] = {}

    @property
    def nodes(self) -> int:
        from solvers.kernel_table import S_NODES

        return self.kernel.stat(S_NODES)

    def root_outcome(self, root: Any, progress: Progress | None) -> Outcome:
        self.kernel.set_budget(None, progress)
        outcome = self.kernel.decode(self.kernel.score(root))[0]
        self.kernel.set_budget()
        return outcome

    def _won(self, child: Any, budget: int | None) -> bool | None:
        """Whether the winner wins ``child`` (None: not proven within ``budget`` nodes)."""
        if self.game.to_move(child) == self.winner:
            score = self.kernel.bounded_score(child, 0, 1, budget)  # a win scores >= 1
            return None if score is None else score >= 1
        score = self.kernel.bounded_score(child, -1, 0, budget)  # a loss scores <= -1
        return None if score is None else score <= -1

    def __call__(self, position: Any, children: list[tuple[Any, Any]]) -> tuple[int, int | None]:
        game = self.game
        banned = self.banned.get(game.render(position), set()) if self.banned else set()
        if banned:
            allowed = [(m, c) for m, c in children if game.move_name(position, m) not in banned]
            try:
                k, rank = self._choose(position, allowed)
                return children.index(allowed[k]), rank
            except ParameterError:
                pass  # the only winning moves are banned: the cycle is broken above, if at all
        return self._choose(position, children)

    def _choose(self, position: Any, children: list[tuple[Any, Any]]) -> tuple[int, int | None]:
        game = self.game
        for k, (_, child) in enumerate(children):
            if _wins_for(game, child, self.winner):
                return k, None
        # a move into the strategy merges proofs by transposition; where positions can
        # repeat it may also close a cycle, so there the kernel's proofs decide alone
        for k, (_, child) in enumerate(children):
            if game.acyclic and game.key(child) in self.strategy_keys:
                return k, None
        open_children = [k for k, (_, child) in enumerate(children) if game.result(child) is None]
        for budget in PROBE_BUDGETS:
            still_open = []
            for k in open_children:
                won = self._won(children[k][1], budget)
                if won:
                    return k, None
                if won is None:
                    still_open.append(k)
            open_children = still_open
        raise ParameterError(
            f"{game.name}: no winning move proven in {game.render(position)!r}: the root's "
            "value was wrong or the kernel disagrees with itself"
        )


class RetrogradeChooser:
    """Fastest wins from a retrograde solution; the rank is the remoteness."""

    def __init__(self, game: Game[Any, Any], root: Any, progress: Progress | None):
        self.game = game
        self.solution = retrograde(game, root, symmetry=True, progress=progress)
        self.winner = 0
        self.strategy_keys: set[Any] = set()
        self.nodes = len(self.solution)

    def root_outcome(self, root: Any, progress: Progress | None) -> Outcome:
        return self.solution.outcome(root)

    def __call__(self, position: Any, children: list[tuple[Any, Any]]) -> tuple[int, int | None]:
        game, solution = self.game, self.solution
        best: tuple[int, int] | None = None
        for k, (_, child) in enumerate(children):
            outcome = solution.outcome(child)
            won = outcome == (Outcome.WIN if game.to_move(child) == self.winner else Outcome.LOSS)
            remoteness = solution.remoteness(child)
            if won and remoteness is not None and (best is None or remoteness < best[1]):
                best = (k, remoteness)
        if best is None:
            raise ParameterError(f"{game.name}: no winning move in {game.render(position)!r}")
        return best[0], best[1] + 1


def uses_kernel(game: Game[Any, Any], solver: str = "auto") -> bool:
    """Whether strategies of ``game`` are extracted with its compiled kernel: ``auto`` for
    the games with one whose positions cannot repeat, ``compiled`` for every game with one
    (a repeating game's strategy is then ranked afterwards, :func:`rank_by_height`),
    ``retrograde`` never."""
    from solvers.kernels import KERNEL_CLASSES

    if solver == "compiled" and game.name not in KERNEL_CLASSES:
        raise ParameterError(f"{game.name} has no search kernel for a strategy: use retrograde")
    if solver == "auto":
        return game.name in KERNEL_CLASSES and game.acyclic
    return solver == "compiled"


def rank_by_height(game: Game[Any, Any], entries: list[Entry], winner: int) -> list[Entry]:
    """The entries ranked by their height in the strategy (the most winner's turns left on
    any line), so that the rank falls at each winner's turn. Where the chosen moves go round
    a cycle (a winning move need not make progress), the positions left unranked get another
    move whose every reply leads to ranked positions, the fastest one (a retrograde pass over
    the extracted positions, repeated while it ranks more); :class:`ParameterError` when some
    stay unranked. Needs alternating turns."""
    moves = {text: name for text, name, _ in entries}

    def next_turns(position: Any, move: Any) -> list[str] | None:
        """The winner's next positions after ``move``; None when a reply wins for the loser."""
        child = game.play(position, move)
        replies = [child] if game.to_move(child) == winner else [c for _, c in game.children(child)]
        found = []
        for reply in replies:
            if game.result(reply) is not None:
                if not _wins_for(game, reply, winner):
                    return None
            elif game.to_move(reply) != winner:
                raise ParameterError(f"{game.name}: ranks need alternating turns")
            else:
                found.append(game.render(reply))
        return found

    successors: dict[str, set[str]] = {}
    for text, name in moves.items():
        position = game.parse(text)
        found = next_turns(position, game.parse_move(position, name))
        if found is None:
            raise ParameterError(f"{game.name}: the move {name} of {text!r} loses")
        successors[text] = set(found)
    predecessors: dict[str, set[str]] = {text: set() for text in moves}
    for text, later in successors.items():
        for q in later:
            predecessors.setdefault(q, set()).add(text)
    waiting = {text: len(later) for text, later in successors.items()}
    height: dict[str, int] = {}

    def settle(ready: list[str]) -> None:
        while ready:
            text = ready.pop()
            height[text] = 1 + max((height[q] for q in successors[text]), default=-1)
            for p in predecessors.get(text, ()):
                waiting[p] -= 1
                if waiting[p] == 0:
                    ready.append(p)

    settle([text for text, count in waiting.items() if count == 0])
    progress = True
    while progress and len(height) < len(moves):
        progress = False
        for text in [t for t in moves if t not in height]:
            if text in height:  # ranked meanwhile by a repair earlier in this pass
                continue
            position = game.parse(text)
            best: tuple[int, Any, list[str]] | None = None
            for move in game.moves(position):
                found = next_turns(position, move)
                if found is None or not all(q in height for q in found):
                    continue
                rank = 1 + max((height[q] for q in found), default=-1)
                if best is None or rank < best[0]:
                    best = (rank, move, found)
            if best is None:
                continue
            for q in successors[text]:
                predecessors[q].discard(text)
            moves[text] = game.move_name(position, best[1])
            successors[text] = set(best[2])
            settle([text])
            progress = True
    if len(height) < len(moves):
        stuck = [t for t in moves if t not in height]
        raise UnrankedPositions(
            f"{game.label()}: the kernel's strategy goes round a cycle through {stuck[0]!r} "
            f"({len(stuck):,} positions unranked); extract it by retrograde "
            "(--solver retrograde)",
            stuck,
        )
    return [(text, moves[text], height[text]) for text, _, _ in entries]


def extract(
    game: Game[Any, Any],
    root: Any,
    *,
    tt_entries: int = 1 << 24,
    method: str = "alphabeta",
    partial: Path | None = None,
    progress: Progress | None = None,
    kernel: Any = None,
    solver: str = "auto",
) -> Extraction:
    """The winner's strategy from ``root``: every winner-to-move position it reaches, with
    its move. ``partial`` keeps the entries found so far (one JSON line each) and is read
    back when the extraction runs again. ``kernel``: a compiled kernel in value mode whose
    table already holds the root's proof (a frontier job's), else a new one is made;
    ``solver``: see :func:`uses_kernel`. :class:`ParameterError` for a drawn root."""
    started = time.perf_counter()
    chooser: KernelChooser | RetrogradeChooser
    if kernel is not None or uses_kernel(game, solver):
        if kernel is None:
            from solvers.kernels import KERNEL_CLASSES

            kernel_class: Any = KERNEL_CLASSES[game.name]  # the constructors share these
            kernel = kernel_class(game, remoteness=False, tt_entries=tt_entries, method=method)
        chooser = KernelChooser(game, kernel)
        source = f"compiled kernel ({getattr(kernel, 'method', method)}, value mode)"
    else:
        chooser = RetrogradeChooser(game, root, progress)
        source = "retrograde (fastest wins, rank = remoteness)"
    outcome = game.result(root)
    if outcome is None:
        outcome = chooser.root_outcome(root, progress)
    if outcome == Outcome.DRAW:
        raise ParameterError(f"{game.label()}: {game.render(root)} is a draw: no winning strategy")
    mover = game.to_move(root)
    winner = mover if outcome == Outcome.WIN else 1 - mover
    chooser.winner = winner
    known: dict[str, tuple[str, int | None]] = {}
    if partial is not None and partial.exists():
        known = _read_partial(partial, game.render(root))
    journal = _open_partial(partial, game.render(root)) if partial is not None else None
    entries: list[Entry] = []
    seen = chooser.strategy_keys
    last_report = time.perf_counter()

    def walk(stack: list[Any]) -> None:
        nonlocal last_report
        try:
            while stack:
                position = stack.pop()
                if not _first_visit(seen, game.key(position)) or game.result(position) is not None:
                    continue
                children = list(game.children(position))
                if game.to_move(position) != winner:
                    stack.extend(child for _, child in children)
                    continue
                text = game.render(position)
                if text in known:
                    name, rank = known[text]
                    move = game.parse_move(position, name)
                    child = game.play(position, move)
                else:
                    k, rank = chooser(position, children)
                    move, child = children[k]
                    name = game.move_name(position, move)
                    if journal is not None:
                        journal.write(json.dumps([text, name, rank]) + "\n")
                entries.append((text, name, rank))
                stack.append(child)
                now = time.perf_counter()
                if now - last_report > REPORT_SECONDS:
                    last_report = now
                    if journal is not None:
                        journal.flush()
                    if progress is not None:
                        progress(
                            {
                                "phase": "strategy",
                                "positions": len(entries),
                                "visited": len(seen),
                                "nodes": chooser.nodes,
                                "seconds": round(now - started, 1),
                            }
                        )
        finally:
            if journal is not None:
                journal.close()

    walk([root])
    if isinstance(chooser, KernelChooser) and not game.acyclic:
        # a move that lets the loser go round a cycle is banned at the positions left unranked
        # and the strategy is extracted again from them, until every position is ranked
        for round_ in range(MAX_RANK_ROUNDS + 1):
            try:
                entries = rank_by_height(game, entries, winner)
                break
            except UnrankedPositions as stuck:
                if round_ == MAX_RANK_ROUNDS:
                    raise
                redo = set(stuck.positions)
                restart = []
                for text, name, _ in entries:
                    if text in redo:
                        chooser.banned.setdefault(text, set()).add(name)
                        known.pop(text, None)
                        restart.append(game.parse(text))
                        seen.discard(game.key(restart[-1]))
                entries = [entry for entry in entries if entry[0] not in redo]
                journal = _open_partial(partial, game.render(root)) if partial is not None else None
                walk(restart)
        source += ", ranked by height"
    return Extraction(
        entries=entries,
        winner="first" if winner == mover else "second",
        visited=len(seen),
        nodes=chooser.nodes,
        seconds=time.perf_counter() - started,
        source=source,
    )


def _first_visit(seen: set[Any], key: Any) -> bool:
    """Whether ``key`` is new to ``seen`` (and add it)."""
    if key in seen:
        return False
    seen.add(key)
    return True


def _open_partial(partial: Path, root: str) -> Any:
    fresh = not partial.exists()
    stream = open(partial, "a", encoding="utf-8")  # noqa: SIM115 (closed by extract)
    if fresh:
        stream.write(json.dumps({"root": root}) + "\n")
    return stream


def _read_partial(partial: Path, root: str) -> dict[str, tuple[str, int | None]]:
    """Entries stored by an earlier run from the same root; a torn last line (the run was
    killed while writing it) is cut off the file, so that new entries follow whole lines."""
    known: dict[str, tuple[str, int | None]] = {}
    with open(partial, "rb") as stream:
        try:
            if json.loads(stream.readline()).get("root") != root:
                raise ParameterError(f"{partial}: partial strategy of another root; remove it")
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            raise ParameterError(f"{partial}: not a partial strategy file; remove it") from None
        whole = stream.tell()
        for line in stream:
            try:
                text, name, rank = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
                break
            if not line.endswith(b"\n"):
                break
            known[text] = (name, rank)
            whole = stream.tell()
    with open(partial, "r+b") as stream:
        stream.truncate(whole)
    return known


def write_strategy(
    game: Game[Any, Any],
    root: Any,
    path: Path | str,
    *,
    command: str,
    tt_entries: int = 1 << 24,
    method: str = "alphabeta",
    progress: Progress | None = None,
    commit: str | None = None,
    kernel: Any = None,
    solver: str = "auto",
) -> dict[str, Any]:
    """Extract the winner's strategy from ``root`` and write it to ``path`` (resuming from
    ``path.partial``); returns the header written plus ``bytes``."""
    from solvers.saved import git_commit

    path = Path(path)
    if path.is_dir():
        raise ParameterError(f"{path}: is a directory; give a file name for the strategy")
    partial = path.with_name(path.name + ".partial")
    extraction = extract(
        game,
        root,
        tt_entries=tt_entries,
        method=method,
        partial=partial,
        progress=progress,
        kernel=kernel,
        solver=solver,
    )
    ranked = not game.acyclic or any(rank is not None for _, _, rank in extraction.entries)
    entries = extraction.entries
    if ranked and any(rank is None for _, _, rank in entries):
        raise ParameterError(f"{game.label()}: a ranked strategy needs a rank for every entry")
    header = StrategyHeader(
        game=game.name,
        params=dict(game.parameters),
        root=game.render(root),
        winner=extraction.winner,
        positions=len(entries),
        commit=commit if commit is not None else git_commit(),
        command=command,
        ranked=ranked,
        extra={
            "source": extraction.source,
            "visited": extraction.visited,
            "nodes": extraction.nodes,
            "extract_seconds": round(extraction.seconds, 2),
        },
    )
    size = write_strategy_file(path, header, entries)
    partial.unlink(missing_ok=True)
    return {**header.as_dict(), "bytes": size}
