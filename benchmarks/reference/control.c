/*
 * control.c: a single-threaded reference solver of Control (docs/rules.md, "Control"),
 * adjacent control, White's opening on the perimeter, in plain C: the yardstick the
 * compiled kernels of the toolkit are timed against (benchmarks/control_reference.py). It is
 * a benchmark tool, not part of the package, and it is checked against the toolkit's kernel
 * on random positions (tests/test_control_c_reference.py).
 *
 * Input, one position a line on stdin, in the game's notation (as `cgt show` and
 * Control.render write it): rows top to bottom separated by '/', '.' empty, 'W' and 'B'
 * pieces, then the side to move, e.g. "W.B/..../WB.B./..../W.. B" (sizes 2 to 4; fixed
 * cells '#', 'w', 'b' are refused). Output, one line per position: "VALUE NODES", VALUE 1
 * when the player to move wins and -1 when they lose. Each position is solved with a fresh
 * transposition table of 2^LOG2 entries (argument 1, default 22).
 *
 * Why only win and loss: under adjacent control no sequence of moves repeats a position
 * (claim control.termination) and a player with no move loses, so every game ends with a
 * winner: there are no draws. A search over two values needs no window: each node's result
 * is exact, the table stores exact values only, and any entry found settles its position.
 *
 * Compile: gcc -O2 -march=native -o control control.c
 * -DNO_HUGE_PAGES keeps the table on ordinary pages. With -DBROKEN a tie in the votes gives
 * control to both players (>= in place of >): the planted bug the agreement test must detect.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef uint64_t u64;

#define MAX_MOVES 40 /* at most one move per cell: 37 on size 4 */
#define WHITE 0
#define BLACK 1
#define REMOVAL 64 /* move code of a removal: REMOVAL + cell; a placement is the cell */

/* ------------------------------------------------------------------ board geometry
 * Padded layout (the same as the toolkit's kernel): cell (q, r) of the size-n board (axial
 * coordinates, m = n - 1) is bit (r + m) * STRIDE + (q + m) with STRIDE = 2n. The last
 * column of each row is never a cell, so the six neighbours of every cell are six constant
 * shifts that never wrap from one row's end to the next row's start. Size 4 uses bits 0..51;
 * bits 56..63 are free, which the table entries use for their own fields. */
static int board_size;
static int stride;
static u64 valid;            /* the board's cells */
static u64 perimeter;        /* cells with fewer than six neighbours: White's opening */
static u64 neighbours[64];   /* neighbour mask of every cell */
static int text_cell[64];    /* bit of the k-th cell in reading order */
static int cell_count;

static inline u64 shift(u64 x, int delta) { return delta >= 0 ? x >> delta : x << -delta; }

static void set_board(int n) {
    int m = n - 1;
    board_size = n;
    stride = 2 * n;
    valid = perimeter = 0;
    cell_count = 0;
    for (int r = -m; r <= m; r++) {
        int q_low = -m > -m - r ? -m : -m - r, q_high = m < m - r ? m : m - r;
        for (int q = q_low; q <= q_high; q++) {
            int bit = (r + m) * stride + (q + m);
            text_cell[cell_count++] = bit;
            valid |= 1ULL << bit;
        }
    }
    const int deltas[6] = {1, -1, 1 - stride, -stride, stride - 1, stride};
    for (int c = 0; c < 64; c++) {
        neighbours[c] = 0;
        if (!(valid >> c & 1)) continue;
        for (int d = 0; d < 6; d++) {
            int j = c + deltas[d];
            if (j >= 0 && j < 64 && (valid >> j & 1)) neighbours[c] |= 1ULL << j;
        }
        if (__builtin_popcountll(neighbours[c]) < 6) perimeter |= 1ULL << c;
    }
}

/* ------------------------------------------------------------------ vote counts
 * Every cell's number of neighbouring pieces of one colour (0..6) as three bit planes:
 * bit c of v[k] is bit k of cell c's count. A move changes the counts of the six neighbours
 * of its cell by one, a few word operations, so a node receives its counts from its parent
 * instead of recounting twelve shifted boards. */
typedef struct {
    u64 v[3];
} Votes;

static Votes count_votes(u64 pieces) {
    const int deltas[6] = {1, -1, 1 - stride, -stride, stride - 1, stride};
    Votes out = {{0, 0, 0}};
    for (int d = 0; d < 6; d++) { /* ripple-carry add of one bit plane */
        u64 carry = shift(pieces, deltas[d]) & valid;
        for (int k = 0; k < 3 && carry; k++) {
            u64 next = out.v[k] & carry;
            out.v[k] ^= carry;
            carry = next;
        }
    }
    return out;
}

