"""The engine's ranked retrograde, written once; :mod:`solvers.engine_build` compiles a copy per
game (the Python side is :mod:`solvers.sweep`, the plug-in's side docs/engine.md).

This module is a template, like :mod:`solvers.engine_search`: the block between the
``plug-in`` markers binds the game's rules (``generate``, ``final``, ``play``, ``mover``,
``final_remoteness``) and its ranking (``rank``, ``unrank``, optionally ``child_rank``, and
the record layout ``record_of`` / ``record_value`` / ``record_mover``, :mod:`solvers.store`'s
by default); unspecialised it binds stubs (an empty space).

What it computes
----------------
The value of every position of a range of ranks of an *acyclic* game, each evaluated from all
of its children (no pruning): a position is won one ply more than its fastest child lost by
that child's mover (kept when the same player moves again), drawn when no child is won for it
and one is drawn, else lost one ply more than its slowest child (the convention of
:mod:`solvers.retrograde`); a finished position is worth ``final`` in ``final_remoteness``
plies. Records below :data:`SOLVED` are not solved (0 nothing, :data:`MARKED` reached but
not solved); every record written is final.

How: a memoised depth-first pass with an explicit stack (one frame a ply, no recursion): the
next unsolved rank of the range is decoded (``unrank``) and entered; a child whose record is
solved is read, an unsolved one is entered in its turn and its record written when its last
child is in. A child ranked :data:`~solvers.engine_sweep_defaults.TRANSIENT` has no record:
it is evaluated each time it is met (Interleave's states just after a pass), in place (no
frame, :func:`_in_place`) when its own children are all solved or finished, and so is a
position of a descending range of a rising space (``C_CHILDREN_SOLVED``). So the order of
the range is free: where every move raises the rank, a descending range meets every child
solved before its parent, and the pass is a plain sweep that never goes deeper than a
transient child; elsewhere (LAG inside a tier) it solves what it needs as it goes. The
solved children of a node are read in one tight loop (``child_rank`` spares playing them);
:func:`mark` is the forward pass that marks what a root reaches, for a range that then takes
only the marked ranks.

Budget: the pass stops before entering a node once ``ctl[S_NODES]`` reaches
``ctl[S_NODE_LIMIT]``, with its stack and its place in the range kept (``C_DEPTH``,
``C_CURSOR``): called again with the same arguments it goes on where it stopped. A child
ranked :data:`~solvers.engine_sweep_defaults.OUTSIDE` (``S_OUTSIDE``) or a path deeper than
the stack (``S_OVERFLOW``: a cycle, or too small a ``max_ply``) drops the stack and stops.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from solvers.engine_sweep_defaults import OUTSIDE, TRANSIENT
from solvers.kernel_table import I64, no_wrap

# isort: split
# <plug-in>
from solvers.engine_defaults import final_remoteness
from solvers.engine_defaults import unplugged_final as final
from solvers.engine_defaults import unplugged_generate as generate
from solvers.engine_defaults import unplugged_mover as mover
from solvers.engine_defaults import unplugged_play as play
from solvers.engine_sweep_defaults import children_key, record_mover, record_of, record_value
from solvers.engine_sweep_defaults import unplugged_rank as rank
from solvers.engine_sweep_defaults import unplugged_unrank as unrank

NRT = True
# </plug-in>

#: the hooks this template binds (solvers.engine_build.specialise): required, optional, and
#: the module of the optional ones' defaults (``child_rank`` has none: see below)
PLUG_IN_HOOKS = (
    ("generate", "final", "play", "mover", "rank", "unrank"),
    (
        "final_remoteness",
        "record_of",
        "record_value",
        "record_mover",
        "children_key",
        "child_rank",
    ),
    "solvers.engine_sweep_defaults",
)


@njit(cache=True, inline="always")
def _child_rank_by_play(state, code, tables, scratch):  # type: ignore[no-untyped-def]
    play(state, code, tables, scratch)
    return rank(scratch, tables)


#: ``child_rank(state, code, tables, scratch)``: the rank of the child after ``code``; the
#: plug-in's where the block binds one (computed without playing the move), else the move
#: played into ``scratch`` and ranked
child_rank = globals().get("child_rank", _child_rank_by_play)

#: Records below this are not solved.
SOLVED = 2
#: The record of a position reached but not solved (a range may take only these).
MARKED = 1
#: Larger than every remoteness (no won child yet).
NO_WIN = 1 << 40

# the control array ``ctl`` (int64)
#: the next rank of the range to take, and the frames on the stack, kept between calls
C_CURSOR = 0
C_DEPTH = 1
#: 1: take only the ranks whose record is MARKED
C_ONLY_MARKED = 2
S_NODES = 3
S_NODE_LIMIT = 4
S_ABORTED = 5
S_OVERFLOW = 6
S_OUTSIDE = 7
S_MAX_DEPTH = 8
#: 1: the pass solves the one root the caller put in ``states[0]`` (2 once entered)
C_ROOT = 9
#: the result and remoteness of the last position solved at the bottom of the stack
S_RESULT = 10
S_REMOTENESS = 11
#: 1: every move hands the turn over (a solved child's mover needs no asking)
C_ALTERNATING = 12
#: 1: a position of the range meets its children solved (every move raises the rank and the
#: range descends), so it is evaluated in place, without a frame
C_CHILDREN_SOLVED = 13
CTL_LENGTH = 16

# a frame: its rank (or TRANSIENT), its moves and the next one, the fastest won child, the
# slowest lost one, whether a child is drawn, its mover
F_INDEX, F_COUNT, F_NEXT, F_WIN, F_LOSS, F_DRAW, F_MOVER = range(7)
FRAME_COLUMNS = 8
#: Rows of the stack's ``shared`` array: folds of stored children kept by ``children_key``
#: (key, fastest win, slowest loss, drawn), the row the key's low bits name
SHARED_SLOTS = 4


@njit(cache=True, inline="always")
def _fold(frame: np.ndarray, result: I64, remoteness: I64, same_mover: bool) -> None:
    """Take a child worth ``result`` for its own mover into its parent's frame."""
    if not same_mover:
        result = -result
    if result > 0:
        if remoteness < frame[F_WIN]:
            frame[F_WIN] = remoteness
    elif result == 0:
        frame[F_DRAW] = 1
    elif remoteness > frame[F_LOSS]:
        frame[F_LOSS] = remoteness


