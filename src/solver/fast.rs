//! The `fast` strategy: per-digit band bitboards, band-level propagation, branching on band
//! configurations.
//!
//! # Layout
//!
//! The grid is cut into three *bands* of three rows. For every digit and band one `u32` holds
//! the 27 cells of the band where that digit may still stand, row by row:
//!
//! ```text
//!              box 0       box 1       box 2
//!   bit:    0  1  2  |  3  4  5  |  6  7  8       row 0 of the band
//!           9 10 11  | 12 13 14  | 15 16 17       row 1
//!          18 19 20  | 21 22 23  | 24 25 26       row 2
//!
//!   cand[digit * 3 + band]   9 digits x 3 bands = 27 words, bits 27..31 always 0, and a
//!                            28th word, always 0, so that seven 4-word vectors cover them
//!   unsolved[band]           cells of the band that hold no digit yet
//!   dirty, since             one bit per word (as cand): changed since the digit's last
//!                            update / since the last minirow pass
//!   cols[digit]              the columns of the digit's three words after its last column pass,
//!                            bit 9 * band + column (the band layout, bands for rows)
//!   band_key[band], pick     the branch choice of the last minirow pass
//! ```
//!
//! A placed digit keeps its own bit, so for every digit the three words always describe a set
//! of positions with at least one per row and box; a solved digit has exactly nine bits. The
//! whole state is 28 + 3 + 1 + 1 + 9 + 3 + 1 words (184 bytes): branching copies it and undoing
//! a branch is dropping the copy.
//!
//! # Why bands
//!
//! Within one band, a digit stands once in each of the three rows and once in each of the three
//! boxes, so its rows and boxes are matched one to one. Which boxes each row can still use is a
//! 9-bit row-by-box graph; a table of its 512 values gives the cells whose (row, box) pair lies
//! in *some* perfect matching. One lookup thus applies pointing and claiming between the rows
//! and boxes of a band, finds hidden singles in rows and boxes (a row left with one cell), and
//! detects a digit that no longer fits the band at all. The same holds across the bands of a
//! stack: each box of the stack uses one column and each column one box, so a band-by-column
//! graph per stack, built from the columns each band word still touches, gives column/box
//! pointing and claiming and hidden singles in columns. The update of a digit alternates the
//! two until neither removes a cell. The column pass is skipped when the columns the words
//! touch are those of the digit's last column pass, where it cannot remove anything. The row
//! matching runs on all three words, changed or not: a skip that depends on the data is a
//! branch the processor mispredicts, and that costs more than the lookup.
//!
//! Across digits, two rules work on all 27 cells of a band at once. Naked singles: the words `one`
//! and `two` accumulate "seen at least once / twice" over the nine digits (for the three bands at
//! once, a digit's three words being one SSE2 vector), so `unsolved & !two` are the cells with one
//! candidate left and `unsolved & !one` the cells with none. Minirows (a row crossing a box, three
//! cells) hold exactly three digits: bit-parallel counters over the nine row-by-box graphs tell,
//! for the nine minirows together, how many digits may and how many must use each one. Being the
//! costliest rule, it runs only when the others stall, only on bands with a word changed since its
//! last pass, and no more on a band where it found every digit down to one configuration: it can
//! find nothing there. serg's puzzles (several solutions each) reach many such bands; skipping them
//! takes 7.9% off their instructions, and 0.6-1.1% off top1465's and 11+'s, for the same search.
//! The same rule for minicolumns (a column crossing a box) runs last, on the columns each digit's
//! last column pass left (`cols`), all 27 minicolumns at once and without a table. It made the
//! band-based search depend less on the puzzle's orientation (on top1465 it cut the guesses per
//! puzzle from 10.76 to 9.39 as given and from 12.06 to 9.85 transposed), but since the search
//! picks its orientation and counts cells in its branch choice it pays only at the root. There it
//! runs with the others; below the root it costs more than the guesses it saves. Guesses per
//! puzzle, instructions (callgrind, `bench`) and paired time against the rule at every node, on
//! permuted top1465: 6.43 guesses and 90.98M at every node, 6.98 and 90.60M (0.995x the time)
//! without it, 6.78 and 89.78M (0.987x) at the root only; on the first 10,000 of 17-clue 158.29M,
//! 153.60M (0.977x) and 157.23M (0.981x); on the first 5,000 of serg 147.03M, 133.70M (0.928x) and
//! 135.89M (0.945x); on the first 1,000 of 11+ 388.13M, 381.31M and 381.55M (11+ and 1106 62.4 and
//! 114.0 guesses at every node, 66.1 and 120.7 with the rule at the root or nowhere). Running it
//! also at the first level below the root saved a few guesses (6.70 on top1465) for more than they
//! cost (90.13M).
//!
//! At the root only, once those rules stall, one more rule works across digits: **hidden
//! pairs** in rows and columns. When two digits can go only to the same two cells of a row or
//! a column, every other digit leaves those two cells; the other rules then run again, and the
//! two alternate until neither changes anything. On permuted top1465 it cuts the guesses per
//! puzzle from 8.67 to 6.92 and on 17-clue from 0.56 to 0.37, but a pass costs about 3,000
//! instructions, most of a search node's worth, so it does not run below the root: there it
//! saved too few guesses for its cost (6.49 on top1465 with it at every node). Boxes added
//! little (6.84). It is skipped when a band has a single configuration per digit left, as in
//! serg's puzzles (several solutions each), where it found pairs but hardly a guess fewer
//! (6.74 against 6.76 on the first 3,000).
//!
//! The clues are loaded in bulk: per digit, the rows, columns and boxes its clues occupy,
//! from which each word is built at once.
//!
//! # Search
//!
//! When propagation stalls, the solver branches, as tdoku's writeup describes, on the
//! *configuration* of one digit in one band (which box each of its rows uses, at most six). The
//! band is the one with the lowest *score*, the sum over its digits of their configurations
//! and their candidate cells (a placed digit's cell counts as one); in it, the digit with the
//! fewest configurations above one, and of those the one with the fewest cells. The cells are
//! our addition to tdoku's rule (configurations alone, the band first): on permuted
//! top1465 they cut the guesses per puzzle from 6.92 to 6.43, on 1106 from 118.5 to 114.0, on
//! the first 5,000 of 11+ from 67.8 to 62.4. The minirow pass computes the choice from the
//! graphs it reads anyway, the cells coming with the same table lookups. When
//! every digit has a single configuration left everywhere it branches on a cell with two
//! candidates (else the fewest). Each alternative tried at a branch counts as a guess except
//! the last one left, which by then is forced; this matches tdoku's count, where
//! the negation of a failed decision is propagated rather than guessed.
//!
//! # Settled puzzles
//!
//! A puzzle whose root leaves a band *settled*, every digit there down to one configuration,
//! is searched more lightly: below the root the minirow rule does not run, and
//! the search branches on a cell with two candidates, in a band not settled at the root when
//! there is one, rather than on a band configuration. Such puzzles are mostly loose ones with
//! several solutions, as all of serg's are. Their search seldom meets a contradiction (one
//! node in forty on serg), so the rule that makes a wrong guess fail at once has little to do:
//! on serg 2.5% of its passes removed anything, and it ran for the branch choice, at about a
//! fifth of the instructions. Without it, with the cell branch made cheap (the vector tally
//! finds its cells, and only the digits the cell still has are removed from it) and with no
//! account kept of the words changed for the pass, serg's first 5,000 permuted puzzles take
//! 15.6% fewer instructions (108.49M to 91.54M; counting to 1, 95.40M to 80.58M) for a few
//! more guesses (6.83 to 7.03 a puzzle), and the whole corpus 0.921x the time (0.899x counting
//! to 1; 101 and 61 paired rounds). A unique puzzle can be settled too (one in ten of 17-clue,
//! one in twenty of top1465), and there the rule earns its keep, so after
//! [`SETTLED_FAILURES`] contradictions the search turns thorough for the rest of the puzzle.
//! Permuted top1465 then takes 1.0% fewer instructions (0.981x the time), the first 10,000 of
//! 17-clue 0.4% fewer (0.993x), the first 1,000 of 11+ the same. The light search on every
//! puzzle cost 31% more instructions on top1465 and 82% more on 11+; never turning thorough,
//! 0.3% more on top1465 and 0.5% more on 17-clue.
//!
//! The root looks for settled bands twice. First, before any minirow pass, once band updates
//! and naked singles alone have stalled ([`State::settled_bands`] reads them from the words,
//! about 60 instructions): a puzzle settled there skips the root's minirow and minicolumn
//! passes and is searched lightly at once. Those updates also keep no account of the words
//! they change, the first minirow pass being due on every band anyway; that account had cost
//! 4% of 17-clue's instructions, most of whose puzzles these rules solve on their own. Else
//! the root goes on to its full fixpoint, with the minirow rule (whose keys then tell the
//! settled bands), minicolumns and hidden pairs. The first look takes serg's first 5,000
//! permuted puzzles (all settled there) from 88.86M instructions to 82.03M (-7.7%, the same
//! 7.03 guesses a puzzle) and the first 10,000 of 17-clue from 142.17M to 135.61M (-4.6%;
//! 0.37 guesses against 0.36, 8,566 puzzles settled there); top1465 (82 settled there) takes
//! 0.24% more and the first 1,000 of 11+ 0.05% more, for the look and one more count of
//! candidates. Paired time: serg 0.948x, 17-clue 0.965x, top1465 0.993x, 11+ 1.000x.
//!
//! # Orientation
//!
//! Branching on band configurations makes the search depend on the grid's orientation: the
//! same puzzle transposed often needs a rather different number of guesses (on permuted
//! top1465, the better of the two orientations per puzzle would need 6.2 guesses instead of
//! 9.75). After the clues have propagated, the solver therefore compares the configurations
//! summed over the digits of each band with those of each stack (read from `cols`, which at
//! that fixpoint hold every digit's columns), smallest first, and when the stacks promise the
//! smaller search it transposes the state and searches the transposed grid, transposing each
//! solution back. The per-digit rules are symmetric, so the transposed state is at their
//! fixpoint too; only the minirow rule runs again, in the search. (The transposed minirows
//! are the minicolumns, at their fixpoint already, and the transposed minicolumns the
//! minirows: running that rule there as well changed no search.) A band
//! down to a single configuration per digit settles it: no stack can promise less, and on a
//! tie the grid stays as given (such puzzles, serg's among them, gained nothing from a turn
//! and paid for the rules' second pass). So does a band with at most three configurations
//! more ([`KEEP_ORIENTATION`]): what search is left is small, and turning cost more than
//! it saved.

use super::{Limits, Outcome, Solver};
use crate::grid::{CELLS, Grid};

/// The 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// Column `c` (0..9) of a band: one bit in each of its three rows.
const fn column(c: u32) -> u32 {
    0x40201 << c
}

