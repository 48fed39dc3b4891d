use std::io::Cursor;

use super::*;
use crate::pipeline::read::csv::{CsvOptions, CsvRecords};
use crate::pipeline::read::text::TextRecords;
use crate::pipeline::read::{Column, Header};

/// The place `offset` bytes in, after `lines` line breaks.
fn cut(offset: u64, lines: u64) -> Cut {
    Cut { offset, lines }
}

const P: &str = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";

/// The start of every line of `bytes`, with the line breaks before it, as the readers split
/// lines: after `\n`, `\r\n` or a lone `\r`.
fn line_starts(bytes: &[u8]) -> Vec<Cut> {
    let mut starts = vec![Cut::default()];
    let mut lines = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends && i + 1 < bytes.len() {
            lines += 1;
            starts.push(cut(i as u64 + 1, lines));
        } else if ends {
            lines += 1;
        }
    }
    starts
}

/// `align` on text, checked against the line starts counted one byte at a time.
fn check_text(bytes: &[u8]) {
    let starts = line_starts(bytes);
    let len = bytes.len() as u64;
    for target in 0..=len {
        let want = starts
            .iter()
            .copied()
            .find(|c| c.offset >= target)
            .map_or(len, |c| c.offset);
        let got = align(&mut Cursor::new(bytes), Cut::default(), target, None).unwrap();
        assert_eq!(got.offset, want, "{bytes:?} at {target}");
        if let Some(c) = starts.iter().find(|c| c.offset == got.offset) {
            assert_eq!(got.lines, c.lines, "{bytes:?} at {target}");
        }
        // From any line start before it, and with buffers too small for one line.
        for from in starts.iter().filter(|c| c.offset <= target) {
            for capacity in [1, 2, 3, 64] {
                let mut input = BufReader::with_capacity(capacity, &bytes[from.offset as usize..]);
                let again = line_start(&mut input, *from, target, false).unwrap();
                assert_eq!(again, Some(got), "{bytes:?} at {target} from {from:?}");
            }
        }
    }
}

#[test]
fn a_cut_moves_to_the_next_line_start() {
    let text = format!("{P}\n{P}\n");
    // On a record start, it stays.
    let at = |target| align(&mut Cursor::new(&text), Cut::default(), target, None).unwrap();
    assert_eq!(at(82), cut(82, 1));
    // On the `\n` ending a record, or within the record, it moves past the `\n`.
    assert_eq!(at(81), cut(82, 1));
    assert_eq!(at(1), cut(82, 1));
    // Past the last line start: the end of the file.
    assert_eq!(at(83).offset, 164);
    // In the middle of a CRLF, after the CRLF, counted once.
    let crlf = format!("{P}\r\n{P}\r\n");
    let at = |target| align(&mut Cursor::new(&crlf), Cut::default(), target, None).unwrap();
    assert_eq!(at(82), cut(83, 1));
    assert_eq!(at(81), cut(83, 1));
    assert_eq!(at(83), cut(83, 1));
}

#[test]
fn cuts_find_every_kind_of_line_end() {
    for bytes in [
        &b""[..],
        b"\n",
        b"a",
        b"ab\ncd\n",
        b"ab\ncd",
        b"\n\n\nab\n\n",
        b"ab\r\ncd\r\n\r\nef",
        b"ab\rcd\r\rx\r\n\n\r",
        b"\xEF\xBB\xBFab\n# c\n\nd\r",
    ] {
        check_text(bytes);
    }
}

#[test]
fn line_breaks_are_counted_as_the_readers_count_them() {
    let bytes = b"a\r\nb\rc\n\r\r\n\nd\r";
    let all = line_starts(bytes).len() as u64;
    for split in 0..=bytes.len() {
        let mut after_cr = false;
        let (a, b) = bytes.split_at(split);
        let n = line_breaks(a, &mut after_cr) + line_breaks(b, &mut after_cr);
        assert_eq!(n, all, "split at {split}");
    }
}

