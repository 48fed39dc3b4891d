//! The `fast` strategy: per-digit band bitboards, band-level propagation, branching on band
//! configurations.
//!
//! # Layout
//!
//! The grid is cut into three *bands* of three rows. For every digit and band one `u32` holds
//! the 27 cells of the band where that digit may still stand, row by row:
//!
//! ```text
//!              box 0       box 1       box 2
//!   bit:    0  1  2  |  3  4  5  |  6  7  8       row 0 of the band
//!           9 10 11  | 12 13 14  | 15 16 17       row 1
//!          18 19 20  | 21 22 23  | 24 25 26       row 2
//!
//!   cand[digit * 4 + band]   9 digits x 3 bands = 27 words, bits 27..31 always 0, and per
//!                            digit a fourth word, always 0: a digit's words are one aligned
//!                            4-word vector
//!   unsolved[band]           cells of the band that hold no digit yet
//!   dirty, since             one bit per word (as cand): changed since the digit's last
//!                            update / since the last minirow pass
//!   cols[digit]              the columns of the digit's three words after its last column pass,
//!                            bit 9 * band + column (the band layout, bands for rows)
//!   band_key[band], pick     the branch choice of the last minirow pass
//! ```
//!
//! A placed digit keeps its own bit, so for every digit the three words always describe a set
//! of positions with at least one per row and box; a solved digit has exactly nine bits. The
//! whole state is 36 + 3 + 2 + 9 + 1 + 2 + 3 words, 224 bytes once aligned: branching copies it
//! and undoing a branch is dropping the copy.
//!
//! A digit's words go in and out of the vector operations (naked singles, placements) as one
//! 16-byte vector, and its update writes them back as one: a load that spans several smaller
//! stores still in flight cannot take its data from them and waits for them to reach the
//! cache, which words three to a digit (vectors overlapping two digits) made a frequent stall.
//!
//! # Why bands
//!
//! Within one band, a digit stands once in each of the three rows and once in each of the three
//! boxes, so its rows and boxes are matched one to one. Which boxes each row can still use is a
//! 9-bit row-by-box graph; a table of its 512 values gives the cells whose (row, box) pair lies
//! in *some* perfect matching. One lookup thus applies pointing and claiming between the rows
//! and boxes of a band, finds hidden singles in rows and boxes (a row left with one cell), and
//! detects a digit that no longer fits the band at all. The same holds across the bands of a
//! stack: each box of the stack uses one column and each column one box, so a band-by-column
//! graph per stack, built from the columns each band word still touches, gives column/box
//! pointing and claiming and hidden singles in columns. The update of a digit alternates the
//! two until neither removes a cell. The column pass is skipped when the columns the words
//! touch are those of the digit's last column pass, where it cannot remove anything. The row
//! matching runs on all three words, changed or not: a skip that depends on the data is a
//! branch the processor mispredicts, and that costs more than the lookup.
//!
//! Across digits, two rules work on all 27 cells of a band at once. Naked singles: the words `one`
//! and `two` accumulate "seen at least once / twice" over the nine digits (for the three bands at
//! once, a digit's three words being one SSE2 vector), so `unsolved & !two` are the cells with one
//! candidate left and `unsolved & !one` the cells with none. Minirows (a row crossing a box, three
//! cells) hold exactly three digits: bit-parallel counters over the nine row-by-box graphs tell,
//! for the nine minirows together, how many digits may and how many must use each one. Being the
//! costliest rule, it runs only when the others stall, only on bands with a word changed since its
//! last pass, and no more on a band where it found every digit down to one configuration: it can
//! find nothing there. Puzzles with several solutions, such as serg's, reach many such bands, and
//! skipping them saves the pass without changing the search.
//! The same rule for minicolumns (a column crossing a box) runs last, wherever the minirow rule
//! runs (the root and every node of the thorough search), on the columns each digit's last column
//! pass left (`cols`): all 27 minicolumns at once, without a table, the digits that may and must
//! use each one counted in one tally of 64-bit words. At every node it cut the guesses on the
//! hard corpora by about 5% (at either limit) and the instructions and mispredicted branches in
//! all; at the root alone, as it once ran, the search saw little of it.
//!
//! At the root only, once those rules stall, one more rule works across digits: **hidden
//! pairs** in rows and columns. When two digits can go only to the same two cells of a row or
//! a column, every other digit leaves those two cells; the other rules then run again, and the
//! two alternate until neither changes anything. It cuts the guesses, but a pass costs most of
//! a search node's worth, so it does not run below the root: there it saves too few guesses for
//! its cost. Pairs in boxes add little. It is skipped when a band has a single configuration per
//! digit left, as in puzzles with several solutions such as serg's, where it finds pairs but
//! hardly saves a guess.
//!
//! The clues are loaded in bulk: per digit, the rows, columns and boxes its clues occupy,
//! from which each word is built at once.
//!
//! # Search
//!
//! When propagation stalls, the solver branches, as tdoku's writeup describes, on the
//! *configuration* of one digit in one band (which box each of its rows uses, at most six). The
//! band is the one with the lowest *score*, the sum over its digits of their configurations
//! and their candidate cells (a placed digit's cell counts as one); in it, the digit with the
//! fewest configurations above one, and of those the one with the fewest cells. The cells are
//! our addition to tdoku's rule (configurations alone, the band first): they cut the guesses on
//! the hard corpora. The minirow pass computes the choice from the graphs it reads anyway, the
//! cells coming with the same table lookups. When every digit has a single configuration left
//! everywhere it branches on a cell with two candidates (else the fewest). Each alternative
//! tried at a branch counts as a guess except the last one left, which by then is forced; this
//! matches tdoku's count, where the negation of a failed decision is propagated rather than
//! guessed.
//!
//! A search that ends at its first solution (limit 1) tries, of two configurations left, the
//! one that keeps fewer of the digit's candidate cells first: on the hard corpora it meets the
//! solution after 2% to 5% fewer guesses. Ordering three or more cost more than it saved, and
//! so did ordering a cell's digits, even where that saved guesses. A search that goes on after
//! a solution (limit 2 or more) must go through every alternative of a unique puzzle, in any
//! order, so it takes them as they come, in a copy of the search of its own that pays nothing
//! for the order (at limit 2 the ordering cost 0.3% to 0.5% more instructions).
//!
//! # Settled puzzles
//!
//! A puzzle whose root leaves a band *settled*, every digit there down to one configuration,
//! is searched more lightly: below the root the minirow and minicolumn rules do not run, and
//! the search branches on a cell with two candidates, in a band not settled at the root when
//! there is one, rather than on a band configuration. Such puzzles are mostly loose ones with
//! several solutions, as all of serg's are. Their search seldom meets a contradiction, so the
//! rule that makes a wrong guess fail at once has little to do: few of its passes remove
//! anything, and it runs mostly for the branch choice, at a large share of the instructions.
//! Without it, with the cell branch made cheap (the vector tally finds its cells, and only the
//! digits the cell still has are removed from it) and with no account kept of the words
//! changed for the pass, such puzzles take clearly fewer instructions for a few more guesses.
//! Their propagation also places the digits its updates find alone in a row once per round of
//! updates, not as each is found, so that the updates of a round do not wait on each other
//! (see [`State::propagate`]): about 5% quicker on serg's puzzles, a loss on the others.
//! A unique puzzle can be settled too, and there the rule earns its keep, so after
//! [`SETTLED_FAILURES`] contradictions the search turns thorough for the rest of the puzzle.
//! Searching every puzzle lightly costs far more on the hard corpora, whose puzzles are
//! unique; never turning thorough costs a little on the unique puzzles that are settled.
//!
//! The root looks for settled bands twice. First, before any minirow pass, once band updates
//! and naked singles alone have stalled ([`State::settled_bands`] reads them from the words
//! with a few vector operations): a puzzle settled there skips the root's minirow and
//! minicolumn passes and is searched lightly at once. Those updates also keep no account of
//! the words they change, the first minirow pass being due on every band anyway; that account
//! was a real cost on easy corpora such as 17-clue, most of whose puzzles these rules solve on
//! their own. Else the root goes on to its full fixpoint, with the minirow rule (whose keys
//! then tell the settled bands), minicolumns and hidden pairs. The first look spares the
//! puzzles settled there (all of serg's, most of 17-clue's) the root's costliest passes; the
//! others pay only for the look and one more count of candidates.
//!
//! # Orientation
//!
//! Branching on band configurations makes the search depend on the grid's orientation: the
//! same puzzle transposed often needs a rather different number of guesses. After the clues
//! have propagated, the solver therefore compares the configurations summed over the digits of
//! each band with those of each stack (read from `cols`, which at that fixpoint hold every
//! digit's columns), smallest first, and when the stacks promise the smaller search it
//! transposes the state and searches the transposed grid, transposing each solution back. The
//! per-digit rules are symmetric, so the transposed state is at their fixpoint too; only the
//! minirow rule has to run again, in the search, for its branch choice. (The transposed minirows
//! are the minicolumns, at their fixpoint already, and the transposed minicolumns the minirows:
//! the two rules find nothing new at the search's first node.) A band down to a single configuration per digit settles it: no
//! stack can promise less, and on a tie the grid stays as given (such puzzles, serg's among
//! them, gain nothing from a turn and would pay for the rules' second pass). So does a band
//! with at most three configurations more ([`KEEP_ORIENTATION`]): what search is left is small,
//! and turning costs more than it saves.
//!
//! # Instruction sets
//!
//! The build targets the x86-64 baseline, so the binary runs on any x86-64 processor. The search
//! (the root included) is also compiled for x86-64-v3 (AVX2, BMI1/2, LZCNT and POPCNT), where
//! the bit operations it runs most (lowest set bit, clearing it, and-not, shifts by a variable)
//! are one instruction each and the vector code takes the three-operand forms; a solver takes
//! that copy when the processor has those features, checked once when it is made. Side by side
//! on one Xeon it searched 3% to 7% faster than the baseline on the hard corpora and serg, about
//! as fast on 17-clue (within 4% either way). A copy for AVX-512 was 7% to 15% slower than the
//! baseline (the compiler copies the state in 64-byte registers there), so there is none. Every
//! copy searches alike, guess for guess.
//!
//! # Files
//!
//! - `tables.rs`: the lookup tables built at compile time (row and column matchings,
//!   configurations, forced minirows) and the pure bit helpers of the band layout.
//! - `state.rs`: `State`, the per-digit updates, naked singles and the propagation loop.
//! - `vectors.rs`: the operations on every digit's words at once, a digit being one vector.
//! - `cross_digit.rs`: the costlier rules across digits: minirows, minicolumns, hidden pairs.
//! - `orientation.rs`: the choice between the grid and its transpose, and the turning itself.
//! - `search.rs`: the root (clues, fixpoint, orientation) and the search below it.
//! - `level.rs`: the instruction set the search runs in, chosen at run time.
//! - `grid_io.rs`: which cells of a grid hold clues, and the grid of a solved state.
//! - `tests.rs`: the unit tests, vector paths checked against their scalar references.
//!
//! [`SETTLED_FAILURES`]: search::SETTLED_FAILURES
//! [`State::settled_bands`]: state::State::settled_bands
//! [`State::propagate`]: state::State::propagate
//! [`KEEP_ORIENTATION`]: orientation::KEEP_ORIENTATION