@njit(cache=True, inline="always")
def _finished(state: np.ndarray, tables: object) -> tuple[I64, I64]:
    """(result for its mover, remoteness) of a finished position."""
    result = np.int64(final(state, tables))
    if result == 0:
        return result, np.int64(0)
    return result, np.int64(final_remoteness(state, tables))


@njit(cache=True, inline="always")
def _solved(
    record: I64,
    own: I64,
    alternating: bool,
    state: np.ndarray,
    code: I64,
    tables: object,
    child: np.ndarray,
) -> tuple[I64, I64]:
    """(result for ``own``, remoteness) of the solved child after ``code``."""
    result, remoteness = record_value(record)
    child_mover = record_mover(record)
    if child_mover >= 0:
        same_mover = child_mover == own
    elif alternating:
        same_mover = False
    else:
        play(state, code, tables, child)
        same_mover = mover(child, tables) == own
    return (result if same_mover else -result), remoteness


@njit(cache=True, inline="always")
def _not_in_place(count, ply, records, tables, stack, alternating, deeper):  # type: ignore[no-untyped-def]
    """The ``deeper`` of :func:`_in_place` that evaluates nothing (the caller enters the
    position as a node)."""
    return np.int64(0), np.int64(0), np.int64(0)


@njit(cache=True, inline="always")
def _stored_fold(
    state: np.ndarray,
    row: np.ndarray,
    first: I64,
    count: I64,
    own: I64,
    alternating: bool,
    records: np.ndarray,
    tables: object,
    child: np.ndarray,
) -> tuple[I64, I64, I64, bool]:
    """(fastest won, slowest lost, any drawn, all solved) of the children after
    ``row[first:count]``, every one stored; False when one is not stored or not solved.
    Called with ``alternating`` a constant, the loop writes no memory where the turn always
    changes hands, so the compiler keeps what it reads of the plug-in's tables in
    registers."""
    fastest_win = NO_WIN
    slowest_loss = -1
    drawn = np.int64(0)
    for following in range(first, count):
        code = row[no_wrap(following)]
        index = child_rank(state, code, tables, child)
        if index < 0:
            return fastest_win, slowest_loss, drawn, False
        record = np.int64(records[no_wrap(index)])
        if record < SOLVED:
            return fastest_win, slowest_loss, drawn, False
        result, remoteness = _solved(record, own, alternating, state, code, tables, child)
        # branch-free: won and lost children come as data the predictor cannot guess
        fastest_win = min(fastest_win, remoteness if result > 0 else NO_WIN)
        slowest_loss = max(slowest_loss, remoteness if result < 0 else -1)
        drawn |= result == 0
    return fastest_win, slowest_loss, drawn, True