/// For row `r` of a band (0..3) and its 9 bits: bit `3r + k` set when its box segment `k`
/// (bits `3k..3k+3`) holds a cell, and in bits 12..16 the number of cells. Pre-shifted per row,
/// a word's three lookups just add up: the graph bits never overlap, and the counts (at most
/// 27 together) sum in bits 12..16 above them, so [`row_graph_cells`] needs no shift to place
/// a row's bits and one to get the cells.
static ROW_SHAPES: [[u16; 512]; 3] = {
    let mut t = [[0u16; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut x = 0;
        while x < 512 {
            let mut k = 0;
            while k < 3 {
                if x >> (3 * k) & 7 != 0 {
                    t[r][x] |= 1 << (3 * r + k);
                }
                k += 1;
            }
            t[r][x] |= ((x as u32).count_ones() as u16) << 12;
            x += 1;
        }
        r += 1;
    }
    t
};

/// For a row-by-box graph (bit `3r + k`: row `r` of the band may use box `k`): the cells of the
/// band whose (row, box) pair lies in at least one perfect matching of the graph. Zero when the
/// graph has no perfect matching, i.e. the digit cannot be placed in this band any more.
static KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut g = 0;
    while g < 512 {
        // Row `r` keeps box `k` (its three cells) when the edge `3r + k` is in a matching.
        t[g] = minirow_cells(MATCHED[g] as u32);
        g += 1;
    }
    t
};

/// The row-by-box graph of a band word (see [`row_graph`]) in another numbering: a perfect hash
/// of it into 0..512. The update's row pass, the rule that runs most, only needs the graph
/// as an index into [`KEEP`], and this costs fewer operations than [`row_graph`]'s three
/// lookups (on permuted top1465, 6% fewer instructions in all).
///
/// Each graph edge is a box segment of a row, three bits; ORing each bit with the two above it
/// gathers a segment into its lowest bit, so the nine edges sit at every third bit. A
/// multiplication then maps those nine bits into the top nine bits of the word, a different
/// value for each of the 512 sets of edges: [`KEEP_HASHED`] checks that when it is built.
#[inline(always)]
const fn row_hash(w: u32) -> usize {
    let edges = (w | w >> 1 | w >> 2) & EDGE_BITS;
    (edges.wrapping_mul(ROW_HASH) >> 23) as usize
}

/// The lowest bit of each box segment of a band word's rows: bit `9r + 3k`.
const EDGE_BITS: u32 = 0x124_9249;

/// The multiplier of [`row_hash`], found by a search among random odd numbers.
const ROW_HASH: u32 = 0x3808_0101;

/// [`KEEP`], indexed by [`row_hash`] instead of the graph.
static KEEP_HASHED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut seen = [false; 512];
    let mut g = 0;
    while g < 512 {
        // The word whose rows use exactly the boxes of graph `g`: their minirows.
        let h = row_hash(minirow_cells(g as u32));
        assert!(!seen[h], "row_hash must give each graph its own slot");
        seen[h] = true;
        t[h] = KEEP[g];
        g += 1;
    }
    t
};

/// The cells of each band word `w[b]` that are alone in their row, among `unsolved[b]`: where a
/// digit whose words these are must go. All three bands at once in one vector.
///
/// Every row of a word must have a cell, as the row matching leaves them: subtracting one per
/// row then borrows within the row, and a row of `w & (w - ROW_LOW)` is empty exactly when it
/// had one cell. (Given an empty row, both paths compute the same, meaningless, answer.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn row_singles(w: [u32; 3], unsolved: [u32; 3]) -> [u32; 3] {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmpeq_epi32, _mm_or_si128, _mm_set1_epi32, _mm_setr_epi32,
        _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi32,
    };
    let mut out = [0u32; 4];
    // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. The one
    // store writes the 16 bytes of `out`; the unaligned store needs no alignment.
    unsafe {
        let lanes = |x: [u32; 3]| _mm_setr_epi32(x[0] as i32, x[1] as i32, x[2] as i32, 0);
        let words = lanes(w);
        let rest = _mm_and_si128(words, _mm_sub_epi32(words, _mm_set1_epi32(ROW_LOW as i32)));
        let zero = _mm_setzero_si128();
        let mut alone = zero;
        for row in [0x1FF, 0x1FF << 9, 0x1FF << 18] {
            let row = _mm_set1_epi32(row);
            let empty = _mm_cmpeq_epi32(_mm_and_si128(rest, row), zero);
            alone = _mm_or_si128(alone, _mm_and_si128(empty, row));
        }
        let new = _mm_and_si128(_mm_and_si128(words, alone), lanes(unsolved));
        _mm_storeu_si128(out.as_mut_ptr().cast(), new);
    }
    [out[0], out[1], out[2]]
}

/// The cells of each band word alone in their row, among the unsolved ones.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn row_singles(w: [u32; 3], unsolved: [u32; 3]) -> [u32; 3] {
    row_singles_scalar(w, unsolved)
}

/// [`row_singles`] one band at a time: the portable path, and the reference the vector path
/// is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn row_singles_scalar(w: [u32; 3], unsolved: [u32; 3]) -> [u32; 3] {
    std::array::from_fn(|b| {
        let rest = w[b] & w[b].wrapping_sub(ROW_LOW);
        // Rows of `rest` spread ten bits apart, so that adding 0x1FF to each carries into its
        // spare bit exactly when the row is non-empty.
        let spread = (rest & 0x1FF) as u64
            | ((rest & 0x3FE00) as u64) << 1
            | ((rest & 0x7FC_0000) as u64) << 2;
        let carry = spread + (0x1FF | 0x1FF << 10 | 0x1FF << 20);
        let rows = (carry >> 9 & 1 | carry >> 18 & 2 | carry >> 27 & 4) as usize;
        w[b] & !SPREAD_ROWS[rows] & unsolved[b]
    })
}

/// The first cell of each row of a band word.
const ROW_LOW: u32 = 1 | 1 << 9 | 1 << 18;

/// One bit per word (bit `i` for `cand[i]`) from seven vectors of four all-ones-or-zero lanes:
/// packed down to a byte per word (all ones and zero survive the saturation), so that two
/// byte masks give the 28 bits. Bits 28..32 repeat the last vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn word_mask(v: [std::arch::x86_64::__m128i; WORDS / 4]) -> u32 {
    use std::arch::x86_64::{_mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32};
    // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available; they only
    // work on registers.
    unsafe {
        let low = _mm_packs_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]));
        let high = _mm_packs_epi16(_mm_packs_epi32(v[4], v[5]), _mm_packs_epi32(v[6], v[6]));
        _mm_movemask_epi8(low) as u32 | (_mm_movemask_epi8(high) as u32) << 16
    }
}

/// The bands (bit `b`) all nine of whose words are set in `words` (bit `i` for `cand[i]`).
#[inline(always)]
fn bands_of(words: u32) -> u32 {
    let all = |b: u32| (words & BAND0_WORDS << b == BAND0_WORDS << b) as u32;
    all(0) | all(1) << 1 | all(2) << 2
}

/// For each cell of a band: the other cells of its row and box in the band. (Its column within
/// the band lies inside its box.)
static BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let mut j = 0;
        while j < 27 {
            if j != i && (j / 9 == i / 9 || j % 9 / 3 == i % 9 / 3) {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// For a 3x3 bipartite graph (bit `3i + j`: edge from `i` to `j`): the edges that lie in at
/// least one perfect matching. Zero when there is none.
static MATCHED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut g = 0;
    while g < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let edges = 1 << perm[0] | 1 << (3 + perm[1]) | 1 << (6 + perm[2]);
            if g & edges == edges {
                t[g] |= edges as u16;
            }
            p += 1;
        }
        g += 1;
    }
    t
};

/// The six permutations of three things.
const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The row-by-box graph of a band word: bit `3r + k` when row `r` has a cell in box `k`.
#[inline(always)]
fn row_graph(w: u32) -> usize {
    row_graph_cells(w).0
}

/// The row-by-box graph of a band word (see [`row_graph`]) and its number of cells.
#[inline(always)]
fn row_graph_cells(w: u32) -> (usize, u32) {
    // The masks keep every index provably in range, so that no lookup needs a bounds check.
    let sum = ROW_SHAPES[0][(w & 0x1FF) as usize] as u32
        + ROW_SHAPES[1][(w >> 9 & 0x1FF) as usize] as u32
        + ROW_SHAPES[2][(w >> 18 & 0x1FF) as usize] as u32;
    ((sum & 0x1FF) as usize, sum >> 12)
}

/// For each permutation of [`PERMS`]: its edges in a row-by-box graph, and the cells of the
/// band it allows (row `r` in box `perm[r]`).
static PERM_EDGES: [(usize, u32); 6] = {
    let mut t = [(0usize, 0u32); 6];
    let mut p = 0;
    while p < 6 {
        let mut r = 0;
        while r < 3 {
            t[p].0 |= 1 << (3 * r + PERMS[p][r]);
            t[p].1 |= 7 << (9 * r + 3 * PERMS[p][r]);
            r += 1;
        }
        p += 1;
    }
    t
};

/// For a row-by-box graph: how many perfect matchings (configurations of the digit in the
/// band, 0 to 6) it has.
static CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut g = 0;
    while g < 512 {
        let mut p = 0;
        while p < 6 {
            if g & PERM_EDGES[p].0 == PERM_EDGES[p].0 {
                t[g] += 1;
            }
            p += 1;
        }
        g += 1;
    }
    t
};

/// For a row-by-box graph: its perfect matchings, bit `p` for permutation `p` of [`PERMS`].
static MATCHINGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut g = 0;
    while g < 512 {
        let mut p = 0;
        while p < 6 {
            if g & PERM_EDGES[p].0 == PERM_EDGES[p].0 {
                t[g] |= 1 << p;
            }
            p += 1;
        }
        g += 1;
    }
    t
};

/// For a row-by-box graph: the edges that every perfect matching uses (the minirows the digit
/// must occupy), in bits 16..25, so that the minirow pass adds a digit's graph and forced edges
/// to one [`Tally`] at once (`g | FORCED[g]`). Zero when there is no matching.
static FORCED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut g = 0;
    while g < 512 {
        let mut common = 0x1FF;
        let mut any = false;
        let mut p = 0;
        while p < 6 {
            let e = PERM_EDGES[p].0 as u32;
            if g as u32 & e == e {
                common &= e;
                any = true;
            }
            p += 1;
        }
        t[g] = if any { common << 16 } else { 0 };
        g += 1;
    }
    t
};

/// For each bit, how many of the words added so far have it set, counted up to four: the four
/// words are "at least one" to "at least four", bit by bit.
#[derive(Clone, Copy, Default)]
struct Tally {
    one: u32,
    two: u32,
    three: u32,
    four: u32,
}

impl Tally {
    #[inline(always)]
    fn add(&mut self, x: u32) {
        self.four |= self.three & x;
        self.three |= self.two & x;
        self.two |= self.one & x;
        self.one |= x;
    }

    /// Two tallies kept in one, in bits 0..16 and 16..32: split apart.
    #[inline(always)]
    fn split(self) -> (Tally, Tally) {
        let low = |x: u32| x & 0xFFFF;
        let high = |x: u32| x >> 16;
        let part = |f: fn(u32) -> u32| Tally {
            one: f(self.one),
            two: f(self.two),
            three: f(self.three),
            four: f(self.four),
        };
        (part(low), part(high))
    }
}

/// The rule that a unit of three cells (a minirow or a minicolumn; one bit each, `all` of them)
/// holds exactly three digits, from the digits that `may` use each unit and those that surely
/// do: `None` if some unit has fewer than three possible digits or more than three sure ones;
/// else the units with three sure digits and a fourth possible one (closed to it) and those
/// with exactly three possible ones, not all sure (which must all go there). A unit with three
/// sure digits and no other, such as a solved one, has nothing to close: leaving those out
/// lets the callers skip their pass over the digits when no unit is left, which on serg was
/// most of the time.
#[inline(always)]
fn three_each(may: Tally, sure: Tally, all: u32) -> Option<(u32, u32)> {
    if may.three != all || sure.four != 0 {
        return None;
    }
    Some((sure.three & may.four, may.three & !may.four & !sure.three))
}

