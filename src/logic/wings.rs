//! XY-Wing and XYZ-Wing: a pivot cell and two pincers that see it, which between them force
//! a digit into one of the pincers.

use super::board::{Board, PEERS, bit, cells_of};
use super::technique::{Hint, Technique};

/// XY-Wing (4.2): pivot {x,y}, pincers {x,z} and {y,z}; or XYZ-Wing (4.4): pivot {x,y,z}.
/// Either way z leaves the cells that see both pincers (and, for XYZ, the pivot).
///
/// Pivots are tried in cell order, and for each pivot its peers in cell order, first as the
/// {x,z} pincer, then as the {y,z} pincer, as Sudoku Explainer does.
pub(crate) fn xy_wing(b: &Board, xyz: bool) -> Option<Hint> {
    let size = if xyz { 3 } else { 2 };
    for pivot in cells_of(b.empty) {
        let xy = b.cell[pivot];
        if xy.count_ones() != size {
            continue;
        }
        for xz_cell in cells_of(PEERS[pivot]) {
            let xz = b.cell[xz_cell];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for yz_cell in cells_of(PEERS[pivot]) {
                let yz = b.cell[yz_cell];
                if yz.count_ones() != 2 || (xy | xz | yz).count_ones() != 3 {
                    continue;
                }
                let common = (xy & xz & yz).count_ones();
                if common != if xyz { 1 } else { 0 } {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as usize;
                let mut victims = PEERS[xz_cell] & PEERS[yz_cell];
                if xyz {
                    victims &= PEERS[pivot];
                }
                victims &= !(bit(pivot) | bit(xz_cell) | bit(yz_cell));
                let gone = victims & b.digit[z];
                if gone != 0 {
                    let (tech, diff) = if xyz {
                        (Technique::XYZWing, 4.4)
                    } else {
                        (Technique::XYWing, 4.2)
                    };
                    let mut h = Hint::new(tech, diff);
                    h.elim[z] = gone;
                    h.cells = bit(pivot) | bit(xz_cell) | bit(yz_cell);
                    return Some(h);
                }
            }
        }
    }
    None
}
