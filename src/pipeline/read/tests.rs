//! The readers of every layout: records, line numbers, bad records and usage errors, reads
//! interrupted by signals or cut anywhere by the buffer, and records kept to their shard.

use std::io::{self, BufRead, BufReader};

use super::csv::{CsvOptions, CsvRecords, CsvRow, CsvSplitter, OpenError};
use super::grid::GridRecords;
use super::text::TextRecords;
use super::*;
use crate::pipeline::test_input::Interrupting;

mod csv;

const P1: &str =
    "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";

#[test]
fn a_file_that_grows_while_it_is_read_arrives_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("growing.txt");
    std::fs::write(&path, format!("{P1}\n")).unwrap();
    let mut reader = Reader::open(&Source::Path(path.clone()), &ReadOptions::default()).unwrap();
    let more: String = (0..1_000).map(|_| format!("{P1}\n")).collect();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    io::Write::write_all(&mut file, more.as_bytes()).unwrap();
    let mut records = 0;
    while reader.next_record().unwrap().is_some() {
        records += 1;
    }
    assert_eq!(records, 1_001);
}

/// The options of a CSV input with these columns, the header and delimiter told by the input.
fn csv_options<'a>(column: &'a Column, expect: Option<&'a Column>) -> CsvOptions<'a> {
    CsvOptions {
        column,
        header: Header::Auto,
        expect,
        delimiter: None,
    }
}

fn read_all(bytes: &[u8], format: Format) -> Vec<Record> {
    read_all_from(Box::new(io::Cursor::new(bytes.to_vec())), format)
}

fn read_all_from(input: Box<dyn BufRead + Send>, format: Format) -> Vec<Record> {
    let mut src: Box<dyn RecordSource> = match format {
        Format::Csv => Box::new(
            CsvRecords::new(input, &csv_options(&Column::Auto, None))
                .unwrap_or_else(|_| panic!("csv open")),
        ),
        Format::Grid => Box::new(GridRecords::new(input)),
        _ => Box::new(TextRecords::new(input, None)),
    };
    let mut out = Vec::new();
    while let Some(r) = src.next_record().unwrap() {
        out.push(r);
    }
    out
}

#[test]
fn reads_interrupted_by_a_signal_are_retried() {
    let rows: String = P1
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    let inputs = [
        (
            format!("\u{feff}# c\n{P1}\r\n{P1} x\n\n{P1}\r{P1}\n{P1}"),
            Format::Text,
        ),
        (
            format!("\u{feff}id,puzzle\n1,{P1}\n2,\"{P1}\"\r\n3,x\n"),
            Format::Csv,
        ),
        (format!("{rows}\n{rows}"), Format::Grid),
    ];
    for (input, format) in inputs {
        let whole = summary(&read_all(input.as_bytes(), format));
        assert!(whole.len() >= 2, "{format:?}");
        for capacity in [16, 8192] {
            let interrupting = Interrupting::new(input.clone().into_bytes());
            let input = Box::new(BufReader::with_capacity(capacity, interrupting));
            assert_eq!(summary(&read_all_from(input, format)), whole, "{format:?}");
        }
    }
}

#[test]
fn a_first_read_interrupted_by_a_signal_is_retried() {
    // The first read looks for the gzip magic; here it fails with `Interrupted` first.
    let interrupting = Interrupting::new(format!("{P1}\n{P1}\n").into_bytes());
    let reader = Reader::from_reader("memory", interrupting, &ReadOptions::default());
    let records: Vec<_> = reader.unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(
        summary(&records),
        summary(&read_all(format!("{P1}\n{P1}\n").as_bytes(), Format::Text))
    );
    assert_eq!(records.len(), 2);
}

