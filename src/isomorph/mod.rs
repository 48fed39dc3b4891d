//! Isomorphs: puzzles that differ only by a validity-preserving transformation (relabelling
//! the digits, permuting bands, stacks, rows within a band, columns within a stack, and
//! transposing) are the same puzzle.
//!
//! [`canon`] gives every puzzle (or solved grid) its canonical form, the one representative of
//! its class that the Sudoku community uses (the minlex form), and the number of its
//! automorphisms; two puzzles are isomorphs exactly when their canonical forms are equal.

pub mod canon;