@njit(cache=True, inline="always")
def _in_place(
    count: I64,
    ply: I64,
    records: np.ndarray,
    tables: object,
    stack: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    alternating: bool,
    deeper: Callable[..., tuple[I64, I64, I64]],
) -> tuple[I64, I64, I64]:
    """The value of the position at ``ply`` (its ``count`` moves generated) when its
    transient children come first and are evaluated by ``deeper`` (this function again for
    one more level, or :func:`_not_in_place`), or are finished, and every other child is
    solved: ``(result, remoteness, nodes entered)``, or 0 nodes when it is not so (the
    caller enters it as a node). Spares the frames.

    The fold of the stored children is kept in ``shared`` under the position's
    ``children_key``: a later position with that key (the same mover, the same stored
    children after its transient ones) evaluates only its transient children."""
    states, moves, _, shared = stack
    if ply + 1 >= states.shape[0]:
        return np.int64(0), np.int64(0), np.int64(0)
    state = states[ply]
    child = states[ply + 1]
    row = moves[ply]
    own = mover(state, tables)
    key = children_key(state, tables)
    slot = shared[no_wrap(key & (SHARED_SLOTS - 1))]
    fastest_win = NO_WIN
    slowest_loss = -1
    drawn = np.int64(0)
    entered = np.int64(1)
    following = np.int64(0)
    while following < count:
        code = row[no_wrap(following)]
        if child_rank(state, code, tables, child) != TRANSIENT:
            break
        following += 1
        play(state, code, tables, child)
        grand = generate(child, tables, moves[ply + 1])
        if grand != 0:
            result, remoteness, inner = deeper(
                grand, ply + 1, records, tables, stack, alternating, _not_in_place
            )
            if inner == 0:
                return np.int64(0), np.int64(0), np.int64(0)
            entered += inner
        else:
            entered += 1
            result, remoteness = _finished(child, tables)
        if alternating or mover(child, tables) != own:
            result = -result
        fastest_win = min(fastest_win, remoteness if result > 0 else NO_WIN)
        slowest_loss = max(slowest_loss, remoteness if result < 0 else -1)
        drawn |= result == 0
    if key >= 0 and slot[0] == key:
        stored_win, stored_loss, stored_draw = slot[1], slot[2], slot[3]
    else:
        if alternating:
            stored_win, stored_loss, stored_draw, solved = _stored_fold(
                state, row, following, count, own, True, records, tables, child
            )
        else:
            stored_win, stored_loss, stored_draw, solved = _stored_fold(
                state, row, following, count, own, False, records, tables, child
            )
        if not solved:
            return np.int64(0), np.int64(0), np.int64(0)
        if key >= 0:
            slot[0], slot[1], slot[2], slot[3] = key, stored_win, stored_loss, stored_draw
    fastest_win = min(fastest_win, stored_win)
    if fastest_win < NO_WIN:
        return np.int64(1), fastest_win + 1, entered
    if (drawn | stored_draw) != 0:
        return np.int64(0), np.int64(0), entered
    return np.int64(-1), max(slowest_loss, stored_loss) + 1, entered


