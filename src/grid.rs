//! The 81-cell grid: parsing one puzzle record, display, and the validity of its clues.
//!
//! A [`Grid`] holds 81 cells in row-major order, `0` for a blank and `1..=9` for a digit. It is
//! `Copy` and 81 bytes long, so solvers and pipeline rows pass it around without allocating.
//! Rows, columns and boxes are numbered 1 to 9 in every message a user sees; cells 1 to 81.

use std::fmt;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// A 9x9 Sudoku grid: `0` is a blank, `1..=9` a digit, row-major.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// Why a record is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The record holds the wrong number of cells.
    #[error("{found} cells, expected 81")]
    CellCount {
        /// How many cells were found before the record (or its cell part) ended.
        found: usize,
    },
    /// A character that is neither a digit, a blank nor a delimiter.
    #[error("cell {cell}: unexpected character {found:?}")]
    UnexpectedChar {
        /// 1-based position of the cell where the character stands.
        cell: usize,
        /// The character found.
        found: char,
    },
    /// Bytes that are not UTF-8 where a cell should be.
    #[error("cell {cell}: invalid UTF-8 byte 0x{byte:02x}")]
    InvalidUtf8 {
        /// 1-based position of the cell where the byte stands.
        cell: usize,
        /// The first offending byte.
        byte: u8,
    },
    /// A cell value outside `0..=9` given to [`Grid::from_cells`].
    #[error("cell {cell}: value {value} is not 0-9")]
    BadValue {
        /// 1-based position of the cell.
        cell: usize,
        /// The value found.
        value: u8,
    },
}

/// A unit (row, column or box) in which a digit is given twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// The digit given twice.
    pub digit: u8,
    /// The kind of unit.
    pub unit: Unit,
    /// 1-based index of the unit.
    pub index: usize,
}

/// A kind of unit of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A row, numbered top to bottom.
    Row,
    /// A column, numbered left to right.
    Column,
    /// A 3x3 box, numbered row-major from the top left.
    Box,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.unit {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        };
        write!(f, "digit {} twice in {} {}", self.digit, unit, self.index)
    }
}

/// True for the bytes that stand for a blank cell in text input.
pub fn is_blank_byte(b: u8) -> bool {
    matches!(b, b'.' | b'0' | b'_')
}

/// True for the bytes that may end the cells of a text record and start a comment.
pub fn is_delimiter_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b';')
}

impl Grid {
    /// The grid with every cell blank.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Builds a grid from cell values, `0` for blank.
    pub fn from_cells(cells: [u8; CELLS]) -> Result<Grid, ParseError> {
        // The largest value is a loop the compiler vectorises, a search for the first bad
        // cell is not: the search runs only when there is one.
        if cells.iter().fold(0, |max, &v| max.max(v)) > 9 {
            let i = cells.iter().position(|&v| v > 9).unwrap_or_default();
            return Err(ParseError::BadValue {
                cell: i + 1,
                value: cells[i],
            });
        }
        Ok(Grid { cells })
    }

    /// A grid of cells that are known to be `0..=9` (a solver's own digits).
    pub(crate) fn from_digits(cells: [u8; CELLS]) -> Grid {
        debug_assert!(cells.iter().all(|&v| v <= 9), "{cells:?}");
        Grid { cells }
    }

    /// Parses one record: 81 cells (`1`-`9`, or `.` `0` `_` for blanks), optionally followed by
    /// a delimiter (space, tab, `,` or `;`) and a comment that is ignored. Leading spaces and
    /// tabs are skipped.
    ///
    /// ```
    /// use sudoku_batch::Grid;
    /// let g: Grid = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35.. 7.2"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(g.clue_count(), 24);
    /// assert_eq!("12".parse::<Grid>().unwrap_err().to_string(), "2 cells, expected 81");
    /// ```
    pub fn parse_bytes(record: &[u8]) -> Result<Grid, ParseError> {
        match Self::parse_fast(record) {
            Some(g) => Ok(g),
            None => Self::parse_general(record),
        }
    }

    /// The byte-by-byte parser: handles every layout and names what is wrong.
    fn parse_general(record: &[u8]) -> Result<Grid, ParseError> {
        let start = record
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .unwrap_or(record.len());
        let mut cells = [0u8; CELLS];
        let mut n = 0;
        let mut i = start;
        while i < record.len() {
            let b = record[i];
            let value = match b {
                b'1'..=b'9' => b - b'0',
                _ if is_blank_byte(b) => 0,
                _ if is_delimiter_byte(b) => break,
                _ => return Err(unexpected(record, i, n + 1)),
            };
            if n == CELLS {
                // An 82nd cell: report the full count so the message says how long it is.
                let extra = record[i..]
                    .iter()
                    .take_while(|&&b| b.is_ascii_digit() || is_blank_byte(b))
                    .count();
                return Err(ParseError::CellCount { found: n + extra });
            }
            cells[n] = value;
            n += 1;
            i += 1;
        }
        if n != CELLS {
            return Err(ParseError::CellCount { found: n });
        }
        Ok(Grid { cells })
    }

    /// The common case in one branch-free pass that the compiler vectorises: exactly 81 cell
    /// characters at the start, then the end or a delimiter. `None` sends every other record
    /// to the general parser, which also explains what is wrong.
    #[inline]
    pub(crate) fn parse_fast(record: &[u8]) -> Option<Grid> {
        let cells: &[u8; CELLS] = record.get(..CELLS)?.try_into().ok()?;
        if record.get(CELLS).is_some_and(|&b| !is_delimiter_byte(b)) {
            return None;
        }
        let mut out = [0u8; CELLS];
        let mut ok = true;
        for (o, &b) in out.iter_mut().zip(cells) {
            let d = b.wrapping_sub(b'0');
            // `|` rather than `||`: no branches, so the loop vectorises.
            ok &= (d <= 9) | (b == b'.') | (b == b'_');
            *o = if d <= 9 { d } else { 0 };
        }
        ok.then_some(Grid { cells: out })
    }

