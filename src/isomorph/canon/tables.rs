//! The tables of the canonical-form search ([`canon`](super)): how the cells of a row's
//! pattern are best put in order, three at a time within a stack, the stacks among
//! themselves, and a whole top row with every column order allowed.

use std::sync::LazyLock;

use crate::isomorph::ORDERS_OF_3;

/// Three cells of a row's pattern (bit 2 the leftmost, set for a clue) put in order `o`.
const fn reorder(triplet: u8, o: usize) -> u8 {
    let mut out = 0;
    let mut j = 0;
    while j < 3 {
        let bit = (triplet >> (2 - ORDERS_OF_3[o][j])) & 1;
        out |= bit << (2 - j);
        j += 1;
    }
    out
}

/// `SMALLEST[t][s]`: the smallest that three cells of pattern `t` become under the orders in
/// the set `s` (bit `o` for order `o`), and the set of the orders that give it.
pub(super) static SMALLEST: [[(u8, u8); 64]; 8] = smallest_table();

const fn smallest_table() -> [[(u8, u8); 64]; 8] {
    let mut table = [[(7u8, 0u8); 64]; 8];
    let mut t = 0;
    while t < 8 {
        let mut set = 1;
        while set < 64 {
            let mut best = 8u8;
            let mut which = 0u8;
            let mut o = 0;
            while o < 6 {
                if (set >> o) & 1 == 1 {
                    let v = reorder(t as u8, o);
                    if v < best {
                        best = v;
                        which = 1 << o;
                    } else if v == best {
                        which |= 1 << o;
                    }
                }
                o += 1;
            }
            table[t][set] = (best, which);
            set += 1;
        }
        t += 1;
    }
    table
}

/// Entries of [`STACKED`]: a set of orders of the stacks (6 bits) and a row's three stacks
/// already smallest within themselves (3 bits each).
pub(super) const STACKED_SIZE: usize = 64 << 9;

/// `STACKED[s << 9 | a << 6 | b << 3 | c]`: for a row whose three stacks read `a`, `b`, `c`
/// (3 bits each, in source order), the smallest the row becomes under the orders of the
/// stacks in the set `s` (bit `o` for order `o`), shifted left by 6, with the set of the orders
/// giving it in the low 6 bits. One look-up in place of six arrangements compared.
pub(super) static STACKED: LazyLock<Box<[u16; STACKED_SIZE]>> = LazyLock::new(|| {
    let mut table = Box::new([0u16; STACKED_SIZE]);
    for (index, entry) in table.iter_mut().enumerate() {
        let set = index >> 9;
        let least = [(index >> 6) & 7, (index >> 3) & 7, index & 7];
        let mut value = usize::MAX;
        let mut which = 0;
        for (o, &[a, b, c]) in ORDERS_OF_3.iter().enumerate() {
            if (set >> o) & 1 == 0 {
                continue;
            }
            let v = (least[a] << 6) | (least[b] << 3) | least[c];
            if v < value {
                value = v;
                which = 1 << o;
            } else if v == value {
                which |= 1 << o;
            }
        }
        // An empty set (never looked up) gives the largest value.
        *entry = ((value.min(511) << 6) | which) as u16;
    }
    table
});

/// How the top row of the form is placed: its pattern under the column orders that make
/// it smallest, and those orders.
#[derive(Debug, Clone, Copy)]
pub(super) struct TopRow {
    /// The smallest pattern.
    pub(super) value: u16,
    /// The orders of the stacks giving it.
    pub(super) stacks: u8,
    /// For each source stack, the orders of its columns giving it.
    pub(super) columns: [u8; 3],
}

/// `TOP_ROW[p]`: a row of pattern `p` (bit 8 its first cell) placed on top, every column
/// order still allowed.
pub(super) static TOP_ROW: [TopRow; 512] = top_row_table();

const fn top_row_table() -> [TopRow; 512] {
    let mut table = [TopRow {
        value: 0,
        stacks: 0,
        columns: [0; 3],
    }; 512];
    let mut p = 0;
    while p < 512 {
        let mut least = [0u16; 3];
        let mut s = 0;
        while s < 3 {
            let (v, o) = SMALLEST[(p >> (6 - 3 * s)) & 7][63];
            least[s] = v as u16;
            table[p].columns[s] = o;
            s += 1;
        }
        let mut value = u16::MAX;
        let mut o = 0;
        while o < 6 {
            let [a, b, c] = ORDERS_OF_3[o];
            let v = (least[a] << 6) | (least[b] << 3) | least[c];
            if v < value {
                value = v;
                table[p].stacks = 1 << o;
            } else if v == value {
                table[p].stacks |= 1 << o;
            }
            o += 1;
        }
        table[p].value = value;
        p += 1;
    }
    table
}