/// The cells of a set of minirows (row-by-box edges, bit `3r + k`).
#[inline(always)]
const fn minirow_cells(edges: u32) -> u32 {
    const SPREAD: [u32; 8] = spread(0x7, 3);
    SPREAD[(edges & 7) as usize]
        | SPREAD[(edges >> 3 & 7) as usize] << 9
        | SPREAD[(edges >> 6 & 7) as usize] << 18
}

/// For minirow `3r + k`: the cells a digit must leave once it is known to occupy that minirow,
/// namely the rest of row `r` and the rest of box `k`.
static CROSS: [u32; 9] = {
    let mut t = [0u32; 9];
    let mut e = 0;
    while e < 9 {
        let (r, k) = (e / 3, e % 3);
        t[e] = ((0x1FF << (9 * r)) | (0x40201 * (7 << (3 * k)))) & !(7 << (9 * r + 3 * k));
        e += 1;
    }
    t
};

/// The columns (9 bits) where a band word has a cell.
#[inline(always)]
fn columns(w: u32) -> u32 {
    (w | w >> 9 | w >> 18) & 0x1FF
}

/// The columns of the three bands of a digit as one word, bit `9 * band + column`: the same
/// layout as a band word, with bands for rows and stacks for boxes.
#[inline(always)]
fn band_columns(w: &[u32; 3]) -> u32 {
    // Each band's rows folded straight onto its own row of the result, which needs no shift
    // after the fold: for band 1 the row above moves down and the row below up, for band 2
    // both move up; what lands elsewhere is masked off.
    let [a, b, c] = *w;
    (a | a >> 9 | a >> 18) & 0x1FF
        | (b << 9 | b | b >> 9) & 0x1FF << 9
        | (c << 18 | c << 9 | c) & 0x1FF << 18
}

/// Stack `s` of a [`band_columns`] word as a band-by-column graph (bit `3 * band + j` for
/// column `3s + j`).
#[inline(always)]
fn stack_graph(x: u32, s: u32) -> usize {
    // The stack's three bits of each band, at bits 0, 9 and 18 once shifted, are gathered by
    // one multiplication: 1 + 2^6 + 2^12 moves them to bits 12, 15 and 18, and none of the
    // other eight products of a band's bits and a power reaches bits 12..21 or overlaps
    // another, so nothing carries.
    ((x >> (3 * s) & BOX0).wrapping_mul(1 | 1 << 6 | 1 << 12) >> 12 & 0x1FF) as usize
}

/// For stack `s` and a band-by-column graph of it: the [`MATCHED`] edges, laid out as a
/// [`band_columns`] word, so that the three stacks' lookups just OR together.
static STACK_KEEP: [[u32; 512]; 3] = {
    let mut t = [[0u32; 512]; 3];
    let mut s = 0;
    while s < 3 {
        let mut g = 0;
        while g < 512 {
            let m = MATCHED[g] as u32;
            let mut b = 0;
            while b < 3 {
                t[s][g] |= (m >> (3 * b) & 7) << (9 * b + 3 * s);
                b += 1;
            }
            g += 1;
        }
        s += 1;
    }
    t
};

/// For each cell of the grid, its units as one word: per band `b`, its three rows at bits
/// `6b..6b + 3` and its three boxes at bits `6b + 3..6b + 6`, so that six bits give a band's
/// rows and boxes ([`BAND_UNIT_CELLS`]); the nine columns at bits `18..27`.
static CELL_UNITS: [u32; CELLS] = {
    let mut t = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (r, col) = (c / 9, c % 9);
        let band = 6 * (r / 3);
        t[c] = 1 << (band + r % 3) | 1 << (band + 3 + col / 3) | 1 << (18 + col);
        c += 1;
    }
    t
};

/// For each set of three bits `m`: the union of `part << (step * i)` over the bits `i` of `m`.
const fn spread(part: u32, step: u32) -> [u32; 8] {
    let mut t = [0u32; 8];
    let mut m = 0;
    while m < 8 {
        let mut i = 0;
        while i < 3 {
            if m >> i & 1 != 0 {
                t[m] |= part << (step * i as u32);
            }
            i += 1;
        }
        m += 1;
    }
    t
}

/// The cells of a band in the rows given by three bits.
static SPREAD_ROWS: [u32; 8] = spread(0x1FF, 9);

/// The cells of a band in the boxes given by three bits.
static SPREAD_BOXES: [u32; 8] = spread(BOX0, 3);

/// The cells of a band in the rows given by the low three of six bits or in the boxes given by
/// the high three (a band's six bits of [`CELL_UNITS`]): one lookup instead of two.
static BAND_UNIT_CELLS: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = SPREAD_ROWS[i & 7] | SPREAD_BOXES[i >> 3];
        i += 1;
    }
    t
};

/// The search state; see the module documentation for the layout.
#[derive(Clone, Copy)]
struct State {
    /// Possible cells of each digit in each band, indexed `digit * 3 + band`.
    cand: [u32; WORDS],
    /// Cells of each band with no digit placed yet.
    unsolved: [u32; 3],
    /// Words changed since their digit's last update (bit `digit * 3 + band`, as `cand`).
    dirty: u32,
    /// For each digit, the [`band_columns`] its words had after its last column pass.
    cols: [u32; 9],
    /// The word (`digit * 3 + band`) to branch on, chosen by the last [`State::minirows`]
    /// pass; [`NO_PICK`] when every digit has a single configuration left in every band, or
    /// when the last propagation ran without the pass (a settled puzzle's light search).
    pick: u32,
    /// Words changed since the last [`State::minirows`] pass (bits as `dirty`): a band none
    /// of whose words changed would yield the same again, so the pass skips it. The light
    /// search of a settled puzzle, which runs no pass, does not track them: it leaves every
    /// band due, for the pass that runs once its search turns thorough.
    since: u32,
    /// For each band, its branch key from the last [`State::minirows`] pass that looked at it;
    /// [`NO_PICK`] when the band has no empty cell or one configuration per digit left, which
    /// later passes then skip.
    band_key: [u32; 3],
}

/// The bits of band 0's words (word `3 * digit`) in a set of words such as [`State::dirty`]
/// and [`State::since`]; shifted left by `b`, those of band `b`.
const BAND0_WORDS: u32 = 0x124_9249;

/// The length of [`State::cand`]: 27 words and one of padding.
const WORDS: usize = 28;

/// The most configurations, summed over the digits of a band, with which the grid keeps its
/// orientation. At 9, one per digit, no stack can promise less (at best a tie); a few more
/// left so little search that turning the grid cost more than it saved: at 12 rather than
/// 9, 0.9% fewer instructions on the first 10,000 of 17-clue and 0.2% fewer on top1465, the
/// hard sets unchanged; at 13, top1465 took more guesses (6.79 against 6.78), at 15, 6.97.
const KEEP_ORIENTATION: u32 = 12;

/// [`State::pick`] when there is no band configuration to branch on.
const NO_PICK: u32 = u32::MAX;

/// The contradictions after which the search of a settled puzzle turns thorough (see the
/// module documentation). On the first 10,000 of permuted 17-clue, turning at the second cost
/// 0.1% more instructions than at the eighth, and never turning 0.5% more.
const SETTLED_FAILURES: u32 = 8;

impl State {
    const START: State = State {
        cand: {
            let mut c = [BAND; WORDS];
            c[27] = 0;
            c
        },
        unsolved: [BAND; 3],
        dirty: BAND,
        cols: [0; 9],
        pick: NO_PICK,
        since: BAND,
        // No key yet: the first pass, due on every band (`since`), sets them all.
        band_key: [0; 3],
    };

    /// Replaces `cand[i]` by `cand[i] & keep`, marking the word dirty if that removed
    /// anything.
    #[inline(always)]
    fn restrict(&mut self, i: usize, keep: u32) {
        // Branch-free: whether a removal happens is data-dependent and mispredicts often.
        let old = self.cand[i];
        let new = old & keep;
        self.cand[i] = new;
        self.dirty |= ((new != old) as u32) << i;
    }

