//! The techniques the logical solver knows, with Sudoku Explainer's names, and the hint one
//! technique hands to the rater.

use super::board::Cells;

/// A solving technique, with Sudoku Explainer's difficulty scale in mind.
///
/// Variants are listed in the order the rater tries them; [`Technique::name`] gives Sudoku
/// Explainer's name (several variants share one, such as the three kinds of hidden single,
/// because Sudoku Explainer rates them differently under one name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a unit (1.0).
    FullHouse,
    /// A digit with one place left in a box (1.2).
    HiddenSingleBox,
    /// A digit with one place left in a row or column (1.5).
    HiddenSingleLine,
    /// Pointing that leaves a hidden single in a box (1.7).
    DirectPointing,
    /// Claiming that leaves a hidden single in a row or column (1.9).
    DirectClaiming,
    /// A hidden pair that leaves a hidden single in its unit (2.0).
    DirectHiddenPair,
    /// A cell with one candidate left (2.3).
    NakedSingle,
    /// A hidden triplet that leaves a hidden single in its unit (2.5).
    DirectHiddenTriplet,
    /// A box whose candidates for a digit lie in one row or column (2.6).
    Pointing,
    /// A row or column whose candidates for a digit lie in one box (2.8).
    Claiming,
    /// Two cells of a unit with the same two candidates (3.0).
    NakedPair,
    /// Two rows (or columns) whose candidates for a digit lie in two columns (rows) (3.2).
    XWing,
    /// Two digits with the same two places in a unit (3.4).
    HiddenPair,
    /// Three cells of a unit with three candidates between them (3.6).
    NakedTriplet,
    /// The X-Wing on three lines (3.8).
    Swordfish,
    /// Three digits with the same three places in a unit (4.0).
    HiddenTriplet,
    /// Two parallel strong links joined by a weak link (4.0; Sukaku Explainer only).
    Skyscraper,
    /// A row and a column strong link joined in a box (4.1; Sukaku Explainer only).
    TwoStringKite,
    /// Two strong links of other shapes, or grouped ones (4.1-4.3; Sukaku Explainer only).
    TwoStrongLinks,
    /// A pivot with two candidates and two pincers (4.2).
    XYWing,
    /// The XY-Wing with a three-candidate pivot (4.4).
    XYZWing,
    /// Unique rectangle or loop, type 1 (4.5-5.0).
    UniqueLoop1,
    /// Unique rectangle or loop, type 2 (4.5-5.0).
    UniqueLoop2,
    /// Unique rectangle or loop, type 3 with a naked or hidden set (4.5-5.6).
    UniqueLoop3,
    /// Unique rectangle or loop, type 4 (4.5-5.0).
    UniqueLoop4,
    /// Four cells of a unit with four candidates between them (5.0).
    NakedQuad,
    /// The X-Wing on four lines (5.2).
    Jellyfish,
    /// Four digits with the same four places in a unit (5.4).
    HiddenQuad,
    /// Three strong links on one digit (5.4-5.7; Sukaku Explainer only).
    ThreeStrongLinks,
    /// WXYZ-Wing (5.5-5.6; Sukaku Explainer only).
    WXYZWing,
    /// Bivalue universal grave, type 1 (5.6).
    Bug1,
    /// Bivalue universal grave, type 2 (5.7).
    Bug2,
    /// Bivalue universal grave, type 3 (5.8-6.2).
    Bug3,
    /// Bivalue universal grave, type 4 (5.7).
    Bug4,
    /// Four strong links on one digit (5.8-6.1; Sukaku Explainer only).
    FourStrongLinks,
    /// VWXYZ-Wing (6.2-6.4; Sukaku Explainer only).
    VWXYZWing,
    /// Aligned pair exclusion (6.2).
    AlignedPairExclusion,
    /// UVWXYZ-Wing (6.6; Sukaku Explainer only).
    UVWXYZWing,
    /// A cycle of strong and weak links on one digit (6.5+).
    XCycle,
    /// A cycle through bivalue cells (6.5+).
    YCycle,
    /// A forcing chain on one digit (6.6+).
    ForcingXChain,
    /// A cycle of mixed links (7.0+).
    BidirectionalCycle,
    /// A forcing chain of mixed links (7.0+).
    ForcingChain,
    /// TUVWXYZ-Wing (7.5; Sukaku Explainer only).
    TUVWXYZWing,
    /// Aligned triplet exclusion (7.5).
    AlignedTripletExclusion,
    /// A candidate whose assumption leads to a contradiction on one digit's links (7.5+).
    NishioForcingChain,
    /// All candidates of a cell force the same conclusion (8.0+).
    CellForcingChain,
    /// All places of a digit in a unit force the same conclusion (8.0+).
    RegionForcingChain,
    /// A dynamic chain from a candidate that leads to a contradiction (8.5+).
    DynamicContradictionChain,
    /// Both states of a candidate force the same conclusion (8.5+).
    DynamicDoubleChain,
    /// Dynamic cell forcing chains (8.5+).
    DynamicCellChain,
    /// Dynamic region forcing chains (8.5+).
    DynamicRegionChain,
    /// Dynamic forcing chains helped by intersections, pairs and X-Wings (9.0+).
    DynamicForcingChainPlus,
    /// Forcing chains that nest other forcing chains (9.5+).
    NestedForcingChain,
}

/// `Technique::ALL` lists every variant at its discriminant.
const _: () = {
    let mut i = 0;
    while i < Technique::COUNT {
        assert!(Technique::ALL[i] as usize == i);
        i += 1;
    }
};

impl Technique {
    /// Number of variants: `NestedForcingChain`, the last, numbers them.
    pub(crate) const COUNT: usize = Technique::NestedForcingChain as usize + 1;

