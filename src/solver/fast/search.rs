//! The root and the search: the clues loaded, the root's fixpoint, the choice of what to branch
//! on (a digit's configuration in a band, or a cell) and the depth-first search on copies of
//! the state.

use super::FastSolver;
use super::grid_io::clue_mask;
use super::level::Level;
use super::orientation::transpose;
use super::state::{NO_PICK, State};
use super::tables::{BAND, BAND_UNIT_CELLS, CELL_UNITS, MATCHINGS, PERM_EDGES, row_graph};
use crate::grid::Grid;
use crate::solver::{Limits, Outcome};

/// The contradictions after which the search of a settled puzzle turns thorough (see the
/// `fast` module documentation). A few contradictions tell a unique puzzle from a loose one:
/// turning sooner gains nothing, and never turning costs the unique settled puzzles more.
pub(super) const SETTLED_FAILURES: u32 = 8;

impl State {
    /// The cell to branch on, as (band, bit): the first cell with two candidates in a band
    /// whose [`State::band_key`] is not [`NO_PICK`], else the first cell with two candidates,
    /// else the first with the fewest. Below a minirow pass that left no pick, every key is
    /// `NO_PICK` and the first cell with two candidates is taken; in the search of a settled
    /// puzzle the keys are the root's, and a band not settled there is where the puzzle's
    /// constraint lies (see the `fast` module documentation). `known` holds the cells with
    /// two candidates when [`State::propagate`] counted them, else zeros.
    ///
    /// Inlined, as are the helpers the search calls at every branch, so that the copy of the
    /// search for [`Level::V3`] runs them in its own instruction set: a call into the
    /// baseline's code costs the call, the registers saved around it and the switch between
    /// vector widths.
    #[inline(always)]
    fn branch_cell(&self, known: [u32; 3]) -> (usize, u32) {
        // Zeros may also mean that there are none: counting again then finds none either.
        let pairs = if known == [0; 3] {
            let [_, two, three] = self.candidate_counts::<3>();
            let u = self.unsolved;
            let pairs = |b: usize| u[b] & two[b] & !three[b];
            [pairs(0), pairs(1), pairs(2)]
        } else {
            known
        };
        let mut first = None;
        for b in 0..3 {
            let pairs = pairs[b];
            if pairs != 0 {
                let cell = (b, pairs & pairs.wrapping_neg());
                if self.band_key[b] != NO_PICK {
                    return cell;
                }
                first = first.or(Some(cell));
            }
        }
        if let Some(cell) = first {
            return cell;
        }
        self.fewest_candidates()
    }