static inline Votes plus_one(Votes x, u64 cells) { /* counts + 1 on cells */
    u64 c0 = x.v[0] & cells, c1 = x.v[1] & c0;
    x.v[0] ^= cells, x.v[1] ^= c0, x.v[2] ^= c1;
    return x;
}

static inline Votes minus_one(Votes x, u64 cells) { /* counts - 1 on cells (each >= 1) */
    u64 b0 = ~x.v[0] & cells, b1 = ~x.v[1] & b0;
    x.v[0] ^= cells, x.v[1] ^= b0, x.v[2] ^= b1;
    return x;
}

/* Cells where count x beats count y: the player of x controls them (strict majority). */
static inline u64 controls(Votes x, Votes y) {
    u64 eq2 = ~(x.v[2] ^ y.v[2]), eq1 = ~(x.v[1] ^ y.v[1]);
#ifdef BROKEN /* planted bug: a tie counts as control (>=) */
    u64 eq0 = ~(x.v[0] ^ y.v[0]);
    return ((x.v[2] & ~y.v[2]) | (eq2 & ((x.v[1] & ~y.v[1]) | (eq1 & ((x.v[0] & ~y.v[0]) | eq0))))) &
           valid;
#else
    return ((x.v[2] & ~y.v[2]) | (eq2 & ((x.v[1] & ~y.v[1]) | (eq1 & x.v[0] & ~y.v[0])))) & valid;
#endif
}

/* ------------------------------------------------------------------ transposition table
 * 16-byte entries, four to a 64-byte bucket aligned on a cache line, so a probe reads one
 * line. The full key is kept and verified: the mover's pieces in word a, the opponent's in
 * word b (cells use bits 0..51, so the top bits hold the fields); side to move and the
 * value sit in a, the work (bit length of the subtree's node count) in b. Replacement: the
 * same key, else the entry of the bucket that took least work to compute. */
typedef struct {
    u64 a, b;
} Entry;

#define CELL_BITS ((1ULL << 56) - 1)
#define E_USED (1ULL << 63)
#define E_SIDE (1ULL << 62)
#define E_WIN (1ULL << 61)
#define WORK_SHIFT 56

static Entry *table;
static void *table_memory;
static size_t table_bytes;
static u64 bucket_mask;

static void new_table(int log2_entries) {
    size_t bytes = ((size_t)1 << (log2_entries > 2 ? log2_entries : 2)) * sizeof(Entry);
    if (table_memory) munmap(table_memory, table_bytes);
    /* Fresh zeroed pages from the system, mapped on first touch: only the buckets the
     * search reaches cost anything, as with numpy's zeros. Huge pages where the system
     * grants them: the probes are random over the whole table, and with 4 KiB pages most
     * of them also missed the TLB (a page walk on top of the memory wait). */
    table_memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table_memory == MAP_FAILED) {
        fprintf(stderr, "control: cannot allocate a table of 2^%d entries\n", log2_entries);
        exit(2);
    }
#if defined(MADV_HUGEPAGE) && !defined(NO_HUGE_PAGES)
    madvise(table_memory, bytes, MADV_HUGEPAGE);
#endif
    table_bytes = bytes;
    table = table_memory; /* page aligned, so every bucket sits on one cache line */
    bucket_mask = bytes / (4 * sizeof(Entry)) - 1;
}

static inline Entry *bucket_of(u64 own, u64 opp, int side) {
    u64 h = own * 0x9E3779B97F4A7C15ULL ^ (opp + (u64)side) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ULL;
    h ^= h >> 32;
    return table + 4 * (h & bucket_mask);
}

static inline u64 tag_of(u64 own, int side) { return own | E_USED | (side ? E_SIDE : 0); }

/* 1 if the mover wins, 0 if it loses, -1 if the table does not know. */
static inline int probe(const Entry *bucket, u64 own, u64 opp, int side) {
    u64 tag = tag_of(own, side);
    for (int k = 0; k < 4; k++)
        if ((bucket[k].a & ~E_WIN) == tag && (bucket[k].b & CELL_BITS) == opp)
            return (bucket[k].a & E_WIN) != 0;
    return -1;
}

static inline int bit_length(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }

static void store(u64 own, u64 opp, int side, int win, u64 work) {
    Entry *bucket = bucket_of(own, opp, side);
    u64 tag = tag_of(own, side);
    int victim = 0;
    u64 least = ~0ULL;
    for (int k = 0; k < 4; k++) {
        if ((bucket[k].a & ~E_WIN) == tag && (bucket[k].b & CELL_BITS) == opp) {
            victim = k;
            break;
        }
        u64 entry_work = bucket[k].a & E_USED ? bucket[k].b >> WORK_SHIFT : 0;
        if (entry_work < least) least = entry_work, victim = k;
    }
    bucket[victim].a = tag | (win ? E_WIN : 0);
    bucket[victim].b = opp | (u64)bit_length(work) << WORK_SHIFT;
}

