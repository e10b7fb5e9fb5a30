"""The game protocol: what a game supplies so that every solver, checker and report can use it.

A game is a class with fixed parameters (OpenSpiel's Game) whose methods are plain functions
over *positions*: immutable, hashable values chosen by the game (a tuple of bitboards, a
string, a frozen dataclass). Solvers never look inside a position; they only call the methods
below. That keeps them ignorant of every particular game, as networkx algorithms are of the
meaning of nodes.

Minimal game (see the README's "Add your own game" for a complete one)::

    from cgt.protocol import Game, Param
    from cgt.registry import register

    @register
    class Subtraction(Game[tuple[int, int], int]):   # take 1, 2 or 3 from one heap
        name = "subtraction"
        params = (Param("size", int, 5, minimum=0),)
        def initial_position(self): return (self.size, 0)      # (heap, player to move)
        def to_move(self, position): return position[1]
        def moves(self, position): return [1, 2, 3][: position[0]]
        def play(self, position, move): return (position[0] - move, 1 - position[1])

Conventions
-----------
* ``to_move`` returns an index into :attr:`Game.players`. The *first player* is whoever is to
  move in :meth:`Game.initial_position`. ``to_move`` must change whenever the turn passes,
  impartial games included: solvers never assume alternation, they compare ``to_move`` of a
  position and its child (so a game may give the same player several moves in a row).
* :meth:`Game.result` gives the outcome of a finished game **for the player to move**.
  The default is normal play: a player with no legal move loses. A game that overrides it
  with other rules (scoring at the end, draws, goals) declares :attr:`Game.normal_play`
  False; a game whose positions can repeat declares :attr:`Game.acyclic` False.
* Positions must be hashable; :meth:`Game.key` gives a compact, totally ordered key (an int,
  bytes, str or tuple of those) and :meth:`Game.canonical_key` the smallest key over the
  symmetry images that the rules allow.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from cgt.errors import MoveError, ParameterError
from cgt.progress import Progress

P = TypeVar("P", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class Outcome(IntEnum):
    """Result of a position for the player to move, with perfect play."""

    LOSS = -1
    DRAW = 0
    WIN = 1

    def __neg__(self) -> Outcome:  # the same result seen by the other player
        return Outcome(-int(self))

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class PieceStyle:
    """How a symbol of the game's position strings is drawn, on the explorer's board and in
    the reports' figures."""

    symbol: str
    #: words for a legend (empty: the symbol stays out of legends)
    label: str = ""
    #: ``stone`` a disc in ``fill`` (``ring``: a piece fixed for good), ``mark`` the letter,
    #: ``cut`` a cell taken out of play, ``void`` a cell fixed empty
    kind: str = "stone"
    fill: str = ""
    ring: bool = False


@dataclass(frozen=True)
class Param:
    """One parameter of a game: its name, type, default and allowed values.

    ``kind`` is ``int``, ``str`` or ``bool``. Values from the command line arrive as strings and
    are converted by :meth:`convert`; a bad value raises :class:`ParameterError` naming it.
    """

    name: str
    kind: type
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def convert(self, value: Any) -> Any:
        if self.kind is bool:
            if isinstance(value, bool):
                converted: Any = value
            elif str(value).lower() in ("1", "true", "yes", "on"):
                converted = True
            elif str(value).lower() in ("0", "false", "no", "off"):
                converted = False
            else:
                raise ParameterError(
                    f"parameter {self.name}: expected true or false, got {value!r}"
                )
        elif self.kind is int:
            if isinstance(value, bool):
                raise ParameterError(f"parameter {self.name}: expected an integer, got {value!r}")
            text = str(value).strip()
            # int() also reads other scripts' digits ("٣") and "1_000": a size is ASCII digits
            if not isinstance(value, int) and not (
                text.lstrip("+-").isascii() and text.lstrip("+-").isdigit()
            ):
                raise ParameterError(f"parameter {self.name}: expected an integer, got {value!r}")
            try:
                converted = int(text)
            except ValueError:  # more digits than Python converts
                raise ParameterError(
                    f"parameter {self.name}: expected an integer, got {text[:20]!r}..."
                ) from None
        elif value is None and self.default is None:
            converted = None
        else:
            converted = self.kind(value)
        if self.choices is not None and converted not in self.choices:
            allowed = "|".join(str(c) for c in self.choices)
            raise ParameterError(f"parameter {self.name}: {value!r} is not one of {allowed}")
        if self.minimum is not None and converted < self.minimum:
            raise ParameterError(
                f"parameter {self.name}: {converted} is below the minimum {self.minimum}"
            )
        if self.maximum is not None and converted > self.maximum:
            raise ParameterError(
                f"parameter {self.name}: {converted} is above the maximum {self.maximum}"
            )
        return converted