    /// Every technique, indexed by its discriminant (checked when compiling, above).
    pub(crate) const ALL: [Technique; Technique::COUNT] = {
        use Technique::*;
        [
            FullHouse,
            HiddenSingleBox,
            HiddenSingleLine,
            DirectPointing,
            DirectClaiming,
            DirectHiddenPair,
            NakedSingle,
            DirectHiddenTriplet,
            Pointing,
            Claiming,
            NakedPair,
            XWing,
            HiddenPair,
            NakedTriplet,
            Swordfish,
            HiddenTriplet,
            Skyscraper,
            TwoStringKite,
            TwoStrongLinks,
            XYWing,
            XYZWing,
            UniqueLoop1,
            UniqueLoop2,
            UniqueLoop3,
            UniqueLoop4,
            NakedQuad,
            Jellyfish,
            HiddenQuad,
            ThreeStrongLinks,
            WXYZWing,
            Bug1,
            Bug2,
            Bug3,
            Bug4,
            FourStrongLinks,
            VWXYZWing,
            AlignedPairExclusion,
            UVWXYZWing,
            XCycle,
            YCycle,
            ForcingXChain,
            BidirectionalCycle,
            ForcingChain,
            TUVWXYZWing,
            AlignedTripletExclusion,
            NishioForcingChain,
            CellForcingChain,
            RegionForcingChain,
            DynamicContradictionChain,
            DynamicDoubleChain,
            DynamicCellChain,
            DynamicRegionChain,
            DynamicForcingChainPlus,
            NestedForcingChain,
        ]
    };

    /// Sudoku Explainer's name for the technique.
    pub fn name(&self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse | HiddenSingleBox | HiddenSingleLine => "Hidden Single",
            DirectPointing => "Direct Pointing",
            DirectClaiming => "Direct Claiming",
            DirectHiddenPair => "Direct Hidden Pair",
            NakedSingle => "Naked Single",
            DirectHiddenTriplet => "Direct Hidden Triplet",
            Pointing => "Pointing",
            Claiming => "Claiming",
            NakedPair => "Naked Pair",
            XWing => "X-Wing",
            HiddenPair => "Hidden Pair",
            NakedTriplet => "Naked Triplet",
            Swordfish => "Swordfish",
            HiddenTriplet => "Hidden Triplet",
            Skyscraper => "Skyscraper",
            TwoStringKite => "2-String Kite",
            TwoStrongLinks => "2 Strong links",
            XYWing => "XY-Wing",
            XYZWing => "XYZ-Wing",
            UniqueLoop1 => "Unique Rectangle type 1",
            UniqueLoop2 => "Unique Rectangle type 2",
            UniqueLoop3 => "Unique Rectangle type 3",
            UniqueLoop4 => "Unique Rectangle type 4",
            NakedQuad => "Naked Quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "Hidden Quad",
            ThreeStrongLinks => "3 Strong links",
            WXYZWing => "WXYZ-Wing",
            Bug1 => "BUG type 1",
            Bug2 => "BUG type 2",
            Bug3 => "BUG type 3",
            Bug4 => "BUG type 4",
            FourStrongLinks => "4 Strong links",
            VWXYZWing => "VWXYZ-Wing",
            AlignedPairExclusion => "Aligned Pair Exclusion",
            UVWXYZWing => "UVWXYZ-Wing",
            XCycle => "Bidirectional X-Cycle",
            YCycle => "Bidirectional Y-Cycle",
            ForcingXChain => "Forcing X-Chain",
            BidirectionalCycle => "Bidirectional Cycle",
            ForcingChain => "Forcing Chain",
            TUVWXYZWing => "TUVWXYZ-Wing",
            AlignedTripletExclusion => "Aligned Triplet Exclusion",
            NishioForcingChain => "Nishio Forcing Chains",
            CellForcingChain => "Cell Forcing Chains",
            RegionForcingChain => "Region Forcing Chains",
            DynamicContradictionChain => "Dynamic Contradiction Forcing Chains",
            DynamicDoubleChain => "Dynamic Double Forcing Chains",
            DynamicCellChain => "Dynamic Cell Forcing Chains",
            DynamicRegionChain => "Dynamic Region Forcing Chains",
            DynamicForcingChainPlus => "Dynamic Forcing Chains (+)",
            NestedForcingChain => "Nested Forcing Chains",
        }
    }
}

impl std::fmt::Display for Technique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What one technique found: its rating, and the candidates it removes or the digit it places.
///
/// `diff` is the rating as Sudoku Explainer computes it, in `f64`: chain ratings add 0.1 once
/// per length step, and where two hints compare, the rounding of those sums decides as it
/// does in Java. Reports use [`Hint::tenths`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hint {
    pub tech: Technique,
    pub diff: f64,
    /// A digit (0-based) to place, with its cell.
    pub place: Option<(u8, u8)>,
    /// Candidates to remove: `elim[d]` are the cells that lose digit `d + 1`.
    pub elim: [Cells; 9],
    /// The cells that make the pattern, for explanations.
    pub cells: Cells,
}

impl Hint {
    /// A hint that removes nothing and places nothing yet.
    pub fn new(tech: Technique, diff: f64) -> Hint {
        Hint {
            tech,
            diff,
            place: None,
            elim: [0; 9],
            cells: 0,
        }
    }

    /// The rating in tenths.
    pub fn tenths(&self) -> u16 {
        (self.diff * 10.0).round() as u16
    }

    /// True when the hint removes or places something.
    pub fn is_worth(&self) -> bool {
        self.place.is_some() || self.elim.iter().any(|&e| e != 0)
    }
}
