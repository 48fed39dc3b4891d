//! Tests of the bench logic: the table and CSV rendering, backtrack's default budget, the record
//! limit, corpus reading (comments, gzip, CSV) and the counted guesses and rates.

use super::*;

fn row(file: &str, strategy: Strategy, rate: f64) -> BenchRow {
    BenchRow {
        file: file.into(),
        strategy,
        puzzles: 1465,
        invalid: 0,
        median_rate: rate,
        min_rate: rate * 0.9,
        max_rate: rate * 1.1,
        no_guess_percent: 12.5,
        guesses_per_puzzle: 9.049,
        aborted: 0,
    }
}

#[test]
fn table_aligns_text_left_and_numbers_right() {
    let mut rows = [
        row("top1465", Strategy::Fast, 250000.0),
        row("top1465", Strategy::Singles, 20000.0),
    ];
    rows[1].invalid = 3;
    let t = render_table(&rows);
    let expected = "\
file     solver   puzzles  invalid  puzzles/s   min/s   max/s  us/puzzle  no guess %  guesses/puzzle  aborted
top1465  fast        1465        0     250000  225000  275000       4.00        12.5            9.05        0
top1465  singles     1465        3      20000   18000   22000      50.00        12.5            9.05        0
";
    assert_eq!(t, expected);
}

/// A corpus with no puzzle has no rate and no mean: the table shows `-`, the CSV leaves the
/// fields empty, rather than a rate of 0 and infinite microseconds per puzzle.
#[test]
fn a_corpus_without_puzzles_has_no_rate() {
    let mut empty = row("empty", Strategy::Fast, 0.0);
    (empty.puzzles, empty.invalid) = (0, 2);
    let table = render_table(&[empty.clone()]);
    let cells: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        cells,
        ["empty", "fast", "0", "2", "-", "-", "-", "-", "-", "-", "0"]
    );
    let csv = render_csv(&[empty]);
    assert_eq!(csv.lines().nth(1), Some("empty,fast,0,2,,,,,,,0"));
}

#[test]
fn csv_has_a_header_and_one_line_per_row() {
    let csv = render_csv(&[row("a", Strategy::Fast, 1000.0)]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("file,solver,puzzles,invalid,puzzles_per_s"));
    assert_eq!(
        lines[1],
        "a,fast,1465,0,1000.0,900.0,1100.0,1000.000,12.50,9.049,0"
    );
}

#[test]
fn backtrack_gets_a_budget_unless_one_is_given() {
    let mut config = BenchConfig {
        paths: vec![],
        read: ReadOptions::default(),
        strategies: vec![],
        limits: Limits::count_to(2),
        threads: 1,
        runs: 1,
    };
    assert_eq!(config.limits_for(Strategy::Fast).guesses, None);
    assert_eq!(
        config.limits_for(Strategy::Backtrack).guesses,
        Some(BACKTRACK_DEFAULT_BUDGET)
    );
    config.limits.guesses = Some(7);
    assert_eq!(config.limits_for(Strategy::Backtrack).guesses, Some(7));
}

#[test]
fn a_corpus_of_more_records_than_the_limit_is_refused() {
    let text = format!("{}\nnot a puzzle\n", ".".repeat(81)).repeat(3);
    let reader = || {
        Reader::from_reader(
            "x",
            std::io::Cursor::new(text.clone()),
            &ReadOptions::default(),
        )
        .unwrap()
    };
    let whole = Corpus::read_at_most("x".into(), reader(), 6).unwrap();
    assert_eq!((whole.puzzles.len(), whole.invalid), (3, 3));
    let err = Corpus::read_at_most("x".into(), reader(), 5)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("x: more than 5 records"), "{err}");
}

#[test]
fn corpus_skips_comments_blank_lines_and_carriage_returns() {
    let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
    let text = format!("# header\r\n{p}\r\n\n{p}\nnot a puzzle\n");
    let c = Corpus::parse("t".into(), text.as_bytes()).unwrap();
    assert_eq!((c.puzzles.len(), c.invalid), (2, 1));
}

#[test]
fn corpus_reads_gzip_and_csv_like_solve() {
    use std::io::Write as _;
    let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
    let text = format!("{p}\nnot a puzzle\n{p}\n");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let c = Corpus::parse("t.gz".into(), &gz.finish().unwrap()).unwrap();
    assert_eq!((c.puzzles.len(), c.invalid), (2, 1));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.csv");
    std::fs::write(&path, format!("id,quizzes\n1,{p}\n2,12x\n3,{p}\n")).unwrap();
    let c = Corpus::load(&path).unwrap();
    assert_eq!(
        (c.name.as_str(), c.puzzles.len(), c.invalid),
        ("k.csv", 2, 1)
    );
}

#[test]
fn bench_counts_guesses_and_rates() {
    let p: Grid =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35.."
            .parse()
            .unwrap();
    let corpus = Corpus {
        name: "t".into(),
        puzzles: vec![p; 8],
        invalid: 0,
    };
    for threads in [1, 2] {
        let r = bench_corpus(&corpus, Strategy::Fast, Limits::count_to(2), threads, 3).unwrap();
        assert_eq!(r.puzzles, 8);
        assert!(r.min_rate <= r.median_rate && r.median_rate <= r.max_rate);
        assert!(r.no_guess_percent == 0.0 || r.no_guess_percent == 100.0);
    }
}
