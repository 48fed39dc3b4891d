//! Grading speed per band of serate's ER, on one thread.
//!
//! ```text
//! cargo run --release --example logic_speed -- REFERENCE [--limit N] [--repeat N] [--tsv]
//! ```
//!
//! REFERENCE is a file `logic_agreement` reads (puzzles with serate's ER). Puzzles are
//! grouped by serate's ER: below 4.0, 4.0-5.9, 6.0-7.9, 8.0 and up; each group is graded
//! `--repeat` times (default 3) and the fastest pass is reported, as mean time per puzzle.
//! Times are the thread's CPU time where the platform tells it (Linux), so that other work
//! on a shared machine inflates them less; wall time elsewhere. `--tsv` prints
//! `band, n, seconds, slowest` rows (the fastest pass's total, in seconds) for scripts such as
//! `scripts/grade_bench.sh`.

/// Seconds of CPU time used by this thread (Linux), else of wall time since the first call.
fn now() -> f64 {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec and the clock id is a constant.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}
use sudoku_batch::Grid;
use sudoku_batch::logic::{Budget, Grader};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: logic_speed REFERENCE [--limit N] [--repeat N]");
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let text = std::fs::read_to_string(path).expect("reference file");
    let mut rows: Vec<(Grid, f64)> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line
            .split(['\t', ' ', ','])
            .filter(|s| !s.is_empty())
            .collect();
        let Some(puzzle) = f.iter().find_map(|s| s.parse::<Grid>().ok()) else {
            continue;
        };
        let Some(er) = f
            .iter()
            .filter_map(|s| s.parse::<f64>().ok())
            .find(|x| *x < 21.0)
        else {
            continue;
        };
        rows.push((puzzle, er));
    }
    if let Some(n) = opt("--limit") {
        rows.truncate(n);
    }
    let repeat = opt("--repeat").unwrap_or(3).max(1);
    let tsv = args.iter().any(|a| a == "--tsv");
    let bands: [(&str, f64, f64); 4] = [
        ("< 4.0", 0.0, 3.95),
        ("4.0-5.9", 3.95, 5.95),
        ("6.0-7.9", 5.95, 7.95),
        ("8.0+", 7.95, 100.0),
    ];
    let mut grader = Grader::new();
    let budget = Budget::default();
    if tsv {
        println!("band\tn\tseconds\tslowest");
    } else {
        println!("band        n    mean/puzzle   slowest");
    }
    for (name, lo, hi) in bands {
        let band: Vec<&Grid> = rows
            .iter()
            .filter(|(_, er)| *er >= lo && *er < hi)
            .map(|(p, _)| p)
            .collect();
        if band.is_empty() {
            continue;
        }
        let mut best = f64::INFINITY;
        let mut slowest = 0.0f64;
        for _ in 0..repeat {
            let start = now();
            for p in &band {
                let t = now();
                let _ = grader.grade(p, &budget);
                slowest = slowest.max(now() - t);
            }
            best = best.min(now() - start);
        }
        if tsv {
            println!("{name}\t{}\t{best:.6}\t{slowest:.6}", band.len());
            continue;
        }
        let mean = best / band.len() as f64;
        let fmt = |s: f64| {
            if s < 1e-3 {
                format!("{:8.1} us", s * 1e6)
            } else {
                format!("{:8.2} ms", s * 1e3)
            }
        };
        println!("{name:8} {:5}  {}  {}", band.len(), fmt(mean), fmt(slowest));
    }
}
