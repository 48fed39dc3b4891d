//! Tests of `reach`: its answers against the level-by-level sweeps.

use super::super::sweep::Graph;
use super::*;
use crate::grid::Grid;

/// On every grid of a few hard puzzles, and on each with every third candidate of a cell
/// of three or more removed (as a dynamic search's grid may be), the answers are those of
/// the level-by-level sweeps for every source and every kind of links.
#[test]
fn agrees_with_the_sweeps() {
    let puzzles = [
        "2....4.....1.9..2.39....6.......7..6...5..4...1..3..9.1...8..3...8.....5..97.....",
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        "...4.25....2...946.5.97.......72.1..9...1...5..7.39.......45.9.285...3....92.3...",
    ];
    let mut reach = Reach::default();
    let (mut cycles, mut chains) = (0, 0);
    for p in puzzles {
        let grid: Grid = p.parse().unwrap();
        let full = Board::from_values(grid.cells()).unwrap();
        let mut thin = full;
        for (i, c) in cells_of(full.empty).enumerate() {
            if full.cell[c].count_ones() >= 3 && i % 3 == 0 {
                thin.remove(c, full.cell[c].trailing_zeros() as usize);
            }
        }
        for g in [full, thin] {
            let graph = Graph::new(&g);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                reach.build(&g, y, x, 0x1ff);
                for c in cells_of(g.empty) {
                    // Y links alone start only from bivalue cells.
                    if y && !x && g.cell[c].count_ones() != 2 {
                        continue;
                    }
                    for d in digits_of(g.cell[c]) {
                        let on = key(c, d, true);
                        let (cycle_at, chain_at) = graph.sweep(&g, on, y, x, &|_| true, &|_| true);
                        let (_, off_at) =
                            graph.sweep(&g, conjugate(on), y, x, &|_| false, &|_| true);
                        assert_eq!(reach.may_cycle(on), cycle_at.is_some(), "{p} {c} {d}");
                        cycles += cycle_at.is_some() as u32;
                        // Y links alone make no forcing chains: no reach is worked out.
                        if !x {
                            continue;
                        }
                        assert_eq!(reach.reaches_conjugate(on), chain_at.is_some());
                        assert_eq!(reach.reaches_conjugate(conjugate(on)), off_at.is_some());
                        chains += chain_at.is_some() as u32 + off_at.is_some() as u32;
                    }
                }
            }
        }
    }
    // Both answers occur: the test compares something.
    assert!(cycles > 0 && chains > 0, "{cycles} {chains}");
}

/// X links never leave their digit: built for one digit, the answers for its candidates
/// are those of the build for all nine.
#[test]
fn one_digit_of_x_links_answers_as_all_nine() {
    let p = "...4.25....2...946.5.97.......72.1..9...1...5..7.39.......45.9.285...3....92.3...";
    let grid: Grid = p.parse().unwrap();
    let g = Board::from_values(grid.cells()).unwrap();
    let (mut all, mut one) = (Reach::default(), Reach::default());
    all.build(&g, false, true, 0x1ff);
    let mut compared = 0;
    for d in 0..9 {
        one.build(&g, false, true, 1 << d);
        for c in cells_of(g.digit[d]) {
            let on = key(c, d, true);
            for s in [on, conjugate(on)] {
                assert_eq!(
                    one.reaches_conjugate(s),
                    all.reaches_conjugate(s),
                    "{c} {d}"
                );
            }
            assert_eq!(one.may_cycle(on), all.may_cycle(on), "{c} {d}");
            compared += one.may_cycle(on) as u32;
        }
    }
    assert!(compared > 0);
}
