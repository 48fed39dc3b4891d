//! Isomorphs: puzzles that are one puzzle up to relabelling the digits, permuting bands,
//! stacks, rows within a band and columns within a stack, and transposing.
//!
//! Such puzzles have the same number of solutions and the same difficulty, so corpora are
//! curated up to isomorphism and machine-learning data sets are grown by it. This room holds
//! the transformations themselves ([`transform`]: drawn uniformly from a seed, applied to a
//! puzzle and its solution alike, composed, inverted, written as text) and augmentation
//! ([`augment`]: random isomorphs of every puzzle of a corpus, the same for a seed whatever the
//! thread count). Canonical forms, which tell whether two puzzles are isomorphs, live here
//! too.

pub mod augment;
pub mod transform;

pub use transform::{Transform, TransformError};
