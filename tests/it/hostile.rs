//! Hostile and broken input, as the "Bad input" section of docs/GUIDE.md defines it: a bad
//! record is a row that says what is wrong and the run goes on (exit 1); a bad file, or an output that cannot be
//! written, is exit 2 with a message naming it; nothing panics and nothing is silently lost.

use std::path::Path;
use std::process::Output;

use crate::util::{HEADER, PUZZLE as P1, data, exe, gzip, rows, sample, sample_puzzles};
use crate::util::{solve, stderr, write};

/// `(line, status, error)` of every row.
fn lines_statuses_errors(out: &Output) -> Vec<(u64, String, String)> {
    rows(out)
        .into_iter()
        .map(|r| (r.line, r.status, r.error))
        .collect()
}

fn row(line: u64, status: &str, error: &str) -> (u64, String, String) {
    (line, status.to_string(), error.to_string())
}

#[test]
fn invalid_utf8_and_nul_bytes_are_invalid_rows() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("12\u{0}4\n{P1}\n\u{feff}x\n");
    let mut bytes = input.into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\x00\n");
    for (name, args) in [("t.txt", &[][..]), ("t.csv", &["--header", "no"][..])] {
        let path = write(dir.path(), name, &bytes);
        let out = solve(args, &path);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        assert_eq!(
            lines_statuses_errors(&out),
            vec![
                row(1, "invalid", "cell 3: unexpected character '\\0'"),
                row(2, "unique", ""),
                row(3, "invalid", "cell 1: unexpected character '\\u{feff}'"),
                row(4, "invalid", "cell 1: invalid UTF-8 byte 0xff"),
            ],
            "{name}"
        );
    }
}

#[test]
fn cr_only_line_ends_count_as_lines() {
    let dir = tempfile::tempdir().unwrap();
    let text = write(dir.path(), "cr.txt", format!("# c\r{P1}\r\r{P1}\rbad"));
    let out = solve(&[], &text);
    assert_eq!(
        lines_statuses_errors(&out),
        vec![
            row(2, "unique", ""),
            row(4, "unique", ""),
            row(5, "invalid", "cell 1: unexpected character 'b'")
        ]
    );
    let csv = write(
        dir.path(),
        "cr.csv",
        format!("id,puzzle\r1,{P1}\r\r2,\"{P1}\"\r\n3,{P1}"),
    );
    let out = solve(&[], &csv);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<u64> = rows(&out).iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 4, 5]);
}

#[test]
fn huge_line_without_newline_is_one_invalid_row() {
    let dir = tempfile::tempdir().unwrap();
    let n = 8 * 1024 * 1024;
    let mut text = format!("{P1}\n").into_bytes();
    text.extend(std::iter::repeat_n(b'1', n));
    let path = write(dir.path(), "huge.txt", &text);
    let out = solve(&[], &path);
    assert_eq!(out.status.code(), Some(1));
    let too_long = format!("record of {n} bytes is longer than the limit of 65536 bytes");
    assert_eq!(
        lines_statuses_errors(&out),
        vec![row(1, "unique", ""), row(2, "invalid", &too_long)]
    );
    assert!(out.stdout.len() < 2000, "the huge text is not copied out");

    // CSV: a huge unquoted field, a huge quoted field spanning lines, then a good row.
    let mut csv = format!("id,puzzle\n1,{P1}\n2,").into_bytes();
    csv.extend(std::iter::repeat_n(b'1', n));
    csv.extend_from_slice(b"\n3,\"");
    csv.extend(std::iter::repeat_n(b"12\n".as_slice(), n / 3).flatten());
    csv.extend_from_slice(format!("\"\n4,{P1}\n").as_bytes());
    let path = write(dir.path(), "huge.csv", &csv);
    let out = solve(&[], &path);
    assert_eq!(out.status.code(), Some(1));
    let got = lines_statuses_errors(&out);
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[0], row(2, "unique", ""));
    assert_eq!((got[1].0, got[1].1.as_str()), (3, "invalid"));
    assert!(got[1].2.starts_with("record of "), "{:?}", got[1]);
    assert_eq!((got[2].0, got[2].1.as_str()), (4, "invalid"));
    assert!(got[2].2.contains("longer than the limit"), "{:?}", got[2]);
    // The quoted field, which starts on line 4, holds n / 3 line breaks.
    assert_eq!(got[3], row(5 + n as u64 / 3, "unique", ""));
    assert!(out.stdout.len() < 4000);
}