class Game(ABC, Generic[P, M]):
    """A two-player, perfect-information game with fixed parameters.

    Subclasses set the class attributes and implement the five abstract methods; everything
    else has a sensible default. Parameter values are available as attributes
    (``self.size``) and, all together, as :attr:`parameters`.
    """

    #: Registry name, lower case with hyphens (``super-nonnect``).
    name: ClassVar[str] = ""
    #: One line for ``cgt games``.
    summary: ClassVar[str] = ""
    #: How the game is called in titles and on pages (``Super Nonnect``; the name if empty).
    title: ClassVar[str] = ""
    #: Module of the game's claims, imported by the claims checker (``proofs.control``).
    claims_module: ClassVar[str | None] = None
    #: Module of the game's report sections (``cgtapp.report.games.control``).
    report_module: ClassVar[str | None] = None
    #: How the symbols of its position strings are drawn; symbols not listed are drawn as
    #: their letter.
    pieces: ClassVar[tuple[PieceStyle, ...]] = ()
    #: The colours :meth:`draw` paints and what each means, for the legends of figures.
    legend: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: The parameters and their defaults.
    params: ClassVar[tuple[Param, ...]] = ()
    #: Named parameter presets (``{"tumpletore": {"control": "sight"}}``).
    variants: ClassVar[dict[str, dict[str, Any]]] = {}
    #: Names of the players, indexed by :meth:`to_move`.
    players: ClassVar[tuple[str, str]] = ("First", "Second")
    #: True when both players always have the same moves (Nim, Super Nonnect).
    impartial: ClassVar[bool] = False
    #: Size of the symmetry group used by :meth:`canonical_key` (1: no symmetry).
    symmetry_count: int = 1
    #: True when the rules are *normal play*: the game ends exactly when the player to move
    #: has no legal move, and that player loses (:meth:`result` is the default). Only
    #: normal-play games have CGT values (``cgt value``); a game scored at the end (LAG,
    #: Interleave), with draws (tic-tac-toe, Entropy) or won by reaching a goal sets False.
    #: Set per game, or per instance in :meth:`validate` when a parameter decides it.
    normal_play: bool = True
    #: True when no position can repeat in play, so every game ends (the state graph has no
    #: cycle). Games whose pieces can come and go (Entropy; Control with line-of-sight
    #: control) set False: their positions have no short CGT value, and solvers treat endless
    #: play as a draw.
    acyclic: bool = True

    def __init__(self, **parameters: Any) -> None:
        known = {p.name: p for p in self.params}
        for key in parameters:
            if key not in known:
                names = ", ".join(known) or "none"
                raise ParameterError(
                    f"game {self.name}: unknown parameter {key!r} (parameters: {names})"
                )
        values: dict[str, Any] = {}
        for p in self.params:
            values[p.name] = p.convert(parameters[p.name]) if p.name in parameters else p.default
        self.parameters: dict[str, Any] = values
        self._given = dict(parameters)
        for key, value in values.items():
            setattr(self, key, value)
        self.validate()

    def __reduce_ex__(self, protocol: Any) -> Any:
        # built again from the parameters as given: what validate() derives (compiled
        # tables, closures) need not pickle, so every game goes to worker processes (--jobs)
        if _takes_parameters_only(type(self)) and hasattr(self, "_given"):
            return (_rebuild_game, (type(self), self._given))
        return super().__reduce_ex__(protocol)  # a game with a constructor of its own

    def validate(self) -> None:
        """Check combinations of parameters; raise :class:`ParameterError` on a bad one."""

    # ----------------------------------------------------------------- the rules
    @abstractmethod
    def initial_position(self) -> P:
        """The starting position for these parameters."""

    @abstractmethod
    def to_move(self, position: P) -> int:
        """Index into :attr:`players` of the player to move."""

    @abstractmethod
    def moves(self, position: P) -> Sequence[M]:
        """The legal moves, in a fixed order (solvers are deterministic because of it)."""

    @abstractmethod
    def play(self, position: P, move: M) -> P:
        """The position after ``move``; ``move`` must be legal."""

    def result(self, position: P) -> Outcome | None:
        """Outcome for the player to move if the game is over, else ``None``.

        Default: normal play, the player to move with no legal move loses.
        """
        return None if self.moves(position) else Outcome.LOSS

    # ------------------------------------------------------------ identity and symmetry
    def key(self, position: P) -> Hashable:
        """Compact, totally ordered key identifying the position (default: the position)."""
        return position

    def transform(self, position: P, symmetry: int) -> P:
        """Image of ``position`` under symmetry number ``symmetry`` (0 is the identity)."""
        if symmetry != 0:
            raise ValueError(f"{self.name} has no symmetry {symmetry}")
        return position

    def transform_move(self, position: P, move: M, symmetry: int) -> M:
        """Image of a move of ``position`` under the symmetry (a move of the image)."""
        if symmetry != 0:
            raise ValueError(f"{self.name} has no symmetry {symmetry}")
        return move

    def canonical_key(self, position: P) -> Hashable:
        """The smallest key among the symmetric images of ``position``.

        Two positions equivalent under the rules' symmetries have the same canonical key.
        """
        if self.symmetry_count == 1:
            return self.key(position)
        return min(self.key(self.transform(position, s)) for s in range(self.symmetry_count))  # type: ignore[type-var]

    # ---------------------------------------------------------------- notation
    def parse(self, text: str) -> P:
        """Position from its string (the notation of docs/rules.md); :class:`PositionError` if bad."""
        raise NotImplementedError(f"{self.name} has no position notation")

    def render(self, position: P) -> str:
        """Position string in the notation read by :meth:`parse`."""
        return str(position)

    def move_name(self, position: P, move: M) -> str:
        """Human name of a legal move of ``position``."""
        return str(move)

    def parse_move(self, position: P, text: str) -> M:
        """The legal move of ``position`` whose name is ``text``."""
        for move in self.moves(position):
            if self.move_name(position, move) == text.strip():
                return move
        raise MoveError(f"{self.name}: {text!r} is not a legal move in {self.render(position)!r}")

    def describe(self, position: P) -> str:
        """Multi-line human drawing of a position for the terminal (default: the string)."""
        return self.render(position)

    def draw(
        self,
        position: P,
        ax: Any,
        cell_colours: dict[int, str] | None = None,
        cell_labels: dict[int, str] | None = None,
    ) -> None:
        """Draw the position on a matplotlib ``Axes`` (used by reports).

        ``cell_colours`` and ``cell_labels`` (cell index -> colour / text) overlay the board, for
        instance the value of each opening drawn on the cell it targets.
        """
        raise NotImplementedError(f"{self.name} cannot draw positions yet")

    def move_target(self, position: P, move: M) -> int | None:
        """The board cell a move acts on (placed, cut, or moved to), for figures; ``None`` if
        the move has no single cell (a pass)."""
        return None

    def move_source(self, position: P, move: M) -> int | None:
        """The board cell a piece leaves in a movement game (LAG, Entropy), for figures and the
        explorer's arrows; ``None`` for moves that place, cut or remove (the default)."""
        return None

    # ------------------------------------------------------------- CGT support
    def with_to_move(self, position: P, player: int) -> P:
        """The same position with ``player`` to move (needed for CGT values of partizan
        games, whose Left and Right options are taken from the same board)."""
        raise NotImplementedError(f"{self.name} does not support changing the player to move")

    def components(self, position: P) -> list[P] | None:
        """Independent components whose sum is ``position`` (``None``: not decomposable)."""
        return None

    def value_shortcut(
        self, compiled: bool | None, progress: Progress | None
    ) -> ValueShortcut | None:
        """The game's own faster road to canonical values, if it has one (Domineering on
        bitmasks); ``compiled`` as the value calculator's option of that name."""
        return None

    def value_out_of_reach(self, position: P) -> str | None:
        """Why the canonical value of ``position`` cannot finish on any machine, so that it
        is refused before any work unless a time bound is given (``None``: it may finish)."""
        return None

    # ---------------------------------------------------------------- helpers
    def label(self) -> str:
        """``name`` with non-default parameters, e.g. ``control(size=3)``."""
        changed = [
            f"{p.name}={self.parameters[p.name]}"
            for p in self.params
            if self.parameters[p.name] != p.default
        ]
        return f"{self.name}({', '.join(changed)})" if changed else self.name

    def children(self, position: P) -> Iterable[tuple[M, P]]:
        """``(move, position after it)`` for every legal move."""
        for move in self.moves(position):
            yield move, self.play(position, move)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.parameters.items())
        return f"{type(self).__name__}({args})"


GameFactory = Callable[..., Game[Any, Any]]


class ValueShortcut(Protocol):
    """What :meth:`Game.value_shortcut` gives: canonical values by the game's own road."""

    @property
    def expanded(self) -> int:
        """Positions whose options were generated so far (for benchmarks)."""
        ...

    def covers(self, position: Any) -> bool:
        """Whether this road takes ``position``."""
        ...

    def value_id(self, position: Any) -> int:
        """Id of the canonical form of ``position``'s value (see :mod:`cgt.algebra.game`)."""
        ...


def _rebuild_game(cls: type[Game[Any, Any]], parameters: dict[str, Any]) -> Game[Any, Any]:
    """A game unpickled: ``cls`` with the parameters it was made with."""
    return cls(**parameters)


def _takes_parameters_only(cls: type) -> bool:
    """Whether ``cls(**parameters)`` is how ``cls`` is made (its constructor takes keyword
    parameters only, as :class:`Game`'s does)."""
    arguments = inspect.signature(cls).parameters.values()
    return all(a.kind is inspect.Parameter.VAR_KEYWORD for a in arguments)