# Numba's reference counting as the plug-in asks (``NRT`` above; solvers.engine_search).
@njit(cache=True, _nrt=NRT)  # type: ignore[call-overload]
def solve(
    first: I64,
    last: I64,
    step: I64,
    records: np.ndarray,
    tables: object,
    stack: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    ctl: np.ndarray,
) -> I64:
    """Solve every unsolved rank from ``first`` by ``step`` (1 or -1) up to ``last``
    (excluded; a fresh range starts with ``ctl[C_CURSOR] = first`` and ``ctl[C_DEPTH] =
    0``), or with ``ctl[C_ROOT] = 1`` the root in ``states[0]`` (its value, stored or not, in
    ``ctl[S_RESULT]`` and ``ctl[S_REMOTENESS]``). Returns 1 when the range is done, 0 when stopped (``S_ABORTED``, ``S_OUTSIDE``,
    ``S_OVERFLOW``). ``stack`` is ``(states, moves, frames, shared)``: rows of the state's
    words, of ``max_moves`` and of :data:`FRAME_COLUMNS`, ``max_ply + 1`` rows each, and
    :data:`SHARED_SLOTS` rows of four (keys -1 at first: see :func:`_in_place`)."""
    states, moves, frames, _ = stack
    max_ply = states.shape[0] - 1
    only_marked = ctl[C_ONLY_MARKED] != 0
    alternating = ctl[C_ALTERNATING] != 0
    generated = np.int64(-1)  # the moves of the child about to be entered, when generated
    depth = ctl[C_DEPTH]
    cursor = ctl[C_CURSOR]
    while True:
        if depth == 0 and ctl[C_ROOT] != 0:
            # one root, given in ``states[0]``: entered once, then done
            ctl[C_DEPTH] = 0
            if ctl[C_ROOT] == 2:
                return 1
            if ctl[S_NODES] >= ctl[S_NODE_LIMIT]:
                ctl[S_ABORTED] = 1
                return 0
            ctl[C_ROOT] = 2
            index = rank(states[0], tables)
            if index == OUTSIDE:
                ctl[S_OUTSIDE] = 1
                return 0
            ply = 0
        elif depth == 0:
            found = np.int64(-1)
            while cursor != last:
                record = records[cursor]
                if record < SOLVED and (record == MARKED or not only_marked):
                    found = cursor
                    break
                cursor += step
            if found < 0:
                ctl[C_CURSOR] = cursor
                ctl[C_DEPTH] = 0
                return 1
            if ctl[S_NODES] >= ctl[S_NODE_LIMIT]:
                ctl[S_ABORTED] = 1
                ctl[C_CURSOR] = cursor
                ctl[C_DEPTH] = 0
                return 0
            cursor += step
            unrank(found, tables, states[0])
            ply = 0
            index = found
        else:
            if depth > max_ply:  # no row left for a child
                ctl[S_OVERFLOW] = 1
                ctl[C_DEPTH] = 0
                ctl[C_CURSOR] = cursor
                return 0
            parent = depth - 1
            fr = frames[parent]
            # the solved children in a row, their values kept in locals
            own = fr[F_MOVER]
            fastest_win = fr[F_WIN]
            slowest_loss = fr[F_LOSS]
            drawn = fr[F_DRAW]
            following = fr[F_NEXT]
            count = fr[F_COUNT]
            code = np.int64(0)
            index = np.int64(0)
            generated = np.int64(-1)
            while following < count:
                code = moves[parent, following]
                index = child_rank(states[parent], code, tables, states[depth])
                if index == TRANSIENT:
                    # played and generated here: a finished one is taken in at once, one
                    # whose children are all solved or finished is evaluated in place
                    play(states[parent], code, tables, states[depth])
                    generated = generate(states[depth], tables, moves[depth])
                    if generated != 0:
                        result, remoteness, entered = _in_place(
                            generated, depth, records, tables, stack, alternating, _not_in_place
                        )
                        if entered == 0:
                            break
                        ctl[S_NODES] += entered
                        if depth > ctl[S_MAX_DEPTH]:
                            ctl[S_MAX_DEPTH] = depth
                    else:
                        ctl[S_NODES] += 1
                        result, remoteness = _finished(states[depth], tables)
                    following += 1
                    if alternating or mover(states[depth], tables) != own:
                        result = -result
                    generated = np.int64(-1)
                elif index < 0:
                    break
                else:
                    record = np.int64(records[index])
                    if record < SOLVED:
                        break
                    following += 1
                    result, remoteness = _solved(
                        record, own, alternating, states[parent], code, tables, states[depth]
                    )
                # branch-free: won and lost children come as data the predictor cannot guess
                fastest_win = min(fastest_win, remoteness if result > 0 else NO_WIN)
                slowest_loss = max(slowest_loss, remoteness if result < 0 else -1)
                drawn |= result == 0
            fr[F_NEXT] = following
            fr[F_WIN] = fastest_win
            fr[F_LOSS] = slowest_loss
            fr[F_DRAW] = drawn
            if following == count:
                # every child is in: the node's value
                if fastest_win < NO_WIN:
                    result, remoteness = np.int64(1), fastest_win + 1
                elif drawn != 0:
                    result, remoteness = np.int64(0), np.int64(0)
                else:
                    result, remoteness = np.int64(-1), slowest_loss + 1
                if fr[F_INDEX] >= 0:
                    records[fr[F_INDEX]] = record_of(result, remoteness, states[parent], tables)
                depth = parent
                if depth > 0:
                    up = frames[depth - 1]
                    _fold(up, result, remoteness, mover(states[parent], tables) == up[F_MOVER])
                else:
                    ctl[S_RESULT] = result
                    ctl[S_REMOTENESS] = remoteness
                continue
            if index == OUTSIDE:
                ctl[S_OUTSIDE] = 1
                ctl[C_DEPTH] = 0
                ctl[C_CURSOR] = cursor
                return 0
            if ctl[S_NODES] >= ctl[S_NODE_LIMIT]:
                ctl[S_ABORTED] = 1
                ctl[C_DEPTH] = depth
                ctl[C_CURSOR] = cursor
                return 0
            fr[F_NEXT] += 1
            if generated < 0:
                play(states[parent], code, tables, states[depth])
            ply = depth
        # enter the node at ``ply`` (its state in ``states[ply]``, its rank ``index``)
        ctl[S_NODES] += 1
        if ply > ctl[S_MAX_DEPTH]:
            ctl[S_MAX_DEPTH] = ply
        state = states[ply]
        count = generated if ply > 0 and generated > 0 else generate(state, tables, moves[ply])
        generated = np.int64(-1)
        if count == 0:
            result = np.int64(final(state, tables))
            remoteness = np.int64(0)
            if result != 0:
                remoteness = np.int64(final_remoteness(state, tables))
            if index >= 0:
                records[index] = record_of(result, remoteness, state, tables)
            if ply > 0:
                up = frames[ply - 1]
                _fold(up, result, remoteness, mover(state, tables) == up[F_MOVER])
            else:
                ctl[S_RESULT] = result
                ctl[S_REMOTENESS] = remoteness
            continue
        if ply == 0 and index >= 0 and ctl[C_CHILDREN_SOLVED] != 0:
            result, remoteness, entered = _in_place(
                count, ply, records, tables, stack, alternating, _in_place
            )
            if entered != 0:
                ctl[S_NODES] += entered - 1
                records[index] = record_of(result, remoteness, state, tables)
                ctl[S_RESULT] = result
                ctl[S_REMOTENESS] = remoteness
                continue
        fr = frames[ply]
        fr[F_INDEX] = index
        fr[F_COUNT] = count
        fr[F_NEXT] = 0
        fr[F_WIN] = NO_WIN
        fr[F_LOSS] = -1
        fr[F_DRAW] = 0
        fr[F_MOVER] = mover(state, tables)
        depth = ply + 1


