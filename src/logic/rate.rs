//! The ladder of techniques and the step loop that turns it into ER, EP and ED.
//!
//! Like Sudoku Explainer, every step starts again at the bottom of the ladder and applies the
//! first hint of the first technique that finds one. The ladder's order is Sudoku Explainer's
//! producer order, which is not quite the order of the ratings (an X-Wing at 3.2 is tried
//! before a hidden pair at 3.4): a puzzle's path, and so sometimes its rating, depends on it.

use super::board::{Board, Cells, PEERS, bit, cells_of};
use super::memo::{self, UnitRung};
use super::tally::Tally;
use super::technique::Hint;
use super::{Bounded, Budget, GradeError, Ruleset, Step};
use super::{chains, exclusion, singles, uniqueness, wings};

/// One rung of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rung {
    HiddenSingle,
    DirectLocking,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    Locking,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    StrongLinks2,
    XYWing,
    XYZWing,
    UniqueLoops,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    StrongLinks3,
    WXYZWing,
    Bug,
    StrongLinks4,
    VWXYZWing,
    AlignedPair,
    UVWXYZWing,
    Chains,
    TUVWXYZWing,
    AlignedTriplet,
    Nishio,
    Multiple,
    Dynamic,
    DynamicPlus,
    Nested2,
    Nested3,
    /// Dynamic chains nesting dynamic chains of the given level (10.5).
    Nested4(u8),
}

/// Sudoku Explainer 1.2.1's ladder, in its producer order.
const CLASSIC: &[Rung] = &[
    Rung::HiddenSingle,
    Rung::DirectLocking,
    Rung::DirectHiddenPair,
    Rung::NakedSingle,
    Rung::DirectHiddenTriplet,
    Rung::Locking,
    Rung::NakedPair,
    Rung::XWing,
    Rung::HiddenPair,
    Rung::NakedTriplet,
    Rung::Swordfish,
    Rung::HiddenTriplet,
    Rung::XYWing,
    Rung::XYZWing,
    Rung::UniqueLoops,
    Rung::NakedQuad,
    Rung::Jellyfish,
    Rung::HiddenQuad,
    Rung::Bug,
    Rung::AlignedPair,
    Rung::Chains,
    Rung::AlignedTriplet,
    Rung::Nishio,
    Rung::Multiple,
    Rung::Dynamic,
    Rung::DynamicPlus,
    Rung::Nested2,
    Rung::Nested3,
];

/// Scratch memory kept between puzzles.
#[derive(Default)]
pub(crate) struct Scratch {
    loops: uniqueness::LoopScratch,
    aligned: Vec<(u8, Cells)>,
    pairs: exclusion::NoneSince,
    triples: exclusion::TripleCache,
    wings: wings::AlsMemo,
    unary: chains::unary::Unary,
    multiple: chains::multiple::Multiple,
    memo: memo::Memo,
}

/// Sukaku Explainer's default ladder: 1.2.1's with strong-link chains and ALS wings.
const SUKAKU: &[Rung] = &[
    Rung::HiddenSingle,
    Rung::DirectLocking,
    Rung::DirectHiddenPair,
    Rung::NakedSingle,
    Rung::DirectHiddenTriplet,
    Rung::Locking,
    Rung::NakedPair,
    Rung::XWing,
    Rung::HiddenPair,
    Rung::NakedTriplet,
    Rung::Swordfish,
    Rung::HiddenTriplet,
    Rung::StrongLinks2,
    Rung::XYWing,
    Rung::XYZWing,
    Rung::UniqueLoops,
    Rung::NakedQuad,
    Rung::Jellyfish,
    Rung::HiddenQuad,
    Rung::StrongLinks3,
    Rung::WXYZWing,
    Rung::Bug,
    Rung::StrongLinks4,
    Rung::VWXYZWing,
    Rung::AlignedPair,
    Rung::UVWXYZWing,
    Rung::Chains,
    Rung::TUVWXYZWing,
    Rung::AlignedTriplet,
    Rung::Nishio,
    Rung::Multiple,
    Rung::Dynamic,
    Rung::DynamicPlus,
    Rung::Nested2,
    Rung::Nested3,
    Rung::Nested4(0),
    Rung::Nested4(1),
    Rung::Nested4(2),
    Rung::Nested4(3),
];

