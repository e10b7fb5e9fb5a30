"""CGT values of positions of protocol games (normal play).

A partizan position's value is ``{Left options | Right options}``: Left's options are the
positions after player 0 moves from ``game.with_to_move(position, 0)``, Right's after player 1
moves from ``game.with_to_move(position, 1)``. When the game splits a position into
independent components (``game.components``), the value is the sum of theirs, and each
component is looked up by its symmetry-normalised key (``game.canonical_key``) with the
side to move fixed, so equal regions anywhere on any board are computed once. A game's
``components`` must return positions whose disjunctive sum *is* the position: no move in one
changes the options of another, and a player with no move in any has none in the whole (why
this holds for Domineering, Snort and Control's regions around frozen pieces: their modules).
An impartial position's value is the nimber ``*g`` of its Grundy value.

Only *short* normal-play games have such values: :func:`check_valuable` refuses, before any
work, a game that declares it is not normal play (``game.normal_play``) or that its positions
can repeat (``game.acyclic``), and the calculator itself refuses a finished position where the
player to move does not lose and a position that recurs among its own options, for games
that do not declare it.

A game may have a faster road of its own (``game.value_shortcut``: Domineering on plain
bitmasks, :mod:`cgt.games.domineering_values`, see ``benchmarks/CANONICAL.md``);
``ValueCalculator(game, kernel=False)`` keeps the protocol road, which tests compare it with.
``ValueCalculator(game, components=False)`` ignores ``game.components`` (the plain recursion
on options, the second road for a game's decomposition).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from cgt.algebra.budget import poll
from cgt.algebra.game import ZERO_ID, CanonicalForm, add_id, canonical_id, table_size
from cgt.algebra.impartial import GrundyCalculator
from cgt.algebra.loopy import GameGraph, LoopyValue, value_of_graph
from cgt.errors import CGTError, ParameterError
from cgt.progress import Progress
from cgt.protocol import Outcome


class NotValuableError(CGTError):
    """The game or position has no short CGT value (not normal play, or loopy)."""


def check_normal_play(game: Any) -> None:
    """Refuse a game whose rules are not normal play: its positions have no CGT value."""
    if not getattr(game, "normal_play", True):
        raise NotValuableError(
            f"{game.label()} is not a normal-play game (a player left without a move does not "
            "always lose: the game is scored, drawn or won by a goal), so its positions have no "
            "CGT value; use 'cgt solve' for the winner"
        )


def check_short_game(game: Any) -> None:
    """Refuse a game whose positions can repeat (a loopy game): canonical forms exist only for
    short games. Loopy values (stoppers, onsides and offsides) are computed apart, by
    :func:`loopy_value_of`, which ``cgt value`` calls for such games instead."""
    if not getattr(game, "acyclic", True):
        raise NotValuableError(
            f"{game.label()}: positions can repeat (the game is loopy), so they have no short "
            "CGT value; use 'cgt solve' for the winner (endless play is a draw)"
        )


def check_valuable(game: Any) -> None:
    """Raise :class:`NotValuableError` saying why, if ``game``'s positions have no short CGT
    value according to what the game declares (:attr:`cgt.protocol.Game.normal_play`,
    :attr:`cgt.protocol.Game.acyclic`)."""
    check_normal_play(game)
    check_short_game(game)


class ValueCalculator:
    """Canonical values of positions of one game instance, with a table by canonical key.

    ``kernel=True`` (the default) takes the game's own road where it has one
    (``game.value_shortcut``); ``kernel=False`` always takes the protocol road.
    ``components=False`` never splits a position into components. ``compiled`` and
    ``progress`` go to the game's road (Domineering: the compiled or the readable bitmask
    road, and counts now and then during long values, between slices of work, which is also
    when Ctrl-C is handled).
    """

    def __init__(
        self,
        game: Any,
        *,
        kernel: bool = True,
        components: bool = True,
        compiled: bool | None = None,
        progress: Progress | None = None,
        loopy: bool = False,
    ) -> None:
        # ``loopy``: the caller builds a loopy game's graph (loopy_value_of) and only asks
        # for options and loopfree pieces, so a game whose positions repeat is let in
        check_normal_play(game)
        if not loopy:
            check_short_game(game)
        self.game = game
        self.use_components = components
        self.table: dict[Hashable, int] = {}
        #: Component lookups made while summing split positions, and how many of them were
        #: already in the table (for benchmarks).
        self.component_lookups = 0
        self.component_hits = 0
        self.grundy = GrundyCalculator(game) if getattr(game, "impartial", False) else None
        self.shortcut = game.value_shortcut(compiled, progress) if kernel else None
        self._evaluated = 0
        #: Keys of the positions whose value is being computed (the recursion's path): meeting
        #: one again among its own descendants means the positions can repeat.
        self._in_progress: set[Hashable] = set()

    @property
    def evaluated(self) -> int:
        """Positions (or regions, on a game's own road) whose options were expanded (for
        benchmarks)."""
        if self.shortcut is not None:
            return self.shortcut.expanded
        return self._evaluated

    def _normalised(self, position: Any) -> Any:
        try:
            return self.game.with_to_move(position, 0)
        except NotImplementedError:
            raise ParameterError(
                f"game {self.game.name} cannot give both players' options (no with_to_move)"
            ) from None

    def __call__(self, position: Any) -> CanonicalForm:
        if self.grundy is not None:
            return CanonicalForm.nimber(self.grundy(position))
        return CanonicalForm(self.value_id(position))

    def value_id(self, position: Any) -> int:
        """Id of the canonical form of ``position``'s value (see :mod:`cgt.algebra.game`)."""
        return self._value_id(position, as_component=False)

    def _value_id(self, position: Any, *, as_component: bool) -> int:
        if self.shortcut is not None and self.shortcut.covers(position):
            return self.shortcut.value_id(position)
        # a graph of values the table already holds makes no new forms to check at
        poll(table_size())
        position = self._normalised(position)
        key = self.game.canonical_key(position)
        found = self.table.get(key)
        if as_component:
            self.component_lookups += 1
            self.component_hits += found is not None
        if found is not None:
            return found
        parts = self.game.components(position) if self.use_components else None
        if parts is not None and not (
            len(parts) == 1 and self.game.canonical_key(self._normalised(parts[0])) == key
        ):
            value = ZERO_ID
            for part in parts:
                value = add_id(value, self._value_id(part, as_component=True))
        else:
            if key in self._in_progress:
                raise NotValuableError(
                    f"{self.game.label()}: position {self.game.render(position)!r} can repeat "
                    "(it is reachable from itself), so it has no short CGT value"
                )
            self._in_progress.add(key)
            self._evaluated += 1
            try:
                value = canonical_id(
                    [self.value_id(child) for child in self._options(position, 0)],
                    [self.value_id(child) for child in self._options(position, 1)],
                )
            finally:
                self._in_progress.discard(key)
        self.table[key] = value
        return value

    def _options(self, position: Any, player: int) -> list[Any]:
        mover = self.game.with_to_move(position, player)
        moves = self.game.moves(mover)
        finished = self.game.result(mover)
        if (finished is not None) if moves else (finished is not Outcome.LOSS):
            # A game over with moves left, or a player without a move who does not lose.
            raise NotValuableError(
                f"{self.game.label()} is not a normal-play game: in "
                f"{self.game.render(mover)!r} the player to move "
                + ("has moves but the game is over" if moves else "has no move and does not lose")
            )
        return [self.game.play(mover, move) for move in moves]


