//! The order in which the search tries a digit's configurations.

use super::super::state::State;
use super::super::tables::{BAND, MATCHINGS, PERM_EDGES, row_graph};

/// A band word whose digit has two configurations: rows 0 and 1 share boxes 0 and 1 (row 0
/// with `a` cells in box 0 and `b` in box 1, row 1 the other way round), row 2 has one cell
/// in box 2.
fn two_configurations(a: u32, b: u32) -> u32 {
    let cells = |n: u32| (1 << n) - 1;
    cells(a) | cells(b) << 3 | cells(b) << 9 | cells(a) << 12 | 1 << 24
}

fn state_with(word: u32) -> State {
    let mut state = State::START;
    state.cand[0] = word;
    state
}

#[test]
fn of_two_configurations_the_one_keeping_fewer_cells_comes_first() {
    // Configuration 0 puts row 0 in box 0 and row 1 in box 1; configuration 2 the reverse.
    let word = two_configurations(3, 1);
    assert_eq!(MATCHINGS[row_graph(word)], 0b101);
    assert_eq!((word & PERM_EDGES[0].1).count_ones(), 7);
    assert_eq!((word & PERM_EDGES[2].1).count_ones(), 3);
    assert_eq!(state_with(word).configs(0), (0b101, true));
    // The other way round, the lower one keeps fewer and comes first.
    assert_eq!(
        state_with(two_configurations(1, 3)).configs(0),
        (0b101, false)
    );
    // A tie keeps the lower first.
    assert_eq!(
        state_with(two_configurations(2, 2)).configs(0),
        (0b101, false)
    );
}

#[test]
fn three_or_more_configurations_come_lowest_first() {
    // Every cell: all six configurations.
    assert_eq!(state_with(BAND).configs(0), (0b11_1111, false));
    // Row 0 in any box, row 1 in box 1 or 2, row 2 in box 0 or 1: three configurations, the
    // highest keeping the fewest cells (row 0 has a single cell in box 2), still lowest first.
    let word = 0b001_111_111 | 0b111_111_000 << 9 | 0b000_111_111 << 18;
    let (perms, high_first) = state_with(word).configs(0);
    assert_eq!(perms.count_ones(), 3, "{perms:b}");
    assert!(!high_first);
}

#[test]
fn one_configuration_is_tried_as_it_is() {
    let word = 0b111 | 0b111 << 12 | 0b111 << 24;
    assert_eq!(state_with(word).configs(0), (0b1, false));
}