    /// Removes the cells `cells[b]` of each band `b` from every digit's word, marking the
    /// words that lose any dirty: seven 4-word vector operations instead of 27 scalar ones.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn clear(&mut self, cells: [u32; 3]) {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_setr_epi32,
            _mm_storeu_si128,
        };
        // Word i lies in band i % 3, so the keep masks repeat every three vectors.
        let [a, b, c] = cells.map(|x| !x as i32);
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // `p` points to four consecutive u32 of `self.cand` (the slice checks the range): 16
        // bytes, readable and writable through `&mut self`; the unaligned load and store
        // need no alignment.
        let same = unsafe {
            let keep = [
                _mm_setr_epi32(a, b, c, a),
                _mm_setr_epi32(b, c, a, b),
                _mm_setr_epi32(c, a, b, c),
            ];
            // Per word, all ones where it kept every cell.
            let same: [__m128i; WORDS / 4] = std::array::from_fn(|k| {
                let p = self.cand[4 * k..4 * k + 4].as_mut_ptr().cast::<__m128i>();
                let old = _mm_loadu_si128(p);
                let new = _mm_and_si128(old, keep[k % 3]);
                _mm_storeu_si128(p, new);
                _mm_cmpeq_epi32(old, new)
            });
            word_mask(same)
        };
        // The padding word 27 never changes.
        self.dirty |= !same & BAND;
    }

    /// Removes the cells `cells[b]` of each band `b` from every digit's word, marking the
    /// words that lose any dirty.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn clear(&mut self, cells: [u32; 3]) {
        self.clear_scalar(cells);
    }

    /// [`State::clear`] one word at a time: the portable path, and the reference the vector
    /// path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    fn clear_scalar(&mut self, cells: [u32; 3]) {
        for i in 0..27 {
            self.restrict(i, !cells[i % 3]);
        }
    }

    /// Places digit `d` on the cell `bit` of band `b`, which no other digit may hold any more:
    /// removes `d` from the cell's row and box in the band and from its column in the others.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) {
        let pos = bit.trailing_zeros();
        self.unsolved[b] &= !bit;
        self.restrict(d * 3 + b, !BAND_PEERS[pos as usize]);
        let col = !column(pos % 9);
        self.restrict(d * 3 + (b + 1) % 3, col);
        self.restrict(d * 3 + (b + 2) % 3, col);
    }

    /// Places digit `d` on cell `bit` of band `b` after removing from it the other digits
    /// that still have it, `others` (bit `e` for digit `e`; not `d`).
    fn assign(&mut self, d: usize, b: usize, bit: u32, others: u32) {
        debug_assert_eq!(
            others & 1 << d,
            0,
            "the digit placed is not among the others"
        );
        let mut m = others;
        while m != 0 {
            // At most 8: the index is in range.
            let e = (m.trailing_zeros() as usize).min(8);
            m &= m - 1;
            self.restrict(e * 3 + b, !bit);
        }
        self.place(d, b, bit);
    }

    /// The update of digit `d`: keeps the cells that fit a row-to-box matching in every band,
    /// then those that fit a band-to-column matching in every stack, and repeats both until
    /// the column pass shrinks no band; then places the digit on each row left with a single
    /// cell. False when the digit no longer fits the grid. With `SINCE`, the words it changed
    /// (and those that were dirty) are marked in [`State::since`].
    ///
    /// The hot paths are branch-free where the outcome is data-dependent (does this word
    /// change, does this band gain a single): on the hard corpora a mispredicted branch costs
    /// more than the work it would skip, so bands that cannot change are computed anyway.
    #[inline(always)]
    fn update<const SINCE: bool>(&mut self, d: usize) -> bool {
        let mut touched = self.dirty >> (d * 3) & 7;
        self.dirty &= !(7 << (d * 3));
        let mut w = [self.cand[d * 3], self.cand[d * 3 + 1], self.cand[d * 3 + 2]];
        loop {
            // The row matching of an unchanged word removes nothing; applying it anyway
            // costs less than the mispredicted branch that would skip it.
            for x in &mut w {
                *x &= KEEP_HASHED[row_hash(*x)];
            }
            // The column pass depends only on the columns the words touch: when they are the
            // ones of the last pass, which the words already fitted, it would remove nothing.
            let x = band_columns(&w);
            if x == self.cols[d] {
                break;
            }
            let keep = STACK_KEEP[0][stack_graph(x, 0)]
                | STACK_KEEP[1][stack_graph(x, 1)]
                | STACK_KEEP[2][stack_graph(x, 2)];
            // The pass removes whole columns of a band, so it changes the words exactly when
            // it drops columns from `x`; the columns it leaves fit a matching already, so
            // they are the ones the next pass compares with.
            let gone = x & !keep;
            self.cols[d] = x & keep;
            if gone == 0 {
                break;
            }
            for (b, x) in w.iter_mut().enumerate() {
                *x &= (keep >> (9 * b) & 0x1FF) * 0x40201;
                touched |= ((gone >> (9 * b) & 0x1FF != 0) as u32) << b;
            }
        }
        if SINCE {
            self.since |= touched << (d * 3);
        }
        if w.contains(&0) {
            return false;
        }
        // Rows with a single cell left: the digit goes there. Only a changed word can have
        // gained one, but the test costs less than the mispredicted branch that would skip it.
        self.cand[d * 3..d * 3 + 3].copy_from_slice(&w);
        let new = row_singles(w, self.unsolved);
        if new[0] | new[1] | new[2] == 0 {
            return true;
        }
        // All three bands, as a test per band would mispredict: removing no cells is harmless.
        for (b, &new) in new.iter().enumerate() {
            self.unsolved[b] &= !new;
        }
        self.clear(new);
        // Its own digit keeps the cells; its words are current, so not dirty.
        self.cand[d * 3..d * 3 + 3].copy_from_slice(&w);
        self.dirty &= !(7 << (d * 3));
        true
    }

    /// Runs band updates and naked singles until neither changes anything, then, with
    /// `MINIROWS`, the minirow rule and, with `MINICOLS` too (the root's fixpoint), the
    /// minicolumn rule. None on a contradiction. Without `MINIROWS` (the search of a settled
    /// puzzle, see the module documentation) it sets [`State::pick`] to [`NO_PICK`] and returns
    /// the cells with exactly two candidates, per band, for [`State::branch_cell`]: its last
    /// round counted them for the naked singles (a third count, about 15 instructions), which
    /// saves the branch counting them again (1.2% of serg's instructions). With `MINIROWS` it
    /// returns zeros: the branch, if on a cell, counts them itself.
    // Inlined by hand (as are the two rules it calls): with the root's call in `solve_with`
    // it has three callers, and the compiler would otherwise move the rules out of the search.
    #[inline(always)]
    fn propagate<const MINIROWS: bool, const MINICOLS: bool>(&mut self) -> Option<[u32; 3]> {
        loop {
            while self.dirty != 0 {
                // `dirty` has bits below 27 only; the `min` lets the compiler see that the
                // digit's three words are in range, which saves a bounds check per update.
                // A stray higher bit would never be cleared, so debug builds check for one.
                debug_assert_eq!(self.dirty & !BAND, 0, "a dirty bit beyond the 27 words");
                let d = (self.dirty.trailing_zeros() as usize / 3).min(8);
                if !self.update::<MINIROWS>(d) {
                    return None;
                }
            }
            let mut placed = false;
            // Counted for the three bands before any is placed: a placement only removes
            // candidates from the later bands, so their counts can be stale only in having
            // too many, which hides an empty cell or a single until the next round (which a
            // placement brings), and never yields a wrong one.
            let (one, two, three) = if MINIROWS {
                let [one, two] = self.candidate_counts::<2>();
                (one, two, [0; 3])
            } else {
                let [one, two, three] = self.candidate_counts::<3>();
                (one, two, three)
            };
            for b in 0..3 {
                let unsolved = self.unsolved[b];
                if unsolved & !one[b] != 0 {
                    return None; // a cell with no candidate left
                }
                let singles = unsolved & !two[b];
                if singles != 0 {
                    placed = true;
                    for d in 0..9 {
                        let mut m = singles & self.cand[d * 3 + b];
                        while m != 0 {
                            let bit = m & m.wrapping_neg();
                            m ^= bit;
                            self.place(d, b, bit);
                        }
                    }
                }
            }
            if placed {
                continue;
            }
            if !MINIROWS {
                // No band configuration was chosen: the search branches on a cell. The updates
                // kept no account of the words they changed, so every band is due its pass.
                self.pick = NO_PICK;
                self.since = BAND;
                return Some(std::array::from_fn(|b| {
                    self.unsolved[b] & two[b] & !three[b]
                }));
            }
            // The minirow rule is the costliest, so it runs only once the cheap rules stall.
            if !self.minirows() {
                return None;
            }
            if self.dirty != 0 {
                continue;
            }
            // The same rule for minicolumns, once everything else has stalled, at the root.
            if !MINICOLS {
                return Some([0; 3]);
            }
            if !self.minicols() {
                return None;
            }
            if self.dirty == 0 {
                return Some([0; 3]);
            }
        }
    }

    /// For every band, the cells with at least one candidate left, those with at least two,
    /// and so on up to `N` (naked singles are the empty cells of the first not in the second;
    /// the branch on a cell looks for the second not in the third): the three bands at once, a
    /// digit's three words being one vector (the fourth lane, the next digit's first word or
    /// the padding word, is ignored). About 40 instructions for two, against 110 a band at a
    /// time.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn candidate_counts<const N: usize>(&self) -> [[u32; 3]; N] {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128,
            _mm_storeu_si128,
        };
        let mut out = [[0u32; 3]; N];
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // load reads four consecutive u32 of `self.cand` (28 words, so `3 * d + 4` is at most
        // 28 for the ninth digit) that the slice checks are there, and each store writes the
        // 16 bytes of a local `[u32; 4]`; unaligned loads and stores need no alignment.
        unsafe {
            // `at_least[k]`: the cells with at least k + 1 candidates so far.
            let mut at_least: [__m128i; N] = [_mm_setzero_si128(); N];
            for d in 0..9 {
                let w = _mm_loadu_si128(self.cand[3 * d..3 * d + 4].as_ptr().cast());
                for k in (1..N).rev() {
                    at_least[k] = _mm_or_si128(at_least[k], _mm_and_si128(at_least[k - 1], w));
                }
                at_least[0] = _mm_or_si128(at_least[0], w);
            }
            for (o, v) in out.iter_mut().zip(at_least) {
                let mut lanes = [0u32; 4];
                _mm_storeu_si128(lanes.as_mut_ptr().cast(), v);
                *o = [lanes[0], lanes[1], lanes[2]];
            }
        }
        out
    }

    /// For every band, the cells with at least one candidate left, at least two, and so on up
    /// to `N`.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn candidate_counts<const N: usize>(&self) -> [[u32; 3]; N] {
        self.candidate_counts_scalar()
    }

    /// [`State::candidate_counts`] a band at a time: the portable path, and the reference the
    /// vector path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    fn candidate_counts_scalar<const N: usize>(&self) -> [[u32; 3]; N] {
        let mut at_least = [[0u32; 3]; N];
        // Word i is in band i % 3; within a band the digits come in order.
        for (i, &w) in self.cand[..27].iter().enumerate() {
            let b = i % 3;
            for k in (1..N).rev() {
                at_least[k][b] |= at_least[k - 1][b] & w;
            }
            at_least[0][b] |= w;
        }
        at_least
    }

    /// Each minirow (the three cells where a row of a band crosses a box) holds exactly three
    /// digits. Counts, per band and for all nine minirows at once, the digits that may and the
    /// digits that must occupy each minirow: fewer than three possible or more than three
    /// certain is a contradiction; three certain ones shut the others out; exactly three
    /// possible ones must all go there. This is what makes a wrong guess of a digit's
    /// configuration fail at once instead of several guesses later. False on a contradiction.
    ///
    /// A band whose key is [`NO_PICK`] is skipped. Builds with debug assertions (the tests)
    /// also run the pass on a copy that skips no band with a changed word and check that
    /// skipping changed nothing.
    #[inline(always)]
    fn minirows(&mut self) -> bool {
        #[cfg(debug_assertions)]
        let unsettled = {
            let due = |b: usize| self.since & (BAND0_WORDS << b) != 0;
            let mut all = State {
                band_key: std::array::from_fn(|b| match self.band_key[b] {
                    NO_PICK if due(b) => 0,
                    k => k,
                }),
                ..*self
            };
            let ok = all.minirow_pass();
            (all, ok)
        };
        let ok = self.minirow_pass();
        #[cfg(debug_assertions)]
        {
            let (all, all_ok) = unsettled;
            assert_eq!(ok, all_ok, "a settled band hid a contradiction");
            if ok {
                assert_eq!(
                    (self.cand, self.dirty, self.since, self.band_key, self.pick),
                    (all.cand, all.dirty, all.since, all.band_key, all.pick),
                    "skipping a settled band changed the pass"
                );
            }
        }
        ok
    }

    /// [`State::minirows`] itself.
    #[inline(always)]
    fn minirow_pass(&mut self) -> bool {
        // The branch choice comes from the same graphs, as a key per band ordered as the
        // search wants (see the module documentation): the band's score, the sum over its
        // digits of their configurations and their cells; then its configurations alone; then
        // in it the digit with the fewest configurations above one, then the fewest cells,
        // then the lowest word.
        let since = self.since;
        self.since = 0;
        for b in 0..3 {
            // Skipped: a band none of whose words changed since the last pass (the same
            // again), and one with no empty cell or one configuration per digit left. There
            // every digit's graph is its one matching, all of it forced, so the rule can remove
            // nothing; a state never gets a configuration back, and a digit that loses its
            // last one has an empty word, which its update reports.
            if since & (BAND0_WORDS << b) == 0 || self.band_key[b] == NO_PICK {
                continue;
            }
            self.band_key[b] = NO_PICK;
            if self.unsolved[b] == 0 {
                continue;
            }
            // The graphs (the minirows each digit may use) in the low half, the forced edges
            // (those it surely uses) in the high half: one tally does both.
            let mut both = Tally::default();
            let (mut total, mut cells, mut pick) = (0u32, 0u32, u32::MAX);
            for d in 0..9 {
                let (g, c) = row_graph_cells(self.cand[d * 3 + b]);
                let n = CONFIGS[g] as u32;
                both.add(g as u32 | FORCED[g]);
                total += n;
                cells += c;
                let key = if n > 1 {
                    (n << 5 | c) << 5 | (d * 3 + b) as u32
                } else {
                    u32::MAX
                };
                pick = pick.min(key);
            }
            if pick != u32::MAX {
                // The fields never overlap: the score is at most 54 + 243, the total 54, and
                // the pick (6 configurations, 27 cells, word 26) fits in 14 bits.
                self.band_key[b] = (total + cells) << 20 | total << 14 | pick;
            }
            let (may, sure) = both.split();
            let Some((full, must)) = three_each(may, sure, 0x1FF) else {
                return false;
            };
            if full | must == 0 {
                continue;
            }
            // The graphs again: on this rare path (2.5% of the passes on serg, 5% on top1465)
            // that costs less than keeping the nine graphs and forced edges of every pass.
            for d in 0..9 {
                let g = row_graph(self.cand[d * 3 + b]);
                let f = FORCED[g] >> 16;
                let g = g as u32;
                let out = g & full & !f;
                if out != 0 {
                    self.restrict(d * 3 + b, !minirow_cells(out));
                }
                let mut into = g & must & !f;
                while into != 0 {
                    let e = into.trailing_zeros() as usize;
                    into &= into - 1;
                    self.restrict(d * 3 + b, !CROSS[e]);
                }
            }
        }
        let key = self.band_key[0].min(self.band_key[1]).min(self.band_key[2]);
        self.pick = if key == NO_PICK { NO_PICK } else { key & 0x1F };
        true
    }

    /// The rule of [`State::minirows`] turned by a quarter: each minicolumn (a column crossing
    /// a box, three cells) holds exactly three digits. It reads the columns every update leaves
    /// in `cols` (bit `9 * band + column`: the digit may use that minicolumn) and treats all
    /// 27 minicolumns at once, without a table. After its column pass every band-column pair
    /// of a digit lies in some band-to-column matching of its stack, so the digit certainly
    /// occupies a minicolumn exactly when it is the only one of its box left to the digit.
    /// False on a contradiction.
    #[inline(always)]
    fn minicols(&mut self) -> bool {
        /// The first column of each of the nine boxes, in the [`band_columns`] layout.
        const FIRST: u32 = 0x1249249;
        let (mut may, mut sure) = (Tally::default(), Tally::default());
        let mut forced = [0u32; 9];
        for (d, &c) in self.cols.iter().enumerate() {
            let (x, y, z) = (c & FIRST, c >> 1 & FIRST, c >> 2 & FIRST);
            // Boxes where the digit has exactly one column left: an odd count, not three.
            let one = (x ^ y ^ z) & !(x & y & z);
            let f = c & (one * 7);
            forced[d] = f;
            may.add(c);
            sure.add(f);
        }
        let Some((full, must)) = three_each(may, sure, BAND) else {
            return false;
        };
        if full | must == 0 {
            return true;
        }
        for (d, &f) in forced.iter().enumerate() {
            let c = self.cols[d];
            let out = c & full & !f;
            let into = c & must & !f;
            if out | into == 0 {
                continue;
            }
            // A minicolumn the digit must take shuts its column in the other bands and the
            // other columns of its box.
            let into_cols = columns(into);
            for b in 0..3 {
                let into_b = into >> (9 * b) & 0x1FF;
                let boxes = SPREAD_BOXES[(ROW_SHAPES[0][into_b as usize] & 7) as usize] & 0x1FF;
                let gone = (out >> (9 * b) & 0x1FF) | ((into_cols | boxes) & !into_b);
                self.restrict(d * 3 + b, !(gone * 0x40201));
            }
        }
        true
    }

    /// Hidden pairs in rows and columns: when two digits can go only to the same two cells of
    /// a row or a column, the two cells hold those digits, and every other digit leaves them.
    /// Called at a fixpoint of the other rules (no word dirty), it returns whether some digit
    /// lost a cell, leaving those words dirty. Run at the root only (see the module
    /// documentation).
    #[inline(never)]
    fn hidden_pairs(&mut self) -> bool {
        // Its answer is whether a word is dirty afterwards: one dirty before would read as a
        // change, and the caller's loop would not end.
        debug_assert_eq!(self.dirty, 0, "hidden pairs need the other rules' fixpoint");
        // Rows. Only empty cells count, so that a digit placed in the unit has none there.
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            for row in [0x1FF, 0x1FF << 9, 0x1FF << 18] {
                let cells: [u32; 9] =
                    std::array::from_fn(|e| self.cand[e * 3 + b] & unsolved & row);
                for_pairs(&cells, |e, f, cells| {
                    let mut c = [0; 3];
                    c[b] = cells;
                    self.leave(e, f, c);
                });
            }
        }
        // Columns: a column has its cells at the same bits of every band, so band b's are
        // shifted by b to keep them apart in one key.
        for col in 0..9 {
            let mask = self.unsolved.map(|u| u & column(col));
            let keys: [u32; 9] = std::array::from_fn(|e| {
                self.cand[e * 3] & mask[0]
                    | (self.cand[e * 3 + 1] & mask[1]) << 1
                    | (self.cand[e * 3 + 2] & mask[2]) << 2
            });
            for_pairs(&keys, |e, f, key| {
                self.leave(e, f, std::array::from_fn(|b| key >> b & mask[b]));
            });
        }
        self.dirty != 0
    }

    /// Removes every digit but `e` and `f` from the cells `cells[b]` of each band `b`.
    fn leave(&mut self, e: usize, f: usize, cells: [u32; 3]) {
        for g in (0..9).filter(|&g| g != e && g != f) {
            for (b, &c) in cells.iter().enumerate() {
                self.restrict(g * 3 + b, !c);
            }
        }
    }

    /// Whether the search promises to be smaller in the stack orientation: the configurations
    /// summed over the digits of each band and of each stack, compared smallest first; never
    /// when a band is down to [`KEEP_ORIENTATION`] configurations or fewer (see the module
    /// documentation). Needs the fixpoint that [`State::propagate`] leaves: `band_key` is then
    /// current and `cols` holds every digit's columns.
    #[inline(never)]
    fn prefers_stacks(&self) -> bool {
        // A band with no choice left (or no empty cell) has one configuration per digit.
        let mut band = self
            .band_key
            .map(|k| if k == NO_PICK { 9 } else { k >> 14 & 0x3F });
        band.sort_unstable();
        if band[0] <= KEEP_ORIENTATION {
            return false;
        }
        let mut stack = [0u32; 3];
        for (s, total) in stack.iter_mut().enumerate() {
            for &c in &self.cols {
                *total += CONFIGS[stack_graph(c, s as u32)] as u32;
            }
        }
        stack.sort_unstable();
        stack < band
    }

    /// The state of the transposed grid (the cell at row `r`, column `c` moves to row `c`,
    /// column `r`), at the fixpoint of the per-digit rules as this one is: no word needs its
    /// update, but every band needs its minirow pass.
    #[inline(never)]
    fn transposed(&self) -> State {
        // Box k of band b becomes box b of band k, each box transposed in itself.
        let turn = |words: &[u32]| {
            let mut out = [0u32; 3];
            for (b, &w) in words.iter().enumerate() {
                let t = transpose_boxes(w);
                for (k, o) in out.iter_mut().enumerate() {
                    *o |= (t >> (3 * k) & BOX0) << (3 * b);
                }
            }
            out
        };
        // As at the start, every band is due its minirow pass (`since`) and no branch is
        // chosen; unlike it, no word needs its update.
        let mut t = State {
            dirty: 0,
            unsolved: turn(&self.unsolved),
            ..State::START
        };
        for d in 0..9 {
            let words = turn(&self.cand[d * 3..d * 3 + 3]);
            t.cand[d * 3..d * 3 + 3].copy_from_slice(&words);
            t.cols[d] = band_columns(&words);
        }
        t
    }

    /// The bands (bit `b` for band `b`) where every digit has a single configuration left:
    /// the bands a minirow pass would give the key [`NO_PICK`], read without one. Valid where
    /// no word is dirty, every word having been through its row matching: a digit then has a
    /// single configuration exactly when each row of its word uses a single box.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn settled_bands(&self) -> u32 {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi32,
            _mm_setzero_si128, _mm_srli_epi32, _mm_sub_epi32,
        };
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // load reads four consecutive u32 of `self.cand`, which the slice checks are there; the
        // unaligned load needs no alignment.
        let single = unsafe {
            let edges = _mm_set1_epi32(EDGE_BITS as i32);
            let low = _mm_set1_epi32(ROW_LOW as i32);
            // Per word, all ones where it has a single configuration.
            let single: [__m128i; WORDS / 4] = std::array::from_fn(|k| {
                let w = _mm_loadu_si128(self.cand[4 * k..4 * k + 4].as_ptr().cast());
                let shifted = _mm_or_si128(_mm_srli_epi32(w, 1), _mm_srli_epi32(w, 2));
                let e = _mm_and_si128(_mm_or_si128(w, shifted), edges);
                let rest = _mm_and_si128(e, _mm_sub_epi32(e, low));
                _mm_cmpeq_epi32(rest, _mm_setzero_si128())
            });
            word_mask(single)
        };
        bands_of(single)
    }

    /// The bands where every digit has a single configuration left.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn settled_bands(&self) -> u32 {
        self.settled_bands_scalar()
    }

    /// [`State::settled_bands`] one word at a time: the portable path, and the reference the
    /// vector path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    fn settled_bands_scalar(&self) -> u32 {
        let mut single = 0;
        for (i, &w) in self.cand[..27].iter().enumerate() {
            // The box segments a row uses, as its lowest bit; taking away one per row (every
            // row has a cell) and keeping what was there leaves a row empty exactly when it
            // used one segment.
            let e = (w | w >> 1 | w >> 2) & EDGE_BITS;
            single |= ((e & e.wrapping_sub(ROW_LOW) == 0) as u32) << i;
        }
        bands_of(single)
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The cell to branch on, as (band, bit): the first cell with two candidates in a band
    /// whose [`State::band_key`] is not [`NO_PICK`], else the first cell with two candidates,
    /// else the first with the fewest. Below a minirow pass that left no pick, every key is
    /// `NO_PICK` and the first cell with two candidates is taken; in the search of a settled
    /// puzzle the keys are the root's, and a band not settled there is where the puzzle's
    /// constraint lies (see the module documentation). `known` holds the cells with two
    /// candidates when [`State::propagate`] counted them, else zeros.
    fn branch_cell(&self, known: [u32; 3]) -> (usize, u32) {
        // Zeros may also mean that there are none: counting again then finds none either.
        let pairs = if known == [0; 3] {
            let [_, two, three] = self.candidate_counts::<3>();
            std::array::from_fn(|b| self.unsolved[b] & two[b] & !three[b])
        } else {
            known
        };
        let mut first = None;
        for b in 0..3 {
            let pairs = pairs[b];
            if pairs != 0 {
                let cell = (b, pairs & pairs.wrapping_neg());
                if self.band_key[b] != NO_PICK {
                    return cell;
                }
                first = first.or(Some(cell));
            }
        }
        if let Some(cell) = first {
            return cell;
        }
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut m = self.unsolved[b];
            while m != 0 {
                let bit = m & m.wrapping_neg();
                m ^= bit;
                let n = (0..9).filter(|d| self.cand[d * 3 + b] & bit != 0).count() as u32;
                if n < best.2 {
                    best = (b, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The grid of a solved state.
    fn grid(&self) -> Grid {
        // Only digits 1-9 are written, so the grid is valid.
        Grid::from_cells(self.values()).unwrap_or(Grid::EMPTY)
    }

    /// The four bit planes of band `b`: plane `k` holds the cells whose value has bit `k`
    /// set, a value being the OR of the digits (1-9) that the cell still has. In a solved
    /// state that is the cell's one digit.
    #[inline(always)]
    fn planes(&self, b: usize) -> [u32; 4] {
        let c = |digit: usize| self.cand[(digit - 1) * 3 + b];
        [
            c(1) | c(3) | c(5) | c(7) | c(9),
            c(2) | c(3) | c(6) | c(7),
            c(4) | c(5) | c(6) | c(7),
            c(8) | c(9),
        ]
    }

    /// The value of every cell (see [`State::planes`]), 16 cells at a time: each plane's bits
    /// become bytes of 0 or -1, which add up to the values. A solved grid costs about 300
    /// instructions this way, against 780 with a store per cell.
    #[cfg(target_arch = "x86_64")]
    fn values(&self) -> [u8; CELLS] {
        use std::arch::x86_64::{
            _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_cvtsi32_si128, _mm_setr_epi8,
            _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi8, _mm_unpackhi_epi32,
            _mm_unpacklo_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32,
        };
        // Room for the last band's last 16-byte store, which runs past the 81 cells.
        let mut out = [0u8; 96];
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // store goes to 16 bytes of `out` that the slice checks are there; the unaligned store
        // needs no alignment.
        unsafe {
            // Byte i: bit i % 8, the bit of a plane's byte that cell i of 16 reads.
            let bit = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
            for b in 0..3 {
                let planes = self.planes(b);
                let (mut low, mut high) = (_mm_setzero_si128(), _mm_setzero_si128());
                // Highest plane first: doubling the sum before adding the next plane's bit
                // gives each plane its weight.
                for &p in planes.iter().rev() {
                    // Each byte of the plane repeated eight times: bytes 0-1 cover cells 0-15,
                    // bytes 2-3 cells 16-31.
                    let x = _mm_cvtsi32_si128(p as i32);
                    let x = _mm_unpacklo_epi8(x, x);
                    let x = _mm_unpacklo_epi16(x, x);
                    let (l, h) = (_mm_unpacklo_epi32(x, x), _mm_unpackhi_epi32(x, x));
                    let l = _mm_cmpeq_epi8(_mm_and_si128(l, bit), bit);
                    let h = _mm_cmpeq_epi8(_mm_and_si128(h, bit), bit);
                    // A set bit is -1: subtracting it adds one.
                    low = _mm_sub_epi8(_mm_add_epi8(low, low), l);
                    high = _mm_sub_epi8(_mm_add_epi8(high, high), h);
                }
                // Bands go in order, so the zeros a band writes past its 27 cells are
                // overwritten by the next band.
                let at = b * 27;
                _mm_storeu_si128(out[at..at + 16].as_mut_ptr().cast(), low);
                _mm_storeu_si128(out[at + 16..at + 32].as_mut_ptr().cast(), high);
            }
        }
        let mut values = [0u8; CELLS];
        values.copy_from_slice(&out[..CELLS]);
        values
    }

    /// The value of every cell.
    #[cfg(not(target_arch = "x86_64"))]
    fn values(&self) -> [u8; CELLS] {
        self.values_scalar()
    }

    /// [`State::values`] one cell at a time: the portable path, and the reference the vector
    /// path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn values_scalar(&self) -> [u8; CELLS] {
        let mut values = [0u8; CELLS];
        for (b, band) in values.chunks_exact_mut(27).enumerate() {
            let planes = self.planes(b);
            for (i, v) in band.iter_mut().enumerate() {
                *v = (0..4).map(|k| ((planes[k] >> i & 1) << k) as u8).sum();
            }
        }
        values
    }
}

/// The cells of box 0 in a band word.
const BOX0: u32 = 0x1C0E07;

/// Transposes each of the three boxes of a band word in place: the cell at row `r`, column `c`
/// of a box moves to row `c`, column `r` of the same box.
#[inline(always)]
fn transpose_boxes(x: u32) -> u32 {
    // Bit 9r + c of a box goes to 9c + r: the diagonal stays, the rest moves 8 or 16 bits up
    // or down. Multiplying by 0x49 repeats a box's mask for all three boxes.
    const STAY: u32 = (1 | 1 << 10 | 1 << 20) * 0x49;
    const BY8: u32 = (1 << 1 | 1 << 11) * 0x49;
    const BY16: u32 = (1 << 2) * 0x49;
    x & STAY | (x & BY8) << 8 | (x & BY16) << 16 | (x >> 8) & BY8 | (x >> 16) & BY16
}

/// Calls `found(e, f, cells)` for every two digits `e < f` that have the same two cells in a
/// unit, given the cells of each digit there (any layout, one word).
#[inline(always)]
fn for_pairs(cells: &[u32; 9], mut found: impl FnMut(usize, usize, u32)) {
    let mut two = 0u32;
    for (e, &x) in cells.iter().enumerate() {
        let rest = x & x.wrapping_sub(1);
        two |= (((rest != 0) & (rest & rest.wrapping_sub(1) == 0)) as u32) << e;
    }
    while two != 0 {
        let e = two.trailing_zeros() as usize;
        two &= two - 1;
        let mut later = two;
        while later != 0 {
            let f = later.trailing_zeros() as usize;
            later &= later - 1;
            if cells[f] == cells[e] {
                found(e, f, cells[e]);
            }
        }
    }
}

/// The grid with rows and columns exchanged.
#[cold]
#[inline(never)]
fn transpose(grid: &Grid) -> Grid {
    let cells = grid.cells();
    let mut t = [0u8; CELLS];
    // Constant bounds, so the compiler unrolls it into plain moves: an index computed from one
    // counter (`i % 9 * 9 + i / 9`) took about 880 instructions a grid.
    for r in 0..9 {
        for c in 0..9 {
            t[c * 9 + r] = cells[r * 9 + c];
        }
    }
    Grid::from_cells(t).unwrap_or(Grid::EMPTY)
}

/// The cells of a grid that hold a clue, bit `cell`. Eight cells at a time: cell values are
/// at most 9, so adding 0x7F to a byte sets its top bit exactly when it is not zero, without
/// carrying into the next byte, and a multiplication gathers the eight top bits.
fn clue_mask(cells: &[u8; CELLS]) -> u128 {
    let mut mask = 0u128;
    let mut chunks = cells.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        let x = u64::from_le_bytes(bytes);
        let top = x.wrapping_add(0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080;
        let bits = top.wrapping_mul(0x0002_0408_1020_4081) >> 56;
        mask |= (bits as u128) << (8 * i);
    }
    for (i, &v) in chunks.remainder().iter().enumerate() {
        mask |= ((v != 0) as u128) << (CELLS / 8 * 8 + i);
    }
    mask
}

/// Solver of the `fast` strategy (the default). See the module documentation.
#[derive(Debug, Default)]
pub struct FastSolver {
    /// What the current search has found so far.
    out: Outcome,
    /// Whether the current search runs on the transposed grid (see the module
    /// documentation), so that solutions must be transposed back.
    transposed: bool,
    /// Whether every solution's grid is wanted ([`Solver::solve_with`]), or only the first
    /// ([`Solver::solve`]): the others are then only counted.
    every_grid: bool,
    /// Whether the search runs the minirow rule and branches on band configurations; false
    /// while a settled puzzle is searched without them (see the module documentation).
    thorough: bool,
    /// Contradictions met so far by the current search (counted in either mode): at
    /// [`SETTLED_FAILURES`] the search of a settled puzzle turns thorough.
    failures: u32,
}

impl FastSolver {
    /// A new solver.
    pub fn new() -> Self {
        Self::default()
    }

    /// Searches below `state`, which it leaves changed: each alternative of a branch but the
    /// last works on its own copy, and the last on `state` itself, which nothing needs after
    /// it. Taking the state by value instead made every branch copy it twice, once into its
    /// local and once more into the argument (about 1.8% of serg's instructions); copying it
    /// for the last alternative too cost 0.45% on 11+ and 0.3% on top1465.
    fn search(&mut self, state: &mut State, limits: Limits, on_solution: &mut dyn FnMut(&Grid)) {
        let pairs = if self.thorough {
            state.propagate::<true, false>()
        } else {
            state.propagate::<false, false>()
        };
        let Some(pairs) = pairs else {
            // A settled puzzle whose search keeps failing is not the kind that gains from the
            // lighter search: the rest of it runs with the minirow rule.
            self.failures += 1;
            self.thorough |= self.failures >= SETTLED_FAILURES;
            return;
        };
        if state.is_solved() {
            // Without a caller for it, a grid after the first is not built: counting to two
            // finds a second solution in every puzzle of serg, and its grid cost 1.1% there.
            if !self.every_grid && self.out.solution.is_some() {
                self.out.solutions += 1;
                return;
            }
            // Two calls rather than one on a chosen grid: that choice, made in this hot
            // function, cost 3% more instructions on serg.
            if self.transposed {
                self.out.found(transpose(&state.grid()), on_solution);
            } else {
                self.out.found(state.grid(), on_solution);
            }
            return;
        }
        if state.pick != NO_PICK {
            // Branch on the configurations of a digit in a band (which box each row of it
            // uses), chosen by the last minirow pass: see the module documentation.
            let i = state.pick as usize;
            let graph = row_graph(state.cand[i]);
            let mut perms = MATCHINGS[graph];
            while perms != 0 {
                let cells = PERM_EDGES[perms.trailing_zeros() as usize].1;
                perms &= perms - 1;
                let go_on = self.alternative(state, perms == 0, limits, on_solution, |next| {
                    next.cand[i] &= cells;
                    next.dirty |= 1 << i;
                });
                if !go_on {
                    return;
                }
            }
            return;
        }
        let (b, bit) = state.branch_cell(pairs);
        let mut all: u32 = 0;
        for d in 0..9 {
            all |= ((state.cand[d * 3 + b] & bit != 0) as u32) << d;
        }
        let mut digits = all;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let go_on = self.alternative(state, digits == 0, limits, on_solution, |next| {
                next.assign(d, b, bit, all & !(1 << d));
            });
            if !go_on {
                return;
            }
        }
    }

    /// [`Solver::solve_with`], building the grid of every solution or, without
    /// [`FastSolver::every_grid`], of the first alone.
    fn run(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        self.out = Outcome::default();
        // The clues go in all at once: per digit, the rows, columns and boxes its clues
        // occupy (which also catches two equal clues in one unit), then each word is built
        // from those in one expression, instead of a series of removals per clue.
        let mut units = [0u32; 9];
        let mut given = [0u32; 27];
        let mut ok = true;
        let cells = puzzle.cells();
        // Visit only the clues, from a mask of the non-blank cells: a test per cell would be
        // a branch the processor mispredicts about once per clue. A band at a time, the mask
        // fits a u32 and gives each clue's bit in its band word directly.
        let clues = clue_mask(cells);
        'bands: for b in 0..3 {
            let mut m = (clues >> (27 * b)) as u32 & BAND;
            while m != 0 {
                let bit = m.trailing_zeros();
                m &= m - 1;
                let cell = 27 * b + bit as usize;
                let d = cells[cell] as usize - 1;
                let u = CELL_UNITS[cell];
                if units[d] & u != 0 {
                    ok = false; // the same digit is given twice in a unit
                    break 'bands;
                }
                units[d] |= u;
                given[d * 3 + b] |= 1 << bit;
            }
        }
        let mut state = State::START;
        for b in 0..3 {
            let clues = given[b] | given[3 + b] | given[6 + b];
            let clues = clues | given[9 + b] | given[12 + b] | given[15 + b];
            state.unsolved[b] = BAND & !(clues | given[18 + b] | given[21 + b] | given[24 + b]);
        }
        for (d, &u) in units.iter().enumerate() {
            let not_cols = !((u >> 18) * 0x40201);
            for b in 0..3 {
                let taken = BAND_UNIT_CELLS[(u >> (6 * b) & 63) as usize];
                let i = d * 3 + b;
                state.cand[i] = (state.unsolved[b] & not_cols & !taken) | given[i];
            }
        }
        self.transposed = false;
        // The cheap rules first, alone: a band they leave settled (a single configuration per
        // digit) makes the puzzle one searched the lighter way (see the module documentation),
        // with no minirow or minicolumn pass at the root. They also keep no account of the
        // words they change, as the first minirow pass is due on every band anyway.
        let mut settled = false;
        if ok {
            ok = state.propagate::<false, false>().is_some();
            let bands = if ok { state.settled_bands() } else { 0 };
            if bands != 0 {
                settled = true;
                // The keys the branch reads: a band not settled must not look settled.
                state.band_key = std::array::from_fn(|b| match bands >> b & 1 {
                    0 => 0,
                    _ => NO_PICK,
                });
            }
        }
        // Otherwise the root's fixpoint goes on with the minirow and minicolumn rules, and
        // hidden pairs, which cut the search that follows; a band settled by them still makes
        // the puzzle a settled one.
        while ok && !settled {
            ok = state.propagate::<true, true>().is_some();
            settled = state.band_key.contains(&NO_PICK);
            if !ok || state.is_solved() || settled || !state.hidden_pairs() {
                break;
            }
        }
        self.thorough = !settled;
        self.failures = 0;
        if ok {
            // The root's fixpoint decides the orientation of the whole search.
            if !state.is_solved() && state.prefers_stacks() {
                state = state.transposed();
                self.transposed = true;
            }
            self.search(&mut state, limits, on_solution);
        }
        self.out
    }

    /// One alternative of a branch at `state`: `choose` applied to a copy of the state and
    /// searched, unless the search may not try it ([`FastSolver::may_try`]), when it returns
    /// false. The `last` alternative takes the state itself, which nothing reads afterwards.
    #[inline(always)]
    fn alternative(
        &mut self,
        state: &mut State,
        last: bool,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
        choose: impl FnOnce(&mut State),
    ) -> bool {
        if !self.may_try(!last, limits) {
            return false;
        }
        let mut copy;
        let next = if last {
            state
        } else {
            copy = *state;
            &mut copy
        };
        choose(next);
        self.search(next, limits, on_solution);
        true
    }

    /// Whether the search may try the next alternative of a branch: not once enough solutions
    /// are found or the budget is spent. Counts a guess unless the alternative is the last one
    /// left (`guess == false`), which is forced.
    fn may_try(&mut self, guess: bool, limits: Limits) -> bool {
        if self.out.solutions >= limits.solutions || self.out.aborted {
            return false;
        }
        !guess || self.out.spend_guess(limits)
    }
}

