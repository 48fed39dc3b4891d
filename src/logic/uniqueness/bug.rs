//! The bivalue universal grave (BUG, types 1 to 4): were every empty cell but a few bivalue
//! and every digit in two places of each unit, the puzzle would have two solutions.

use crate::logic::board::{Board, CELL_UNITS, Cells, PEERS, UNIT_MASK, bit, cells_of, digits_of};
use crate::logic::singles::combinations;
use crate::logic::technique::{Hint, Technique};

/// The bivalue universal grave: if every empty cell but a few held two candidates and every
/// digit two places in each unit, the puzzle would have two solutions; so the extra
/// candidates of those few cells are not all false.
pub(crate) fn bug(b: &Board) -> Option<Hint> {
    let mut temp = *b;
    let mut bug_cells = [0usize; 81];
    let mut nbug = 0;
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut common: Option<Cells> = None;
    let mut all_extra: Option<Cells> = None;
    let mut only_value = 0usize;
    let mut one_value = true;
    let mut bug_set: Cells = 0;
    for u in 0..27 {
        for d in 0..9 {
            let p = b.digit[d] & UNIT_MASK[u];
            let card = p.count_ones();
            if card == 0 || card == 2 {
                continue;
            }
            let new_cells: Cells = cells_of(p)
                .filter(|&c| b.count(c) >= 3)
                .fold(0, |s, c| s | bit(c));
            match all_extra {
                None => {
                    all_extra = Some(new_cells);
                    only_value = d;
                }
                Some(ref mut a) if one_value => {
                    if only_value == d {
                        *a |= new_cells;
                    } else {
                        one_value = false;
                    }
                }
                _ => {}
            }
            if new_cells.count_ones() == 1 {
                let cell = new_cells.trailing_zeros() as usize;
                if bug_set & bit(cell) == 0 {
                    bug_set |= bit(cell);
                    bug_cells[nbug] = cell;
                    nbug += 1;
                }
                bug_values[cell] |= 1 << d;
                all_values |= 1 << d;
                temp.remove(cell, d);
                let c = common.map_or(PEERS[cell], |c| c & PEERS[cell]) & !bug_set;
                common = Some(c);
                if nbug > 1 && all_values.count_ones() > 1 && c == 0 {
                    return None;
                }
            }
            if new_cells == 0 {
                return None;
            }
        }
    }
    if let Some(a) = all_extra
        && one_value
        && a.count_ones() > nbug as u32
    {
        for cell in cells_of(a & !bug_set) {
            bug_set |= bit(cell);
            bug_cells[nbug] = cell;
            nbug += 1;
            bug_values[cell] = 1 << only_value;
            temp.remove(cell, only_value);
            let c = common.map_or(PEERS[cell], |c| c & PEERS[cell]) & !bug_set;
            common = Some(c);
            if nbug > 1 && all_values.count_ones() > 1 && c == 0 {
                return None;
            }
        }
    }
    if cells_of(temp.empty).any(|c| temp.count(c) != 2) {
        return None;
    }
    for u in 0..27 {
        for d in 0..9 {
            let card = (temp.digit[d] & UNIT_MASK[u]).count_ones();
            if card != 0 && card != 2 {
                return None;
            }
        }
    }
    let bug_cells = &bug_cells[..nbug];
    let common = common.unwrap_or(0);
    if nbug == 1 {
        let cell = bug_cells[0];
        let mut h = Hint::new(Technique::Bug1, 5.6);
        for d in digits_of(b.cell[cell] & !all_values) {
            h.elim[d] = bit(cell);
        }
        h.cells = bit(cell);
        return Some(h).filter(Hint::is_worth);
    }
    if all_values.count_ones() == 1 {
        let value = all_values.trailing_zeros() as usize;
        if common != 0 {
            let mut h = Hint::new(Technique::Bug2, 5.7);
            h.elim[value] = b.digit[value] & common;
            h.cells = bug_set;
            if h.is_worth() {
                return Some(h);
            }
        }
        if nbug == 2 {
            return bug4(b, bug_cells, &bug_values, all_values);
        }
        return None;
    }
    if common != 0 {
        if nbug == 2
            && let Some(h) = bug4(b, bug_cells, &bug_values, all_values)
        {
            return Some(h);
        }
        return bug3(b, bug_cells, bug_set, all_values, common);
    }
    None
}

fn bug4(b: &Board, cells: &[usize], values: &[u16; 81], all_values: u16) -> Option<Hint> {
    let (c1, c2) = (cells[0], cells[1]);
    let common = b.cell[c1] & b.cell[c2] & !all_values;
    if common.count_ones() != 1 {
        return None;
    }
    let shared = (0..3).any(|k| CELL_UNITS[c1][k] == CELL_UNITS[c2][k]);
    if !shared {
        return None;
    }
    let mut h = Hint::new(Technique::Bug4, 5.7);
    for (c, v) in [(c1, values[c1]), (c2, values[c2])] {
        for d in digits_of(b.cell[c] & !v & !common) {
            h.elim[d] |= bit(c);
        }
    }
    h.cells = bit(c1) | bit(c2);
    Some(h).filter(Hint::is_worth)
}

fn bug3(
    b: &Board,
    cells: &[usize],
    bug_set: Cells,
    all_values: u16,
    common: Cells,
) -> Option<Hint> {
    for degree in 2..=6u32 {
        for kind in 0..3 {
            let u = CELL_UNITS[cells[0]][kind];
            if cells.iter().any(|&c| CELL_UNITS[c][kind] != u) {
                continue;
            }
            let u = u as usize;
            let region: Cells = common & UNIT_MASK[u];
            let list: Vec<usize> = cells_of(region).collect();
            if (list.len() as u32) < degree {
                continue;
            }
            for comb in combinations(degree - 1, list.len() as u32) {
                let mut naked_cells = 0u128;
                let mut union = 0u16;
                let mut ok = true;
                for k in 0..list.len() {
                    if comb & (1 << k) != 0 {
                        let c = list[k];
                        naked_cells |= bit(c);
                        if b.cell[c].count_ones() <= 1 {
                            ok = false;
                        }
                        union |= b.cell[c];
                    }
                }
                if union.count_ones() != degree || all_values.count_ones() <= 1 || !ok {
                    continue;
                }
                let naked = union | all_values;
                if naked.count_ones() != degree {
                    continue;
                }
                let erasable = region & !naked_cells & !bug_set;
                let mut h = Hint::new(Technique::Bug3, 5.7 + (naked.count_ones() - 1) as f64 * 0.1);
                for d in digits_of(naked) {
                    h.elim[d] = b.digit[d] & erasable;
                }
                if h.is_worth() {
                    h.cells = bug_set | naked_cells;
                    return Some(h);
                }
            }
        }
    }
    None
}
