//! Hooks through which a strategy reports each step of its search, for `explain`.
//!
//! The traceable strategies (`backtrack`, `candidates`, `bitmask`) run one generic search,
//! `run<T: Trace>`. Their [`Solver`](super::Solver) implementations call it with [`NoTrace`],
//! whose empty methods the compiler removes, so solving a corpus pays nothing for tracing;
//! [`crate::explain`] calls the very same code with a recorder that prints every step.
//!
//! Depth is the number of branch points above the current state, counted as a recursive
//! search would: the first guess is at depth 1, a guess made after it at depth 2, and so on.
//! A dead end at depth `k` restores the state saved at the deepest branch point that still has
//! an alternative, at depth `j <= k`, and tries that alternative next; `j == 0` means none is
//! left and the search is over.

/// Why a digit was placed without being a guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The cell had exactly one candidate left.
    NakedSingle,
    /// The last candidate of a branch point, forced once every other one led to a dead end.
    LastAlternative,
}

impl Reason {
    /// The words used in traces.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Reason::NakedSingle => "naked single",
            Reason::LastAlternative => "last alternative",
        }
    }
}

/// Receives the steps of one search. Cells are 0-based row-major indices.
pub(crate) trait Trace {
    /// `digit` is placed in `cell` for `reason` (not counted as a guess).
    fn place(&mut self, _cell: usize, _digit: u8, _reason: Reason) {}
    /// `digit` is tried in `cell` at `depth`; `left` is the mask (bit `d - 1` for digit `d`)
    /// of the alternatives still to try there if this one fails.
    fn guess(&mut self, _depth: usize, _cell: usize, _digit: u8, _left: u16) {}
    /// The state at `depth` has no way forward; the search goes back to the branch point at
    /// `back_to` (0: nothing left to try).
    fn dead_end(&mut self, _depth: usize, _back_to: usize) {}
}

/// The trace that records nothing: what the plain solvers use.
pub(crate) struct NoTrace;

impl Trace for NoTrace {}