/// The easiest rating, in tenths, of any hint `rung` finds: its technique's base rating (longer
/// chains, bigger loops and wings only add to it). A bounded rating ([`run`]'s `limit`) never
/// tries the rungs past the last one that could rate below its limit.
fn floor(rung: Rung) -> u16 {
    match rung {
        Rung::HiddenSingle => 10,
        Rung::DirectLocking => 17,
        Rung::DirectHiddenPair => 20,
        Rung::NakedSingle => 23,
        Rung::DirectHiddenTriplet => 25,
        Rung::Locking => 26,
        Rung::NakedPair => 30,
        Rung::XWing => 32,
        Rung::HiddenPair => 34,
        Rung::NakedTriplet => 36,
        Rung::Swordfish => 38,
        Rung::HiddenTriplet => 40,
        Rung::StrongLinks2 => 40,
        Rung::XYWing => 42,
        Rung::XYZWing => 44,
        Rung::UniqueLoops => 45,
        Rung::NakedQuad => 50,
        Rung::Jellyfish => 52,
        Rung::HiddenQuad => 54,
        Rung::StrongLinks3 => 54,
        Rung::WXYZWing => 55,
        Rung::Bug => 56,
        Rung::StrongLinks4 => 58,
        Rung::VWXYZWing => 62,
        Rung::AlignedPair => 62,
        Rung::UVWXYZWing => 66,
        Rung::Chains => 65,
        Rung::TUVWXYZWing => 75,
        Rung::AlignedTriplet => 75,
        Rung::Nishio => 75,
        Rung::Multiple => 80,
        Rung::Dynamic => 85,
        Rung::DynamicPlus => 90,
        Rung::Nested2 => 95,
        Rung::Nested3 => 100,
        Rung::Nested4(_) => 105,
    }
}

fn ladder(ruleset: Ruleset) -> &'static [Rung] {
    match ruleset {
        Ruleset::Sukaku => SUKAKU,
        Ruleset::Classic => CLASSIC,
    }
}

fn find(
    rung: Rung,
    b: &Board,
    s: &mut Scratch,
    budget: &Budget,
) -> Result<Option<Hint>, GradeError> {
    use chains::multiple::Kind;
    Ok(match rung {
        Rung::HiddenSingle => {
            let h = s.memo.hidden_single(b);
            // The kept search must find what a search from scratch finds, at every step of
            // every test.
            #[cfg(test)]
            {
                let key = |h: &Option<Hint>| h.map(|h| (h.tech, h.place, h.elim, h.cells));
                assert_eq!(key(&h), key(&singles::hidden_single(b)));
            }
            h
        }
        Rung::DirectLocking => s.memo.direct_locking(b),
        Rung::DirectHiddenPair => s.memo.unit_rung(b, UnitRung::DirectHiddenPair),
        Rung::NakedSingle => singles::naked_single(b),
        Rung::DirectHiddenTriplet => s.memo.unit_rung(b, UnitRung::DirectHiddenTriplet),
        Rung::Locking => s.memo.locking(b),
        Rung::NakedPair => s.memo.unit_rung(b, UnitRung::NakedPair),
        Rung::XWing => s.memo.fish(b, 2),
        Rung::HiddenPair => s.memo.unit_rung(b, UnitRung::HiddenPair),
        Rung::NakedTriplet => s.memo.unit_rung(b, UnitRung::NakedTriplet),
        Rung::Swordfish => s.memo.fish(b, 3),
        Rung::HiddenTriplet => s.memo.unit_rung(b, UnitRung::HiddenTriplet),
        Rung::StrongLinks2 => s.memo.strong_links(b, 2),
        Rung::StrongLinks3 => s.memo.strong_links(b, 3),
        Rung::StrongLinks4 => s.memo.strong_links(b, 4),
        Rung::WXYZWing => als_wing(b, 3, s),
        Rung::VWXYZWing => als_wing(b, 4, s),
        Rung::UVWXYZWing => als_wing(b, 5, s),
        Rung::TUVWXYZWing => als_wing(b, 6, s),
        Rung::XYWing => wings::xy_wing(b, false),
        Rung::XYZWing => wings::xy_wing(b, true),
        Rung::UniqueLoops => {
            let (clock, changed) = (s.memo.clock(), s.memo.cell_changed());
            uniqueness::unique_loops(b, &mut s.loops, clock, changed)
        }
        Rung::NakedQuad => s.memo.unit_rung(b, UnitRung::NakedQuad),
        Rung::Jellyfish => s.memo.fish(b, 4),
        Rung::HiddenQuad => s.memo.unit_rung(b, UnitRung::HiddenQuad),
        Rung::Bug => uniqueness::bug(b),
        Rung::AlignedPair => {
            let (clock, changed) = (s.memo.clock(), s.memo.cell_changed());
            exclusion::aligned_pair(b, &mut s.aligned, &mut s.pairs, clock, changed)
        }
        Rung::AlignedTriplet => {
            let (clock, changed) = (s.memo.clock(), s.memo.cell_changed());
            exclusion::aligned_triplet(b, &mut s.aligned, &mut s.triples, clock, changed)
        }
        Rung::Chains => {
            let mut best = chains::unary::Best::none();
            s.unary.find(b, &mut best);
            best.hint
        }
        Rung::Nishio => s.multiple.find(b, Kind::Nishio, budget)?,
        Rung::Multiple => s.multiple.find(b, Kind::Multiple, budget)?,
        Rung::Dynamic => s.multiple.find(b, Kind::Dynamic(0), budget)?,
        Rung::DynamicPlus => s.multiple.find(b, Kind::Dynamic(1), budget)?,
        Rung::Nested2 => s.multiple.find(b, Kind::Dynamic(2), budget)?,
        Rung::Nested3 => s.multiple.find(b, Kind::Dynamic(3), budget)?,
        Rung::Nested4(n) => s.multiple.find(b, Kind::Dynamic(4 + n), budget)?,
    })
}