/* ------------------------------------------------------------------ the search */
static u64 nodes;            /* search calls plus children settled by their entry */
/* White's first piece goes on the perimeter (the game's default opening rule) */
static const int perimeter_opening = 1;
/* History heuristic: credit per side and move code for the wins it found, by the nodes the
 * win took (a win high in the tree counts more); halved when one count passes the cap, so
 * old credit fades. In a win/loss search most cut-offs are wins. Crediting the subtree's
 * size itself, not the square of its bit length as chess programs credit depth, takes the
 * ten benchmark positions from 47.8 M to 19.1 M nodes; -DHISTORY_BIT_LENGTH_SQUARED
 * restores the square (the kernel's credit) for comparison. */
static u64 history[2][2 * REMOVAL];
#define HISTORY_CAP ((1ULL << 30) - 1)

static void credit(int side, int move, u64 work) {
#ifdef HISTORY_BIT_LENGTH_SQUARED
    work = (u64)(bit_length(work) * bit_length(work));
#endif
    history[side][move] += work < HISTORY_CAP ? work : HISTORY_CAP;
    if (history[side][move] > HISTORY_CAP)
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 2 * REMOVAL; k++) history[s][k] >>= 1;
}

/* Does the player to move (pieces own, counts own_votes) win? */
static int search(u64 own, u64 opp, int side, Votes own_votes, Votes opp_votes) {
    nodes++;
    u64 start_nodes = nodes;
    u64 occupied = own | opp;
    u64 mine = controls(own_votes, opp_votes), theirs = controls(opp_votes, own_votes);
    u64 places, removes;
    if (occupied == 0 && side == WHITE && perimeter_opening)
        places = perimeter, removes = 0;
    else
        places = valid & ~occupied & ~theirs, removes = opp & mine;

    int moves[MAX_MOVES], count = 0;
    for (u64 x = places; x; x &= x - 1) moves[count++] = __builtin_ctzll(x);
    for (u64 x = removes; x; x &= x - 1) moves[count++] = REMOVAL + __builtin_ctzll(x);
    if (count == 0) return 0; /* no legal move: the player to move loses */

    /* Replies by popcount. A move gives the mover one vote more (a placement) or the
     * opponent one fewer (a removal) on the six neighbours of its cell and changes no other
     * count. On such a neighbour the mover then controls the cell iff its votes are at least
     * the opponent's now (not theirs), and the opponent loses control iff its votes are the
     * mover's plus one now (tip_theirs). The moved-on cell itself keeps its controller.
     * So the opponent's replies are two popcounts per move instead of a recount. */
    u64 opp_places = valid & ~occupied & ~mine, opp_removes = own & theirs;
    Votes plus = plus_one(own_votes, valid);
    u64 tip_theirs = ~((opp_votes.v[0] ^ plus.v[0]) | (opp_votes.v[1] ^ plus.v[1]) |
                       (opp_votes.v[2] ^ plus.v[2]));
    u64 child_own[MAX_MOVES], child_opp[MAX_MOVES];
    Entry *child_bucket[MAX_MOVES];
    u64 order[MAX_MOVES]; /* replies, then history (more first), then index: unique keys */
    for (int i = 0; i < count; i++) {
        int m = moves[i], cell = m & (REMOVAL - 1);
        u64 around = neighbours[cell], bit = 1ULL << cell;
        int replies;
        if (m >= REMOVAL) {
            child_own[i] = opp & ~bit, child_opp[i] = own;
            replies = __builtin_popcountll(opp_places & ~(around & ~theirs)) +
                      __builtin_popcountll(opp_removes & ~(around & tip_theirs));
        } else {
            child_own[i] = opp, child_opp[i] = own | bit;
            replies = __builtin_popcountll(opp_places & ~(around & ~theirs) & ~bit) +
                      __builtin_popcountll(opp_removes & ~(around & tip_theirs));
        }
        if (replies == 0) { /* the opponent cannot move: a win without a visit */
            /* not stored: the parent's reply count finds this win as cheaply as a probe,
             * and leaving such entries out keeps room for the ones that save work (on the
             * benchmark positions 11% fewer nodes and 10% less time than storing them) */
            credit(side, m, 1);
            return 1;
        }
        /* the child's bucket on its way from memory while the other children are
         * counted: the buckets are far apart, and a probe that finds its line in the cache
         * skips a wait that costs more than the rest of the node */
        child_bucket[i] = bucket_of(child_own[i], child_opp[i], 1 - side);
        __builtin_prefetch(child_bucket[i]);
        u64 h = history[side][m];
        order[i] = (u64)replies << 40 | (HISTORY_CAP - (h < HISTORY_CAP ? h : HISTORY_CAP)) << 6 | i;
    }

    /* Enhanced transposition cut-off: read every child's entry before searching any. A
     * child known lost (for its mover) is a win for this node at once; a child known won
     * can never help, so it is dropped. Each entry used counts as the node it replaces. */
    int live = 0;
    for (int i = 0; i < count; i++) {
        int known = probe(child_bucket[i], child_own[i], child_opp[i], 1 - side);
        if (known == 0) {
            nodes++;
            credit(side, moves[i], 1);
            store(own, opp, side, 1, nodes - start_nodes + 1);
            return 1;
        }
        if (known == 1)
            nodes++;
        else
            order[live++] = order[i];
    }

    /* Fewest replies first: a reply-starved opponent is more often lost, and its subtree is
     * narrow. Picked one at a time, since most wins come from the first move or two. */
    for (int i = 0; i < live; i++) {
        int best = i;
        for (int k = i + 1; k < live; k++)
            if (order[k] < order[best]) best = k;
        u64 chosen = order[best];
        order[best] = order[i];
        order[i] = chosen;
        int index = (int)(chosen & 63), m = moves[index], cell = m & (REMOVAL - 1);
        Votes child_mine = own_votes, child_theirs = opp_votes;
        if (m >= REMOVAL)
            child_theirs = minus_one(opp_votes, neighbours[cell]);
        else
            child_mine = plus_one(own_votes, neighbours[cell]);
        /* the child's mover is the opponent: its counts come first */
        if (!search(child_own[index], child_opp[index], 1 - side, child_theirs, child_mine)) {
            credit(side, m, nodes - start_nodes + 1);
            store(own, opp, side, 1, nodes - start_nodes + 1);
            return 1;
        }
    }
    store(own, opp, side, 0, nodes - start_nodes + 1);
    return 0;
}

