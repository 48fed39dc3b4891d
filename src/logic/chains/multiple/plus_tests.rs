//! The quick looks of the "plus" rules against the patterns they stand for, tried pair by
//! pair, on the grids of hard puzzles thinned as a dynamic search thins them.

use super::*;
use crate::grid::Grid;

/// Grids of a few hard puzzles, each also with some candidates removed at random.
fn grids() -> Vec<Board> {
    let puzzles = [
        "2....4.....1.9..2.39....6.......7..6...5..4...1..3..9.1...8..3...8.....5..97.....",
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        "...4.25....2...946.5.97.......72.1..9...1...5..7.39.......45.9.285...3....92.3...",
    ];
    let mut out = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for p in puzzles {
        let grid: Grid = p.parse().unwrap();
        let full = Board::from_values(grid.cells()).unwrap();
        out.push(full);
        for _ in 0..200 {
            let mut g = full;
            for c in cells_of(full.empty) {
                for d in digits_of(full.cell[c]) {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    if g.cell[c].many() && seed.is_multiple_of(3) {
                        g.remove(c, d);
                    }
                }
            }
            out.push(g);
        }
    }
    out
}

#[test]
fn quick_looks_agree_with_the_patterns() {
    let (mut hidden, mut naked, mut wings) = (0, 0, 0);
    for g in grids() {
        for u in 0..27 {
            let mask = UNIT_MASK[u];
            let pair = combinations(2, 9).any(|set| {
                let [a, b] = [set.trailing_zeros(), 31 - set.leading_zeros()];
                let (pa, pb) = (g.digit[a as usize] & mask, g.digit[b as usize] & mask);
                pa.two() && pa == pb
            });
            assert_eq!(hidden_pair_possible(&g, mask), pair);
            hidden += pair as u32;
            let cells = &UNIT_CELLS[u];
            let pair = combinations(2, 9).any(|set| {
                let [a, b] = [set.trailing_zeros(), 31 - set.leading_zeros()];
                let (ma, mb) = (
                    g.cell[cells[a as usize] as usize],
                    g.cell[cells[b as usize] as usize],
                );
                ma.two() && ma == mb
            });
            assert_eq!(naked_pair_possible(&g, cells), pair);
            naked += pair as u32;
        }
        let placed = [0u32; 9];
        let wing = (0..9).any(|d| {
            [ROW0, COL0].into_iter().any(|kind| {
                combinations(2, 9).any(|set| {
                    let [a, b] = [
                        set.trailing_zeros() as usize,
                        31 - set.leading_zeros() as usize,
                    ];
                    let rows = |i: usize| -> Vec<usize> {
                        cells_of(g.digit[d] & UNIT_MASK[kind + i])
                            .map(|c| if kind == ROW0 { c % 9 } else { c / 9 })
                            .collect()
                    };
                    rows(a).len() == 2 && rows(a) == rows(b)
                })
            })
        });
        assert_eq!(x_wing_possible(&g, &placed), wing);
        wings += wing as u32;
    }
    // Both answers occur: the test compares something.
    assert!(
        hidden > 0 && naked > 0 && wings > 0 && wings < 603,
        "{hidden} {naked} {wings}"
    );
}