@njit(cache=True, _nrt=NRT)  # type: ignore[call-overload]
def mark(
    first: I64,
    last: I64,
    records: np.ndarray,
    tables: object,
    stack: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    ctl: np.ndarray,
) -> I64:
    """Forward pass over ranks ``first .. last - 1`` in increasing order, for a game whose
    moves raise the rank: the children of every :data:`MARKED` rank are marked too (through
    the transient positions between them). Returns the number of marked ranks met; 0 with
    ``S_OUTSIDE`` or ``S_OVERFLOW`` set when a child is outside the space or the
    transients nest deeper than the stack (:func:`solve`'s)."""
    states, moves, frames, _ = stack
    max_ply = states.shape[0] - 1
    met = 0
    for index in range(first, last):
        if records[index] != MARKED:
            continue
        met += 1
        unrank(index, tables, states[0])
        frames[0, F_COUNT] = generate(states[0], tables, moves[0])
        frames[0, F_NEXT] = 0
        depth = 1
        while depth > 0:
            fr = frames[depth - 1]
            if fr[F_NEXT] == fr[F_COUNT]:
                depth -= 1
                continue
            if depth > max_ply:
                ctl[S_OVERFLOW] = 1
                return 0
            code = moves[depth - 1, fr[F_NEXT]]
            fr[F_NEXT] += 1
            child = child_rank(states[depth - 1], code, tables, states[depth])
            if child >= 0:
                if records[child] == 0:
                    records[child] = MARKED
            elif child == TRANSIENT:
                play(states[depth - 1], code, tables, states[depth])
                frames[depth, F_COUNT] = generate(states[depth], tables, moves[depth])
                frames[depth, F_NEXT] = 0
                depth += 1
            else:
                ctl[S_OUTSIDE] = 1
                return 0
    return met