    /// The first cell with the fewest candidates, as (band, bit), for [`State::branch_cell`]
    /// when no cell has two: seldom, so kept out of the search's code.
    #[cold]
    #[inline(never)]
    fn fewest_candidates(&self) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut m = self.unsolved[b];
            while m != 0 {
                let bit = m & m.wrapping_neg();
                m ^= bit;
                let n = (0..9).filter(|d| self.cand[d * 4 + b] & bit != 0).count() as u32;
                if n < best.2 {
                    best = (b, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The configurations of word `i` for the branch to try (bit `p` for [`PERM_EDGES`]`[p]`),
    /// and whether it tries them from the highest bit down rather than from the lowest up: of
    /// two, the one that keeps fewer of the digit's candidate cells comes first, ties lowest
    /// first; three or more are tried from the lowest (see the `fast` module documentation).
    #[inline(always)]
    pub(super) fn configs(&self, i: usize) -> (u32, bool) {
        let w = self.cand[i];
        let perms = MATCHINGS[row_graph(w)] as u32;
        // Computed whatever their number, without a branch: which way a branch goes would
        // depend on the data, and the processor would mispredict it.
        let rest = perms & perms.wrapping_sub(1);
        let two = rest != 0 && rest & (rest - 1) == 0;
        // At most 5: the indices are in range even with fewer than two.
        let low = (perms.trailing_zeros() as usize).min(5);
        let high = (rest.trailing_zeros() as usize).min(5);
        let kept = |p: usize| (w & PERM_EDGES[p].1).count_ones();
        (perms, two & (kept(high) < kept(low)))
    }
}

impl FastSolver {
    /// Searches below `state`, which it leaves changed: each alternative of a branch but the
    /// last works on its own copy, and the last on `state` itself, which nothing needs after
    /// it. Taking the state by value instead makes every branch copy it twice, once into its
    /// local and once more into the argument; copying it for the last alternative too would
    /// be a copy nothing reads.
    ///
    /// Inlined into each level's copy ([`FastSolver::descend`]), whose recursion goes through
    /// that copy again: `V3` says which ([`Level::V3`] or the baseline). `FIRST` says that the
    /// search ends at its first solution (limit 1), the only one where the order of a branch's
    /// alternatives matters: one that goes on after it must go through every alternative of a
    /// unique puzzle anyway. Each has a copy of its own, so that the others pay nothing for
    /// the order.
    #[inline(always)]
    fn search<const V3: bool, const FIRST: bool>(
        &mut self,
        state: &mut State,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) {
        let pairs = if self.thorough {
            state.propagate::<true, false>()
        } else {
            state.propagate::<false, true>()
        };
        let Some(pairs) = pairs else {
            // A settled puzzle whose search keeps failing is not the kind that gains from the
            // lighter search: the rest of it runs with the minirow rule.
            self.failures += 1;
            self.thorough |= self.failures >= SETTLED_FAILURES;
            return;
        };
        if state.is_solved() {
            // Without a caller for it, a grid after the first is not built: counting to two
            // reaches a second solution in every puzzle with several, and nothing reads its
            // grid.
            if !self.every_grid && self.out.solution.is_some() {
                self.out.solutions += 1;
                return;
            }
            // Two calls rather than one on a chosen grid: that choice, made in this hot
            // function, costs more instructions than the second call.
            if self.transposed {
                self.out.found(transpose(&state.grid()), on_solution);
            } else {
                self.out.found(state.grid(), on_solution);
            }
            return;
        }
        if state.pick != NO_PICK {
            // Branch on the configurations of a digit in a band (which box each row of it
            // uses), chosen by the last minirow pass: see the `fast` module documentation.
            let i = state.pick as usize;
            let (mut perms, high_first) = if FIRST {
                state.configs(i)
            } else {
                (MATCHINGS[row_graph(state.cand[i])] as u32, false)
            };
            while perms != 0 {
                let p = if high_first {
                    31 - perms.leading_zeros()
                } else {
                    perms.trailing_zeros()
                };
                perms &= !(1 << p);
                let cells = PERM_EDGES[(p as usize).min(5)].1;
                let go_on =
                    self.alternative::<V3, FIRST>(state, perms == 0, limits, on_solution, |next| {
                        next.cand[i] &= cells;
                        next.dirty |= 1 << i;
                    });
                if !go_on {
                    return;
                }
            }
            return;
        }
        let (b, bit) = state.branch_cell(pairs);
        let mut all: u32 = 0;
        for d in 0..9 {
            all |= ((state.cand[d * 4 + b] & bit != 0) as u32) << d;
        }
        let mut digits = all;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let go_on =
                self.alternative::<V3, FIRST>(state, digits == 0, limits, on_solution, |next| {
                    next.assign(d, b, bit, all & !(1 << d));
                });
            if !go_on {
                return;
            }
        }
    }

    /// [`Solver::solve_with`], building the grid of every solution or, without
    /// [`FastSolver::every_grid`], of the first alone.
    ///
    /// [`Solver::solve_with`]: crate::solver::Solver::solve_with
    pub(super) fn run(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if self.level == Level::V3 {
            // SAFETY: the solver's level is `V3` only when `Level::detect` found every
            // feature `run_v3` is compiled for.
            return unsafe { self.run_v3(puzzle, limits, on_solution) };
        }
        self.run_level::<false>(puzzle, limits, on_solution)
    }

    /// [`FastSolver::run`] for [`Level::V3`]; only for a processor that has its features.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
    fn run_v3(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        self.run_level::<true>(puzzle, limits, on_solution)
    }

    /// [`FastSolver::run`] in the copy for the level `V3` says (see [`FastSolver::search`]).
    #[inline(always)]
    fn run_level<const V3: bool>(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        self.out = Outcome::default();
        // The clues go in all at once: per digit, the rows, columns and boxes its clues
        // occupy (which also catches two equal clues in one unit), then each word is built
        // from those in one expression, instead of a series of removals per clue.
        let mut units = [0u32; 9];
        let mut given = [0u32; 36];
        let mut ok = true;
        let cells = puzzle.cells();
        // Visit only the clues, from a mask of the non-blank cells: a test per cell would be
        // a branch the processor mispredicts about once per clue. A band at a time, the mask
        // fits a u32 and gives each clue's bit in its band word directly.
        let clues = clue_mask(cells);
        'bands: for b in 0..3 {
            let mut m = (clues >> (27 * b)) as u32 & BAND;
            while m != 0 {
                let bit = m.trailing_zeros();
                m &= m - 1;
                let cell = 27 * b + bit as usize;
                let d = cells[cell] as usize - 1;
                let u = CELL_UNITS[cell];
                if units[d] & u != 0 {
                    ok = false; // the same digit is given twice in a unit
                    break 'bands;
                }
                units[d] |= u;
                given[d * 4 + b] |= 1 << bit;
            }
        }
        let mut state = State::START;
        for b in 0..3 {
            let clues = given[b] | given[4 + b] | given[8 + b];
            let clues = clues | given[12 + b] | given[16 + b] | given[20 + b];
            state.unsolved[b] = BAND & !(clues | given[24 + b] | given[28 + b] | given[32 + b]);
        }
        for (d, &u) in units.iter().enumerate() {
            let not_cols = !((u >> 18) * 0x40201);
            for b in 0..3 {
                let taken = BAND_UNIT_CELLS[(u >> (6 * b) & 63) as usize];
                let i = d * 4 + b;
                state.cand[i] = (state.unsolved[b] & not_cols & !taken) | given[i];
            }
        }
        if let Some((cell, digit)) = self.exclude.filter(|&(_, d)| (1..=9).contains(&d)) {
            state.cand[(digit as usize - 1) * 4 + cell / 27] &= !(1 << (cell % 27));
        }
        self.transposed = false;
        // The cheap rules first, alone: a band they leave settled (a single configuration per
        // digit) makes the puzzle one searched the lighter way (see the `fast` module
        // documentation), with no minirow or minicolumn pass at the root. They also keep no
        // account of the words they change, as the first minirow pass is due on every band
        // anyway.
        let mut settled = false;
        if ok {
            ok = state.propagate::<false, false>().is_some();
            let bands = if ok { state.settled_bands() } else { 0 };
            // A generator's question (a solution with a digit struck from a cell, of a puzzle
            // that is unique with that digit) is searched the lighter way too: such puzzles
            // are easy, and the root's costlier passes cost more than they save.
            if bands != 0 || (ok && self.exclude.is_some()) {
                settled = true;
                // The keys the branch reads: a band not settled must not look settled.
                state.band_key = std::array::from_fn(|b| match bands >> b & 1 {
                    0 => 0,
                    _ => NO_PICK,
                });
            }
        }
        // Otherwise the root's fixpoint goes on with the minirow and minicolumn rules, and
        // hidden pairs, which cut the search that follows; a band settled by them still makes
        // the puzzle a settled one.
        while ok && !settled {
            ok = state.propagate::<true, false>().is_some();
            settled = state.band_key.contains(&NO_PICK);
            if !ok || state.is_solved() || settled || !state.hidden_pairs() {
                break;
            }
        }
        self.thorough = !settled;
        self.failures = 0;
        if ok {
            // The root's fixpoint decides the orientation of the whole search.
            if !state.is_solved() && state.prefers_stacks() {
                state = state.transposed();
                self.transposed = true;
            }
            // The copy of the search for a limit of one, or for the others.
            if limits.solutions == 1 {
                self.descend::<V3, true>(&mut state, limits, on_solution);
            } else {
                self.descend::<V3, false>(&mut state, limits, on_solution);
            }
        }
        self.out
    }

    /// One alternative of a branch at `state`: `choose` applied to a copy of the state and
    /// searched, unless the search may not try it ([`FastSolver::may_try`]), when it returns
    /// false. The `last` alternative takes the state itself, which nothing reads afterwards.
    #[inline(always)]
    fn alternative<const V3: bool, const FIRST: bool>(
        &mut self,
        state: &mut State,
        last: bool,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
        choose: impl FnOnce(&mut State),
    ) -> bool {
        if !self.may_try(!last, limits) {
            return false;
        }
        let mut copy;
        let next = if last {
            state
        } else {
            copy = *state;
            &mut copy
        };
        choose(next);
        self.descend::<V3, FIRST>(next, limits, on_solution);
        true
    }

    /// [`FastSolver::search`] in the copy compiled for the level `V3` says, for the limit
    /// `FIRST` says.
    #[inline(always)]
    fn descend<const V3: bool, const FIRST: bool>(
        &mut self,
        state: &mut State,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) {
        #[cfg(target_arch = "x86_64")]
        if V3 {
            // SAFETY: `V3` is true only below `run_v3`, which runs only when
            // `Level::detect` found every feature `search_v3` is compiled for.
            unsafe { self.search_v3::<FIRST>(state, limits, on_solution) };
            return;
        }
        self.search_base::<FIRST>(state, limits, on_solution);
    }

    /// [`FastSolver::search`] for the baseline.
    #[inline(never)]
    fn search_base<const FIRST: bool>(
        &mut self,
        state: &mut State,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) {
        self.search::<false, FIRST>(state, limits, on_solution);
    }

    /// [`FastSolver::search`] for [`Level::V3`]; only for a processor that has its features.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
    fn search_v3<const FIRST: bool>(
        &mut self,
        state: &mut State,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) {
        self.search::<true, FIRST>(state, limits, on_solution);
    }

    /// Whether the search may try the next alternative of a branch: not once enough solutions
    /// are found or the budget is spent. Counts a guess unless the alternative is the last one
    /// left (`guess == false`), which is forced.
    fn may_try(&mut self, guess: bool, limits: Limits) -> bool {
        if self.out.solutions >= limits.solutions || self.out.aborted {
            return false;
        }
        !guess || self.out.spend_guess(limits)
    }
}

#[cfg(test)]
mod tests;