/// The records a whole read of `bytes` gives, as text or (`csv`) as CSV.
fn whole(bytes: &[u8], csv: bool) -> Vec<Record> {
    let mut out = Vec::new();
    if csv {
        let mut records = CsvRecords::new(bytes, &csv_options())
            .ok()
            .expect("the CSV opens");
        while let Some(r) = records.next_record().unwrap() {
            out.push(r);
        }
    } else {
        let mut records = TextRecords::new(bytes, None);
        while let Some(r) = records.next_record().unwrap() {
            out.push(r);
        }
    }
    out
}

fn csv_options() -> CsvOptions<'static> {
    CsvOptions {
        column: &Column::Auto,
        header: Header::Auto,
        expect: None,
        delimiter: None,
    }
}

/// The records of `bytes` in `n` parts cut by bytes, as `by_bytes` cuts a file, checked to
/// start in their part's range; concatenated.
fn in_parts(bytes: &[u8], csv: bool, n: u64) -> Vec<Record> {
    let layout = csv.then(|| {
        CsvRecords::new(bytes, &csv_options())
            .ok()
            .expect("the CSV opens")
            .layout()
            .clone()
    });
    let quotes = layout.as_ref().map(CsvLayout::delimiter);
    let size = bytes.len() as u64;
    let starts = line_starts(bytes);
    let mut out = Vec::new();
    for k in 0..n {
        let range = Shard::new(k, n).unwrap().range(size);
        let mut file = Cursor::new(bytes);
        let start = align(&mut file, Cut::default(), range.start, quotes).unwrap();
        let end = align(&mut file, start, range.end, quotes).unwrap().offset;
        let slice = &bytes[start.offset as usize..end.max(start.offset) as usize];
        let mut records: Vec<Record> = Vec::new();
        if let Some(layout) = &layout {
            let mut source =
                CsvRecords::from_layout(slice, layout.clone(), start.offset, start.lines).unwrap();
            while let Some(r) = source.next_record().unwrap() {
                records.push(r);
            }
        } else {
            let mut source = TextRecords::starting_at(slice, None, start.lines);
            while let Some(r) = source.next_record().unwrap() {
                records.push(r);
            }
        }
        for r in &records {
            let first = starts[r.line as usize - 1].offset;
            assert!(range.contains(&first), "{k}/{n}: line {}", r.line);
        }
        out.extend(records);
    }
    out
}

#[test]
fn text_parts_read_each_record_once() {
    let text = format!("\u{feff}{P}\n\n# comment\r\n{P} x\r\n\r\nnot a puzzle\r{P}\n  \n{P}\n{P}");
    let want = whole(text.as_bytes(), false);
    assert_eq!(want.len(), 6);
    for n in 1..=40 {
        assert_eq!(in_parts(text.as_bytes(), false, n), want, "{n} parts");
    }
}

#[test]
fn csv_parts_read_each_record_once_quotes_or_not() {
    let rows: String = (0..6).map(|i| format!("{i},x,{P}\r\n\n")).collect();
    for text in [
        format!("\u{feff}id,note,puzzle\n{rows}"),
        format!("\n\nid,note,puzzle\n{rows}7,y,{P}"),
        // Quoted fields, with line breaks in them: no line start there is a record start.
        format!("id,note,puzzle\n1,\"a\nb\",{P}\n2,\"\"\"\n\r\n\",{P}\n{rows}3,\"\n\",{P}\n"),
        format!("id,note,puzzle\n{rows}1,\"a\n{P}\nb\",{P}\n"),
    ] {
        let want = whole(text.as_bytes(), true);
        assert!(want.len() >= 6, "{text}");
        for n in 1..=60 {
            assert_eq!(
                in_parts(text.as_bytes(), true, n),
                want,
                "{text:?} in {n} parts"
            );
        }
    }
}

#[test]
fn a_quote_before_the_cut_makes_it_parse() {
    // The line start after the quoted line break is not a record start.
    let text = format!("id,note,puzzle\n1,\"a\n{P}\",{P}\n2,x,{P}\n");
    let inside = text.find("\n..").unwrap() as u64 + 1;
    let next = text.find("\n2,").unwrap() as u64 + 1;
    let found = align(&mut Cursor::new(&text), Cut::default(), inside, Some(b',')).unwrap();
    assert_eq!(found, cut(next, 3));
    // As text, it is one.
    let found = align(&mut Cursor::new(&text), Cut::default(), inside, None).unwrap();
    assert_eq!(found, cut(inside, 2));
}
