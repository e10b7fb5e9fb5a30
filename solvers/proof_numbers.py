"""The machinery of depth-first proof-number search (df-pn): the proof-number table, the
choice of the child to search and its thresholds.

The engine's df-pn (:mod:`solvers.engine_dfpn`, one template over any game's plug-in) uses
it; this module holds what is df-pn itself, the template how it reaches a game's rules.
The form is Nagai's df-pn in negamax notation: a node's
numbers are those of "the player to move wins",

    pn(node) = min over children of dn(child),    dn(node) = sum over children of pn(child),

with (0, INFINITY) proved, (INFINITY, 0) disproved. The features, and why each is there:

* **Transposition table** (:func:`probe`, :func:`store`): full key (two words and a tag:
  side to move, or the designated mini-board) verified on every probe, proof and disproof
  numbers (32 bits each) and the log2 of the work (nodes) that produced them. It is the
  array of :func:`solvers.kernel_table.new_table` (64-byte buckets, 32 bytes per entry),
  laid out differently: slot ``s`` of a bucket is the words ``3s, 3s+1`` (key) and ``3s+2``
  (numbers), with its tag, work and valid bit in word ``6+s`` (the bucket's padding words),
  so that a df-pn table costs what an alpha-beta table of the same capacity costs.
* **Garbage collection by replacement** (:func:`store`): a full bucket gives the slot of the
  entry with the least work to the new entry ("SmallTreeReplacement", Nagai 2002, a bucket-
  local form of his garbage collection that deletes small subtrees when the table fills).
  Entries that took much work survive, cheap ones are recomputed. Correctness never depends
  on an entry surviving: a node keeps its children's numbers in its own row of the
  ``numbers`` array while it is on the path, and reads the table only when it starts.
* **Enhanced transposition cutoff**: a node looks up every child's entry before it descends
  into any (:func:`solvers.engine_dfpn.dfpn`), and stops at once, proved, when one child's
  entry is a disproof of that child (or the child has no reply): no search below that node
  at all.
* **Reply-count initialisation**: a child not in the table starts at ``(1, replies)``
  (the engine's first numbers): the mover there needs one good move, the opponent must
  refute every reply, so moves leaving few replies are tried first, as the alpha-beta's
  mobility ordering does.
* **Threshold control, the 1 + epsilon trick** (Pawlewicz and Lew, 2007;
  :func:`child_thresholds`): the best child's disproof threshold is
  ``second * (1 + 1/4) + 1`` instead of ``second + 1``, so the search stays with a child a
  little longer instead of switching back and forth between two children of nearly equal
  numbers, each switch paying to re-expand the other's subtree.
* **Weak proof numbers where transpositions abound** (``weak`` in :func:`summarize`; Ueda,
  Hashimoto, Hashimoto and Iida, "Weak proof-number search", 2008): in a DAG the sum over
  children counts a shared subtree once per path to it, and df-pn then wanders between
  alternatives whose numbers are inflated alike. Super Nonnect, where the same cuts in any
  order meet again, uses max + (open children - 1) instead of the sum, which searches far
  fewer nodes there, while on Control and LAG the sum searches fewer, so they keep it
  (benchmarks/TUNING.md).
* **Saturation**: sums saturate at :data:`PN_LIMIT` (one below :data:`PN_INFINITY`) so that a
  big unsettled number is never mistaken for a proof.

The graph-history interaction problem (GHI: a number stored for a position depends on the
path by which it was reached, because a repetition on that path was scored as a draw or a
loss) does not arise here, because df-pn is used only on acyclic games: no position can
recur on a path, so every number in the table is a function of the position alone. LAG: every
move raises a potential (proofs/lag.py). Control under ``control=adjacent``: the potential of
the claim control.termination. Super Nonnect: every move cuts one more cell. Control under
``control=sight`` has cycles (the alpha-beta there scores a repetition as a draw, and a
position can be drawn), so df-pn refuses it; transpositions (a DAG) remain and make the sums
over-count shared subtrees, which costs nodes, never correctness.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.kernel_table import I64, S_NEW_STORES, S_STORES, U64, compiled

#: A proof (as a disproof number) or a disproof (as a proof number).
PN_INFINITY = (1 << 32) - 1
#: Largest number of an unsettled node: sums saturate here, below PN_INFINITY.
PN_LIMIT = PN_INFINITY - 1
#: The 1 + epsilon trick's epsilon is 1 / EPSILON_DIVISOR.
EPSILON_DIVISOR = 4

_WORDS = 8  # a bucket: two 3-word slots and their two meta words
_VALID = np.uint64(1 << 63)
_LOW32 = np.uint64(0xFFFFFFFF)
_LOW16 = np.uint64(0xFFFF)
_U16 = np.uint64(16)
_U32 = np.uint64(32)
_U63 = np.uint64(63)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def table_base(tt: np.ndarray, k0: U64, k1: U64, tag: I64) -> I64:
    """Word index of the bucket of a key: a splitmix64 hash of (k0, k1, tag), over the
    largest power-of-two number of 8-word buckets the array holds (so it does not depend on
    how the alpha-beta code sizes its table)."""
    buckets = np.uint64(tt.shape[0] // _WORDS)
    top = buckets
    top |= top >> np.uint64(1)
    top |= top >> np.uint64(2)
    top |= top >> np.uint64(4)
    top |= top >> np.uint64(8)
    top |= top >> np.uint64(16)
    top |= top >> _U32
    mask = top >> np.uint64(1)  # largest power of two <= buckets, minus one
    h = k0 ^ ((k1 + np.uint64(tag)) * _GOLDEN)
    h = (h ^ (h >> np.uint64(30))) * _MIX1
    h = (h ^ (h >> np.uint64(27))) * _MIX2
    h ^= h >> np.uint64(31)
    return _WORDS * np.int64(h & mask)


@njit(cache=True, inline="always")
def _holds(tt: np.ndarray, base: I64, slot: I64, k0: U64, k1: U64, tag: I64) -> bool:
    meta = tt[base + 6 + slot]
    at = base + 3 * slot
    return (
        meta & _VALID != np.uint64(0)
        and tt[at] == k0
        and tt[at + 1] == k1
        and np.int64(meta & _LOW16) == tag
    )


@compiled
def probe(tt: np.ndarray, base: I64, k0: U64, k1: U64, tag: I64) -> tuple[I64, I64, bool]:
    """(proof number, disproof number, found) of the key in the bucket at ``base``."""
    for slot in range(2):
        if _holds(tt, base, slot, k0, k1, tag):
            numbers = tt[base + 3 * slot + 2]
            return np.int64(numbers & _LOW32), np.int64(numbers >> _U32), True
    return 1, 1, False


@compiled
def store(
    tt: np.ndarray,
    base: I64,
    k0: U64,
    k1: U64,
    tag: I64,
    pn: I64,
    dn: I64,
    work: I64,
    ctl: np.ndarray,
) -> None:
    """Write the numbers of a key: over its own entry, else into an empty slot, else over
    the slot whose entry took less work (garbage collection by replacement)."""
    ctl[S_STORES] += 1
    work_bits = np.int64(0)
    w = work
    while w > 0:
        work_bits += 1
        w >>= 1
    target = -1
    for slot in range(2):
        if _holds(tt, base, slot, k0, k1, tag):
            target = slot
            break
    if target < 0:
        ctl[S_NEW_STORES] += 1
        meta0 = tt[base + 6]
        meta1 = tt[base + 7]
        if meta0 & _VALID == np.uint64(0):
            target = 0
        elif meta1 & _VALID == np.uint64(0):
            target = 1
        elif (meta0 >> _U16) & _LOW16 < (meta1 >> _U16) & _LOW16:
            target = 0
        else:
            target = 1
    at = base + 3 * target
    tt[at] = k0
    tt[at + 1] = k1
    tt[at + 2] = np.uint64(pn) | (np.uint64(dn) << _U32)
    tt[base + 6 + target] = _VALID | (np.uint64(work_bits) << _U16) | np.uint64(tag)


@njit(cache=True, inline="always")
def summarize(numbers: np.ndarray, ply: I64, count: I64, weak: bool) -> tuple[I64, I64, I64, I64]:
    """(pn, dn, best child, second-smallest child disproof number) of the node at ``ply``
    from its children's numbers ``numbers[ply, 0 / 1, :count]``. ``weak``: the disproof
    number is the largest child proof number plus one per other unproved child (weak
    proof-number search) instead of their sum."""
    pn = PN_INFINITY
    dn = 0
    best = 0
    second = PN_INFINITY
    largest = 0
    open_children = 0
    for i in range(count):
        child_dn = numbers[ply, 1, i]
        child_pn = numbers[ply, 0, i]
        dn = min(dn + child_pn, PN_LIMIT)
        if child_pn > 0:
            open_children += 1
            largest = max(largest, child_pn)
        if child_dn < pn:
            second = pn
            pn = child_dn
            best = i
        elif child_dn < second:
            second = child_dn
    if weak and open_children > 0:
        dn = min(largest + open_children - 1, PN_LIMIT)
    if pn == 0:
        dn = PN_INFINITY
    return pn, dn, best, second


@njit(cache=True, inline="always")
def child_thresholds(
    proof_threshold: I64, disproof_threshold: I64, dn: I64, best_pn: I64, second: I64
) -> tuple[I64, I64]:
    """(proof, disproof) thresholds of the best child: it may raise its proof number until
    the node's disproof number reaches its threshold, and its disproof number to the
    second-best child's times (1 + epsilon) (or the node's proof threshold if smaller)."""
    if disproof_threshold >= PN_INFINITY:
        child_proof = PN_INFINITY
    else:
        child_proof = min(disproof_threshold - dn + best_pn, PN_INFINITY)
    child_disproof = min(proof_threshold, second + second // EPSILON_DIVISOR + 1)
    return child_proof, child_disproof
