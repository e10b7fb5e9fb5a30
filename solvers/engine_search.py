"""The engine's alpha-beta, written once; :mod:`solvers.engine_build` compiles a copy per game.

This module is a template. The block between the ``plug-in`` markers below binds the names
the search calls (``generate``, ``final``, ``play``, ``mover``, ``key``, ``child_key``,
``order``, ``move_to_key``, ``move_from_key``); :func:`solvers.engine_build.specialise`
writes a copy of this file with the block rewritten to import one game's plug-in, into a
cache folder, and imports it. Numba then compiles the copy for that game alone (the plug-in's
functions are inlined like any global function) and caches the machine code on disk next to
the copy, so a second process does not compile again. Here, unspecialised, the block binds
stubs: a game with no move.

The search (docs/engine.md has the plug-in's side)
--------------------------------------------------
Negamax alpha-beta, fail-soft, iterative: an explicit stack of frames, one per ply, so no
recursion and no limit but ``max_ply``. Scores are for the player to move: -1/0/1 in value
mode, ``BIG - r`` / ``-(BIG - r)`` for a win / loss in ``r`` plies in remoteness mode; a
child's score is negated when the players alternate and kept when the same player moves
again; in remoteness mode a score moves one ply toward zero on its way up and windows passed
down widen by one step, so bounds stay exact.

* Table: :mod:`solvers.kernel_table` (two key words and a tag verified on every probe,
  buckets of two slots, work-preferred and always-replace). The key is the plug-in's
  (``key``): its canonical image under the game's symmetries where it has them, with the
  symmetry that gives it; the best move is stored in the key's frame (``move_to_key``) and
  mapped back on a probe (``move_from_key``).
* Ordering: the table move first, searched before the other moves are even ordered (it
  often cuts off alone); then the plug-in's hint (``order``: smaller first, for example the
  replies the move leaves the opponent), ties broken by the history heuristic (every
  cut-off credits its move with the square of the bit length of its work,
  :func:`solvers.kernel_table.credit`; counts kept per player to move, one set for both in
  an impartial game, whose players have the same moves), then by the generator's order.
  ``order`` may name a move that wins at once (its child has no move and has lost): the
  node is then won without a visit. The moves are picked one at a time (selection of the smallest key)
  because most nodes cut off after a move or two.
* Children's keys and prefetch (``C_PREFETCH``, games whose players alternate and whose
  positions cannot repeat): while ordering, every child's key is
  computed (``child_key``) and its table bucket prefetched, so that the visits find it in
  the cache. A child whose entry settles it is then not entered at all (counted as one node,
  ``S_SETTLED``); a child entered gets its key and bucket from the parent, and does not read
  its entry again when the parent has just found none (the node's own probe, ``S_PROBES``,
  is skipped then).
* Enhanced transposition cut-off (``C_ETC``): before its first child visit after ordering,
  a node reads every remaining child's entry; one that refutes its child cuts the node off
  (``S_ETC_CUTOFFS``), one that says the child cannot raise alpha moves it last.
* Flagged results are never stored: a position repeated on the current path (games whose
  positions can repeat, ``C_CYCLIC``) scores a draw, and a position at the horizon
  (``C_HORIZON`` > 0, value mode of games without draws) scores 0, "unknown"; a result that
  depended on either is flagged and handed up without being stored, as in
  :mod:`solvers.alphabeta` (a repetition may score a draw: a player who can force a win can
  do so without repeating, one who cannot can avoid losing for ever). A proven win or loss
  (the extreme score) never depends on an unknown: it is stored exact and carries into the
  next, deeper pass.
* Budget: the search stops once ``ctl[S_NODES]`` passes ``ctl[S_NODE_LIMIT]``
  (``S_ABORTED``); nothing on the unfinished path is stored, so the next call resumes from
  the table (:mod:`solvers.kernel_base`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.kernel_table import (
    BIG,
    EXACT,
    I64,
    INFINITY,
    LOWER,
    MAX_MOVE,
    S_ABORTED,
    S_HITS,
    S_MAX_PLY,
    S_NODE_LIMIT,
    S_NODES,
    S_OVERFLOW,
    S_PROBES,
    S_REPETITIONS,
    SLOT_WORDS,
    U64,
    UPPER,
    bucket_base,
    credit,
    entry_flag,
    entry_move,
    entry_score,
    holds,
    no_wrap,
    prefetch,
    store_inline,
    toward_leaf,
    toward_root,
)

# isort: split
# <plug-in>
from solvers.engine_defaults import final_remoteness, key, move_from_key, move_to_key, order
from solvers.engine_defaults import unplugged_final as final
from solvers.engine_defaults import unplugged_generate as generate
from solvers.engine_defaults import unplugged_mover as mover
from solvers.engine_defaults import unplugged_play as play

NRT = True


@njit(cache=True, inline="always")
def child_key(state, code, tables, scratch):  # type: ignore[no-untyped-def]
    play(state, code, tables, scratch)
    return key(scratch, tables)


# </plug-in>

# the control array ``ctl`` (int64): configuration, then the statistics of
# solvers.kernel_table (indices 16-25) and the engine's own, then the history counts
C_REMOTENESS = 0
C_BUCKET_MASK = 1
C_MAX_PLY = 2
C_ORDER = 3
C_ETC = 4
C_HISTORY = 5
#: 0: no horizon; h > 0: a position h plies below the root scores 0, unknown, flagged
C_HORIZON = 6
C_PREFETCH = 7
C_CYCLIC = 8
#: move codes the history counts cover (codes at or above it get no history)
C_MOVE_CODES = 9
#: a power of two above every move count: order keys keep the move's index below it
C_INDEX_SCALE = 10
#: 1: the players alternate at every move (children's entries may be read by the parent)
C_ALTERNATING = 11
#: the first words of a state that name the position (a repetition compares these)
C_IDENTITY_WORDS = 12
S_SETTLED = 26
S_ETC_CUTOFFS = 27
#: 1 when the root's result was flagged (it depended on a repetition or the horizon)
S_ROOT_FLAGGED = 28
S_IMMEDIATE_WINS = 29
HISTORY = 32
#: History counts saturate here in order keys (room for the plug-in's hint above).
HISTORY_CAP = (1 << 24) - 1
#: The same when a cut-off credits the nodes it took (C_HISTORY = HISTORY_WORK).
WORK_CAP = (1 << 30) - 1
# history credit (ctl[C_HISTORY]): none, the square of the bit length of the cut-off's work
# (as depth squared in chess programs), or the work itself; plus HISTORY_SHARED where the
# players keep one set of counts (impartial games: both players have the same moves)
HISTORY_OFF = 0
HISTORY_DEPTH = 1
HISTORY_WORK = 2
HISTORY_CREDIT = 3
HISTORY_SHARED = 4
#: Added to the order key of a child whose table entry says it cannot raise alpha: last.
REFUTED_LAST = 1 << 56


def control_length(move_codes: int) -> int:
    """Length of the control array for plug-ins whose move codes are below ``move_codes``."""
    return HISTORY + 2 * move_codes


# frame columns (frames: max_ply + 1 rows)
F_COUNT = 0
F_CURSOR = 1
F_ALPHA = 2
F_BETA = 3
F_ALPHA0 = 4
F_BEST = 5
F_BEST_MOVE = 6
F_SIGN = 7
F_NODES = 8
F_K0 = 9
F_K1 = 10
F_TAG = 11
F_SYM = 12
F_BASE = 13
F_BEST_FLAGGED = 14
F_ANY_FLAGGED = 15
F_START = 16
F_ORDERED = 17
F_ETC_DONE = 18
#: 0: the node computes its key; KEY_KNOWN: its parent did (key, symmetry and bucket in
#: the frame); NO_ENTRY: and found no entry for it just before entering it
F_KEY_KNOWN = 19
FRAME_COLUMNS = 20
KEY_KNOWN = 1
NO_ENTRY = 2

# ``children[ply]``: the children's keys by the move's index at ordering time
_CK0 = 0
_CK1 = 1
_CTAG = 2
_CSYM = 3
_CBASE = 4
CHILD_COLUMNS = 5

_ENTER = 0
_NEXT = 1
_UP = 2


@njit(cache=True, inline="always")
def _store(tt, frame, flag, best, move, work, tables, ctl):  # type: ignore[no-untyped-def]
    stored_move = -1 if move < 0 else move_to_key(move, frame[F_SYM], tables)
    store_inline(
        tt,
        frame[F_BASE],
        np.uint64(frame[F_K0]),
        np.uint64(frame[F_K1]),
        frame[F_TAG],
        flag,
        best,
        stored_move,
        work,
        ctl,
    )


@njit(cache=True, inline="always")
def _slot(tt: np.ndarray, base: I64, k0: U64, k1: U64, tag: I64) -> I64:
    """The word index of the slot of bucket ``base`` that holds the key, or -1."""
    if holds(tt, base, k0, k1, tag):
        return base
    if holds(tt, base + SLOT_WORDS, k0, k1, tag):
        return base + SLOT_WORDS
    return -1


@njit(cache=True, inline="always")
def _entry(tt: np.ndarray, base: I64, k0: U64, k1: U64, tag: I64) -> tuple[I64, I64]:
    """(bound flag, score) of the key's entry in bucket ``base``; flag 0 when it has none."""
    at = _slot(tt, base, k0, k1, tag)
    if at < 0:
        return 0, 0
    data = tt[no_wrap(at + 2)]
    return entry_flag(data), entry_score(data)


