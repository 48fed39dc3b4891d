//! The CSV splitter: the same fields as the `csv` crate, records that do not depend on where
//! the buffer cuts the input, open quotes at the end told apart, and over-long records kept
//! short.

use super::*;

/// The splitter splits well-formed CSV into the same fields as the `csv` crate, and numbers
/// lines by every line break (the `csv` crate's positions lag behind after a lone CR).
#[test]
fn csv_splitter_agrees_with_the_csv_crate() {
    let input = b"\xEF\xBB\xBFa,b,c\r\n\"x,y\",\"he said \"\"hi\"\"\",\r\n\n\"multi\nline\",2,3\rlast,,\"\"";
    let mut ours = Vec::new();
    let mut splitter = CsvSplitter::new(&input[..]);
    let mut row = CsvRow::default();
    while splitter.next_row(&mut row).unwrap() {
        let fields: Vec<Vec<u8>> = row.iter().map(<[u8]>::to_vec).collect();
        ours.push((row.line, fields));
    }
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(&input[3..]);
    let theirs: Vec<Vec<Vec<u8>>> = reader
        .byte_records()
        .map(|r| {
            let r = r.unwrap();
            r.iter().map(<[u8]>::to_vec).collect()
        })
        .collect();
    let (lines, fields): (Vec<u64>, Vec<_>) = ours.into_iter().unzip();
    assert_eq!(fields, theirs);
    assert_eq!(lines, [1, 2, 4, 6]);
}

/// What the splitter says of one record: line, fields, total, open quote, terminated, end.
type Split = (u64, Vec<Vec<u8>>, u64, bool, bool, u64);

/// Every record of `input` as the splitter gives it, through a buffer of `capacity` bytes.
fn split(input: &[u8], capacity: usize) -> Vec<Split> {
    split_with(CsvSplitter::new(BufReader::with_capacity(capacity, input)))
}

/// Every record `splitter` gives.
fn split_with<R: BufRead>(mut splitter: CsvSplitter<R>) -> Vec<Split> {
    let mut row = CsvRow::default();
    let mut out = Vec::new();
    while splitter.next_row(&mut row).unwrap() {
        let fields = row.iter().map(<[u8]>::to_vec).collect();
        out.push((
            row.line,
            fields,
            row.total,
            row.open_quote,
            row.terminated,
            row.end_offset,
        ));
    }
    out
}

#[test]
fn csv_records_do_not_depend_on_where_the_buffer_cuts_the_input() {
    let alphabet = b"ab,,\"\"\r\n\n ";
    let mut rng = crate::generate::Rng::new(11);
    for _ in 0..2_000 {
        let len = rng.below(40);
        let input: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let whole = split(&input, 8192);
        for capacity in [1, 2, 3, 7] {
            assert_eq!(split(&input, capacity), whole, "{input:?} at {capacity}");
        }
        // Lines with no quote are split without `csv-core`: the same records.
        let core_only = CsvSplitter::new(BufReader::with_capacity(8192, &input[..]));
        assert_eq!(split_with(core_only.always_csv_core()), whole, "{input:?}");
        // Only line breaks follow the end of the last record.
        if let Some(last) = whole.last() {
            let rest = &input[last.5 as usize..];
            assert!(rest.iter().all(|&b| b == b'\n' || b == b'\r'), "{input:?}");
        }
    }
}

#[test]
fn csv_input_ending_inside_a_quote_is_told_apart() {
    let rows = split(b"a,\"b\nc", 8192);
    assert_eq!(rows.len(), 1);
    let (line, fields, total, open, terminated, _) = &rows[0];
    assert_eq!((*line, *open, *terminated, *total), (1, true, false, 6));
    assert_eq!(fields, &[b"a".to_vec(), b"b\nc".to_vec()]);
    // A quote closed at the very end, or a last line with no line break, is not open.
    let rows = split(b"x\na,\"b\"", 8192);
    assert_eq!(rows[1].1, [b"a".to_vec(), b"b".to_vec()]);
    assert_eq!((rows[1].3, rows[1].4), (false, false));
    let rows = split(b"a,b\r\n", 8192);
    assert_eq!((rows[0].3, rows[0].4, rows[0].2), (false, true, 3));
}

#[test]
fn csv_record_over_the_limit_keeps_its_start_and_counts_the_rest() {
    let mut input = b"id,puzzle\nx,".to_vec();
    input.extend(std::iter::repeat_n(b'1', 3 * MAX_RECORD_BYTES));
    input.extend_from_slice(format!("\n1,{P1}\n").as_bytes());
    let rows = split(&input, 8192);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1].2, 3 * MAX_RECORD_BYTES as u64 + 2);
    assert!(rows[1].1.concat().len() <= MAX_RECORD_BYTES);
    assert_eq!(rows[2].0, 3);
    let records = read_all(&input, Format::Csv);
    let RecordInput::Invalid { text, reason } = &records[0].input else {
        panic!("expected invalid")
    };
    assert!(reason.starts_with(&format!("record of {} bytes", 3 * MAX_RECORD_BYTES + 2)));
    assert!(text.starts_with("x,111"), "{text}");
}
