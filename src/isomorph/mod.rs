//! Isomorphs: puzzles that differ only by a validity-preserving transformation (relabelling
//! the digits, permuting bands, stacks, rows within a band, columns within a stack, and
//! transposing) are the same puzzle: the same number of solutions, the same difficulty. So
//! corpora are curated up to isomorphism and machine-learning data sets are grown by it.
//!
//! [`canon`] gives every puzzle (or solved grid) its canonical form, the one representative of
//! its class that the Sudoku community uses (the minlex form), and the number of its
//! automorphisms; two puzzles are isomorphs exactly when their canonical forms are equal.
//! [`transform`] holds the transformations themselves (drawn uniformly from a seed, applied to
//! a puzzle and its solution alike, composed, inverted, written as text), and [`augment`]
//! random isomorphs of every puzzle of a corpus, the same for a seed whatever the thread count.
//! [`key_table`] keeps the keys of many forms in 16 bytes each, for finding isomorphs across
//! a corpus.

pub mod augment;
pub mod canon;
pub mod key_hasher;
pub mod key_table;
mod solved;
pub mod transform;

pub use transform::{Transform, TransformError};

/// The six orders of three things (bands, stacks, or the rows of a band, the columns of a
/// stack): place `j` takes item `ORDERS_OF_3[o][j]`; [`Transform::from_index`] numbers them so.
const ORDERS_OF_3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];