impl Solver for FastSolver {
    fn solve_with(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        self.every_grid = true;
        self.run(puzzle, limits, on_solution)
    }

    fn solve(&mut self, puzzle: &Grid, limits: Limits) -> Outcome {
        self.every_grid = false;
        self.run(puzzle, limits, &mut |_| {})
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Strategy, tests::check_strategy};
    use super::*;

    #[test]
    fn passes_the_shared_checks() {
        check_strategy(Strategy::Fast);
    }

    #[test]
    fn settled_puzzles_search_lightly_and_turn_thorough_after_failures() {
        // serg's first puzzle (several solutions), a serg puzzle whose search turns thorough
        // before its second solution, and a 17-clue puzzle (unique) that turns thorough: each
        // has a settled band at its root. For each, the search's state after counting to
        // 1, 2 and 10, and the counts against the `singles` strategy's.
        let cases = [
            (
                "83159....657......9428...........8.6.......3.......2.4398174...574629...126385...",
                [false, false, false],
            ),
            (
                "...315798...648215...79234662.........4......98..........476.39...521......9836..",
                [false, true, true],
            ),
            (
                "......7..5...2..3.....6.......7........8.4...9.......2.48........71..4.........96",
                [false, true, true],
            ),
        ];
        let mut reference = Strategy::Singles.solver();
        for (text, thorough) in cases {
            let puzzle: Grid = text.parse().unwrap();
            for (limit, thorough) in [1, 2, 10].into_iter().zip(thorough) {
                let limits = Limits::count_to(limit);
                let mut fast = FastSolver::new();
                let mut seen = Vec::new();
                let out = fast.solve_with(&puzzle, limits, &mut |g| seen.push(*g));
                assert_eq!(
                    (fast.thorough, fast.failures >= SETTLED_FAILURES),
                    (thorough, thorough),
                    "{text} counting to {limit}"
                );
                assert_eq!(out.solutions, reference.solve(&puzzle, limits).solutions);
                assert!(seen.iter().all(|g| g.solves(&puzzle)));
                seen.sort_by_key(|g| *g.cells());
                seen.dedup();
                assert_eq!(
                    seen.len() as u64,
                    out.solutions,
                    "{text}: distinct solutions"
                );
            }
        }
    }

