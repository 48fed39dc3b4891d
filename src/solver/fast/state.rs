//! The search state of the `fast` strategy and its propagation: the per-digit update (row and
//! column matchings, singles in rows), naked singles, and the loop that runs them to a
//! fixpoint together with the costlier rules of `cross_digit`.

use super::tables::{
    BAND, BAND_PEERS, KEEP_HASHED, STACK_KEEP, band_columns, column, row_hash, row_singles,
    stack_graph,
};
use super::vectors::put_digit;

/// The search state; see the `fast` module documentation for the layout. Aligned so that each
/// digit's four words are one aligned 16-byte vector; the fields go in an order that needs no
/// padding between them.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(super) struct State {
    /// Possible cells of each digit in each band, indexed `digit * 4 + band`; word
    /// `digit * 4 + 3` is always 0.
    pub(super) cand: [u32; WORDS],
    /// Words changed since their digit's last update (bit `digit * 4 + band`, as `cand`).
    pub(super) dirty: u64,
    /// Words changed since the last [`State::minirows`] pass (bits as `dirty`): a band none
    /// of whose words changed would yield the same again, so the pass skips it. The light
    /// search of a settled puzzle, which runs no pass, does not track them: it leaves every
    /// band due, for the pass that runs once its search turns thorough.
    pub(super) since: u64,
    /// Cells of each band with no digit placed yet.
    pub(super) unsolved: [u32; 3],
    /// For each digit, the [`band_columns`] its words had after its last column pass.
    pub(super) cols: [u32; 9],
    /// The word (`digit * 4 + band`) to branch on, chosen by the last [`State::minirows`]
    /// pass; [`NO_PICK`] when every digit has a single configuration left in every band, or
    /// when the last propagation ran without the pass (a settled puzzle's light search).
    pub(super) pick: u32,
    /// For each band, its branch key from the last [`State::minirows`] pass that looked at it;
    /// [`NO_PICK`] when the band has no empty cell or one configuration per digit left, which
    /// later passes then skip.
    pub(super) band_key: [u32; 3],
}

/// The bits of band 0's words (word `4 * digit`) in a set of words such as [`State::dirty`]
/// and [`State::since`]; shifted left by `b`, those of band `b`.
pub(super) const BAND0_WORDS: u64 = 0x1_1111_1111;

/// The bits of the 27 words in a set of words such as [`State::dirty`]: all but the padding.
pub(super) const ALL_WORDS: u64 = 0x7_7777_7777;

/// The length of [`State::cand`]: nine digits of three words and one of padding each.
pub(super) const WORDS: usize = 36;

/// [`State::pick`] when there is no band configuration to branch on.
pub(super) const NO_PICK: u32 = u32::MAX;

impl State {
    pub(super) const START: State = State {
        cand: {
            let mut c = [BAND; WORDS];
            let mut d = 0;
            while d < 9 {
                c[4 * d + 3] = 0;
                d += 1;
            }
            c
        },
        unsolved: [BAND; 3],
        dirty: ALL_WORDS,
        cols: [0; 9],
        pick: NO_PICK,
        since: ALL_WORDS,
        // No key yet: the first pass, due on every band (`since`), sets them all.
        band_key: [0; 3],
    };

    /// Replaces `cand[i]` by `cand[i] & keep`, marking the word dirty if that removed
    /// anything.
    #[inline(always)]
    pub(super) fn restrict(&mut self, i: usize, keep: u32) {
        // Branch-free: whether a removal happens is data-dependent and mispredicts often.
        let old = self.cand[i];
        let new = old & keep;
        self.cand[i] = new;
        self.dirty |= ((new != old) as u64) << i;
    }

