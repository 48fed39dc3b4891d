//! What the outputs hold: the columns of each command's rows ([`Field`]s, named and typed),
//! and the [`Value`]s of a row of `solve` ([`row_values`]) and of `grade` ([`grade_values`]).

use crate::grid::Grid;
use crate::logic::{Bounded, Rating};
use crate::pipeline::grade::{ErBand, techniques};
use crate::pipeline::read::RecordInput;
use crate::pipeline::solve::Row;

/// What a column holds, which typed formats (Parquet) keep as its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Whole numbers (`u64`).
    Number,
    /// Text.
    Text,
    /// Grids as 81-character lines (text, or an invalid record's text).
    Grid,
    /// Text with few distinct values (a status, a file name): dictionary-encoded in Parquet.
    Category,
    /// A rating in tenths ([`Value::Tenths`]): `2.3` in text, a float in Parquet.
    Rating,
}

/// One column of an output: its name and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The column's name (the CSV header, the JSON key).
    pub name: &'static str,
    /// What it holds.
    pub kind: Kind,
}

impl Field {
    /// A column named `name` holding `kind`.
    pub const fn new(name: &'static str, kind: Kind) -> Field {
        Field { name, kind }
    }
}

/// The columns of `solve`'s results, in order.
pub const COLUMNS: [Field; 8] = [
    Field::new("line", Kind::Number),
    Field::new("puzzle", Kind::Grid),
    Field::new("status", Kind::Category),
    Field::new("solutions", Kind::Number),
    Field::new("solution", Kind::Grid),
    Field::new("guesses", Kind::Number),
    Field::new("time_ns", Kind::Number),
    Field::new("error", Kind::Text),
];

/// The columns of `grade`'s results, in order.
pub const GRADE_COLUMNS: [Field; 11] = [
    Field::new("line", Kind::Number),
    Field::new("puzzle", Kind::Grid),
    Field::new("status", Kind::Category),
    Field::new("er", Kind::Rating),
    Field::new("ep", Kind::Rating),
    Field::new("ed", Kind::Rating),
    Field::new("hardest", Kind::Category),
    Field::new("steps", Kind::Number),
    Field::new("techniques", Kind::Text),
    Field::new("time_ns", Kind::Number),
    Field::new("error", Kind::Text),
];

/// The column `grade` adds after [`GRADE_COLUMNS`] with `--min-er`/`--max-er`: where each
/// rating falls against the band ([`ErBand::label`]).
pub const BAND_COLUMN: Field = Field::new("band", Kind::Category);

/// The columns of `grade`'s results: [`GRADE_COLUMNS`], and [`BAND_COLUMN`] with a band.
pub fn grade_columns(band: &ErBand) -> Vec<Field> {
    let mut columns = GRADE_COLUMNS.to_vec();
    if band.any() {
        columns.push(BAND_COLUMN);
    }
    columns
}

/// The columns of the `--emit-solutions` file.
pub const SOLUTION_COLUMNS: [Field; 3] = [
    Field::new("line", Kind::Number),
    Field::new("index", Kind::Number),
    Field::new("solution", Kind::Grid),
];

/// The column that comes first in every output of a run with more than one input: the input
/// the row's record comes from.
pub const FILE_COLUMN: Field = Field::new("file", Kind::Category);

/// The names of `fields`, in order.
pub fn names(fields: &[Field]) -> Vec<&'static str> {
    fields.iter().map(|f| f.name).collect()
}

/// One field of an output row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    /// Nothing.
    Empty,
    /// A whole number.
    Number(u64),
    /// Text.
    Text(&'a str),
    /// A grid, as its 81-character line.
    Grid(&'a Grid),
    /// A number in tenths, written with one decimal: `23` is `2.3`.
    Tenths(u16),
}

/// The [`COLUMNS`] of a results row. `error` is where the text of the error column is kept.
/// A [`Row::copied`] row has empty `guesses` and `time_ns`.
pub fn row_values<'a>(row: &'a Row, error: &'a mut String) -> [Value<'a>; 8] {
    *error = row.record_error().unwrap_or_default();
    [
        Value::Number(row.record.line),
        match &row.record.input {
            RecordInput::Puzzle(g) => Value::Grid(g),
            RecordInput::Invalid { text, .. } => Value::Text(text),
        },
        Value::Text(row.status.as_str()),
        Value::Number(row.outcome.solutions),
        row.outcome
            .solution
            .as_ref()
            .map_or(Value::Empty, Value::Grid),
        // A row copied from its class's first member was not searched (or its search was
        // set aside): no guesses, no time.
        if row.copied {
            Value::Empty
        } else {
            Value::Number(row.outcome.guesses)
        },
        if row.copied {
            Value::Empty
        } else {
            Value::Number(row.time_ns)
        },
        Value::Text(error),
    ]
}

/// Where [`grade_values`] keeps the text it makes for one row.
#[derive(Debug, Default)]
pub struct GradeText {
    techniques: String,
    error: String,
    band: String,
}

/// The [`grade_columns`] of a results row for `band`: the first 11 are [`GRADE_COLUMNS`], the
/// last [`BAND_COLUMN`] (to be written only with a band). The ratings are empty when the row
/// was not rated, or its rating stopped at a bound (which `band` then says: `>= 9.0`).
pub fn grade_values<'a>(row: &'a Row, text: &'a mut GradeText, band: &ErBand) -> [Value<'a>; 12] {
    text.error = row.error().unwrap_or_default();
    let bounded = row.rating.as_ref().and_then(|r| r.as_ref().ok());
    text.band = bounded
        .filter(|_| band.any())
        .map(|b| band.label(band.side(b)))
        .unwrap_or_default();
    let rating = bounded.and_then(Bounded::rating);
    text.techniques = rating.map(techniques).unwrap_or_default();
    let of = |f: fn(&Rating) -> Value<'a>| rating.map_or(Value::Empty, f);
    [
        Value::Number(row.record.line),
        match &row.record.input {
            RecordInput::Puzzle(g) => Value::Grid(g),
            RecordInput::Invalid { text, .. } => Value::Text(text),
        },
        Value::Text(row.status.as_str()),
        of(|r| Value::Tenths(r.er)),
        of(|r| Value::Tenths(r.ep)),
        of(|r| Value::Tenths(r.ed)),
        of(|r| Value::Text(r.hardest.name())),
        of(|r| Value::Number(u64::from(r.steps))),
        Value::Text(&text.techniques),
        Value::Number(row.time_ns),
        Value::Text(&text.error),
        Value::Text(&text.band),
    ]
}