    #[test]
    fn the_state_stays_184_bytes() {
        // The module documentation's figure; branching copies the whole state.
        assert_eq!(std::mem::size_of::<State>(), 184);
    }

    #[test]
    fn solve_counts_what_solve_with_finds() {
        // `solve` builds no grid after the first; the counts, the first solution and the
        // guesses must not change. Puzzles with many solutions, some solved transposed.
        let mut puzzles = vec![Grid::EMPTY];
        for p in super::super::tests::SOURCE_PUZZLES {
            let mut g: Grid = p.parse().unwrap();
            for cell in (0..CELLS).step_by(5) {
                g.set(cell, 0);
            }
            puzzles.push(g);
            puzzles.push(transpose(&g));
        }
        let mut s = FastSolver::new();
        for g in &puzzles {
            for limit in [1, 2, 3, 10] {
                let limits = Limits::count_to(limit);
                let mut seen = 0;
                let with = s.solve_with(g, limits, &mut |_| seen += 1);
                let without = s.solve(g, limits);
                assert_eq!(without, with, "{g} to {limit}");
                assert_eq!(seen, with.solutions, "{g} to {limit}");
                assert!(with.solutions == limit || limit == 10, "{g} to {limit}");
            }
        }
    }

    #[test]
    fn hidden_pairs_in_a_row_take_their_two_cells() {
        // Digits 0 and 1 can go only to columns 0 and 1 of row 0.
        let mut s = State {
            dirty: 0,
            ..State::START
        };
        s.cand[0] &= !0x1FC;
        s.cand[3] &= !0x1FC;
        let pair = (s.cand[0], s.cand[3]);
        assert!(s.hidden_pairs());
        assert_eq!((s.cand[0], s.cand[3]), pair);
        for g in 2..9 {
            assert_eq!(s.cand[g * 3], BAND & !0b11, "digit {g}");
            assert_eq!([s.cand[g * 3 + 1], s.cand[g * 3 + 2]], [BAND; 2]);
        }
        // Nothing more to find.
        s.dirty = 0;
        assert!(!s.hidden_pairs());
    }