#[test]
fn records_do_not_depend_on_where_the_buffer_cuts_the_input() {
    // Whatever the line ends and wherever the buffer cuts a line, the records are the same.
    let lines = [
        P1.to_string(),
        P1.replace('.', "0"),
        format!("{P1} comment"),
        format!("{P1},x"),
        P1[..80].to_string(),
        format!("{}x", &P1[..80]),
        format!("{P1}1"),
        "# comment".to_string(),
        String::new(),
        "  ".to_string(),
        format!("\u{feff}{P1}"),
    ];
    let ends = ["\n", "\r\n", "\r"];
    let mut rng = crate::generate::Rng::new(5);
    // With `compare`, plain lines are read in place (as `--resume` reads them) and compared
    // with the text of the record at the same place in `compare` (every other one, else with
    // nothing), the others read as records: the records must be the same, and a line compared
    // with its own text must be found the same.
    let read_as = |input: &str, capacity: usize, compare: Option<&[Record]>| {
        let buffered = BufReader::with_capacity(capacity, io::Cursor::new(input.to_owned()));
        let mut src = TextRecords::new(buffered, None);
        let mut out = Vec::new();
        loop {
            let field = match compare.and_then(|c| c.get(out.len())) {
                Some(Record {
                    input: RecordInput::Puzzle(g),
                    ..
                }) if out.len() % 2 == 0 => g.to_string().into_bytes(),
                _ => Vec::new(),
            };
            if compare.is_some()
                && let Some((line, differs)) = src.next_plain(&field).unwrap()
            {
                let found_same = differs.is_none();
                let record = PlainRecord {
                    file: 0,
                    line,
                    differs,
                }
                .into_record(&field);
                if let RecordInput::Puzzle(g) = &record.input {
                    let same = g.to_string().as_bytes() == field;
                    assert_eq!(found_same, same, "{input:?} at {capacity}");
                }
                out.push(record);
            } else if let Some(r) = src.next_record().unwrap() {
                out.push(r);
            } else {
                return out;
            }
        }
    };
    let read = |input: &str, capacity: usize| {
        let records = read_as(input, capacity, None);
        assert_eq!(
            read_as(input, capacity, Some(&records)),
            records,
            "{input:?} at {capacity}"
        );
        records
    };
    for _ in 0..300 {
        let mut input = String::new();
        for _ in 0..rng.below(12) {
            input += &lines[rng.below(lines.len())];
            input += ends[rng.below(ends.len())];
        }
        if rng.below(2) == 0 {
            input += P1; // a last line with no end
        }
        let small = read(&input, 16);
        for capacity in [1, 82, 83, 100, 164, 8192] {
            assert_eq!(read(&input, capacity), small, "{input:?} at {capacity}");
        }
    }
}

fn summary(records: &[Record]) -> Vec<(u64, String)> {
    records
        .iter()
        .map(|r| match &r.input {
            RecordInput::Puzzle(g) => (r.line, g.to_string()),
            RecordInput::Invalid { reason, .. } => (r.line, format!("invalid: {reason}")),
        })
        .collect()
}

#[test]
fn text_skips_comments_and_blank_lines_and_counts_lines() {
    let input = format!(
        "\u{feff}# header\r\n\r\n{P1}\r\n   \n{P1} 7.1\rxyz\n{}",
        &P1[..80]
    );
    let got = summary(&read_all(input.as_bytes(), Format::Text));
    assert_eq!(
        got,
        vec![
            (3, P1.to_string()),
            (5, P1.to_string()),
            (6, "invalid: cell 1: unexpected character 'x'".to_string()),
            (7, "invalid: 80 cells, expected 81".to_string()),
        ]
    );
}

#[test]
fn overlong_line_is_one_invalid_record_and_is_not_kept() {
    let mut input = vec![b'1'; MAX_RECORD_BYTES * 3];
    input.extend_from_slice(format!("\n{P1}\n").as_bytes());
    let records = read_all(&input, Format::Text);
    assert_eq!(records.len(), 2);
    let RecordInput::Invalid { text, reason } = &records[0].input else {
        panic!("expected invalid")
    };
    assert!(reason.starts_with(&format!("record of {} bytes", MAX_RECORD_BYTES * 3)));
    assert!(text.len() < 300);
    assert_eq!(records[1].line, 2);
}

#[test]
fn csv_detects_header_and_puzzle_column() {
    let input = format!(
        "id,Puzzle,solution\n1,{P1},x\n2,\"{}\",y\n3\n",
        P1.replace('.', "0")
    );
    let got = summary(&read_all(input.as_bytes(), Format::Csv));
    assert_eq!(
        got,
        vec![
            (2, P1.to_string()),
            (3, P1.to_string()),
            (
                4,
                "invalid: no column 1 (the row has 1 field, numbered from 0)".to_string()
            ),
        ]
    );
}

#[test]
fn csv_without_header_uses_column_zero() {
    let input = format!("{P1},comment\n{P1}\n");
    let got = summary(&read_all(input.as_bytes(), Format::Csv));
    assert_eq!(got, vec![(1, P1.to_string()), (2, P1.to_string())]);
}

#[test]
fn csv_reads_the_stated_solution_column() {
    let sol = "1".repeat(81);
    let input = format!(
        "puzzle,Solution\n{P1},{sol}\n{P1},{}\n{P1},\n{P1}\n{P1},12x\n",
        &P1.replace('.', "1")[..]
    );
    let mut src = CsvRecords::new(
        io::Cursor::new(input.into_bytes()),
        &csv_options(&Column::Auto, Some(&Column::Name("solution".into()))),
    )
    .unwrap_or_else(|_| panic!("csv open"));
    let mut got = Vec::new();
    while let Some(r) = src.next_record().unwrap() {
        got.push(r.expected.map(|e| *e));
    }
    let blanks = P1.replace('.', "1");
    assert_eq!(blanks.len(), 81);
    assert_eq!(
        got,
        vec![
            Some(Expected::Grid(sol.parse().unwrap())),
            Some(Expected::Grid(blanks.parse().unwrap())),
            Some(Expected::Missing),
            Some(Expected::Missing),
            Some(Expected::Malformed(
                "cell 3: unexpected character 'x'".into()
            )),
        ]
    );
    let mut half = P1.to_string();
    half.replace_range(..1, "1");
    assert_eq!(
        Expected::parse(Some(half.as_bytes())),
        Expected::Malformed("56 blank cells".into())
    );
}

