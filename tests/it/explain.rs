//! `explain`: the steps of one solve, as text or JSON lines, for each strategy that traces.

use std::collections::HashMap;

use crate::util::{bin, sample, stderr};

#[test]
fn explain_shows_the_published_solution_for_every_traced_strategy() {
    let p = ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1.";
    let rows = [
        "762593148",
        "941278536",
        "835461792",
        "198627354",
        "476359281",
        "253814679",
        "387146925",
        "514932867",
        "629785413",
    ];
    for solver in ["bitmask", "candidates", "backtrack"] {
        let out = bin()
            .args(["explain", "--solver", solver, p])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{solver}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&rows.join("\n")), "{solver}:\n{text}");
        assert!(text.contains("Totals:"), "{solver}");
    }
}

#[test]
fn explain_reads_a_line_of_a_file_and_prints_json_lines() {
    // Line 8 of the sample is the first generated puzzle; it needs guesses.
    let sample = sample();
    let out = bin()
        .args([
            "explain",
            "--output-format",
            "json",
            "--line",
            "8",
            "--input",
        ])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let mut steps = HashMap::<String, u64>::new();
    let mut totals = None;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let step = v["step"].as_str().unwrap().to_string();
        if step == "totals" {
            totals = Some(v.clone());
        }
        *steps.entry(step).or_default() += 1;
    }
    let totals = totals.expect("a totals line");
    assert_eq!(
        totals["guesses"].as_u64(),
        steps.get("guess").copied().or(Some(0))
    );
    assert_eq!(totals["placements"].as_u64(), steps.get("place").copied());
    assert_eq!(steps["solution"], 1);

    let out = bin()
        .args(["explain", "--line", "3", "--input"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "line 3 is a comment, not a record"
    );
    for solver in ["singles", "fast"] {
        let out = bin()
            .args(["explain", "--solver", solver, "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("[possible values: bitmask, candidates, backtrack]"),
            "{err}"
        );
    }
    let out = bin().args(["explain", "12x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "not a puzzle");
}

#[test]
fn explain_reads_input_with_format_and_writes_with_output_format() {
    const SOLUTION: &str =
        "762985143391724865458361792179436258534278916826519437943852671215647389687193524";
    // A CSV under a name that says nothing: `--format csv` reads it as CSV, as in `solve`.
    let dir = tempfile::tempdir().unwrap();
    let input = crate::util::write(
        dir.path(),
        "puzzles.dat",
        format!("id,puzzle,solution\n7,{},{SOLUTION}\n", crate::util::PUZZLE),
    );
    for format in ["--format", "--input-format"] {
        let out = bin()
            .args([
                "explain",
                format,
                "csv",
                "--output-format",
                "jsonl",
                "--line",
                "2",
            ])
            .arg("--input")
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        let first = String::from_utf8(out.stdout).unwrap();
        let first: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
        assert_eq!(first["step"], "start", "{format}");
    }
    // Read as text, line 2 has two fields of 81 cells: not one puzzle.
    let out = bin()
        .args(["explain", "--format", "text", "--line", "2", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn explain_logic_says_how_to_read_a_step() {
    let out = bin()
        .args(["explain", "--logic", crate::util::PUZZLE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    // The lines between the title and the first step.
    let legend: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|l| !l.contains("1. "))
        .map(str::trim)
        .collect();
    let legend = legend.join(" ");
    assert!(
        legend.contains("r1c3=4 places 4") && legend.contains("cells of the technique's pattern"),
        "{text}"
    );
}