    #[test]
    fn hidden_pairs_in_a_column_span_bands() {
        // Digits 3 and 4 can go only to rows 2 and 7 of column 5 (row 2 of band 0, row 1 of
        // band 2).
        let mut s = State {
            dirty: 0,
            ..State::START
        };
        for d in [3, 4] {
            s.cand[d * 3] &= !column(5) | 1 << (18 + 5);
            s.cand[d * 3 + 1] &= !column(5);
            s.cand[d * 3 + 2] &= !column(5) | 1 << (9 + 5);
        }
        assert!(s.hidden_pairs());
        for g in [0, 1, 2, 5, 6, 7, 8] {
            assert_eq!(s.cand[g * 3], BAND & !(1 << 23), "digit {g}");
            assert_eq!(s.cand[g * 3 + 1], BAND);
            assert_eq!(s.cand[g * 3 + 2], BAND & !(1 << 14));
        }
    }

    #[test]
    fn two_digits_with_two_cells_each_but_not_the_same_are_no_pair() {
        let mut s = State {
            dirty: 0,
            ..State::START
        };
        s.cand[0] &= !0x1FC; // columns 0 and 1 of row 0
        s.cand[3] &= !0x1FA; // columns 0 and 2
        let before = s.cand;
        assert!(!s.hidden_pairs());
        assert_eq!(s.cand, before);
    }

    #[test]
    fn spread_tables_give_the_rows_and_boxes_of_three_bits() {
        assert_eq!(SPREAD_ROWS[0], 0);
        assert_eq!(SPREAD_ROWS[0b101], 0x1FF | 0x1FF << 18);
        assert_eq!(SPREAD_ROWS[7], BAND);
        assert_eq!(SPREAD_BOXES[0], 0);
        assert_eq!(SPREAD_BOXES[0b010], 0b111 << 3 | 0b111 << 12 | 0b111 << 21);
        assert_eq!(SPREAD_BOXES[7], BAND);
        assert_eq!(BAND_UNIT_CELLS[0], 0);
        assert_eq!(
            BAND_UNIT_CELLS[0b010_001],
            0x1FF | 0b111 << 3 | 0b111 << 12 | 0b111 << 21
        );
        assert_eq!(BAND_UNIT_CELLS[63], BAND);
    }

    #[test]
    fn keep_table_matches_rows_to_boxes() {
        // Every row may use every box: all cells stay.
        assert_eq!(KEEP[0x1FF], BAND);
        // Row 0 only in box 0: rows 1 and 2 lose box 0.
        let g = 0b001 | 0b111 << 3 | 0b111 << 6;
        assert_eq!(KEEP[g], 0x7 | 0x1F8 << 9 | 0x1F8 << 18);
        // Rows 0 and 1 both only in box 0: no matching.
        assert_eq!(KEEP[0b001 | 0b001 << 3 | 0b111 << 6], 0);
        // Every graph: the cells of every perfect matching it holds, from the definition.
        for g in 0..512u32 {
            let mut cells = 0;
            for perm in PERMS {
                let edges: u32 = (0..3).map(|r| 1 << (3 * r + perm[r])).sum();
                if g & edges == edges {
                    cells |= (0..3).map(|r| 7 << (9 * r + 3 * perm[r])).sum::<u32>();
                }
            }
            assert_eq!(KEEP[g as usize], cells, "graph {g:#011b}");
        }
    }

    #[test]
    fn row_hash_finds_the_keep_of_every_word() {
        // `row_graph` (three lookups) is the reference.
        let mut word = mixed_words(3);
        for _ in 0..100_000 {
            let w = word();
            assert_eq!(KEEP_HASHED[row_hash(w)], KEEP[row_graph(w)], "{w:#029b}");
        }
    }

    #[test]
    fn row_graph_cells_give_each_rows_boxes_and_the_cells() {
        let mut word = mixed_words(7);
        for _ in 0..100_000 {
            let w = word();
            // Bit `3r + k` when row `r` has a cell in box `k`, one segment at a time.
            let mut graph = 0;
            for r in 0..3 {
                for k in 0..3 {
                    graph |= ((w >> (9 * r + 3 * k) & 7 != 0) as usize) << (3 * r + k);
                }
            }
            assert_eq!(row_graph_cells(w), (graph, w.count_ones()), "{w:#029b}");
        }
    }