    /// The cell values, row-major, `0` for blank.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of cell `index` (0-based, row-major), `0` for blank.
    pub fn get(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// Sets cell `index` (0-based) to `value` (`0` for blank).
    ///
    /// # Panics
    /// If `index >= 81` or `value > 9`.
    pub fn set(&mut self, index: usize, value: u8) {
        assert!(value <= 9, "cell value {value} is not 0-9");
        self.cells[index] = value;
    }

    /// How many cells hold a digit.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first unit (rows first, then columns, then boxes) in which a digit is given twice.
    pub fn conflict(&self) -> Option<Conflict> {
        if !self.has_conflict() {
            return None;
        }
        for (unit, cells_of) in [
            (Unit::Row, row_cells as fn(usize) -> [usize; 9]),
            (Unit::Column, col_cells),
            (Unit::Box, box_cells),
        ] {
            for u in 0..9 {
                let mut seen = 0u16;
                for c in cells_of(u) {
                    let v = self.cells[c];
                    if v != 0 {
                        if seen & (1 << v) != 0 {
                            return Some(Conflict {
                                digit: v,
                                unit,
                                index: u + 1,
                            });
                        }
                        seen |= 1 << v;
                    }
                }
            }
        }
        None
    }

    /// True when some digit is given twice in a unit: one pass with a bit per digit for every
    /// row, column and box, cheap enough to run on every puzzle of a batch.
    pub fn has_conflict(&self) -> bool {
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        let mut clash = 0u16;
        for (i, &v) in self.cells.iter().enumerate() {
            let bit = (1u16 << v) & !1; // blanks (0) give no bit
            let (r, c, b) = (i / 9, i % 9, box_of(i));
            clash |= (rows[r] | cols[c] | boxes[b]) & bit;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        clash != 0
    }

    /// True when `self` is a full grid without conflicts that keeps every clue of `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.is_full()
            && self.conflict().is_none()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// The grid as nine lines of nine characters, `.` for blanks, with box separators.
    pub fn to_block_string(&self) -> String {
        let mut out = String::with_capacity(11 * 13);
        for r in 0..9 {
            if r == 3 || r == 6 {
                out.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    out.push_str("| ");
                }
                let v = self.cells[r * 9 + c];
                out.push(if v == 0 { '.' } else { (b'0' + v) as char });
                if c != 8 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out
    }

    /// Writes the 81-character form (`.` for blanks) into `buf` without allocating.
    pub fn write_line(&self, buf: &mut [u8; CELLS]) {
        for (b, &v) in buf.iter_mut().zip(&self.cells) {
            *b = if v == 0 { b'.' } else { b'0' + v };
        }
    }
}

fn unexpected(record: &[u8], i: usize, cell: usize) -> ParseError {
    let tail = &record[i..record.len().min(i + 4)];
    let decoded = match std::str::from_utf8(tail) {
        Ok(s) => s.chars().next(),
        Err(e) if e.valid_up_to() > 0 => std::str::from_utf8(&tail[..e.valid_up_to()])
            .ok()
            .and_then(|s| s.chars().next()),
        Err(_) => None,
    };
    match decoded {
        Some(found) => ParseError::UnexpectedChar { cell, found },
        None => ParseError::InvalidUtf8 {
            cell,
            byte: record[i],
        },
    }
}

/// The 0-based cell indices of row `r` (0-based).
pub fn row_cells(r: usize) -> [usize; 9] {
    std::array::from_fn(|i| r * 9 + i)
}

/// The 0-based cell indices of column `c` (0-based).
pub fn col_cells(c: usize) -> [usize; 9] {
    std::array::from_fn(|i| i * 9 + c)
}

/// The 0-based cell indices of box `b` (0-based, row-major).
pub fn box_cells(b: usize) -> [usize; 9] {
    let (r0, c0) = (b / 3 * 3, b % 3 * 3);
    std::array::from_fn(|i| (r0 + i / 3) * 9 + c0 + i % 3)
}

/// The 0-based box index of cell `i`.
pub fn box_of(i: usize) -> usize {
    i / 27 * 3 + i % 9 / 3
}

/// The 20 peers of every cell: the other cells of its row, column and box.
pub static PEERS: [[u8; 20]; CELLS] = build_peers();

const fn build_peers() -> [[u8; 20]; CELLS] {
    let mut peers = [[0u8; 20]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, c) = (i / 9, i % 9);
        let b = i / 27 * 3 + c / 3;
        let mut n = 0;
        let mut j = 0;
        while j < CELLS {
            let (rj, cj) = (j / 9, j % 9);
            let bj = j / 27 * 3 + cj / 3;
            if j != i && (rj == r || cj == c || bj == b) {
                peers[i][n] = j as u8;
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    peers
}

impl std::str::FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Grid, ParseError> {
        Grid::parse_bytes(s.as_bytes())
    }
}

impl fmt::Display for Grid {
    /// The 81-character form, `.` for blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; CELLS];
        self.write_line(&mut buf);
        // The buffer holds only ASCII digits and dots.
        f.write_str(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

#[cfg(test)]
mod tests;