    /// Places digit `d` on the cell `bit` of band `b`, which no other digit may hold any more:
    /// removes `d` from the cell's row and box in the band and from its column in the others.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) {
        let pos = bit.trailing_zeros();
        self.unsolved[b] &= !bit;
        let (peers, col) = (!BAND_PEERS[pos as usize], !column(pos % 9));
        let keep = |k: usize| if k == b { peers } else { col };
        self.restrict_digit(d, [keep(0), keep(1), keep(2)]);
    }

    /// Sets the three words of digit `d`, as [`put_digit`] does.
    #[inline(always)]
    fn set_digit(&mut self, d: usize, w: [u32; 3]) {
        put_digit(&mut self.cand, d, w);
    }

    /// Places digit `d` on cell `bit` of band `b` after removing from it the other digits
    /// that still have it, `others` (bit `e` for digit `e`; not `d`).
    #[inline(always)]
    pub(super) fn assign(&mut self, d: usize, b: usize, bit: u32, others: u32) {
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
            self.restrict(e * 4 + b, !bit);
        }
        self.place(d, b, bit);
    }

    /// The update of digit `d`: keeps the cells that fit a row-to-box matching in every band,
    /// then those that fit a band-to-column matching in every stack, and repeats both until
    /// the column pass shrinks no band; then, unless `DEFER`, places the digit on each row
    /// left with a single cell. None when the digit no longer fits the grid, else the cells of
    /// those rows with `DEFER` (the caller places them, see [`State::propagate`]) and zeros
    /// without. With `SINCE`, the words it changed (and those that were dirty) are marked in
    /// [`State::since`].
    ///
    /// The hot paths are branch-free where the outcome is data-dependent (does this word
    /// change, does this band gain a single): on the hard corpora a mispredicted branch costs
    /// more than the work it would skip, so bands that cannot change are computed anyway.
    #[inline(always)]
    fn update<const SINCE: bool, const DEFER: bool>(&mut self, d: usize) -> Option<[u32; 3]> {
        let mut touched = self.dirty >> (d * 4) & 7;
        self.dirty &= !(7 << (d * 4));
        let mut w = [self.cand[d * 4], self.cand[d * 4 + 1], self.cand[d * 4 + 2]];
        // The row matching of an unchanged word removes nothing; applying it anyway costs
        // less than the mispredicted branch that would skip it.
        let rows = |w: &mut [u32; 3]| {
            for x in w {
                *x &= KEEP_HASHED[row_hash(*x)];
            }
        };
        rows(&mut w);
        // The column pass depends only on the columns the words touch: when they are the ones
        // of the last pass, which the words already fitted, it would remove nothing. That test
        // comes first outside the loop, in a branch of its own: after the first row pass the
        // columns have mostly changed, after a later one mostly not, and a branch that mixes
        // the two is mispredicted far more often than two that each see one. On 5,000 of the
        // forum's hardest at limit 2, cachegrind's branch model counts 12% fewer mispredicted
        // branches in all and 3% fewer instructions; the time gained is about 1%.
        let mut x = band_columns(&w);
        if x != self.cols[d] {
            loop {
                let keep = STACK_KEEP[0][stack_graph(x, 0)]
                    | STACK_KEEP[1][stack_graph(x, 1)]
                    | STACK_KEEP[2][stack_graph(x, 2)];
                // The pass removes whole columns of a band, so it changes the words exactly
                // when it drops columns from `x`; the columns it leaves fit a matching already,
                // so they are the ones the next pass compares with.
                let gone = x & !keep;
                self.cols[d] = x & keep;
                if gone == 0 {
                    break;
                }
                for (b, x) in w.iter_mut().enumerate() {
                    *x &= (keep >> (9 * b) & 0x1FF) * 0x40201;
                    touched |= ((gone >> (9 * b) & 0x1FF != 0) as u64) << b;
                }
                rows(&mut w);
                x = band_columns(&w);
                if x == self.cols[d] {
                    break;
                }
            }
        }
        if SINCE {
            self.since |= touched << (d * 4);
        }
        if w.contains(&0) {
            return None;
        }
        // Rows with a single cell left: the digit goes there. Only a changed word can have
        // gained one, but the test costs less than the mispredicted branch that would skip it.
        self.set_digit(d, w);
        let new = row_singles(w, self.unsolved);
        if DEFER {
            return Some(new);
        }
        if new[0] | new[1] | new[2] == 0 {
            return Some([0; 3]);
        }
        // All three bands, as a test per band would mispredict: removing no cells is harmless.
        for (b, &new) in new.iter().enumerate() {
            self.unsolved[b] &= !new;
        }
        self.clear(new, &[0; WORDS]);
        // Its own digit keeps the cells; its words are current, so not dirty.
        self.set_digit(d, w);
        self.dirty &= !(7 << (d * 4));
        Some([0; 3])
    }

    /// Runs band updates and naked singles until neither changes anything, then, with
    /// `MINIROWS`, the minirow rule and, once that stalls too, the minicolumn rule. None on a
    /// contradiction. Without `MINIROWS` (the search of a settled
    /// puzzle, see the `fast` module documentation) it sets [`State::pick`] to [`NO_PICK`] and
    /// returns the cells with exactly two candidates, per band, for [`State::branch_cell`]: its
    /// last round counted them for the naked singles (a third count, a few operations more),
    /// which saves the branch counting them again. With `MINIROWS` it returns zeros: the
    /// branch, if on a cell, counts them itself. With `DEFER` (the search), the digits the
    /// updates find alone in a row are placed once every dirty digit is updated; without it
    /// (the root), as each update finds them.
    // Inlined by hand (as are the two rules it calls): with the root's calls in
    // `FastSolver::run` besides the search's, the compiler would otherwise move the rules out
    // of the search.
    #[inline(always)]
    pub(super) fn propagate<const MINIROWS: bool, const DEFER: bool>(
        &mut self,
    ) -> Option<[u32; 3]> {
        // The cells where the updates of a round found a digit alone in a row (`found`, per
        // band), and per word those of its own digit (`own`); `clash`, a cell found by two.
        let mut own = [0u32; WORDS];
        loop {
            let (mut found, mut clash) = ([0u32; 3], 0u32);
            while self.dirty != 0 {
                // `dirty` has bits below 27 only; the `min` lets the compiler see that the
                // digit's three words are in range, which saves a bounds check per update.
                // A stray higher bit would never be cleared, so debug builds check for one.
                debug_assert_eq!(
                    self.dirty & !ALL_WORDS,
                    0,
                    "a dirty bit beyond the 27 words"
                );
                let d = (self.dirty.trailing_zeros() as usize / 4).min(8);
                let new = self.update::<MINIROWS, DEFER>(d)?;
                if DEFER {
                    for b in 0..3 {
                        clash |= found[b] & new[b];
                        found[b] |= new[b];
                    }
                    put_digit(&mut own, d, new);
                }
            }
            // With `DEFER`, the digits found alone in their rows are placed together once every
            // dirty digit is updated, rather than one digit at a time as each update finds
            // them: an update then changes only its own digit's words, so the updates of a
            // round do not wait on each other, and the test of whether one found anything (a
            // branch the processor mispredicts about every other time) is made once per round.
            // The updates read the other digits' words at a superset of what they would be,
            // which only delays what they find to the next round. A digit updates once in a
            // round (its words stay clean), so `own` holds this round's cells for every digit
            // that found some. Updates made on words a placement then changes cost more
            // elsewhere: only the light search gains (see the `fast` module documentation).
            if DEFER && found != [0; 3] {
                if clash != 0 {
                    return None; // two digits alone in their rows on one cell
                }
                for (b, &new) in found.iter().enumerate() {
                    self.unsolved[b] &= !new;
                }
                self.clear(found, &own);
                own = [0; WORDS];
                continue;
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
                        let mut m = singles & self.cand[d * 4 + b];
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
                self.since = ALL_WORDS;
                let u = self.unsolved;
                let pairs = |b: usize| u[b] & two[b] & !three[b];
                return Some([pairs(0), pairs(1), pairs(2)]);
            }
            // The minirow rule is the costliest, so it runs only once the cheap rules stall.
            if !self.minirows() {
                return None;
            }
            if self.dirty != 0 {
                continue;
            }
            // The same rule for minicolumns, once everything else has stalled.
            if !self.minicols() {
                return None;
            }
            if self.dirty == 0 {
                return Some([0; 3]);
            }
        }
    }

    pub(super) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }
}
