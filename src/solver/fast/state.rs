//! The search state of the `fast` strategy and its propagation: the per-digit update (row and
//! column matchings, singles in rows), naked singles, and the loop that runs them to a
//! fixpoint together with the costlier rules of `cross_digit`.

use super::tables::{
    BAND, BAND_PEERS, EDGE_BITS, KEEP_HASHED, ROW_LOW, STACK_KEEP, band_columns, column, row_hash,
    row_singles, stack_graph,
};

/// The search state; see the `fast` module documentation for the layout.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// Possible cells of each digit in each band, indexed `digit * 3 + band`.
    pub(super) cand: [u32; WORDS],
    /// Cells of each band with no digit placed yet.
    pub(super) unsolved: [u32; 3],
    /// Words changed since their digit's last update (bit `digit * 3 + band`, as `cand`).
    pub(super) dirty: u32,
    /// For each digit, the [`band_columns`] its words had after its last column pass.
    pub(super) cols: [u32; 9],
    /// The word (`digit * 3 + band`) to branch on, chosen by the last [`State::minirows`]
    /// pass; [`NO_PICK`] when every digit has a single configuration left in every band, or
    /// when the last propagation ran without the pass (a settled puzzle's light search).
    pub(super) pick: u32,
    /// Words changed since the last [`State::minirows`] pass (bits as `dirty`): a band none
    /// of whose words changed would yield the same again, so the pass skips it. The light
    /// search of a settled puzzle, which runs no pass, does not track them: it leaves every
    /// band due, for the pass that runs once its search turns thorough.
    pub(super) since: u32,
    /// For each band, its branch key from the last [`State::minirows`] pass that looked at it;
    /// [`NO_PICK`] when the band has no empty cell or one configuration per digit left, which
    /// later passes then skip.
    pub(super) band_key: [u32; 3],
}

/// The bits of band 0's words (word `3 * digit`) in a set of words such as [`State::dirty`]
/// and [`State::since`]; shifted left by `b`, those of band `b`.
pub(super) const BAND0_WORDS: u32 = 0x124_9249;

/// The length of [`State::cand`]: 27 words and one of padding.
pub(super) const WORDS: usize = 28;

/// [`State::pick`] when there is no band configuration to branch on.
pub(super) const NO_PICK: u32 = u32::MAX;

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

impl State {
    pub(super) const START: State = State {
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
    pub(super) fn restrict(&mut self, i: usize, keep: u32) {
        // Branch-free: whether a removal happens is data-dependent and mispredicts often.
        let old = self.cand[i];
        let new = old & keep;
        self.cand[i] = new;
        self.dirty |= ((new != old) as u32) << i;
    }

    /// Removes the cells `cells[b]` of each band `b` from every digit's word but the cells
    /// `own[i]` of word `i` (which it must hold: the digit placed there), marking the words
    /// that lose any dirty: seven 4-word vector operations instead of 27 scalar ones.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn clear(&mut self, cells: [u32; 3], own: &[u32; WORDS]) {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_or_si128, _mm_setr_epi32,
            _mm_storeu_si128,
        };
        // Word i lies in band i % 3, so the keep masks repeat every three vectors.
        let [a, b, c] = cells.map(|x| !x as i32);
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // `p` points to four consecutive u32 of `self.cand` (the slice checks the range): 16
        // bytes, readable and writable through `&mut self`; each `q` to four of `own`, read
        // only; the unaligned loads and store need no alignment.
        let same = unsafe {
            let keep = [
                _mm_setr_epi32(a, b, c, a),
                _mm_setr_epi32(b, c, a, b),
                _mm_setr_epi32(c, a, b, c),
            ];
            // Per word, all ones where it kept every cell.
            let same: [__m128i; WORDS / 4] = std::array::from_fn(|k| {
                let p = self.cand[4 * k..4 * k + 4].as_mut_ptr().cast::<__m128i>();
                let q = own[4 * k..4 * k + 4].as_ptr().cast::<__m128i>();
                let old = _mm_loadu_si128(p);
                let new = _mm_or_si128(_mm_and_si128(old, keep[k % 3]), _mm_loadu_si128(q));
                _mm_storeu_si128(p, new);
                _mm_cmpeq_epi32(old, new)
            });
            word_mask(same)
        };
        // The padding word 27 never changes.
        self.dirty |= !same & BAND;
    }

    /// Removes the cells `cells[b]` of each band `b` from every digit's word but the cells
    /// `own[i]` of word `i`, marking the words that lose any dirty.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn clear(&mut self, cells: [u32; 3], own: &[u32; WORDS]) {
        self.clear_scalar(cells, own);
    }

    /// [`State::clear`] one word at a time: the portable path, and the reference the vector
    /// path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn clear_scalar(&mut self, cells: [u32; 3], own: &[u32; WORDS]) {
        for i in 0..27 {
            self.restrict(i, !(cells[i % 3] & !own[i]));
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
            self.restrict(e * 3 + b, !bit);
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
        let mut touched = self.dirty >> (d * 3) & 7;
        self.dirty &= !(7 << (d * 3));
        let mut w = [self.cand[d * 3], self.cand[d * 3 + 1], self.cand[d * 3 + 2]];
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
                    touched |= ((gone >> (9 * b) & 0x1FF != 0) as u32) << b;
                }
                rows(&mut w);
                x = band_columns(&w);
                if x == self.cols[d] {
                    break;
                }
            }
        }
        if SINCE {
            self.since |= touched << (d * 3);
        }
        if w.contains(&0) {
            return None;
        }
        // Rows with a single cell left: the digit goes there. Only a changed word can have
        // gained one, but the test costs less than the mispredicted branch that would skip it.
        self.cand[d * 3..d * 3 + 3].copy_from_slice(&w);
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
        self.cand[d * 3..d * 3 + 3].copy_from_slice(&w);
        self.dirty &= !(7 << (d * 3));
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
                debug_assert_eq!(self.dirty & !BAND, 0, "a dirty bit beyond the 27 words");
                let d = (self.dirty.trailing_zeros() as usize / 3).min(8);
                let new = self.update::<MINIROWS, DEFER>(d)?;
                if DEFER {
                    for b in 0..3 {
                        clash |= found[b] & new[b];
                        found[b] |= new[b];
                    }
                    own[d * 3..d * 3 + 3].copy_from_slice(&new);
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
            // The same rule for minicolumns, once everything else has stalled.
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
    /// the padding word, is ignored): far fewer instructions than a band at a time.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn candidate_counts<const N: usize>(&self) -> [[u32; 3]; N] {
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
    pub(super) fn candidate_counts<const N: usize>(&self) -> [[u32; 3]; N] {
        self.candidate_counts_scalar()
    }

    /// [`State::candidate_counts`] a band at a time: the portable path, and the reference the
    /// vector path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn candidate_counts_scalar<const N: usize>(&self) -> [[u32; 3]; N] {
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
}

impl State {
    /// The bands (bit `b` for band `b`) where every digit has a single configuration left:
    /// the bands a minirow pass would give the key [`NO_PICK`], read without one. Valid where
    /// no word is dirty, every word having been through its row matching: a digit then has a
    /// single configuration exactly when each row of its word uses a single box.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn settled_bands(&self) -> u32 {
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
    pub(super) fn settled_bands(&self) -> u32 {
        self.settled_bands_scalar()
    }

    /// [`State::settled_bands`] one word at a time: the portable path, and the reference the
    /// vector path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn settled_bands_scalar(&self) -> u32 {
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

    pub(super) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }
}
