//! The lookup tables of the `fast` strategy, built at compile time, and the pure bit helpers
//! of its band layout (drawn in the documentation of [`super`]): the matchings, configurations
//! and forced minirows of a digit in a band, the column matching of a stack, the cells of rows,
//! boxes, minirows and units, and the vector test for rows left with a single cell.

use crate::grid::CELLS;

/// The 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// Column `c` (0..9) of a band: one bit in each of its three rows.
pub(super) const fn column(c: u32) -> u32 {
    0x40201 << c
}

/// For row `r` of a band (0..3) and its 9 bits: bit `3r + k` set when its box segment `k`
/// (bits `3k..3k+3`) holds a cell, and in bits 12..16 the number of cells. Pre-shifted per row,
/// a word's three lookups just add up: the graph bits never overlap, and the counts (at most
/// 27 together) sum in bits 12..16 above them, so [`row_graph_cells`] needs no shift to place
/// a row's bits and one to get the cells.
pub(super) static ROW_SHAPES: [[u16; 512]; 3] = {
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
pub(super) static KEEP: [u32; 512] = {
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
/// lookups.
///
/// Each graph edge is a box segment of a row, three bits; ORing each bit with the two above it
/// gathers a segment into its lowest bit, so the nine edges sit at every third bit. A
/// multiplication then maps those nine bits into the top nine bits of the word, a different
/// value for each of the 512 sets of edges: [`KEEP_HASHED`] checks that when it is built.
#[inline(always)]
pub(super) const fn row_hash(w: u32) -> usize {
    let edges = (w | w >> 1 | w >> 2) & EDGE_BITS;
    (edges.wrapping_mul(ROW_HASH) >> 23) as usize
}

/// The lowest bit of each box segment of a band word's rows: bit `9r + 3k`.
pub(super) const EDGE_BITS: u32 = 0x124_9249;

/// The multiplier of [`row_hash`], found by a search among random odd numbers.
const ROW_HASH: u32 = 0x3808_0101;

/// [`KEEP`], indexed by [`row_hash`] instead of the graph.
pub(super) static KEEP_HASHED: [u32; 512] = {
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

/// A table indexed by [`row_hash`] whose entry for each row-by-box graph `g` is `$entry`.
macro_rules! hashed {
    ($g:ident => $entry:expr) => {{
        let mut t = [0u32; 512];
        let mut $g = 0usize;
        while $g < 512 {
            t[row_hash(minirow_cells($g as u32))] = $entry;
            $g += 1;
        }
        t
    }};
}

/// What the minirow pass reads of a digit's word, indexed by [`row_hash`]: for its row-by-box
/// graph `g`, the graph with its forced edges (`g | FORCED[g]`), the entry of the pass's tally.
/// Indexed by the hash, the pass needs no graph: [`row_graph_cells`]' three lookups cost more.
pub(super) static TALLY_HASHED: [u32; 512] = hashed!(g => g as u32 | FORCED[g]);

/// [`CONFIGS`], indexed by [`row_hash`].
pub(super) static CONFIGS_HASHED: [u32; 512] = hashed!(g => CONFIGS[g] as u32);

/// For the minirow pass's branch key, indexed by [`row_hash`]: the graph's configurations
/// `n` in bits 11..14 when there are two or more, else [`NO_BRANCH`], above every such key
/// (the key adds the cells in bits 6..11 and the word in bits 0..6).
pub(super) static PICK_HASHED: [u32; 512] = hashed!(g => match CONFIGS[g] {
    0 | 1 => NO_BRANCH,
    n => (n as u32) << 11,
});

/// A [`PICK_HASHED`] entry for a digit with no choice left in the band.
pub(super) const NO_BRANCH: u32 = 1 << 15;

/// The cells of each band word `w[b]` that are alone in their row, among `unsolved[b]`: where a
/// digit whose words these are must go. All three bands at once in one vector.
///
/// Every row of a word must have a cell, as the row matching leaves them: subtracting one per
/// row then borrows within the row, and a row of `w & (w - ROW_LOW)` is empty exactly when it
/// had one cell. (Given an empty row, both paths compute the same, meaningless, answer.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn row_singles(w: [u32; 3], unsolved: [u32; 3]) -> [u32; 3] {
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
pub(super) fn row_singles(w: [u32; 3], unsolved: [u32; 3]) -> [u32; 3] {
    row_singles_scalar(w, unsolved)
}

/// [`row_singles`] one band at a time: the portable path, and the reference the vector path
/// is tested against.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub(super) fn row_singles_scalar(w: [u32; 3], unsolved: [u32; 3]) -> [u32; 3] {
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
pub(super) const ROW_LOW: u32 = 1 | 1 << 9 | 1 << 18;

/// For each cell of a band: the other cells of its row and box in the band. (Its column within
/// the band lies inside its box.)
pub(super) static BAND_PEERS: [u32; 27] = {
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
pub(super) const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The row-by-box graph of a band word: bit `3r + k` when row `r` has a cell in box `k`.
#[inline(always)]
pub(super) fn row_graph(w: u32) -> usize {
    row_graph_cells(w).0
}

/// The row-by-box graph of a band word (see [`row_graph`]) and its number of cells.
#[inline(always)]
pub(super) fn row_graph_cells(w: u32) -> (usize, u32) {
    // The masks keep every index provably in range, so that no lookup needs a bounds check.
    let sum = ROW_SHAPES[0][(w & 0x1FF) as usize] as u32
        + ROW_SHAPES[1][(w >> 9 & 0x1FF) as usize] as u32
        + ROW_SHAPES[2][(w >> 18 & 0x1FF) as usize] as u32;
    ((sum & 0x1FF) as usize, sum >> 12)
}

/// For each permutation of [`PERMS`]: its edges in a row-by-box graph, and the cells of the
/// band it allows (row `r` in box `perm[r]`).
pub(super) static PERM_EDGES: [(usize, u32); 6] = {
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
pub(super) static CONFIGS: [u8; 512] = {
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
pub(super) static MATCHINGS: [u8; 512] = {
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
///
/// [`Tally`]: super::cross_digit::Tally
pub(super) static FORCED: [u32; 512] = {
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

/// The cells of a set of minirows (row-by-box edges, bit `3r + k`).
#[inline(always)]
pub(super) const fn minirow_cells(edges: u32) -> u32 {
    const SPREAD: [u32; 8] = spread(0x7, 3);
    SPREAD[(edges & 7) as usize]
        | SPREAD[(edges >> 3 & 7) as usize] << 9
        | SPREAD[(edges >> 6 & 7) as usize] << 18
}

/// For minirow `3r + k`: the cells a digit must leave once it is known to occupy that minirow,
/// namely the rest of row `r` and the rest of box `k`.
pub(super) static CROSS: [u32; 9] = {
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
pub(super) fn columns(w: u32) -> u32 {
    (w | w >> 9 | w >> 18) & 0x1FF
}

/// The columns of the three bands of a digit as one word, bit `9 * band + column`: the same
/// layout as a band word, with bands for rows and stacks for boxes.
#[inline(always)]
pub(super) fn band_columns(w: &[u32; 3]) -> u32 {
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
pub(super) fn stack_graph(x: u32, s: u32) -> usize {
    // The stack's three bits of each band, at bits 0, 9 and 18 once shifted, are gathered by
    // one multiplication: 1 + 2^6 + 2^12 moves them to bits 12, 15 and 18, and none of the
    // other eight products of a band's bits and a power reaches bits 12..21 or overlaps
    // another, so nothing carries.
    ((x >> (3 * s) & BOX0).wrapping_mul(1 | 1 << 6 | 1 << 12) >> 12 & 0x1FF) as usize
}

/// For stack `s` and a band-by-column graph of it: the [`MATCHED`] edges, laid out as a
/// [`band_columns`] word, so that the three stacks' lookups just OR together.
pub(super) static STACK_KEEP: [[u32; 512]; 3] = {
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
pub(super) static CELL_UNITS: [u32; CELLS] = {
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
pub(super) static SPREAD_ROWS: [u32; 8] = spread(0x1FF, 9);

/// The cells of a band in the boxes given by three bits.
pub(super) static SPREAD_BOXES: [u32; 8] = spread(BOX0, 3);

/// The cells of a band in the rows given by the low three of six bits or in the boxes given by
/// the high three (a band's six bits of [`CELL_UNITS`]): one lookup instead of two.
pub(super) static BAND_UNIT_CELLS: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = SPREAD_ROWS[i & 7] | SPREAD_BOXES[i >> 3];
        i += 1;
    }
    t
};

/// The cells of box 0 in a band word.
pub(super) const BOX0: u32 = 0x1C0E07;

#[cfg(test)]
mod tests;
