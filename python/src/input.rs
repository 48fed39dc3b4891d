//! The puzzles a Python caller hands over, turned into the library's records.
//!
//! Two shapes arrive from the Python side (`sudoku_batch/__init__.py` turns lists, pandas
//! Series and other sequences into the first): Arrow arrays of strings or bytes, one puzzle per
//! element, and NumPy arrays of shape (N, 81) of integers, `0` for a blank. Both end up in
//! memory that Rust owns (Arrow buffers are shared and immutable; NumPy arrays are copied while
//! the GIL is held), so the worker threads parse and solve without the GIL.
//!
//! Each element is read as `sudoku-batch solve` reads one line of a text file: the same parser,
//! the same 64 KiB limit, the same error texts, and for an invalid record the same text in the
//! `puzzle` column. A record's `line` is its position in the whole sequence, counted from the
//! caller's `first_line` (1 by default).

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray,
    StringViewArray, make_array,
};
use arrow_data::ArrayData;
use arrow_pyarrow::PyArrowType;
use arrow_schema::DataType;
use numpy::{
    Element, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::pipeline::read::{Expected, MAX_RECORD_BYTES, Record, RecordInput, shown_text};

/// A sequence of puzzles, in the caller's order.
pub enum Puzzles {
    /// Arrow arrays of strings or bytes, one puzzle per element.
    Texts(Texts),
    /// Cell values, 81 per puzzle.
    Cells(Cells),
}

impl Puzzles {
    /// Reads `value`: a NumPy array of shape (N, 81), or a list of Arrow arrays (the chunks of
    /// one sequence). `name` is the argument's name, for messages.
    pub fn extract(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Puzzles> {
        if let Ok(array) = value.cast::<PyUntypedArray>() {
            return Cells::extract(array, name).map(Puzzles::Cells);
        }
        let chunks: Vec<PyArrowType<ArrayData>> = value.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "{name}: expected a NumPy array or a list of Arrow arrays"
            ))
        })?;
        let chunks = chunks
            .into_iter()
            .map(|c| TextChunk::new(make_array(c.0), name))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Puzzles::Texts(Texts::new(chunks)))
    }

    /// How many puzzles.
    pub fn len(&self) -> usize {
        match self {
            Puzzles::Texts(t) => t.len(),
            Puzzles::Cells(c) => c.len(),
        }
    }

    /// The record of puzzle `index` (0-based), the first puzzle being on line `first_line`.
    pub fn record(&self, index: usize, first_line: u64) -> Record {
        let input = match self {
            Puzzles::Texts(t) => text_input(t.get(index).unwrap_or_default()),
            Puzzles::Cells(c) => c.input(index),
        };
        Record {
            // One input: the caller's sequence.
            file: 0,
            line: first_line + index as u64,
            input,
            expected: None,
        }
    }

    /// Element `index` read as a stated solution (`validate`'s `expected`): missing when null.
    pub fn expected(&self, index: usize) -> Expected {
        match self {
            Puzzles::Texts(t) => Expected::parse(t.get(index).map(strip_line_end)),
            Puzzles::Cells(c) => Expected::parse(Some(&c.text(index))),
        }
    }
}

/// A record's bytes without one line end, which `readlines()` and the like leave on: the
/// command line never sees it in a record either.
fn strip_line_end(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    bytes.strip_suffix(b"\r").unwrap_or(bytes)
}

/// What one element of text holds: as the command line's text reader decides for a line.
fn text_input(bytes: &[u8]) -> RecordInput {
    let bytes = strip_line_end(bytes);
    if bytes.len() > MAX_RECORD_BYTES {
        return invalid(
            bytes,
            format!(
                "record of {} bytes is longer than the limit of {MAX_RECORD_BYTES} bytes",
                bytes.len()
            ),
        );
    }
    match Grid::parse_bytes(bytes) {
        Ok(g) => RecordInput::Puzzle(g),
        Err(e) => invalid(bytes, e.to_string()),
    }
}

