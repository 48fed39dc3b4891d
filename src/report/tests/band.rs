//! Files of `grade --min-er/--max-er`: the puzzles whose rating stopped as soon as their band
//! was known (no ER, a `band` such as `>= 9.0`) are counted in their band, in every format,
//! and neither as not rated nor with a rating they do not have.

use super::{puzzle, read_one, write};
use crate::grid::Grid;
use crate::pipeline::write::{BAND_COLUMN, GRADE_COLUMNS, Value};
use crate::report::input::{BandCount, InputReport, Limits};
use crate::report::{Report, html};

/// How a row of the made-up output of `grade --min-er 9.0` ends.
#[derive(Clone, Copy)]
enum Graded {
    /// Rated in full (ER below 9.0): ER, EP, ED and hardest technique.
    Rated(u16, u16, u16, &'static str),
    /// Stopped as soon as known to be 9.0 or more.
    Stopped,
    /// Not rated: the time limit.
    Unrated,
}

/// 300 rows: every 40th not rated, every 4th of the others stopped at `>= 9.0`, the rest
/// rated below 9.0.
fn graded_rows() -> Vec<(Grid, Graded)> {
    let techniques = ["Hidden Single", "Pointing", "X-Wing", "Cell Forcing Chains"];
    let mut state = 5u64;
    (0..300u64)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = state >> 33;
            let grid = puzzle(20 + (r % 8) as usize, i as usize).parse().unwrap();
            let graded = if i % 40 == 0 {
                Graded::Unrated
            } else if r.is_multiple_of(4) {
                Graded::Stopped
            } else {
                let t = (r % 4) as usize;
                let er = [12, 26, 32, 85][t] + (r % 3) as u16;
                Graded::Rated(er, er.min(20), 12, techniques[t])
            };
            (grid, graded)
        })
        .collect()
}

/// Writes `rows` as `grade --min-er 9.0` does, in the format `path`'s name says.
fn write_graded(path: &std::path::Path, rows: &[(Grid, Graded)]) {
    let mut fields = GRADE_COLUMNS.to_vec();
    fields.push(BAND_COLUMN);
    let values: Vec<Vec<Value>> = rows
        .iter()
        .enumerate()
        .map(|(i, (grid, graded))| {
            let mut row = vec![
                Value::Number(i as u64 + 1),
                Value::Grid(grid),
                Value::Text("unique"),
            ];
            let (ratings, error, band) = match *graded {
                Graded::Rated(er, ep, ed, hardest) => (
                    [
                        Value::Tenths(er),
                        Value::Tenths(ep),
                        Value::Tenths(ed),
                        Value::Text(hardest),
                        Value::Number(30),
                        Value::Text("Hidden Single:30"),
                    ],
                    "",
                    "< 9.0",
                ),
                Graded::Stopped => ([Value::Empty; 6], "", ">= 9.0"),
                Graded::Unrated => ([Value::Empty; 6], "not rated: time limit", ""),
            };
            row.extend(ratings);
            row.extend([Value::Number(1000), Value::Text(error), Value::Text(band)]);
            row
        })
        .collect();
    write(path, &fields, &values);
}

#[test]
fn ratings_stopped_at_a_band_count_in_their_band_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let rows = graded_rows();
    let count = |f: fn(&Graded) -> bool| rows.iter().filter(|(_, g)| f(g)).count() as u64;
    let stopped = count(|g| matches!(g, Graded::Stopped));
    let unrated = count(|g| matches!(g, Graded::Unrated));
    let ers: Vec<u16> = rows
        .iter()
        .filter_map(|(_, g)| match g {
            Graded::Rated(er, ..) => Some(*er),
            _ => None,
        })
        .collect();
    assert!(stopped > 30 && unrated == 8 && ers.len() > 200);
    let mut names = vec!["g.csv", "g.jsonl", "g.csv.gz"];
    if cfg!(feature = "parquet") {
        names.push("g.parquet");
    }
    let mut reports: Vec<InputReport> = Vec::new();
    for name in &names {
        let path = dir.path().join(name);
        write_graded(&path, &rows);
        let report = read_one(&path, Limits::default());
        let g = report.grading.as_ref().unwrap();
        assert_eq!(g.unrated, unrated, "{name}: only the rows without a band");
        assert_eq!(g.stopped, stopped, "{name}");
        assert_eq!(g.rated, ers.len() as u64, "{name}");
        assert_eq!(
            g.by_band,
            vec![
                BandCount {
                    band: "< 9.0".into(),
                    rated: ers.len() as u64,
                    stopped: 0,
                },
                BandCount {
                    band: ">= 9.0".into(),
                    rated: 0,
                    stopped,
                },
            ],
            "{name}"
        );
        // No made-up rating: the ratings are those of the puzzles rated in full.
        let max = crate::pipeline::grade::tenths(*ers.iter().max().unwrap());
        assert_eq!(g.er.max, Some(max), "{name}");
        assert_eq!(g.er_bands.iter().sum::<u64>(), g.rated, "{name}");
        assert!(
            g.hardest
                .iter()
                .all(|h| h.er.parse::<f64>().is_ok_and(|er| er < 9.0)),
            "{name}"
        );
        assert_eq!(
            report.failures, unrated,
            "{name}: a stopped rating is no failure"
        );
        let mut report = report;
        report.path.clear();
        report.failed.iter_mut().for_each(|f| f.row = 0);
        reports.push(report);
    }
    for (name, report) in names.iter().zip(&reports).skip(1) {
        assert_eq!(*report, reports[0], "{name}");
    }
    let report = Report::read(
        &[dir.path().join("g.csv"), dir.path().join("g.jsonl")],
        Limits::default(),
    )
    .unwrap();
    let measure = report
        .differences
        .iter()
        .find(|d| d.measure == "stopped at a band")
        .unwrap();
    assert_eq!(measure.values, vec![Some(stopped as f64); 2]);
    let page = html::page(&report);
    assert!(page.contains("<th scope=\"col\" class=\"n\">stopped at a band</th>"));
    assert!(page.contains(&format!(
        "{stopped} puzzles of {} stopped being rated as soon as their band was known \
         (&gt;= 9.0: {stopped})",
        dir.path().join("g.csv").display()
    )));
    assert!(page.contains("<figcaption>Bands of "));
    assert!(page.contains(&format!(
        "<th scope=\"row\">&gt;= 9.0</th><td class=\"n\">0</td><td class=\"n\">{stopped}</td>"
    )));
}
