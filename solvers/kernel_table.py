"""Pieces shared by the compiled kernels: bit helpers, mate-distance scores and a
transposition table in one numpy array.

The table is the one of :mod:`solvers.tt` restated for numba: the FULL key is stored and
verified on every probe (two uint64 words plus a 5-bit tag: the side to move, or the
designated mini-board), with a bound flag EXACT/LOWER/UPPER, the score, the best move and the
log2 of the subtree's node count. Slots come in 64-byte buckets of two (one cache line):
slot 0 is work-preferred, slot 1 always-replace. The capacity is fixed when it is allocated;
:func:`table_bytes` says how much memory a capacity takes before anything is allocated.

Slot layout: three words ``[key0, key1, data]``; ``data`` bits 0-23 score + 2^23, 24-25 flag
(0 = empty slot), 26-30 tag, 31-42 move (12 bits: LAG's ``from * 64 + to`` codes fit),
43-48 log2 work.

Every kernel keeps its statistics and its node budget at the same indices of its int64
control array (``S_*`` below), so that :mod:`solvers.kernel_base` can drive any of them: a
search stops cleanly (``ctl[S_ABORTED] = 1``, nothing stored on the aborted path) once
``ctl[S_NODES]`` passes ``ctl[S_NODE_LIMIT]``, and the next call resumes from what the table
kept.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM cttz intrinsic
from numba.extending import intrinsic

from cgt.errors import ParameterError
from solvers.memory import zeroed_array

#: Numba scalars in the signatures of compiled functions. Numba ignores annotations, and
#: numpy's stubs do not model numba's integer typing, so for mypy they are Any.
U64 = Any
I64 = Any

#: Decorator of the kernels' compiled functions: numba with the disk cache and without NRT
#: reference counting. The kernels allocate nothing, and with NRT a recursive search pays an
#: atomic incref and decref per array argument at every node (measured: about 40% of a
#: Control node). Numba's stubs do not list the ``_nrt`` option, hence the ignore.
compiled = njit(cache=True, _nrt=False)  # type: ignore[call-overload]

#: Score of a win at the end of the game in remoteness mode (remoteness 0).
BIG = 1 << 20
#: Beyond every score: the full window is (-INFINITY, INFINITY).
INFINITY = BIG + 2

# bound flags (0 marks an empty slot)
EXACT = 1
LOWER = 2
UPPER = 3

# statistics, at the same indices of every kernel's int64 control array
S_NODES = 16
S_PROBES = 17
S_HITS = 18
S_STORES = 19
S_NEW_STORES = 20
S_REPETITIONS = 21
S_OVERFLOW = 22
S_MAX_PLY = 23
#: Node budget: the search aborts once ``ctl[S_NODES]`` exceeds ``ctl[S_NODE_LIMIT]``.
S_NODE_LIMIT = 24
#: Set to 1 by a search that ran out of its node budget.
S_ABORTED = 25
#: Node limit meaning "no budget".
NO_NODE_LIMIT = (1 << 62) - 1

BUCKET_WORDS = 8
SLOT_WORDS = 3
#: Bytes of one bucket (two slots and two padding words: one cache line).
BUCKET_BYTES = 8 * BUCKET_WORDS
SCORE_OFFSET = 1 << 23
#: Largest tag (5 bits) and move code (12 bits) a slot can hold.
MAX_TAG = 31
MAX_MOVE = 4095

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)
_U4 = np.uint64(4)
_U8 = np.uint64(8)
_U16 = np.uint64(16)
_U24 = np.uint64(24)
_U26 = np.uint64(26)
_U29 = np.uint64(29)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U43 = np.uint64(43)
_U56 = np.uint64(56)
_U255 = np.uint64(255)
_U4095 = np.uint64(4095)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_LOW24 = np.uint64(0xFFFFFF)
_HASH_W = np.uint64(0x9E3779B97F4A7C15)
_HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)


# ------------------------------------------------------------------------- bit helpers
@njit(cache=True, inline="always")
def popcount(x: U64) -> I64:
    """Number of set bits (SWAR; LLVM turns it into one instruction where it can)."""
    x = x - ((x >> _U1) & _M1)
    x = (x & _M2) + ((x >> _U2) & _M2)
    x = (x + (x >> _U4)) & _M4
    return np.int64((x * _H01) >> _U56)


@njit(cache=True, inline="always")
def cell_bit(cell: I64) -> U64:
    """The set of the one cell ``cell``."""
    return _U1 << np.uint64(cell)


@njit(cache=True, inline="always")
def lowest_cell(mask: U64) -> I64:
    """The lowest cell of a non-empty set (LLVM's count-trailing-zeros)."""
    return np.int64(trailing_zeros(mask))  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def bit_length(x: I64) -> I64:
    v = np.uint64(x)
    v |= v >> _U1
    v |= v >> _U2
    v |= v >> _U4
    v |= v >> _U8
    v |= v >> _U16
    v |= v >> _U32
    return popcount(v)


# ------------------------------------------------------------------------- scores
@njit(cache=True, inline="always")
def toward_root(score: I64, remoteness: I64) -> I64:
    """Score one ply further from the end (seen by the same player), as in alphabeta.py."""
    if remoteness == 0:
        return score
    if score > 0:
        return score - 1
    if score < 0:
        return score + 1
    return 0


@njit(cache=True, inline="always")
def toward_leaf(bound: I64, remoteness: I64) -> I64:
    """Inverse of :func:`toward_root` for window bounds."""
    if remoteness == 0:
        return bound
    if bound > 0:
        return bound + 1
    if bound < 0:
        return bound - 1
    return 0


def toward_root_py(score: int, remoteness: bool) -> int:
    """:func:`toward_root` for Python callers."""
    if not remoteness or score == 0:
        return score
    return score - 1 if score > 0 else score + 1


# ------------------------------------------------------------------ transposition table
def _buckets(entries: int) -> int:
    """Buckets of a table asked for ``entries`` slots (rounded down to a power of two)."""
    if not isinstance(entries, int) or isinstance(entries, bool) or entries < 2:
        raise ParameterError(f"tt_entries must be an integer >= 2, got {entries!r}")
    return 1 << ((entries // 2).bit_length() - 1)


def table_bytes(entries: int) -> int:
    """Bytes :func:`new_table` allocates for ``entries`` slots (32 per slot plus one bucket
    of alignment), so a caller can refuse a table that does not fit before allocating it."""
    return (_buckets(entries) + 1) * BUCKET_BYTES


def new_table(entries: int) -> tuple[np.ndarray, int, int]:
    """(table array aligned on 64 bytes, capacity in slots, bucket mask) for ``entries``
    slots rounded down to a power of two (at least 2). A big table sits on transparent huge
    pages (:func:`solvers.memory.zeroed_array`): its probes land anywhere, and with 4 KiB
    pages nearly every one also misses the TLB (the C reference of
    benchmarks/CONTROL_REFERENCE.md runs 1.4 times as fast on huge pages)."""
    buckets = _buckets(entries)
    raw = zeroed_array(buckets * BUCKET_WORDS + BUCKET_WORDS, np.uint64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip : skip + buckets * BUCKET_WORDS], 2 * buckets, buckets - 1


@njit(cache=True, inline="always")
def bucket_base(k0: U64, k1: U64, tag: I64, bucket_mask: I64) -> I64:
    h = k0 * _HASH_W ^ (k1 + np.uint64(tag)) * _HASH_B
    h ^= h >> _U29
    h *= _HASH_W
    h ^= h >> _U32
    return BUCKET_WORDS * np.int64(h & np.uint64(bucket_mask))


@njit(cache=True, inline="always")
def no_wrap(index: I64) -> U64:
    """An index known not to be negative, unsigned: numba then indexes without wrapping a
    negative index around (a signed index costs a compare and a select at every access)."""
    return np.uint64(index)


@njit(cache=True, inline="always")
def holds(tt: np.ndarray, at: I64, k0: U64, k1: U64, tag: I64) -> bool:
    """Whether the slot at word ``at`` holds exactly this key."""
    word = no_wrap(at)
    data = tt[word + _U2]
    return (
        (data >> _U24) & _U3 != _U0
        and tt[word] == k0
        and tt[word + _U1] == k1
        and np.int64((data >> _U26) & _U31) == tag
    )


@njit(cache=True, inline="always")
def entry_flag(data: U64) -> I64:
    return np.int64((data >> _U24) & _U3)


@njit(cache=True, inline="always")
def entry_score(data: U64) -> I64:
    return np.int64(data & _LOW24) - SCORE_OFFSET


@njit(cache=True, inline="always")
def entry_move(data: U64) -> I64:
    return np.int64((data >> _U31) & _U4095)


@compiled
def store(
    tt: np.ndarray,
    base: I64,
    k0: U64,
    k1: U64,
    tag: I64,
    flag: I64,
    score: I64,
    move: I64,
    work: I64,
    ctl: np.ndarray,
) -> None:
    """Slot 0 of the bucket keeps the entry with the most work, slot 1 always takes what
    slot 0 does not (a demoted entry or the new one)."""
    ctl[S_STORES] += 1
    work_bits = min(bit_length(work), 63)
    data = (
        np.uint64(score + SCORE_OFFSET)
        | (np.uint64(flag) << _U24)
        | (np.uint64(tag) << _U26)
        | (np.uint64(move & MAX_MOVE) << _U31)
        | (np.uint64(work_bits) << _U43)
    )
    slot0 = base
    slot1 = base + SLOT_WORDS
    same0 = holds(tt, slot0, k0, k1, tag)
    same1 = holds(tt, slot1, k0, k1, tag)
    if not same0 and not same1:
        ctl[S_NEW_STORES] += 1
    old0 = tt[slot0 + 2]
    if same0:
        target = slot0
    elif (old0 >> _U24) & _U3 == _U0:
        target = slot0
        if same1:
            tt[slot1 + 2] = _U0  # drop the stale copy
    elif work_bits >= np.int64(old0 >> _U43):  # demote slot 0 to the always-replace slot
        tt[slot1] = tt[slot0]
        tt[slot1 + 1] = tt[slot0 + 1]
        tt[slot1 + 2] = old0
        target = slot0
    else:
        target = slot1
    tt[target] = k0
    tt[target + 1] = k1
    tt[target + 2] = data


#: :func:`store` compiled into its caller: the engine's search stores at nearly every node
#: it enters, and a call passes its two arrays member by member on the stack.
store_inline = njit(cache=True, inline="always")(store.py_func)


@njit(cache=True, inline="always")
def entry_of(tt: np.ndarray, k0: U64, k1: U64, tag: I64, bucket_mask: I64) -> tuple[I64, I64]:
    """(bound flag, score) of the key's table entry; flag 0 when the table has none (the
    probe a node makes of a child's entry before deciding to search it)."""
    base = bucket_base(k0, k1, tag, bucket_mask)
    for at in (base, base + SLOT_WORDS):
        if holds(tt, at, k0, k1, tag):
            data = tt[at + 2]
            return entry_flag(data), entry_score(data)
    return 0, 0


@njit(cache=True, inline="always")
def credit(ctl: np.ndarray, at: I64, work: I64, first: I64, length: I64, cap: I64) -> None:
    """History heuristic: credit the move counter ``ctl[at]`` with a cut-off that took
    ``work`` nodes, by the square of the work's bit length (a cut-off high in the tree counts
    more, as depth squared does in chess programs); when one count passes ``cap`` every count
    of ``ctl[first:first + length]`` is halved, so that old credit fades and the counts keep
    ordering."""
    ctl[at] += bit_length(work) ** 2
    if ctl[at] > cap:
        for k in range(first, first + length):
            ctl[k] >>= 1


@intrinsic
def prefetch(typingctx: Any, array: Any, index: Any) -> Any:
    """Ask the processor to start loading ``array[index]`` into its caches (LLVM's
    ``llvm.prefetch``, a hint: no effect on results)."""
    signature = types.void(array, index)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
            "llvm.prefetch.p0i8",
        )
        address = builder.bitcast(builder.gep(data, [args[1]]), byte_pointer)
        builder.call(function, [address, i32(0), i32(3), i32(1)])  # read, keep, data
        return context.get_dummy_value()

    return signature, codegen