/* ------------------------------------------------------------------ input */
static int fail(int line, const char *why) {
    fprintf(stderr, "control: line %d: %s\n", line, why);
    return 2;
}

int main(int argc, char **argv) {
    int log2_entries = argc > 1 ? atoi(argv[1]) : 22;
    if (log2_entries < 2 || log2_entries > 34) {
        fprintf(stderr, "control: table size must be 2^2 to 2^34 entries, got 2^%s\n", argv[1]);
        return 2;
    }
    char line[1024], board_text[1024], side_text[8];
    int line_number = 0;
    while (fgets(line, sizeof line, stdin)) {
        line_number++;
        if (sscanf(line, "%1000s %7s", board_text, side_text) != 2) {
            if (strspn(line, " \t\r\n") == strlen(line)) continue; /* blank line */
            return fail(line_number, "expected '<rows separated by /> <W|B>'");
        }
        int rows = 1;
        for (char *p = board_text; *p; p++) rows += *p == '/';
        if (rows % 2 == 0 || rows < 3 || rows > 7)
            return fail(line_number, "a size-2 to size-4 board has 3, 5 or 7 rows");
        if (side_text[1] || (side_text[0] != 'W' && side_text[0] != 'B'))
            return fail(line_number, "side to move must be W or B");
        if ((rows + 1) / 2 != board_size) set_board((rows + 1) / 2);
        /* the rows must hold n, n+1, ..., 2n-1, ..., n cells */
        u64 white = 0, black = 0;
        int k = 0, row = 0, in_row = 0, m = board_size - 1;
        for (char *p = board_text;; p++) {
            if (*p == '/' || *p == 0) {
                if (in_row != board_size + (row < m ? row : 2 * m - row))
                    return fail(line_number, "a row has the wrong number of cells");
                row++, in_row = 0;
                if (*p == 0) break;
                continue;
            }
            if (k >= cell_count) return fail(line_number, "too many cells");
            if (*p == 'W')
                white |= 1ULL << text_cell[k];
            else if (*p == 'B')
                black |= 1ULL << text_cell[k];
            else if (*p != '.')
                return fail(line_number, "cells are '.', 'W' or 'B' (no fixed cells)");
            k++, in_row++;
        }
        int side = side_text[0] == 'W' ? WHITE : BLACK;
        u64 own = side == WHITE ? white : black, opp = side == WHITE ? black : white;
        new_table(log2_entries);
        memset(history, 0, sizeof history);
        nodes = 0;
        int win = search(own, opp, side, count_votes(own), count_votes(opp));
        printf("%d %llu\n", win ? 1 : -1, (unsigned long long)nodes);
        fflush(stdout);
    }
    return 0;
}