#[test]
fn empty_file_and_header_only_csv_give_no_rows_and_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("empty.txt", &b""[..]),
        ("empty.csv", b""),
        ("header.csv", b"id,puzzle,solution\n"),
        ("header-no-newline.csv", b"id,puzzle"),
        ("blank.txt", b"\n\n# only comments\n\r\n"),
        ("empty.grid", b""),
    ] {
        let path = write(dir.path(), name, bytes);
        let args: &[&str] = if name.ends_with(".grid") {
            &["--format", "grid"]
        } else {
            &[]
        };
        let out = solve(args, &path);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{HEADER}\n"));
    }
}

#[test]
fn ragged_csv_rows_and_unbalanced_quotes_are_invalid_rows() {
    let dir = tempfile::tempdir().unwrap();
    let csv = format!("id,puzzle\n1,{P1}\n2\n3,{P1},extra\n4,\"{P1}\n5,{P1}\n");
    let path = write(dir.path(), "ragged.csv", csv);
    let out = solve(&[], &path);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines_statuses_errors(&out),
        vec![
            row(2, "unique", ""),
            row(
                3,
                "invalid",
                "no column 1 (the row has 1 field, numbered from 0)"
            ),
            row(4, "unique", ""),
            // The open quote swallows the rest of the file.
            row(
                5,
                "invalid",
                "unbalanced quote: a quoted field runs to the end of the input"
            ),
        ]
    );
    // A stray quote inside an unquoted field is a character like any other.
    let path = write(dir.path(), "stray.csv", format!("p\n{}\"\n", &P1[..80]));
    assert_eq!(
        lines_statuses_errors(&solve(&[], &path)),
        vec![row(2, "invalid", "cell 81: unexpected character '\"'")]
    );
}

