//! The X pass of the unary search, digit by digit, with each digit's outcome kept.
//!
//! X links never leave their digit: an X-Cycle or a forcing X-Chain of digit `d`, its length
//! and its removals depend on `d`'s places alone (and on which of them are sources, the
//! cells with two or more candidates). The one exception is what a chain that places `d`
//! removes: the cell's other candidates, worked out afresh each time. Most steps that reach
//! the chains change one digit since the last search (often the removal the last chain
//! made), so the other eight digits' outcomes are taken as they were.
//!
//! The search over all digits keeps the first hint, in cell order then digit order, among
//! those with the best key; each digit's own search keeps its first best hint and the cell
//! of its source, so that the best over the digits, by key then cell then digit, is the
//! same hint.

use super::super::super::board::{Board, Cells, bit, digits_of};
use super::super::super::technique::Hint;
use super::super::SortKey;
use super::sweep::Graph;
use super::{Best, Unary};

/// One digit's X pass: what it was searched on and what it found.
#[derive(Clone, Copy, Default)]
pub(super) struct Kept {
    /// The digit's places, and those of them that were sources.
    places: Cells,
    sources: Cells,
    /// False until searched once.
    valid: bool,
    /// The best hint, its key and the cell of its source.
    found: Option<(SortKey, u8, Hint)>,
}

impl Unary {
    /// The X pass of [`find`](Self::find): the best X-Cycle or forcing X-Chain, when it beats
    /// `best`.
    pub(super) fn x_pass(&mut self, b: &Board, graph: &mut Option<Graph>, best: &mut Best) {
        // The cells with two or more candidates: the X pass's sources.
        let multi = b.multi_candidate();
        let mut winner: Option<(SortKey, u8, Hint)> = None;
        for d in 0..9 {
            let (places, sources) = (b.digit[d], b.digit[d] & multi);
            let kept = self.x_kept[d];
            let found = if kept.valid && kept.places == places && kept.sources == sources {
                kept.found
            } else {
                let mut own = Best::none();
                let cell = self.pass(b, graph, false, true, 1 << d, &mut own);
                let found = own.hint.zip(cell).map(|(h, c)| (own.key, c as u8, h));
                self.x_kept[d] = Kept {
                    places,
                    sources,
                    valid: true,
                    found,
                };
                found
            };
            if let Some((key, cell, _)) = found
                && winner
                    .as_ref()
                    .is_none_or(|(wk, wc, _)| key.before(wk) || key == *wk && cell < *wc)
            {
                winner = found;
            }
        }
        if let Some((key, _, mut hint)) = winner
            && best.beaten_by(&key)
        {
            // A chain that places its digit removes the cell's other candidates, which may
            // have changed since it was found.
            if let Some((c, d)) = hint.place {
                let c = c as usize;
                hint.elim = [0; 9];
                for e in digits_of(b.cell[c] & !(1 << d)) {
                    hint.elim[e] = bit(c);
                }
            }
            best.key = key;
            best.hint = Some(hint);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::cells_of;

    /// Solving hard puzzles with unary chains alone, one search keeping its digits' X passes
    /// from step to step finds at every step the hint a search from scratch finds.
    #[test]
    fn kept_passes_find_what_a_fresh_search_finds() {
        let puzzles = [
            "2....4.....1.9..2.39....6.......7..6...5..4...1..3..9.1...8..3...8.....5..97.....",
            "...4.25....2...946.5.97.......72.1..9...1...5..7.39.......45.9.285...3....92.3...",
            "..715...8.1..........3.65..63.....57.9..6.4....2...9.3.645...2.......3......27...",
        ];
        let key =
            |h: &Option<Hint>| h.map(|h| (h.tech, h.diff.to_bits(), h.place, h.elim, h.cells));
        let mut kept = Unary::default();
        let (mut steps, mut reused) = (0, 0);
        for p in puzzles {
            let grid: Grid = p.parse().unwrap();
            let mut b = Board::from_values(grid.cells()).unwrap();
            loop {
                let before = kept.x_kept;
                let mut found = Best::none();
                kept.find(&b, &mut found);
                let mut fresh = Best::none();
                Unary::default().find(&b, &mut fresh);
                assert_eq!(key(&found.hint), key(&fresh.hint), "{p}");
                steps += 1;
                reused += (0..9)
                    .filter(|&d| before[d].valid && before[d].places == b.digit[d])
                    .count();
                let Some(h) = found.hint else { break };
                for d in 0..9 {
                    for c in cells_of(h.elim[d] & b.digit[d]) {
                        b.remove(c, d);
                    }
                }
                if let Some((c, d)) = h.place {
                    b.place(c as usize, d as usize);
                }
            }
        }
        // The steps were many, and most digits' passes were taken as kept.
        assert!(
            steps > 20 && reused > steps,
            "{steps} steps, {reused} passes reused"
        );
    }
}