fn als_wing(b: &Board, n: usize, s: &mut Scratch) -> Option<Hint> {
    let (clock, changed) = (s.memo.clock(), s.memo.cell_changed());
    wings::als_wing(b, n, &mut s.wings, clock, changed)
}

/// The most cell sets one hint changes: one per digit it removes, and a placement's cell and
/// peers.
const MAX_CHANGES: usize = 11;

/// Applies a hint. Returns the digits whose places changed and the cells whose candidates or
/// value changed, both empty when it changes nothing (which would make the loop spin); fills
/// the start of `changes` with sets of cells and the candidates they lost, and returns how
/// many.
fn apply(
    b: &mut Board,
    h: &Hint,
    changes: &mut [(Cells, u16); MAX_CHANGES],
) -> (u16, Cells, usize) {
    let (mut digits, mut cells, mut n) = (0u16, 0 as Cells, 0);
    for d in 0..9 {
        let gone = h.elim[d] & b.digit[d];
        if gone != 0 {
            digits |= 1 << d;
            cells |= gone;
            changes[n] = (gone, 1 << d);
            n += 1;
            for c in cells_of(gone) {
                b.remove(c, d);
            }
        }
    }
    if let Some((cell, d)) = h.place {
        let (cell, d) = (cell as usize, d as usize);
        if b.value[cell] == 0 && b.has(cell, d) {
            // The cell loses all its candidates (`d` among them), its peers lose `d`.
            let peers = PEERS[cell] & b.digit[d];
            digits |= b.cell[cell];
            cells |= bit(cell) | peers;
            changes[n] = (bit(cell), b.cell[cell]);
            changes[n + 1] = (peers, 1 << d);
            n += 2;
            b.place(cell, d);
        }
    }
    (digits, cells, n)
}

fn to_step(h: &Hint) -> Step {
    let mut eliminations = Vec::new();
    for d in 0..9 {
        for c in cells_of(h.elim[d]) {
            eliminations.push((c as u8, d as u8 + 1));
        }
    }
    eliminations.sort_unstable();
    Step {
        technique: h.tech,
        rating: h.tenths(),
        placements: h.place.map(|(c, d)| (c, d + 1)).into_iter().collect(),
        eliminations,
        cells: cells_of(h.cells).map(|c| c as u8).collect(),
    }
}

