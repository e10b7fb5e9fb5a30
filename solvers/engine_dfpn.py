"""The engine's depth-first proof-number search (df-pn), written once; compiled per game like
:mod:`solvers.engine_search` by :func:`solvers.engine_build.specialise`.

This module is a template in the same form as :mod:`solvers.engine_search`: the block
between the ``plug-in`` markers binds the plug-in's compiled functions (here, unspecialised,
stubs: a game with no move), and the specialised copy in the engine's cache folder imports
one game's plug-in instead, so numba inlines it and caches the machine code on disk.

The search is :mod:`solvers.proof_numbers` (its docstring: the table with least-work
replacement, the choice of the child and its thresholds with the 1 + epsilon trick, the
saturation, weak proof numbers) over the plug-in's hooks instead of one game's rules:

* Numbers, negamax: a node's (pn, dn) are those of "the player to move wins" (question 0).
  Players need not alternate: a child whose mover is the node's own contributes its numbers
  as they are, one whose mover is the opponent contributes them swapped.
* Draws (a ``final`` of 0): "the mover wins" and "the opponent wins" are then not each
  other's negation, so a game that can draw is searched with a question per node, 0 "the
  mover wins" or 1 "the mover does not lose", which flips at every change of mover (the
  mover wins exactly when the opponent does not avoid losing); the question is part of the
  table key (tag + 32). The root's value is then two searches: the mover wins (question 0),
  else does not lose (question 1: a draw), else a loss. A game is searched without questions
  until a draw is reached (``S_DRAW_SEEN``: the search stops and the Python side switches the
  kernel to questions, ``C_DRAWS``): a proof or disproof found without a draw is valid under
  either question, and a disproof of "the mover wins" is then a proof of its loss.
* Table key: the plug-in's ``key`` (its canonical image under the game's symmetries); the
  symmetry it returns is not needed (df-pn stores no move).
* A new child's first numbers (``C_FIRST_NUMBERS``): (1, replies) as the kernels start them,
  the replies counted by playing the child and generating its moves (a child with no move
  is then scored exactly: its end is known before any descent); or from the plug-in's
  ``order`` hint (no child played, only ``child_key``): its low 32 bits are the reply count
  (the disproof number) and the bits above, where the plug-in sets them, a first proof
  number (none: 1); or (1, 1). ``order`` may also name a move that wins at once: the node
  is proved.
* Enhanced transposition cut-off: every child's entry is read (or its first numbers made)
  before any descent; a child lost for the node's mover proves the node at once. The
  children's keys come first, each bucket prefetched, and the probes after them: a probe of
  a big table misses the caches, and prefetched the misses overlap instead of stalling one
  after the other (as the alpha-beta's look-ahead does).
* Graph-history interaction: df-pn refuses games whose positions repeat (the Python side),
  so every number in the table is a function of the position and question alone.
* Budget: ``ctl[S_NODES]`` counts calls (as the kernels' df-pn do: children looked up or
  counted before descending are not nodes); past ``ctl[S_NODE_LIMIT]`` the search unwinds
  (``S_ABORTED``) and stores nothing on its path, so the next call resumes from the table.

Recursion, as in the kernels' df-pn: each call keeps its children's numbers in its row of
``numbers`` (a table entry replaced meanwhile costs time, never results).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers import kernel_table as stat  # the statistics words: stat.S_NODES, ...
from solvers.engine_search import C_ALTERNATING, C_MAX_PLY, C_ORDER
from solvers.kernel_table import I64, prefetch
from solvers.proof_numbers import (
    PN_INFINITY,
    child_thresholds,
    probe,
    store,
    summarize,
    table_base,
)

# isort: split
# <plug-in>
from solvers.engine_defaults import UNPLUGGED, key, move_from_key, move_to_key, order  # noqa: F401

child_key, final, generate, mover, play = UNPLUGGED

NRT = True
# </plug-in>

# the control array is the engine's (solvers.engine_search: C_MAX_PLY, C_ORDER,
# C_ALTERNATING, the table statistics); df-pn's own settings sit in its free words
#: first numbers of a new child: FIRST_REPLIES, FIRST_HINT or FIRST_UNIT
C_FIRST_NUMBERS = 13
#: 1: weak proof numbers (the disproof number is max + open children - 1, not the sum)
C_WEAK = 14
#: 1: the game can draw: nodes carry a question (module docstring)
C_DRAWS = 15
#: set when a draw is reached while ``C_DRAWS`` is 0 (the search stops at once)
S_DRAW_SEEN = 30
FIRST_NUMBERS = ("unit", "hint", "replies")
FIRST_UNIT, FIRST_HINT, FIRST_REPLIES = range(len(FIRST_NUMBERS))
#: an ``order`` hint is the first disproof number (the replies) in its low bits and,
#: optionally, the first proof number from this bit up
HINT_PROOF_SHIFT = 32
HINT_REPLIES = (1 << HINT_PROOF_SHIFT) - 1
#: the table tag of question 1 (plug-in tags are below 32)
QUESTION_TAG = 32
#: rows of ``numbers[ply]`` (solvers.proof_numbers.summarize reads the first two):
#: what the node sums, what it takes the least of, whether the child's mover is its own,
#: and the child's key and bucket between the two passes of the ETC
_SUMMED, _LEAST, _SAME, _KEY0, _KEY1, _TAG, _BASE = range(7)
NUMBER_ROWS = 7


@njit(cache=True, inline="always")
def _ended(result: I64, question: I64, ctl: np.ndarray) -> tuple[I64, I64]:
    """Numbers of a finished position whose mover's result is ``result`` (1, 0, -1)."""
    if result > 0 or (result == 0 and question == 1):
        return 0, PN_INFINITY
    if result == 0 and ctl[C_DRAWS] == 0:  # a draw in a game searched without questions
        ctl[S_DRAW_SEEN] = 1
        ctl[stat.S_ABORTED] = 1
    return PN_INFINITY, 0