    #[test]
    fn one_tally_of_two_halves_splits_into_the_two_tallies() {
        let mut rng = crate::generate::Rng::new(17);
        for _ in 0..10_000 {
            let (mut low, mut high, mut both) =
                (Tally::default(), Tally::default(), Tally::default());
            for _ in 0..rng.below(10) {
                let (a, b) = (rng.below(1 << 16) as u32, rng.below(1 << 16) as u32);
                low.add(a);
                high.add(b);
                both.add(a | b << 16);
            }
            let (l, h) = both.split();
            let fields = |t: Tally| [t.one, t.two, t.three, t.four];
            assert_eq!((fields(l), fields(h)), (fields(low), fields(high)));
        }
    }

    #[test]
    fn forced_edges_are_those_of_every_matching() {
        for g in 0..512 {
            let mut common = 0x1FF;
            let mut any = false;
            for perm in PERMS {
                let edges: u32 = (0..3).map(|r| 1 << (3 * r + perm[r])).sum();
                if g & edges == edges {
                    common &= edges;
                    any = true;
                }
            }
            let expected = if any { common << 16 } else { 0 };
            assert_eq!(FORCED[g as usize], expected, "graph {g:#011b}");
        }
    }

    #[test]
    fn band_columns_put_each_bands_columns_in_its_row() {
        let mut rng = crate::generate::Rng::new(19);
        let mut sparse = sparse_words(21);
        for _ in 0..100_000 {
            let w = [sparse(), rng.below(1 << 27) as u32, sparse()];
            let mut expected = 0;
            for (b, &word) in w.iter().enumerate() {
                for cell in 0..27 {
                    expected |= (word >> cell & 1) << (9 * b + cell % 9);
                }
            }
            assert_eq!(band_columns(&w), expected, "{w:?}");
        }
    }

    #[test]
    fn stack_graph_gathers_each_stack_of_every_band() {
        let mut rng = crate::generate::Rng::new(9);
        for _ in 0..100_000 {
            let x = rng.below(1 << 27) as u32;
            for s in 0..3 {
                // Bit `3 * band + j` for column `3s + j` of the band, one bit at a time.
                let mut expected = 0;
                for band in 0..3 {
                    for j in 0..3 {
                        expected |= (x >> (9 * band + 3 * s + j) & 1) << (3 * band + j);
                    }
                }
                assert_eq!(stack_graph(x, s), expected as usize, "{x:#029b}, stack {s}");
            }
        }
    }

    #[test]
    fn row_singles_match_the_scalar_path() {
        let mut sparse = sparse_words(13);
        let mut rng = crate::generate::Rng::new(15);
        let mut found = 0;
        for i in 0..100_000 {
            let mut word = || {
                if i % 2 == 0 {
                    sparse()
                } else {
                    rng.below(1 << 27) as u32
                }
            };
            let w = [word(), word(), word()];
            let unsolved = [word(), word(), word()];
            let new = row_singles(w, unsolved);
            assert_eq!(new, row_singles_scalar(w, unsolved), "{w:?} {unsolved:?}");
            found += new.iter().filter(|&&n| n != 0).count();
        }
        assert!(found > 10_000, "too few singles to test anything: {found}");
    }

    #[test]
    fn clue_mask_marks_exactly_the_clues() {
        let mut rng = crate::generate::Rng::new(7);
        for _ in 0..1000 {
            let mut cells = [0u8; CELLS];
            for c in &mut cells {
                let r = rng.below(19) as u8;
                *c = if r > 9 { 0 } else { r };
            }
            let expected = cells
                .iter()
                .enumerate()
                .fold(0u128, |m, (i, &v)| m | ((v != 0) as u128) << i);
            assert_eq!(clue_mask(&cells), expected);
        }
    }

    /// Random band words with about a quarter of their 27 bits set, from `seed`.
    fn sparse_words(seed: u64) -> impl FnMut() -> u32 {
        let mut rng = crate::generate::Rng::new(seed);
        move || (rng.below(1 << 27) as u32) & (rng.below(1 << 27) as u32)
    }

    /// Random band words from `seed`, by turns sparse (see [`sparse_words`]) and with about
    /// half their bits set, so that rows with one, two and three cells per segment all occur.
    fn mixed_words(seed: u64) -> impl FnMut() -> u32 {
        let mut sparse = sparse_words(seed);
        let mut rng = crate::generate::Rng::new(seed + 1);
        let mut dense = false;
        move || {
            dense = !dense;
            if dense {
                rng.below(1 << 27) as u32
            } else {
                sparse()
            }
        }
    }

    /// A state whose candidates, empty cells and dirty marks are random words, for tests of
    /// the operations on words (it need not be a consistent grid).
    fn random_state(word: &mut impl FnMut() -> u32) -> State {
        let mut state = State::START;
        for i in 0..27 {
            state.cand[i] = word();
        }
        state.unsolved = [word(), word(), word()];
        state.dirty = word();
        state
    }

    #[test]
    fn clear_matches_the_scalar_path() {
        let mut word = sparse_words(11);
        for _ in 0..1000 {
            let mut state = random_state(&mut word);
            let cells = [word(), word(), word()];
            let mut scalar = state;
            state.clear(cells);
            scalar.clear_scalar(cells);
            assert_eq!(state.cand, scalar.cand);
            assert_eq!(state.dirty, scalar.dirty);
        }
    }

    #[test]
    fn settled_bands_are_those_with_one_configuration_per_digit() {
        // Words after their row matching, as `settled_bands` expects: random ones through
        // the matching (redrawn when nothing fits), except in a random set of bands whose
        // words are all single configurations, so that each band is settled now and then.
        let mut word = mixed_words(5);
        let mut rng = crate::generate::Rng::new(6);
        let mut settled_seen = [0; 3];
        for _ in 0..3000 {
            let mut state = State::START;
            let single = rng.below(8) as u32;
            for i in 0..27 {
                state.cand[i] = loop {
                    let w = if single >> (i % 3) & 1 != 0 {
                        let perm = PERMS[rng.below(6)];
                        // One cell of each row's box, chosen at random.
                        (0..3).fold(0, |w, r| w | 1 << (9 * r + 3 * perm[r] + rng.below(3)))
                    } else {
                        word()
                    };
                    let w = w & KEEP[row_graph(w)];
                    if w != 0 {
                        break w;
                    }
                };
            }
            let expected = (0..3).fold(0, |out, b| {
                let one = (0..9).all(|d| CONFIGS[row_graph(state.cand[d * 3 + b])] == 1);
                out | (one as u32) << b
            });
            assert_eq!(state.settled_bands(), expected, "{:?}", state.cand);
            assert_eq!(state.settled_bands_scalar(), expected, "{:?}", state.cand);
            for (b, seen) in settled_seen.iter_mut().enumerate() {
                *seen += expected >> b & 1;
            }
        }
        assert!(
            settled_seen.iter().all(|&n| n > 1000),
            "too few settled bands drawn: {settled_seen:?}"
        );
    }

    #[test]
    fn transpose_swaps_rows_and_columns() {
        let g: Grid = super::super::tests::PUBLISHED_SOLUTION_3.parse().unwrap();
        let t = transpose(&g);
        for (r, c) in (0..81).map(|i| (i / 9, i % 9)) {
            assert_eq!(t.get(c * 9 + r), g.get(r * 9 + c), "cell {r},{c}");
        }
        assert_eq!(transpose(&t), g);
    }

    #[test]
    fn candidate_counts_match_the_scalar_path() {
        let mut word = sparse_words(29);
        for _ in 0..1000 {
            let state = random_state(&mut word);
            assert_eq!(
                state.candidate_counts::<2>(),
                state.candidate_counts_scalar::<2>()
            );
            assert_eq!(
                state.candidate_counts::<3>(),
                state.candidate_counts_scalar::<3>()
            );
        }
    }

    #[test]
    fn values_match_the_scalar_path() {
        let mut word = sparse_words(17);
        for _ in 0..1000 {
            let state = random_state(&mut word);
            assert_eq!(state.values(), state.values_scalar());
        }
    }

    /// Whether cell `(r, c)` of the grid is set in three band words (a digit's, or
    /// `unsolved`).
    fn has(words: &[u32], r: usize, c: usize) -> bool {
        words[r / 3] >> (r % 3 * 9 + c) & 1 != 0
    }

    #[test]
    fn transposed_state_moves_every_cell_to_its_mirror() {
        let mut word = sparse_words(13);
        for _ in 0..1000 {
            let state = random_state(&mut word);
            let t = state.transposed();
            for (r, c) in (0..81).map(|i| (i / 9, i % 9)) {
                for d in 0..9 {
                    let (before, after) = (&state.cand[d * 3..d * 3 + 3], &t.cand[d * 3..]);
                    assert_eq!(has(before, r, c), has(after, c, r), "digit {d} at {r},{c}");
                }
                assert_eq!(has(&state.unsolved, r, c), has(&t.unsolved, c, r));
            }
            for d in 0..9 {
                assert_eq!(
                    t.cols[d],
                    band_columns(&[t.cand[d * 3], t.cand[d * 3 + 1], t.cand[d * 3 + 2]])
                );
            }
            assert_eq!(t.cand[27], 0);
            let back = t.transposed();
            assert_eq!((back.cand, back.unsolved), (state.cand, state.unsolved));
        }
    }

    #[test]
    fn a_transposed_search_reports_the_grid_as_given() {
        // A fifth or so of these searches run on the turned grid; each must report what the
        // `sudoku` crate finds, in the grid's own orientation.
        use crate::generate::{Kind, Rng, mixed_puzzle};
        let mut rng = Rng::new(17);
        let mut fast = FastSolver::new();
        let mut maker = FastSolver::new();
        let mut turned = 0;
        let kinds = [Kind::Minimal, Kind::Multiple, Kind::Unsolvable];
        for i in 0..300 {
            let puzzle = mixed_puzzle(&mut rng, kinds[i % 3], &mut maker);
            let mut seen = Vec::new();
            let out = fast.solve_with(&puzzle, Limits::count_to(3), &mut |g| seen.push(*g));
            turned += fast.transposed as u32;
            let oracle = sudoku::Sudoku::from_bytes(*puzzle.cells()).unwrap();
            assert_eq!(
                out.solutions,
                oracle.solutions_count_up_to(3) as u64,
                "{puzzle}"
            );
            if out.solutions == 1 {
                let unique = oracle
                    .solution()
                    .map(|g| Grid::from_cells(g.to_bytes()).unwrap());
                assert_eq!(out.solution, unique, "{puzzle}");
            }
            assert_eq!(out.solution, seen.first().copied());
            for (j, g) in seen.iter().enumerate() {
                assert!(g.solves(&puzzle), "{puzzle}");
                assert!(!seen[..j].contains(g), "{puzzle}: {g} twice");
            }
        }
        assert!(turned > 30, "only {turned} of 300 searches ran transposed");
    }

    #[test]
    fn band_peers_are_row_and_box() {
        for (i, peers) in BAND_PEERS.iter().enumerate() {
            // 8 others in the row, 6 more in the box.
            assert_eq!(peers.count_ones(), 14, "cell {i}");
        }
    }
}