/// An invalid record: its text cut as the command line cuts it, and the reason.
fn invalid(bytes: &[u8], reason: String) -> RecordInput {
    RecordInput::Invalid {
        text: shown_text(bytes),
        reason,
    }
}

/// One Arrow array of strings or bytes.
pub enum TextChunk {
    Utf8(StringArray),
    LargeUtf8(LargeStringArray),
    Utf8View(StringViewArray),
    Binary(BinaryArray),
    LargeBinary(LargeBinaryArray),
    BinaryView(BinaryViewArray),
}

impl TextChunk {
    fn new(array: ArrayRef, name: &str) -> PyResult<TextChunk> {
        Ok(match array.data_type() {
            DataType::Utf8 => TextChunk::Utf8(array.as_string().clone()),
            DataType::LargeUtf8 => TextChunk::LargeUtf8(array.as_string().clone()),
            DataType::Utf8View => TextChunk::Utf8View(array.as_string_view().clone()),
            DataType::Binary => TextChunk::Binary(array.as_binary().clone()),
            DataType::LargeBinary => TextChunk::LargeBinary(array.as_binary().clone()),
            DataType::BinaryView => TextChunk::BinaryView(array.as_binary_view().clone()),
            other => {
                return Err(PyTypeError::new_err(format!(
                    "{name}: expected an array of strings or bytes, got {other}"
                )));
            }
        })
    }

    fn len(&self) -> usize {
        match self {
            TextChunk::Utf8(a) => a.len(),
            TextChunk::LargeUtf8(a) => a.len(),
            TextChunk::Utf8View(a) => a.len(),
            TextChunk::Binary(a) => a.len(),
            TextChunk::LargeBinary(a) => a.len(),
            TextChunk::BinaryView(a) => a.len(),
        }
    }

    /// Element `i`, `None` when it is null.
    fn get(&self, i: usize) -> Option<&[u8]> {
        macro_rules! value {
            ($a:expr, $bytes:expr) => {
                if $a.is_null(i) {
                    None
                } else {
                    Some($bytes($a.value(i)))
                }
            };
        }
        match self {
            TextChunk::Utf8(a) => value!(a, str::as_bytes),
            TextChunk::LargeUtf8(a) => value!(a, str::as_bytes),
            TextChunk::Utf8View(a) => value!(a, str::as_bytes),
            TextChunk::Binary(a) => value!(a, std::convert::identity),
            TextChunk::LargeBinary(a) => value!(a, std::convert::identity),
            TextChunk::BinaryView(a) => value!(a, std::convert::identity),
        }
    }
}

/// The chunks of one sequence of texts.
pub struct Texts {
    chunks: Vec<TextChunk>,
    /// Where each chunk starts in the whole sequence, and the sequence's length last.
    starts: Vec<usize>,
}

impl Texts {
    fn new(chunks: Vec<TextChunk>) -> Texts {
        let mut starts = vec![0];
        for c in &chunks {
            starts.push(starts.last().unwrap() + c.len());
        }
        Texts { chunks, starts }
    }

    fn len(&self) -> usize {
        *self.starts.last().unwrap()
    }

    /// Element `i` of the whole sequence, `None` when it is null (a null reads as an empty
    /// record, as an empty CSV field does).
    fn get(&self, i: usize) -> Option<&[u8]> {
        let chunk = self.starts.partition_point(|&s| s <= i) - 1;
        self.chunks[chunk].get(i - self.starts[chunk])
    }
}

/// Cell values, 81 per puzzle, copied out of a NumPy array.
pub struct Cells {
    /// Row-major cells: an array of bytes as it is (a copy of its memory, the quickest to
    /// take while the GIL is held), an array of wider integers with [`BAD`] where it held a
    /// value outside `0..=9`. Either way a grid is built from a puzzle's cells, which checks
    /// them, on the worker that solves it.
    values: Vec<u8>,
    /// For an array of wider integers: each puzzle that holds a value outside `0..=9`, its
    /// index, the first such cell and its value.
    bad: Vec<(usize, usize, String)>,
}