@njit(cache=True, inline="always")
def _credit(ctl: np.ndarray, counts: I64, move: I64, work: I64) -> None:
    """Credit ``move`` in the history counts starting at ``counts`` (the mover's)."""
    codes = ctl[C_MOVE_CODES]
    if not 0 <= move < codes:
        return
    at = counts + move
    kind = ctl[C_HISTORY] & HISTORY_CREDIT
    if kind == HISTORY_DEPTH:
        credit(ctl, at, work, HISTORY, 2 * codes, HISTORY_CAP)
    elif kind == HISTORY_WORK:
        ctl[at] += min(work, WORK_CAP)
        if ctl[at] > WORK_CAP:  # old credit fades: every count halved
            for k in range(HISTORY, HISTORY + 2 * codes):
                ctl[k] >>= 1


# Numba's reference counting (NRT) is what the plug-in asks for (``NRT`` in the block
# above): a plug-in that copies a state by slicing (``child[:] = state``) needs it; without
# it every view of a stack row is free of an atomic increment and decrement.
@njit(cache=True, _nrt=NRT)  # type: ignore[call-overload]
def search(
    root: np.ndarray,
    tables: object,
    alpha: I64,
    beta: I64,
    ctl: np.ndarray,
    tt: np.ndarray,
    states: np.ndarray,
    moves: np.ndarray,
    order_keys: np.ndarray,
    children: np.ndarray,
    frames: np.ndarray,
) -> I64:
    """Score of ``root`` for its mover within (``alpha``, ``beta``) (fail-soft; exact for a
    full window unless ``ctl[S_ROOT_FLAGGED]``). ``states`` (rows of the state's words),
    ``moves``, ``order_keys`` (rows of ``max_moves``), ``children`` (rows of
    ``CHILD_COLUMNS * max_moves``) and ``frames`` (rows of ``FRAME_COLUMNS``) are the stack,
    ``max_ply + 1`` rows each."""
    max_ply = states.shape[0] - 1
    remoteness = ctl[C_REMOTENESS]
    mask = ctl[C_BUCKET_MASK]
    cyclic = ctl[C_CYCLIC] != 0
    horizon = ctl[C_HORIZON]
    scale = ctl[C_INDEX_SCALE]
    codes = ctl[C_MOVE_CODES]
    # where the history counts of player 1 start (those of player 0 at HISTORY)
    counts_of_1 = HISTORY if ctl[C_HISTORY] & HISTORY_SHARED else HISTORY + codes
    history_on = (ctl[C_HISTORY] & HISTORY_CREDIT) != 0
    look_ahead = (
        (ctl[C_PREFETCH] != 0 or ctl[C_ETC] != 0) and not cyclic and ctl[C_ALTERNATING] != 0
    )
    win = BIG if remoteness else 1
    max_score = BIG - 1 if remoteness else 1
    for w in range(root.shape[0]):
        states[0, w] = root[w]
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    frames[0, F_KEY_KNOWN] = 0
    ctl[S_ROOT_FLAGGED] = 0
    ply = 0
    step = _ENTER
    value = 0
    flagged = False
    while True:
        # this ply's rows (views: no copy, and no reference counting without NRT)
        fr = frames[ply]
        mv = moves[ply]
        ok = order_keys[ply]
        if step == _ENTER:
            ctl[S_NODES] += 1
            if ctl[S_NODES] > ctl[S_NODE_LIMIT]:
                ctl[S_ABORTED] = 1
                return 0
            if ply > ctl[S_MAX_PLY]:
                ctl[S_MAX_PLY] = ply
            state = states[ply]
            a = fr[F_ALPHA]
            b = fr[F_BETA]
            if cyclic:
                repeated = False
                for p in range(ply - 1, -1, -1):
                    same = True
                    for w in range(ctl[C_IDENTITY_WORDS]):
                        if states[p, w] != state[w]:
                            same = False
                            break
                    if same:
                        repeated = True
                        break
                if repeated:
                    ctl[S_REPETITIONS] += 1
                    value = 0
                    flagged = True
                    step = _UP
                    continue
            if fr[F_KEY_KNOWN] == 0:
                k0, k1, tag, sym = key(state, tables)
                fr[F_K0] = np.int64(k0)
                fr[F_K1] = np.int64(k1)
                fr[F_TAG] = tag
                fr[F_SYM] = sym
                fr[F_BASE] = bucket_base(k0, k1, tag, mask)
            table_move = -1  # none (also when the entry keeps no move: MAX_MOVE)
            found = False
            if fr[F_KEY_KNOWN] != NO_ENTRY:
                ctl[S_PROBES] += 1
                at = _slot(tt, fr[F_BASE], np.uint64(fr[F_K0]), np.uint64(fr[F_K1]), fr[F_TAG])
                if at >= 0:
                    ctl[S_HITS] += 1
                    data = tt[no_wrap(at + 2)]
                    stored_flag = entry_flag(data)
                    stored = entry_score(data)
                    if (
                        stored_flag == EXACT
                        or (stored_flag == LOWER and stored >= b)
                        or (stored_flag == UPPER and stored <= a)
                    ):
                        value = stored
                        flagged = False
                        found = True
                    elif entry_move(data) != MAX_MOVE:
                        table_move = move_from_key(entry_move(data), fr[F_SYM], tables)
            if found:
                step = _UP
                continue
            if horizon > 0 and ply >= horizon:
                value = 0
                flagged = True
                step = _UP
                continue
            if ply == max_ply:
                ctl[S_OVERFLOW] = 1
                ctl[S_ABORTED] = 1
                return 0
            count = generate(state, tables, mv)
            if count == 0:  # the game is over: its result for the player to move
                value = final(state, tables)
                if remoteness:  # an end a plug-in reads from a table may lie plies away
                    value *= win - final_remoteness(state, tables)
                flagged = False
                step = _UP
                continue
            start = 0
            if table_move >= 0:
                for i in range(count):
                    if mv[no_wrap(i)] == table_move:
                        mv[no_wrap(i)] = mv[no_wrap(0)]
                        mv[no_wrap(0)] = table_move
                        start = 1
                        break
            fr[F_COUNT] = count
            fr[F_CURSOR] = 0
            fr[F_ALPHA0] = a
            fr[F_BEST] = -INFINITY
            fr[F_BEST_MOVE] = -1
            fr[F_NODES] = ctl[S_NODES]
            fr[F_BEST_FLAGGED] = 0
            fr[F_ANY_FLAGGED] = 0
            fr[F_START] = start
            fr[F_ORDERED] = 0
            fr[F_ETC_DONE] = 0
            step = _NEXT
        elif step == _UP:  # ``value`` (``flagged``) is the result of the position at ``ply``
            if ply == 0:
                ctl[S_ROOT_FLAGGED] = 1 if flagged else 0
                return value
            ply -= 1
            fr = frames[ply]
            mv = moves[ply]
            v = toward_root(fr[F_SIGN] * value, remoteness)
            if flagged:
                fr[F_ANY_FLAGGED] = 1
            if v > fr[F_BEST]:
                fr[F_BEST] = v
                fr[F_BEST_MOVE] = mv[no_wrap(fr[F_CURSOR])]
                fr[F_BEST_FLAGGED] = 1 if flagged else 0
                if v > fr[F_ALPHA]:
                    fr[F_ALPHA] = v
            fr[F_CURSOR] += 1
            step = _NEXT
        else:  # _NEXT: the node at ``ply`` is done, cut off, or goes on to its next child
            best = fr[F_BEST]
            b = fr[F_BETA]
            cursor = fr[F_CURSOR]
            count = fr[F_COUNT]
            state = states[ply]
            side = mover(state, tables)
            counts = counts_of_1 if side else HISTORY
            # a node searches at least one child: deep in remoteness mode a widened window
            # may lie wholly below every score, and the first child's score is the bound
            if cursor < count and (best == -INFINITY or (best < b and best < max_score)):
                start = fr[F_START]
                if cursor >= start and fr[F_ORDERED] == 0:
                    fr[F_ORDERED] = 1
                    # the children's keys first, their buckets prefetched: the loads run
                    # while the hints are computed, instead of stalling the first visit
                    if look_ahead:
                        row = children[ply]
                        for k in range(start, count):
                            ck0, ck1, ctag, csym = child_key(
                                state, mv[no_wrap(k)], tables, states[ply + 1]
                            )
                            row[no_wrap(CHILD_COLUMNS * k + _CK0)] = np.int64(ck0)
                            row[no_wrap(CHILD_COLUMNS * k + _CK1)] = np.int64(ck1)
                            row[no_wrap(CHILD_COLUMNS * k + _CTAG)] = ctag
                            row[no_wrap(CHILD_COLUMNS * k + _CSYM)] = csym
                            cbase = bucket_base(ck0, ck1, ctag, mask)
                            row[no_wrap(CHILD_COLUMNS * k + _CBASE)] = cbase
                            if ctl[C_PREFETCH] != 0:
                                prefetch(tt, cbase)  # type: ignore[call-arg]
                    winner = -1
                    if ctl[C_ORDER] != 0:
                        winner = order(state, tables, mv, start, count, ok)
                    else:
                        for k in range(start, count):
                            ok[no_wrap(k)] = 0
                    if winner >= 0:  # a move that wins at once: nothing beats it
                        ctl[S_IMMEDIATE_WINS] += 1
                        fr[F_BEST] = max_score
                        fr[F_BEST_MOVE] = mv[no_wrap(winner)]
                        fr[F_BEST_FLAGGED] = 0
                        fr[F_NODES] -= 1  # its work: the one visit it spares (history credit)
                        continue  # finished below, on the next pass
                    for k in range(start, count):
                        m = mv[no_wrap(k)]
                        history = 0
                        if history_on and m < codes:
                            history = min(ctl[no_wrap(counts + m)], WORK_CAP)
                        ok[no_wrap(k)] = (ok[no_wrap(k)] * (WORK_CAP + 1) - history) * scale + k
                index = -1
                if cursor >= start:  # selection of the smallest key
                    chosen = cursor
                    smallest = ok[no_wrap(cursor)]
                    for k in range(cursor + 1, count):
                        if ok[no_wrap(k)] < smallest:
                            smallest = ok[no_wrap(k)]
                            chosen = k
                    m = mv[no_wrap(chosen)]
                    mv[no_wrap(chosen)] = mv[no_wrap(cursor)]
                    mv[no_wrap(cursor)] = m
                    ok[no_wrap(chosen)] = ok[no_wrap(cursor)]
                    ok[no_wrap(cursor)] = smallest
                    index = smallest & (scale - 1)
                m = mv[no_wrap(cursor)]
                a = fr[F_ALPHA]
                child_alpha = -toward_leaf(b, remoteness)
                child_beta = -toward_leaf(a, remoteness)
                known = look_ahead and index >= 0
                absent = False  # the child's entry read just now and not there
                if known:
                    row = children[ply]
                    ck0 = np.uint64(row[no_wrap(CHILD_COLUMNS * index + _CK0)])
                    ck1 = np.uint64(row[no_wrap(CHILD_COLUMNS * index + _CK1)])
                    ctag = row[no_wrap(CHILD_COLUMNS * index + _CTAG)]
                    # a child its entry settles is not entered (one node all the same;
                    # the players alternate, so its score is negated)
                    if ctl[S_NODES] < ctl[S_NODE_LIMIT]:
                        stored_flag, stored = _entry(
                            tt, row[no_wrap(CHILD_COLUMNS * index + _CBASE)], ck0, ck1, ctag
                        )
                        absent = stored_flag == 0
                        if (
                            stored_flag == EXACT
                            or (stored_flag == LOWER and stored >= child_beta)
                            or (stored_flag == UPPER and stored <= child_alpha)
                        ):
                            ctl[S_NODES] += 1
                            ctl[S_SETTLED] += 1
                            ctl[S_HITS] += 1
                            if ply + 1 > ctl[S_MAX_PLY]:
                                ctl[S_MAX_PLY] = ply + 1
                            fr[F_SIGN] = -1
                            value = stored
                            flagged = False
                            ply += 1
                            step = _UP
                            continue
                    if ctl[C_ETC] != 0 and fr[F_ETC_DONE] == 0:
                        fr[F_ETC_DONE] = 1
                        cut = -1
                        for k in range(cursor + 1, count):
                            other = ok[no_wrap(k)] & (scale - 1)
                            stored_flag, stored = _entry(
                                tt,
                                row[no_wrap(CHILD_COLUMNS * other + _CBASE)],
                                np.uint64(row[no_wrap(CHILD_COLUMNS * other + _CK0)]),
                                np.uint64(row[no_wrap(CHILD_COLUMNS * other + _CK1)]),
                                row[no_wrap(CHILD_COLUMNS * other + _CTAG)],
                            )
                            if stored_flag != 0 and stored_flag != LOWER and stored <= child_alpha:
                                cut = k
                                break
                            if stored_flag != 0 and stored_flag != UPPER and stored >= child_beta:
                                ok[no_wrap(k)] += REFUTED_LAST
                        if cut >= 0:  # the node's result as after visiting that child
                            ctl[S_NODES] += 1
                            ctl[S_HITS] += 1
                            ctl[S_SETTLED] += 1
                            ctl[S_ETC_CUTOFFS] += 1
                            m = mv[no_wrap(cut)]
                            mv[no_wrap(cut)] = mv[no_wrap(cursor)]
                            mv[no_wrap(cursor)] = m
                            ok[no_wrap(cut)] = ok[no_wrap(cursor)]
                            fr[F_SIGN] = -1
                            value = stored
                            flagged = False
                            ply += 1
                            step = _UP
                            continue
                play(state, m, tables, states[ply + 1])
                if mover(states[ply + 1], tables) == side:
                    fr[F_SIGN] = 1
                    frames[ply + 1, F_ALPHA] = toward_leaf(a, remoteness)
                    frames[ply + 1, F_BETA] = toward_leaf(b, remoteness)
                else:
                    fr[F_SIGN] = -1
                    frames[ply + 1, F_ALPHA] = child_alpha
                    frames[ply + 1, F_BETA] = child_beta
                if known:
                    row = children[ply]
                    frames[ply + 1, F_K0] = row[no_wrap(CHILD_COLUMNS * index + _CK0)]
                    frames[ply + 1, F_K1] = row[no_wrap(CHILD_COLUMNS * index + _CK1)]
                    frames[ply + 1, F_TAG] = row[no_wrap(CHILD_COLUMNS * index + _CTAG)]
                    frames[ply + 1, F_SYM] = row[no_wrap(CHILD_COLUMNS * index + _CSYM)]
                    frames[ply + 1, F_BASE] = row[no_wrap(CHILD_COLUMNS * index + _CBASE)]
                    frames[ply + 1, F_KEY_KNOWN] = NO_ENTRY if absent else KEY_KNOWN
                else:
                    frames[ply + 1, F_KEY_KNOWN] = 0
                ply += 1
                step = _ENTER
                continue
            # the node is finished: store its bound, credit a cut-off, hand it up
            best_move = fr[F_BEST_MOVE]
            work = ctl[S_NODES] - fr[F_NODES]
            if best >= max_score:  # nothing can beat it: exact whatever the window
                node_flag = EXACT
                result_flagged = fr[F_BEST_FLAGGED] != 0
            elif best >= b:
                node_flag = LOWER
                result_flagged = fr[F_BEST_FLAGGED] != 0
            elif best <= fr[F_ALPHA0]:
                node_flag = UPPER
                result_flagged = fr[F_ANY_FLAGGED] != 0
            else:
                node_flag = EXACT
                result_flagged = fr[F_ANY_FLAGGED] != 0
            if (best >= b or best >= max_score) and not (horizon > 0 and result_flagged):
                _credit(ctl, counts, best_move, work)
            if not result_flagged:
                _store(tt, fr, node_flag, best, best_move, work, tables, ctl)
            value = best
            flagged = result_flagged
            step = _UP