/// Solves `board` step by step and rates it; records the steps when asked.
///
/// With a `limit` (ER in tenths; `u16::MAX` for none) it stops as soon as the rating is known
/// to be at least `limit`: at the first step rated `limit` or more, or at a step where no rung
/// that could rate below `limit` applies (the step the full rating takes there is one of the
/// later rungs, rated `limit` or more). Until then its steps are the full rating's, so a
/// puzzle solved with every step below `limit` gets its full rating.
///
/// `unique` tells whether the puzzle has exactly one solution (`None`: the caller knows it
/// has). It is asked at most once, only when the answer matters: before the first rung that
/// assumes uniqueness (unique loops, then the BUG) or is slow to give up on a puzzle without
/// one, and before any outcome other than a full rating, which is then
/// [`GradeError::NotUnique`] if the puzzle is not unique. A puzzle solved to the end by the
/// rungs below those needs no asking: every step is a deduction true in every solution, so
/// the full grid they reach (no two peers share a digit: a placement removes its digit from
/// its peers) is the only solution.
pub(crate) fn run(
    mut board: Board,
    ruleset: Ruleset,
    budget: &Budget,
    scratch: &mut Scratch,
    mut steps: Option<&mut Vec<Step>>,
    limit: u16,
    mut unique: Option<&mut dyn FnMut() -> bool>,
) -> Result<Bounded, GradeError> {
    let ladder = ladder(ruleset);
    let below = ladder
        .iter()
        .rposition(|&r| floor(r) < limit)
        .map_or(0, |i| i + 1);
    let rungs = &ladder[..below];
    // The first rung that needs the puzzle known to be unique.
    let sure_from = ladder
        .iter()
        .position(|&r| r == Rung::UniqueLoops)
        .unwrap_or(ladder.len());
    // Asks `unique` once; an error when the puzzle is not unique.
    let mut ensure = move || -> Result<(), GradeError> {
        match unique.take().map(|ask| ask()) {
            Some(false) => Err(GradeError::NotUnique),
            _ => Ok(()),
        }
    };
    scratch.memo.start();
    let mut tally = Tally::default();
    // Most steps of most puzzles are singles: with no steps to record, they are placed as the
    // kept search finds them, without building a hint.
    let fast = rungs.first() == Some(&Rung::HiddenSingle) && steps.is_none();
    while !board.is_solved() {
        if budget.spent() {
            ensure()?;
            return Err(GradeError::Aborted);
        }
        if fast && let Some(s) = scratch.memo.single(&board) {
            #[cfg(test)]
            {
                let key = |h: Option<Hint>| h.map(|h| (h.tech, h.place, h.elim, h.cells));
                assert_eq!(key(Some(s.hint())), key(singles::hidden_single(&board)));
            }
            if s.tenths >= limit {
                ensure()?;
                return Ok(Bounded::AtLeast(limit));
            }
            // A single places a candidate of an empty cell: the cell loses all its
            // candidates, its peers lose the digit.
            let (cell, d) = (s.cell, s.d);
            let digits = board.cell[cell];
            let changes = [(bit(cell), digits), (PEERS[cell] & board.digit[d], 1 << d)];
            board.place(cell, d);
            scratch.memo.record(digits, &changes);
            tally.add(s.tech, s.diff, s.tenths, true);
            continue;
        }
        let mut found = None;
        for (i, &r) in rungs.iter().enumerate() {
            if i == sure_from {
                ensure()?;
            }
            let found_here = match find(r, &board, scratch, budget) {
                Ok(h) => h,
                Err(e) => {
                    ensure()?;
                    return Err(e);
                }
            };
            if let Some(h) = found_here {
                debug_assert!(h.tenths() >= floor(r), "{r:?} found {}", h.tenths());
                found = Some(h);
                break;
            }
        }
        let Some(hint) = found else {
            ensure()?;
            return if below < ladder.len() {
                Ok(Bounded::AtLeast(limit))
            } else {
                Err(GradeError::TooHard)
            };
        };
        // `Hint::tenths` without the library call `round` is (a portable build has no
        // instruction for it): ratings are positive and close to whole tenths.
        let tenths = (hint.diff * 10.0 + 0.5) as u16;
        debug_assert_eq!(tenths, hint.tenths());
        if tenths >= limit {
            ensure()?;
            return Ok(Bounded::AtLeast(limit));
        }
        #[cfg(debug_assertions)]
        let before = board;
        let mut changes = [(0, 0); MAX_CHANGES];
        let (digits, cells, n) = apply(&mut board, &hint, &mut changes);
        if cells == 0 {
            // A hint that changes nothing would be found again forever.
            ensure()?;
            return Err(GradeError::TooHard);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!((digits, cells), memo::Memo::difference(&before, &board));
        scratch.memo.record(digits, &changes[..n]);
        tally.add(hint.tech, hint.diff, tenths, hint.place.is_some());
        if let Some(steps) = steps.as_deref_mut() {
            steps.push(to_step(&hint));
        }
    }
    Ok(Bounded::Rated(tally.rating()))
}