#[test]
fn csv_column_name_missing_is_a_usage_error() {
    let input = io::Cursor::new(b"a,b\n1,2\n".to_vec());
    let Err(OpenError::Usage(m)) =
        CsvRecords::new(input, &csv_options(&Column::Name("puzzle".into()), None))
    else {
        panic!("expected a usage error")
    };
    assert_eq!(m, "column \"puzzle\" not found; the header has: a, b");
}

#[test]
fn grid_blocks_in_every_style() {
    let braces = "{ -1,-1,2,9,-1,-1,-1,-1,-1},\n\
                  { -1,-1,-1,-1,-1,-1,8,-1,5},\n\
                  { -1,5,8,-1,-1,-1,7,-1,-1},\n\
                  { 1,-1,9,-1,3,-1,-1,-1,-1},\n\
                  { -1,-1,-1,-1,7,8,-1,-1,-1},\n\
                  { -1,-1,6,-1,-1,-1,-1,3,-1},\n\
                  { 9,4,-1,-1,5,-1,-1,-1,1},\n\
                  { -1,-1,-1,-1,-1,7,-1,-1,9},\n\
                  { 6,8,-1,-1,-1,3,5,-1,-1},\n";
    let pretty = ". . 2 | 9 . . | . . .\n. . . | . . . | 8 . 5\n. 5 8 | . . . | 7 . .\n\
                  ------+-------+------\n1 . 9 | . 3 . | . . .\n. . . | . 7 8 | . . .\n\
                  . . 6 | . . . | . 3 .\n======+=======+======\n9 4 . | . 5 . | . . 1\n\
                  . . . | . . 7 | . . 9\n6 8 . | . . 3 | 5 . .\n";
    let input = format!("{braces}\n\n{pretty}{braces}");
    let got = summary(&read_all(input.as_bytes(), Format::Grid));
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], (1, P1.to_string()));
    assert_eq!(got[1], (12, P1.to_string()));
    assert_eq!(got[2], (23, P1.to_string()));
}

#[test]
fn grid_short_block_is_invalid_and_reading_goes_on() {
    let input = "1 2 3 4 5 6 7 8 9\n\n. . 2 x . . . . .\n\n";
    let got = summary(&read_all(input.as_bytes(), Format::Grid));
    assert_eq!(
        got,
        vec![
            (1, "invalid: 1 rows, expected 9".to_string()),
            (3, "invalid: cell 4: unexpected character 'x'".to_string()),
        ]
    );
}

/// Records read in place (as `--resume` reads them) keep to the shard as parsed ones do: a
/// resumed part of a text file once ran on to the end of the file. Plain text is cut by
/// bytes, gzip text by record index.
#[test]
fn r_plain_records_keep_to_the_shard() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{P1}\n").repeat(10);
    let plain = dir.path().join("corpus.txt");
    std::fs::write(&plain, &text).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let zipped = dir.path().join("corpus.txt.gz");
    std::fs::write(&zipped, gz.finish().unwrap()).unwrap();
    let options = ReadOptions {
        shard: Some(crate::shard::Shard::new(1, 3).unwrap()),
        ..ReadOptions::default()
    };
    // Part 1 of 3: of 820 bytes, [273, 546), the lines starting at 328, 410 and 492; of 10
    // records, [3, 6).
    for (path, want) in [(plain, [5, 6, 7]), (zipped, [4, 5, 6])] {
        for in_place in [false, true] {
            let mut reader = Reader::open(&Source::Path(path.clone()), &options).unwrap();
            let mut lines = Vec::new();
            loop {
                if in_place && let Some(record) = reader.next_plain(b"").unwrap() {
                    lines.push(record.line);
                } else if let Some(record) = reader.next_record().unwrap() {
                    lines.push(record.line);
                } else {
                    break;
                }
            }
            assert_eq!(lines, want, "{}, read in place: {in_place}", path.display());
        }
    }
}

#[test]
fn shown_text_cuts_long_text_and_replaces_what_is_not_utf8() {
    assert_eq!(shown_text(b"12.4 x"), "12.4 x");
    assert_eq!(shown_text(b"ab\xffc"), "ab\u{fffd}c");
    let long = vec![b'7'; MAX_SHOWN_BYTES + 1];
    assert_eq!(
        shown_text(&long),
        format!("{}...", "7".repeat(MAX_SHOWN_BYTES))
    );
    assert_eq!(shown_text(&long[1..]), "7".repeat(MAX_SHOWN_BYTES));
    // A cut through a character leaves its first bytes, replaced.
    let mut split = vec![b'a'; MAX_SHOWN_BYTES - 1];
    split.extend("é and more".as_bytes());
    assert_eq!(
        shown_text(&split),
        format!("{}\u{fffd}...", "a".repeat(MAX_SHOWN_BYTES - 1))
    );
}