/// The array's memory as one slice when it holds the cells row after row (C order); `None`
/// for any other layout (Fortran order, as `DataFrame.to_numpy()` returns, or a strided view),
/// which is then read element by element in the order its strides say. NumPy's own
/// `as_slice` also takes Fortran order, whose memory is the cells column after column.
fn row_major<'a, T: Element>(view: &'a PyReadonlyArray2<'_, T>) -> Option<&'a [T]> {
    if view.is_c_contiguous() {
        view.as_slice().ok()
    } else {
        None
    }
}

/// Stands for a value outside `0..=9` of a wider integer in [`Cells::values`].
const BAD: u8 = u8::MAX;

impl Cells {
    fn extract(array: &Bound<'_, PyUntypedArray>, name: &str) -> PyResult<Cells> {
        if array.ndim() != 2 || array.shape()[1] != CELLS {
            return Err(PyValueError::new_err(format!(
                "{name}: expected an array of shape (N, 81), got shape ({})",
                array
                    .shape()
                    .iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if let Ok(a) = array.cast::<PyArray2<u8>>() {
            let view = a.readonly();
            let values = match row_major(&view) {
                Some(contiguous) => contiguous.to_vec(),
                None => view.as_array().iter().copied().collect(),
            };
            return Ok(Cells {
                values,
                bad: Vec::new(),
            });
        }
        macro_rules! try_types {
            ($($t:ty),*) => {
                $(if let Ok(a) = array.cast::<PyArray2<$t>>() {
                    return Ok(Cells::copy(a));
                })*
            };
        }
        try_types!(i8, u16, i16, u32, i32, u64, i64);
        Err(PyTypeError::new_err(format!(
            "{name}: expected an array of integers, got dtype {}",
            array.dtype()
        )))
    }

    /// Copies the cells of an array of integers wider than a byte (the caller's array may
    /// change once the GIL is released).
    fn copy<T>(array: &Bound<'_, PyArray2<T>>) -> Cells
    where
        T: Element + Copy + TryInto<u8> + std::fmt::Display,
    {
        let view = array.readonly();
        let cell = |&v: &T| match v.try_into() {
            Ok(d) if d <= 9 => d,
            _ => BAD,
        };
        // Plain loops over a slice, which the compiler vectorises.
        let values: Vec<u8> = match row_major(&view) {
            Some(contiguous) => contiguous.iter().map(cell).collect(),
            None => view.as_array().iter().map(cell).collect(),
        };
        // Bad values are rare: look for them only when there are some.
        let mut bad = Vec::new();
        if values.contains(&BAD) {
            for (row, cells) in values.chunks(CELLS).enumerate() {
                if let Some(cell) = cells.iter().position(|&v| v == BAD) {
                    let value = view.get([row, cell]).expect("within the shape");
                    bad.push((row, cell, value.to_string()));
                }
            }
        }
        Cells { values, bad }
    }

    fn len(&self) -> usize {
        self.values.len() / CELLS
    }

    fn row(&self, i: usize) -> &[u8; CELLS] {
        self.values[i * CELLS..(i + 1) * CELLS].try_into().unwrap()
    }

    /// The puzzle's text: digits, `.` for a blank, `?` for a value outside `0..=9`.
    fn text(&self, i: usize) -> [u8; CELLS] {
        self.row(i).map(|v| match v {
            0 => b'.',
            1..=9 => b'0' + v,
            _ => b'?',
        })
    }

    fn input(&self, i: usize) -> RecordInput {
        match Grid::from_cells(*self.row(i)) {
            Ok(g) => RecordInput::Puzzle(g),
            Err(e) => {
                // A wider integer's value, as the array held it; else the byte that is there.
                let at = self.bad.partition_point(|&(row, _, _)| row < i);
                let reason = match self.bad.get(at) {
                    // The words of `ParseError::BadValue`, whose value is only a byte.
                    Some((row, cell, value)) if *row == i => {
                        format!("cell {}: value {value} is not 0-9", cell + 1)
                    }
                    _ => e.to_string(),
                };
                invalid(&self.text(i), reason)
            }
        }
    }
}