#[test]
fn unreadable_inputs_exit_2_naming_the_file() {
    // The path as given (relative here), after `error: `.
    let out = solve(&[], Path::new("no/such/file.txt"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("error: no/such/file.txt: No such file"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty(), "nothing written for a missing input");

    // `tests` (a directory) relative to the crate, where cargo runs the tests.
    let out = solve(&[], Path::new("tests"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("tests: is a directory"),
        "{}",
        stderr(&out)
    );

    let dir = tempfile::tempdir().unwrap();
    let locked = write(dir.path(), "locked.txt", P1);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&locked).is_ok() {
        eprintln!("skipped the permission check: running as root, which reads any file");
    } else {
        let out = solve(&[], &locked);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("locked.txt: Permission denied"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn truncated_gzip_writes_the_rows_before_it_then_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(sample()).unwrap();
    let gz = gzip(&text.repeat(10));
    let path = write(dir.path(), "cut.txt.gz", &gz[..gz.len() / 2]);
    let out = solve(&[], &path);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("cut.txt.gz: corrupt or truncated gzip data"),
        "{err}"
    );
    let got = lines_statuses_errors(&out);
    assert!(got.len() > 2000, "rows up to the cut: {}", got.len());
    assert!(
        got.iter().all(|r| r.1 == "unique"),
        "no partial record at the cut"
    );
    let lines: Vec<u64> = got.iter().map(|r| r.0).collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]));

    for (name, bytes) in [
        ("garbage.gz", &b"\x1f\x8bnot really gzip at all"[..]),
        ("magic-only.gz", b"\x1f\x8b"),
    ] {
        let path = write(dir.path(), name, bytes);
        let out = solve(&[], &path);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(
            stderr(&out).contains(&format!("{name}: corrupt or truncated gzip data")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn gzip_cut_within_the_first_batch_keeps_its_rows() {
    // An input whose gzip stream breaks within the first batch (32 records): its records and
    // its error must both come out, at `-j 1` as at `-j 2`.
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample_puzzles()[..20].join("\n") + "\n";
    let gz = gzip(puzzles.as_bytes());
    // Without its 8-byte trailer, every line decodes and then the stream is short.
    let path = write(dir.path(), "short.txt.gz", &gz[..gz.len() - 8]);
    for threads in ["1", "2"] {
        let out = solve(&["-j", threads], &path);
        assert_eq!(out.status.code(), Some(2), "-j {threads}");
        assert!(
            stderr(&out).contains("short.txt.gz: corrupt or truncated gzip data"),
            "{}",
            stderr(&out)
        );
        let got = lines_statuses_errors(&out);
        assert_eq!(got.len(), 20, "-j {threads}");
        assert!(got.iter().all(|r| r.1 == "unique"));
    }
}

#[test]
fn binary_garbage_is_rows_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = sudoku_batch::generate::Rng::new(9);
    let bytes: Vec<u8> = (0..200_000).map(|_| rng.next_u64() as u8).collect();
    for format in ["text", "csv", "grid"] {
        let path = write(dir.path(), "noise.bin", &bytes);
        let out = solve(&["--format", format], &path);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{format}: {}",
            stderr(&out)
        );
        let got = rows(&out);
        assert!(!got.is_empty(), "{format}");
    }
}

#[test]
fn unwritable_output_exits_2_never_silently() {
    // In a directory that does not exist.
    let out = solve(&["-o", "no/such/dir/out.csv"], &data("mixed.txt"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/dir/out.csv"));

    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let out = solve(&["-o", "/dev/full"], &sample());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("/dev/full: No space left on device"),
        "{}",
        stderr(&out)
    );

    let out = solve(&["--emit-solutions", "/dev/full"], &sample());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/dev/full: No space left"));

    // stdout on a full disk.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(exe())
        .args(["solve", "-q"])
        .arg(sample())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("<stdout>: No space left"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn xz_and_zstd_read_as_gzip_does_and_gzip_zero_padding_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(sample()).unwrap();
    let plain = crate::util::strip_times(&solve(&[], &sample()).stdout);
    let xz = liblzma::encode_all(&text[..], 6).unwrap();
    let zst = zstd::encode_all(&text[..], 3).unwrap();
    let mut padded = gzip(&text);
    padded.extend(std::iter::repeat_n(0u8, 4096));
    for (name, bytes) in [("s.xz", xz), ("s.zst", zst), ("s.txt.gz", padded)] {
        let out = solve(&[], &write(dir.path(), name, &bytes));
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(crate::util::strip_times(&out.stdout), plain, "{name}");
    }
}

#[test]
fn other_compressions_and_utf16_stop_with_a_message_not_garbage_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mut utf16 = vec![0xff, 0xfe];
    for b in format!("{P1}\n").bytes() {
        utf16.extend([b, 0]);
    }
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "s.bz2",
            b"BZh91AY&SY\x12\x34garbage".to_vec(),
            "bzip2 input is not supported",
        ),
        (
            "s.lz4",
            vec![0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7],
            "lz4 input is not supported",
        ),
        ("s.txt", utf16, "UTF-16 input is not supported"),
    ];
    for (name, bytes, what) in cases {
        let path = write(dir.path(), name, &bytes);
        let out = solve(&[], &path);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr(&out).contains(what), "{name}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{name}: no rows");
    }
}

#[test]
fn csv_options_on_text_input_are_refused_not_ignored() {
    for args in [&["--column", "2"][..], &["--header", "yes"]] {
        let out = solve(args, &sample());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("needs CSV input"), "{}", stderr(&out));
    }
    let out = crate::util::bin()
        .args(["bench", "--runs", "0"])
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "bench --runs 0");
}
