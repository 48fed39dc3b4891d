//! Scratch comparison of the logical grader with serate's ratings.
//!
//! ```text
//! cargo run --release --example logic_agreement -- REFERENCE [--limit N] [--show N] [--classic]
//!     [--budget-ms N]
//! ```
//!
//! REFERENCE holds one puzzle per line with serate's ratings: either a TSV/CSV with a header
//! naming `puzzle` and `er` (and optionally `ep`, `ed`), or the Sudoku Exchange bank's
//! `hash puzzle rating` lines (ER only). Prints the share of puzzles with the same ER (below
//! 7.0 and overall, and per band of serate's ER), Spearman's rank correlation, the largest
//! difference, and EP/ED agreement; `--show N` lists N mismatches. `--budget-ms N` gives each
//! puzzle N milliseconds; puzzles cut short count as failed.

use rayon::prelude::*;
use sudoku_batch::Grid;
use sudoku_batch::logic::{Budget, Grader, Ruleset};

struct Row {
    puzzle: Grid,
    er: u16,
    ep: Option<u16>,
    ed: Option<u16>,
}

fn tenths(s: &str) -> Option<u16> {
    let x: f64 = s.trim().parse().ok()?;
    Some((x * 10.0).round() as u16)
}

fn read(path: &str) -> Vec<Row> {
    let text = std::fs::read_to_string(path).expect("reference file");
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let first = lines.clone().next().unwrap_or("");
    let sep = if first.contains('\t') {
        '\t'
    } else if first.contains(',') {
        ','
    } else {
        ' '
    };
    let cols: Vec<String> = first.split(sep).map(|c| c.trim().to_lowercase()).collect();
    let col = |name: &str| cols.iter().position(|c| c == name);
    let (p, er, ep, ed) = if let (Some(p), Some(er)) = (col("puzzle"), col("er")) {
        lines.next();
        (p, er, col("ep"), col("ed"))
    } else {
        // The bank's `hash puzzle rating`.
        (1, 2, None, None)
    };
    let mut out = Vec::new();
    for l in lines {
        let f: Vec<&str> = l.split(sep).filter(|s| !s.is_empty()).collect();
        let (Some(ps), Some(ers)) = (f.get(p), f.get(er)) else {
            continue;
        };
        let (Ok(puzzle), Some(er)) = (ps.parse::<Grid>(), tenths(ers)) else {
            continue;
        };
        let get = |i: Option<usize>| i.and_then(|i| f.get(i)).and_then(|s| tenths(s));
        out.push(Row {
            puzzle,
            er,
            ep: get(ep),
            ed: get(ed),
        });
    }
    out
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: logic_agreement REFERENCE [--limit N] [--show N]");
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let ruleset = if args.iter().any(|a| a == "--classic") {
        Ruleset::Classic
    } else {
        Ruleset::Sukaku
    };
    let mut rows = read(path);
    if let Some(n) = opt("--limit") {
        rows.truncate(n);
    }
    let show = opt("--show").unwrap_or(0);
    let budget_ms = opt("--budget-ms");
    let start = std::time::Instant::now();
    let ours: Vec<Option<(u16, u16, u16, String)>> = rows
        .par_iter()
        .map_init(
            || Grader::with_ruleset(ruleset),
            |g, r| {
                let budget = Budget {
                    deadline: budget_ms.map(|ms| {
                        std::time::Instant::now() + std::time::Duration::from_millis(ms as u64)
                    }),
                    stop: None,
                };
                g.grade(&r.puzzle, &budget)
                    .ok()
                    .map(|x| (x.er, x.ep, x.ed, x.hardest.name().to_string()))
            },
        )
        .collect();
    let elapsed = start.elapsed();
    let bands: [(&str, u16, u16); 5] = [
        ("< 4.0", 0, 40),
        ("4.0-5.9", 40, 60),
        ("6.0-7.9", 60, 80),
        ("8.0+", 80, 1000),
        ("< 7.0", 0, 70),
    ];
    println!(
        "{} puzzles from {path}, graded in {:.2?} ({} failed)",
        rows.len(),
        elapsed,
        ours.iter().filter(|o| o.is_none()).count()
    );
    println!("band       n      same ER   EP same   ED same   max|d|");
    let table = |name: &str, lo: u16, hi: u16| {
        let sel: Vec<usize> = (0..rows.len())
            .filter(|&i| rows[i].er >= lo && rows[i].er < hi)
            .collect();
        if sel.is_empty() {
            return;
        }
        let n = sel.len();
        let er_ours = |i: usize| ours[i].as_ref().map_or(200, |o| o.0);
        let same = sel.iter().filter(|&&i| er_ours(i) == rows[i].er).count();
        let (mut ep_n, mut ep_same, mut ed_n, mut ed_same) = (0, 0, 0, 0);
        for &i in &sel {
            if let (Some(ep), Some(o)) = (rows[i].ep, &ours[i]) {
                ep_n += 1;
                ep_same += usize::from(ep == o.1);
            }
            if let (Some(ed), Some(o)) = (rows[i].ed, &ours[i]) {
                ed_n += 1;
                ed_same += usize::from(ed == o.2);
            }
        }
        let maxd = sel
            .iter()
            .map(|&i| (er_ours(i) as i32 - rows[i].er as i32).abs())
            .max()
            .unwrap_or(0);
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "     -".to_string()
            } else {
                format!("{:5.1}%", 100.0 * a as f64 / b as f64)
            }
        };
        println!(
            "{name:8} {n:6}   {}   {}    {}    {:.1}",
            pct(same, n),
            pct(ep_same, ep_n),
            pct(ed_same, ed_n),
            maxd as f64 / 10.0
        );
    };
    for (name, lo, hi) in bands {
        table(name, lo, hi);
    }
    table("all", 0, 1000);
    let a: Vec<f64> = rows.iter().map(|r| r.er as f64).collect();
    let b: Vec<f64> = ours
        .iter()
        .map(|o| o.as_ref().map_or(200.0, |o| o.0 as f64))
        .collect();
    println!("Spearman (ER): {:.4}", spearman(&a, &b));
    let mut shown = 0;
    for (i, r) in rows.iter().enumerate() {
        if shown >= show {
            break;
        }
        let o = &ours[i];
        if o.as_ref().map(|o| o.0) != Some(r.er) {
            shown += 1;
            match o {
                Some(o) => println!(
                    "{} serate {:.1} ours {:.1} ({})",
                    r.puzzle,
                    r.er as f64 / 10.0,
                    o.0 as f64 / 10.0,
                    o.3
                ),
                None => println!("{} serate {:.1} ours failed", r.puzzle, r.er as f64 / 10.0),
            }
        }
    }
}