#: How many positions :func:`loopy_value_of` explores at most before refusing.
LOOPY_MAX_POSITIONS = 20_000


def loopy_value_of(
    game: Any,
    position: Any = None,
    *,
    max_positions: int = LOOPY_MAX_POSITIONS,
    progress: Progress | None = None,
) -> CanonicalForm | LoopyValue:
    """CGT value of a position of a game whose positions can repeat (``game.acyclic`` false).

    Builds the game graph: one vertex per position with the side to move fixed (Left's
    options from ``with_to_move(position, 0)``, Right's from ``with_to_move(position, 1)``,
    as :class:`ValueCalculator` does), merged by ``canonical_key``; then values it with
    :func:`cgt.algebra.loopy.value_of_graph`: a canonical form when no cycle is reachable,
    else a loopy value (a stopper in simplest form, or onside & offside). Raises
    :class:`ParameterError` past ``max_positions`` positions and
    :class:`cgt.algebra.loopy.LoopyValueError` when the sides cannot be found.
    """
    if position is None:
        position = game.initial_position()
    calculator = ValueCalculator(game, kernel=False, components=False, loopy=True)
    start = calculator._normalised(position)
    index: dict[Hashable, int] = {game.canonical_key(start): 0}
    positions = [start]
    left: list[list[int]] = []
    right: list[list[int]] = []
    while len(left) < len(positions):
        current = positions[len(left)]
        sides = []
        for player in (0, 1):
            targets = []
            for child in calculator._options(current, player):
                child = calculator._normalised(child)
                key = game.canonical_key(child)
                found = index.get(key)
                if found is None:
                    if len(positions) >= max_positions:
                        raise ParameterError(
                            f"the game graph of this position has more than {max_positions} "
                            "positions, too many for loopy values"
                        )
                    found = index[key] = len(positions)
                    positions.append(child)
                targets.append(found)
            sides.append(targets)
        left.append(sides[0])
        right.append(sides[1])
        if progress is not None and len(left) % 1000 == 0:
            progress({"phase": "game graph", "positions": len(positions)})
    return value_of_graph(GameGraph.build(left, right), 0)


def value_of(game: Any, position: Any = None) -> CanonicalForm:
    """Canonical CGT value of ``position`` (default: the initial position) of ``game``.

    Impartial games give the nimber of the Grundy value; partizan games need
    ``game.with_to_move``.
    """
    if position is None:
        position = game.initial_position()
    return ValueCalculator(game)(position)
