//! Hidden pairs on small cases.

use super::super::state::State;
use super::super::tables::{BAND, column};

#[test]
fn hidden_pairs_in_a_row_take_their_two_cells() {
    // Digits 0 and 1 can go only to columns 0 and 1 of row 0.
    let mut s = State {
        dirty: 0,
        ..State::START
    };
    s.cand[0] &= !0x1FC;
    s.cand[4] &= !0x1FC;
    let pair = (s.cand[0], s.cand[4]);
    assert!(s.hidden_pairs());
    assert_eq!((s.cand[0], s.cand[4]), pair);
    for g in 2..9 {
        assert_eq!(s.cand[g * 4], BAND & !0b11, "digit {g}");
        assert_eq!([s.cand[g * 4 + 1], s.cand[g * 4 + 2]], [BAND; 2]);
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
        s.cand[d * 4] &= !column(5) | 1 << (18 + 5);
        s.cand[d * 4 + 1] &= !column(5);
        s.cand[d * 4 + 2] &= !column(5) | 1 << (9 + 5);
    }
    assert!(s.hidden_pairs());
    for g in [0, 1, 2, 5, 6, 7, 8] {
        assert_eq!(s.cand[g * 4], BAND & !(1 << 23), "digit {g}");
        assert_eq!(s.cand[g * 4 + 1], BAND);
        assert_eq!(s.cand[g * 4 + 2], BAND & !(1 << 14));
    }
}

#[test]
fn two_digits_with_two_cells_each_but_not_the_same_are_no_pair() {
    let mut s = State {
        dirty: 0,
        ..State::START
    };
    s.cand[0] &= !0x1FC; // columns 0 and 1 of row 0
    s.cand[4] &= !0x1FA; // columns 0 and 2
    let before = s.cand;
    assert!(!s.hidden_pairs());
    assert_eq!(s.cand, before);
}
