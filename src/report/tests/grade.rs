//! Files of `grade`: the report's counts of statuses, bands, techniques, ER percentiles and
//! hardest puzzles against counts made here from the rows written.

use super::{exact, puzzle, read_one, write};
use crate::grid::Grid;
use crate::pipeline::write::{GRADE_COLUMNS, Value};
use crate::report::input::{Command, Limits};

#[test]
fn grade_numbers_match_counts_made_independently() {
    let techniques = [
        "Hidden Single",
        "Naked Single",
        "Pointing",
        "X-Wing",
        "Cell Forcing Chains",
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grade.jsonl");
    let mut state = 11u64;
    // (line, er, ep, ed, hardest) of each rated row; every 40th row is not rated.
    let mut rated = Vec::new();
    let mut grids = Vec::new();
    for i in 0..800u64 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = state >> 33;
        grids.push(
            puzzle(20 + (r % 8) as usize, i as usize)
                .parse::<Grid>()
                .unwrap(),
        );
        if i % 40 == 0 {
            rated.push(None);
            continue;
        }
        let t = (r % 5) as usize;
        let er = [12, 23, 26, 32, 85][t] + (r % 3) as u16;
        rated.push(Some((
            i + 1,
            er,
            er.min(15 + (r % 20) as u16),
            12,
            techniques[t],
        )));
    }
    let values: Vec<Vec<Value>> = rated
        .iter()
        .zip(&grids)
        .enumerate()
        .map(|(i, (r, g))| match *r {
            Some((line, er, ep, ed, hardest)) => vec![
                Value::Number(line),
                Value::Grid(g),
                Value::Text("unique"),
                Value::Tenths(er),
                Value::Tenths(ep),
                Value::Tenths(ed),
                Value::Text(hardest),
                Value::Number(40),
                Value::Text(""),
                Value::Number(1000),
                Value::Text(""),
            ],
            None => vec![
                Value::Number(i as u64 + 1),
                Value::Grid(g),
                Value::Text("unique"),
                Value::Empty,
                Value::Empty,
                Value::Empty,
                Value::Empty,
                Value::Empty,
                Value::Empty,
                Value::Number(1000),
                Value::Text("not rated: time limit"),
            ],
        })
        .collect();
    write(&path, &GRADE_COLUMNS, &values);
    let report = read_one(
        &path,
        Limits {
            top: 4,
            failures: 50,
        },
    );
    assert_eq!(report.command, Command::Grade);
    let g = report.grading.as_ref().unwrap();
    let rated: Vec<(u64, u16, u16, u16, &str)> = rated.into_iter().flatten().collect();
    assert_eq!(g.rated, rated.len() as u64);
    assert_eq!(g.unrated, 20);
    assert_eq!(report.failures, 20, "the rows not rated fail");
    assert_eq!(report.failed[0].reason, "not rated: time limit");
    for (name, bands) in &g.by_technique {
        for (band, &n) in bands.iter().enumerate() {
            let want = rated
                .iter()
                .filter(|r| r.4 == name && crate::pipeline::grade::er_band(r.1) == band)
                .count() as u64;
            assert_eq!(n, want, "{name} in band {band}");
        }
    }
    let total: u64 = g.by_technique.iter().flat_map(|t| &t.1).sum();
    assert_eq!(total, g.rated);
    let ers: Vec<u64> = rated.iter().map(|r| u64::from(r.1)).collect();
    let tenths = |v: u64| crate::pipeline::grade::tenths(v as u16);
    assert_eq!(g.er.p50, Some(tenths(exact(&ers, 0.5))));
    assert_eq!(g.er.p90, Some(tenths(exact(&ers, 0.9))));
    assert_eq!(g.er.max, Some(tenths(*ers.iter().max().unwrap())));
    let mut hardest = rated.clone();
    hardest.sort_by_key(|r| (std::cmp::Reverse((r.1, r.2, r.3)), r.0));
    let want: Vec<u64> = hardest.iter().take(4).map(|r| r.0).collect();
    assert_eq!(g.hardest.iter().map(|h| h.line).collect::<Vec<_>>(), want);
}
