//! The rules across digits that run once the per-digit updates and naked singles stall:
//! minirows (each row-by-box crossing holds three digits), the same for minicolumns, and
//! hidden pairs in rows and columns.

use super::state::{BAND0_WORDS, NO_PICK, State};
use super::tables::{
    BAND, CONFIGS_HASHED, CROSS, FORCED, NO_BRANCH, PICK_HASHED, ROW_SHAPES, SPREAD_BOXES,
    TALLY_HASHED, column, columns, minirow_cells, row_graph, row_hash,
};

/// For each bit, how many of the words added so far have it set, counted up to four: the four
/// words are "at least one" to "at least four", bit by bit.
#[derive(Clone, Copy, Default)]
pub(super) struct Tally {
    pub(super) one: u32,
    pub(super) two: u32,
    pub(super) three: u32,
    pub(super) four: u32,
}

impl Tally {
    #[inline(always)]
    pub(super) fn add(&mut self, x: u32) {
        self.four |= self.three & x;
        self.three |= self.two & x;
        self.two |= self.one & x;
        self.one |= x;
    }

    /// Two tallies kept in one, in bits 0..16 and 16..32: split apart.
    #[inline(always)]
    pub(super) fn split(self) -> (Tally, Tally) {
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
/// lets the callers skip their pass over the digits when no unit is left, which on loose
/// puzzles such as serg's is most of the time.
#[inline(always)]
fn three_each(may: Tally, sure: Tally, all: u32) -> Option<(u32, u32)> {
    if may.three != all || sure.four != 0 {
        return None;
    }
    Some((sure.three & may.four, may.three & !may.four & !sure.three))
}

impl State {
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
    pub(super) fn minirows(&mut self) -> bool {
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
        // search wants (see the `fast` module documentation): the band's score, the sum over
        // its digits of their configurations and their cells; then its configurations alone;
        // then in it the digit with the fewest configurations above one, then the fewest
        // cells, then the lowest word.
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
                let i = d * 4 + b;
                let w = self.cand[i];
                let h = row_hash(w);
                let c = w.count_ones();
                both.add(TALLY_HASHED[h]);
                total += CONFIGS_HASHED[h];
                cells += c;
                pick = pick.min(PICK_HASHED[h] | c << 6 | i as u32);
            }
            if pick < NO_BRANCH {
                // The fields never overlap: the score is at most 54 + 243, the total 54, and
                // the pick (6 configurations, 27 cells, word 34) fits in 14 bits.
                self.band_key[b] = (total + cells) << 20 | total << 14 | pick;
            }
            let (may, sure) = both.split();
            let Some((full, must)) = three_each(may, sure, 0x1FF) else {
                return false;
            };
            if full | must == 0 {
                continue;
            }
            // The graphs again: few passes remove anything, so on this rare path that costs
            // less than keeping the nine graphs and forced edges of every pass.
            for d in 0..9 {
                let g = row_graph(self.cand[d * 4 + b]);
                let f = FORCED[g] >> 16;
                let g = g as u32;
                let out = g & full & !f;
                if out != 0 {
                    self.restrict(d * 4 + b, !minirow_cells(out));
                }
                let mut into = g & must & !f;
                while into != 0 {
                    let e = into.trailing_zeros() as usize;
                    into &= into - 1;
                    self.restrict(d * 4 + b, !CROSS[e]);
                }
            }
        }
        let key = self.band_key[0].min(self.band_key[1]).min(self.band_key[2]);
        self.pick = if key == NO_PICK { NO_PICK } else { key & 0x3F };
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
    pub(super) fn minicols(&mut self) -> bool {
        /// The first column of each of the nine boxes, in the [`band_columns`] layout.
        const FIRST: u32 = 0x1249249;
        // The minicolumns each digit may use in the low half, those it surely uses in the high
        // half: one tally of 64-bit words counts both, as the minirow rule's does in 32 bits.
        let (mut one, mut two, mut three, mut four) = (0u64, 0u64, 0u64, 0u64);
        let mut forced = [0u32; 9];
        for (d, &c) in self.cols.iter().enumerate() {
            let (x, y, z) = (c & FIRST, c >> 1 & FIRST, c >> 2 & FIRST);
            // Boxes where the digit has exactly one column left: an odd count, not three.
            let single = (x ^ y ^ z) & !(x & y & z);
            let f = c & (single * 7);
            forced[d] = f;
            let both = c as u64 | (f as u64) << 32;
            four |= three & both;
            three |= two & both;
            two |= one & both;
            one |= both;
        }
        let half = |shift: u32| Tally {
            one: (one >> shift) as u32,
            two: (two >> shift) as u32,
            three: (three >> shift) as u32,
            four: (four >> shift) as u32,
        };
        let (may, sure) = (half(0), half(32));
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
                self.restrict(d * 4 + b, !(gone * 0x40201));
            }
        }
        true
    }

    /// Hidden pairs in rows and columns: when two digits can go only to the same two cells of
    /// a row or a column, the two cells hold those digits, and every other digit leaves them.
    /// Called at a fixpoint of the other rules (no word dirty), it returns whether some digit
    /// lost a cell, leaving those words dirty. Run at the root only (see the `fast` module
    /// documentation).
    #[inline(always)]
    pub(super) fn hidden_pairs(&mut self) -> bool {
        // Its answer is whether a word is dirty afterwards: one dirty before would read as a
        // change, and the caller's loop would not end.
        debug_assert_eq!(self.dirty, 0, "hidden pairs need the other rules' fixpoint");
        // A pair's two cells lose a digit only where they have a third: most pairs found have
        // none there, having been found (and applied) by an earlier pass, or being naked pairs
        // too, and skipping those saves most of the removals. Counted once: removals only
        // lower the counts, so a cell counted with three or more may have fewer by the time a
        // pair is found on it (the removal then changes nothing), never the reverse.
        let [_, _, three] = self.candidate_counts::<3>();
        // Rows. Only empty cells count, so that a digit placed in the unit has none there.
        for (b, &three) in three.iter().enumerate() {
            let unsolved = self.unsolved[b];
            for row in [0x1FF, 0x1FF << 9, 0x1FF << 18] {
                let cells: [u32; 9] =
                    std::array::from_fn(|e| self.cand[e * 4 + b] & unsolved & row);
                for_pairs(&cells, |e, f, cells| {
                    if cells & three != 0 {
                        for g in (0..9).filter(|&g| g != e && g != f) {
                            self.restrict(g * 4 + b, !cells);
                        }
                    }
                });
            }
        }
        // Columns: a column has its cells at the same bits of every band, so band b's are
        // shifted by b to keep them apart in one key.
        for col in 0..9 {
            let mask = self.unsolved.map(|u| u & column(col));
            let keys: [u32; 9] = std::array::from_fn(|e| {
                self.cand[e * 4] & mask[0]
                    | (self.cand[e * 4 + 1] & mask[1]) << 1
                    | (self.cand[e * 4 + 2] & mask[2]) << 2
            });
            for_pairs(&keys, |e, f, key| {
                let cells: [u32; 3] = std::array::from_fn(|b| key >> b & mask[b]);
                if (0..3).any(|b| cells[b] & three[b] != 0) {
                    self.leave(e, f, cells);
                }
            });
        }
        self.dirty != 0
    }

    /// Removes every digit but `e` and `f` from the cells `cells[b]` of each band `b`.
    fn leave(&mut self, e: usize, f: usize, cells: [u32; 3]) {
        for g in (0..9).filter(|&g| g != e && g != f) {
            for (b, &c) in cells.iter().enumerate() {
                self.restrict(g * 4 + b, !c);
            }
        }
    }
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

#[cfg(test)]
mod tests;
