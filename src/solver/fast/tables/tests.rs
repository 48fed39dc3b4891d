//! The tables of the `fast` strategy against their definitions.

use super::*;
use crate::solver::fast::cross_digit::Tally;
use crate::solver::fast::tests::{mixed_words, sparse_words};

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
fn row_hash_finds_what_the_minirow_pass_reads_of_every_word() {
    // The tables indexed by the graph are the reference.
    let mut word = mixed_words(4);
    for _ in 0..100_000 {
        let w = word();
        let (g, h) = (row_graph(w), row_hash(w));
        assert_eq!(TALLY_HASHED[h], g as u32 | FORCED[g], "{w:#029b}");
        assert_eq!(CONFIGS_HASHED[h], CONFIGS[g] as u32, "{w:#029b}");
        let pick = PICK_HASHED[h];
        match CONFIGS[g] {
            0 | 1 => assert_eq!(pick, NO_BRANCH, "{w:#029b}"),
            n => assert_eq!(pick, (n as u32) << 11, "{w:#029b}"),
        }
        // The key's other fields (cells, word) fit below the configurations.
        assert!(pick > (27 << 6 | 34), "{w:#029b}");
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
        let (mut low, mut high, mut both) = (Tally::default(), Tally::default(), Tally::default());
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
