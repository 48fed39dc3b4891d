//! Duplicates by isomorph and leakage: `validate --duplicates --isomorphs` names the first
//! puzzle of each class, in this input or another, and `--against` finds test puzzles that are
//! isomorphs of training ones, without touching the training file.

use crate::canon::{fixture_text, line_orders, reference, transform};
use crate::util::{bin, stderr, write};

/// `validate` on `inputs` with `args`: the `line` and `problem` of each row (with `file` first
/// when there are several inputs), and stderr.
fn validate(args: &[&str], inputs: &[&std::path::Path]) -> (Vec<String>, String, Option<i32>) {
    let out = bin()
        .args(["validate", "-q"])
        .args(args)
        .args(inputs)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let rows = text
        .lines()
        .skip(1)
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            let keep = if inputs.len() > 1 { 2 } else { 1 };
            format!("{} {}", fields[..keep].join(" "), fields[fields.len() - 1])
        })
        .collect();
    (rows, stderr(&out), out.status.code())
}

#[test]
fn duplicates_by_isomorph_name_the_first_of_the_class() {
    let dir = tempfile::tempdir().unwrap();
    // The fixture's unique puzzles (17-clue corpus), three of them again as isomorphs.
    let rows = reference();
    let orders = line_orders();
    let labels: Vec<u8> = vec![9, 8, 7, 6, 5, 4, 3, 2, 1];
    let mut text = fixture_text(10);
    for (j, i) in [2usize, 7, 2].into_iter().enumerate() {
        let iso = transform(
            &rows[i].0,
            j != 1,
            &orders[100 + j],
            &orders[900 - j],
            &labels,
        );
        text += &format!("{iso}\n");
    }
    let input = write(dir.path(), "in.txt", &text);
    let (got, err, code) = validate(&["--duplicates"], &[&input]);
    assert_eq!((got, code), (Vec::<String>::new(), Some(0)), "{err}");
    let (got, err, code) = validate(&["--duplicates", "--isomorphs"], &[&input]);
    assert_eq!(
        got,
        [
            "11 isomorph of line 3",
            "12 isomorph of line 8",
            "13 isomorph of line 3"
        ]
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("10 essentially different puzzles"), "{err}");
    // With several inputs, the first of the class is named with its file.
    let second = write(dir.path(), "b.txt", &text);
    let (got, _, _) = validate(&["--duplicates", "--isomorphs"], &[&input, &second]);
    assert_eq!(got.len(), 3 + 13);
    let in_name = input.display().to_string();
    assert!(got.contains(&format!(
        "{} 1 isomorph of {in_name} line 1",
        second.display()
    )));
    assert!(got.contains(&format!(
        "{} 13 isomorph of {in_name} line 3",
        second.display()
    )));
}

#[test]
fn exact_duplicates_in_another_input_name_its_file() {
    // The same puzzle on line 1 of two inputs: the second is a duplicate of the first (the
    // line numbers alone are equal, which once hid it).
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", fixture_text(3));
    let b = write(dir.path(), "b.txt", fixture_text(1));
    let (got, _, code) = validate(&["--duplicates"], &[&a, &b]);
    assert_eq!(
        got,
        [format!(
            "{} 1 duplicate of {} line 1",
            b.display(),
            a.display()
        )]
    );
    assert_eq!(code, Some(1));
}

#[test]
fn against_finds_a_test_split_leaking_from_training() {
    let dir = tempfile::tempdir().unwrap();
    let rows = reference();
    let orders = line_orders();
    let labels: Vec<u8> = vec![2, 3, 4, 5, 6, 7, 8, 9, 1];
    // Training: 30 puzzles. Test: 5 new puzzles, 2 copied from training, 3 isomorphs of
    // training puzzles.
    let train = write(dir.path(), "train.txt", fixture_text(30));
    let mut test: String = rows[30..35]
        .iter()
        .map(|(p, _, _)| format!("{p}\n"))
        .collect();
    test += &format!("{}\n{}\n", rows[4].0, rows[29].0);
    for i in [0usize, 11, 22] {
        let iso = transform(
            &rows[i].0,
            i % 2 == 1,
            &orders[3 * i],
            &orders[1000 - i],
            &labels,
        );
        test += &format!("{iso}\n");
    }
    let test = write(dir.path(), "test.txt", test);
    let t = train.display().to_string();
    let run = |extra: &[&str]| {
        let out = bin()
            .args(["validate", "-q", "--against"])
            .arg(&train)
            .args(extra)
            .arg(&test)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let got: Vec<String> = text
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                format!("{} {}", f[0], f[f.len() - 1])
            })
            .collect();
        (got, out.status.code())
    };
    assert_eq!(
        run(&[]),
        (
            vec![
                format!("6 duplicate of {t} line 5"),
                format!("7 duplicate of {t} line 30"),
            ],
            Some(1)
        )
    );
    assert_eq!(
        run(&["--isomorphs"]),
        (
            vec![
                format!("6 isomorph of {t} line 5"),
                format!("7 isomorph of {t} line 30"),
                format!("8 isomorph of {t} line 1"),
                format!("9 isomorph of {t} line 12"),
                format!("10 isomorph of {t} line 23"),
            ],
            Some(1)
        )
    );
    // The report may not overwrite the corpus it is checked against.
    let out = bin()
        .args(["validate", "-q", "--against"])
        .arg(&train)
        .arg("-o")
        .arg(&train)
        .arg(&test)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&train).unwrap(), fixture_text(30));
    // Nor can stdin be read as both.
    let out = bin()
        .args(["validate", "-q", "--against", "-", "-"])
        .write_stdin(fixture_text(3))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("stdin cannot be both"),
        "{}",
        stderr(&out)
    );
}