mod cross_digit;
mod grid_io;
mod level;
mod orientation;
mod search;
mod state;
mod tables;
#[cfg(test)]
mod tests;
mod vectors;

use super::{Limits, Outcome, Solver};
use crate::grid::Grid;
use level::Level;

/// Solver of the `fast` strategy (the default). See the module documentation.
#[derive(Debug)]
pub struct FastSolver {
    /// The instruction set the search runs in, the processor's best that it has a copy for.
    level: Level,
    /// What the current search has found so far.
    out: Outcome,
    /// Whether the current search runs on the transposed grid (see the module
    /// documentation), so that solutions must be transposed back.
    transposed: bool,
    /// Whether every solution's grid is wanted ([`Solver::solve_with`]), or only the first
    /// ([`Solver::solve`]): the others are then only counted.
    every_grid: bool,
    /// Whether the search runs the minirow and minicolumn rules and branches on band
    /// configurations; false while a settled puzzle is searched without them (see the module
    /// documentation).
    thorough: bool,
    /// Contradictions met so far by the current search (counted in either mode): at
    /// [`SETTLED_FAILURES`] the search of a settled puzzle turns thorough.
    ///
    /// [`SETTLED_FAILURES`]: search::SETTLED_FAILURES
    failures: u32,
    /// A (cell, digit) struck from the candidates at the root of the next search: see
    /// [`Solver::solves_otherwise`].
    exclude: Option<(usize, u8)>,
}

impl FastSolver {
    /// A new solver, for the instruction set of the processor it runs on.
    pub fn new() -> Self {
        Self::at(Level::detect())
    }

    /// A new solver whose search runs in the copy for `level`, which the processor must have.
    fn at(level: Level) -> Self {
        FastSolver {
            level,
            out: Outcome::default(),
            transposed: false,
            every_grid: false,
            thorough: false,
            failures: 0,
            exclude: None,
        }
    }
}

impl Default for FastSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl Solver for FastSolver {
    fn solve_with(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        self.every_grid = true;
        self.run(puzzle, limits, on_solution)
    }

    fn solve(&mut self, puzzle: &Grid, limits: Limits) -> Outcome {
        self.every_grid = false;
        self.run(puzzle, limits, &mut |_| {})
    }

    /// One search for one solution, with `digit` struck from `cell`'s candidates at the root.
    fn solves_otherwise(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> bool {
        let mut blanked = *puzzle;
        blanked.set(cell, 0);
        self.every_grid = false;
        self.exclude = Some((cell, digit));
        let found = self
            .run(&blanked, Limits::count_to(1), &mut |_| {})
            .solutions
            > 0;
        self.exclude = None;
        found
    }
}