@njit(cache=True, inline="always")
def _tag(tag: I64, question: I64) -> I64:
    return tag + QUESTION_TAG * question


# reference counting as the plug-in asks (solvers.engine_search.search: every view of a path
# row, and the tables passed down at every recursive call, are free without it)
@njit(cache=True, _nrt=NRT)  # type: ignore[call-overload]
def dfpn(
    state: np.ndarray,
    question: I64,
    proof_threshold: I64,
    disproof_threshold: I64,
    ply: I64,
    tables: object,
    ctl: np.ndarray,
    tt: np.ndarray,
    states: np.ndarray,
    moves: np.ndarray,
    hints: np.ndarray,
    numbers: np.ndarray,
) -> tuple[I64, I64]:
    """(proof number, disproof number) of ``question`` (0: the mover wins, 1: the mover does
    not lose) at ``state`` within the thresholds: (0, INF) proved, (INF, 0) disproved.
    ``states``, ``moves``, ``hints`` (rows of ``max_moves``) and ``numbers`` (rows of
    ``NUMBER_ROWS`` x ``max_moves``) are the path, ``max_ply + 1`` rows; ``states[ply + 1]``
    and ``moves[ply + 1]`` are scratch while the children are counted."""
    ctl[stat.S_NODES] += 1
    if ctl[stat.S_NODES] > ctl[stat.S_NODE_LIMIT]:  # out of budget: the callers store nothing
        ctl[stat.S_ABORTED] = 1
        return 1, 1
    if ply > ctl[stat.S_MAX_PLY]:
        ctl[stat.S_MAX_PLY] = ply
    k0, k1, tag, _ = key(state, tables)
    tag = _tag(tag, question)
    base = table_base(tt, k0, k1, tag)
    ctl[stat.S_PROBES] += 1
    pn, dn, found = probe(tt, base, k0, k1, tag)
    if found:
        ctl[stat.S_HITS] += 1
        if pn >= proof_threshold or dn >= disproof_threshold:
            return pn, dn
    if ply >= ctl[C_MAX_PLY]:
        ctl[stat.S_OVERFLOW] = 1
        ctl[stat.S_ABORTED] = 1
        return 1, 1
    count = generate(state, tables, moves[ply])
    if count == 0:
        pn, dn = _ended(final(state, tables), question, ctl)
        if ctl[stat.S_ABORTED] != 0:
            return 1, 1
        store(tt, base, k0, k1, tag, pn, dn, 1, ctl)
        return pn, dn
    first = ctl[C_FIRST_NUMBERS]
    alternating = ctl[C_ALTERNATING] != 0
    side = mover(state, tables)
    if ctl[C_ORDER] != 0 and order(state, tables, moves[ply], 0, count, hints[ply]) >= 0:
        store(tt, base, k0, k1, tag, 0, PN_INFINITY, 1, ctl)  # a move wins at once
        return 0, PN_INFINITY
    nodes_before = ctl[stat.S_NODES]
    scratch = states[ply + 1]
    row = numbers[ply]
    for i in range(count):  # every child's key, its bucket prefetched (module docstring)
        code = moves[ply, i]
        if first == FIRST_REPLIES or not alternating:
            play(state, code, tables, scratch)
            ck0, ck1, ctag, _ = key(scratch, tables)
            same = mover(scratch, tables) == side
        else:
            ck0, ck1, ctag, _ = child_key(state, code, tables, scratch)
            same = False
        ctag = _tag(ctag, question if same else (1 - question) * ctl[C_DRAWS])
        cbase = table_base(tt, ck0, ck1, ctag)
        prefetch(tt, cbase)  # type: ignore[call-arg]
        row[_SAME, i] = 1 if same else 0
        row[_KEY0, i] = np.int64(ck0)
        row[_KEY1, i] = np.int64(ck1)
        row[_TAG, i] = ctag
        row[_BASE, i] = cbase
    for i in range(count):  # every child's numbers before any descent (ETC)
        same = row[_SAME, i] != 0
        child_question = question if same else (1 - question) * ctl[C_DRAWS]
        ctag = row[_TAG, i]
        ck0, ck1 = np.uint64(row[_KEY0, i]), np.uint64(row[_KEY1, i])
        ctl[stat.S_PROBES] += 1
        cpn, cdn, cfound = probe(tt, row[_BASE, i], ck0, ck1, ctag)
        if cfound:
            ctl[stat.S_HITS] += 1
        elif first == FIRST_REPLIES:
            play(state, moves[ply, i], tables, scratch)
            replies = generate(scratch, tables, moves[ply + 1])
            if replies == 0:
                cpn, cdn = _ended(final(scratch, tables), child_question, ctl)
                if ctl[stat.S_ABORTED] != 0:
                    return 1, 1
            else:
                cpn, cdn = 1, replies
        elif first == FIRST_HINT:
            hint = hints[ply, i]
            cpn, cdn = max(hint >> HINT_PROOF_SHIFT, 1), max(hint & HINT_REPLIES, 1)
        else:
            cpn, cdn = 1, 1
        if same:
            cpn, cdn = cdn, cpn
        if cdn == 0:  # the child is lost for its mover (won for ours): the node is won
            store(tt, base, k0, k1, tag, 0, PN_INFINITY, 1, ctl)
            return 0, PN_INFINITY
        row[_SUMMED, i] = cpn
        row[_LEAST, i] = cdn
    weak = ctl[C_WEAK] != 0
    while True:
        pn, dn, best, second = summarize(numbers, ply, count, weak)
        if pn >= proof_threshold or dn >= disproof_threshold:
            break
        child_proof, child_disproof = child_thresholds(
            proof_threshold, disproof_threshold, dn, row[_SUMMED, best], second
        )
        same = row[_SAME, best] != 0
        play(state, moves[ply, best], tables, scratch)
        if same:  # the child's numbers are ours: its thresholds too
            child_proof, child_disproof = child_disproof, child_proof
        cpn, cdn = dfpn(
            scratch,
            question if same else (1 - question) * ctl[C_DRAWS],
            child_proof,
            child_disproof,
            ply + 1,
            tables,
            ctl,
            tt,
            states,
            moves,
            hints,
            numbers,
        )
        if same:
            cpn, cdn = cdn, cpn
        if ctl[stat.S_ABORTED] != 0:
            return 1, 1
        row[_SUMMED, best] = cpn
        row[_LEAST, best] = cdn
    store(tt, base, k0, k1, tag, pn, dn, ctl[stat.S_NODES] - nodes_before, ctl)
    return pn, dn
