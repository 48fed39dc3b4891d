//! What the areas share: running the binary, the fixtures, reading its rows, comparing runs,
//! the `sudoku` crate as an oracle, the symmetries of Sudoku, and samples of the tdoku corpora.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, ExitStatus, Output};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use sudoku_batch::Grid;
use sudoku_batch::generate::{Kind, Rng};

/// The first puzzle of the source material (line 5 of `data/sample.txt`): one solution.
pub const PUZZLE: &str =
    "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";

/// The header of `solve`'s rows.
pub const HEADER: &str = "line,puzzle,status,solutions,solution,guesses,time_ns,error";

/// Every kind of record `sudoku_batch::generate::mixed_puzzle` makes.
pub const KINDS: [Kind; 5] = [
    Kind::Minimal,
    Kind::Easy,
    Kind::Multiple,
    Kind::Unsolvable,
    Kind::Conflicting,
];

/// The `sudoku-batch` binary, for running as `assert_cmd` does.
pub fn bin() -> Command {
    Command::cargo_bin("sudoku-batch").unwrap()
}

/// The path of the `sudoku-batch` binary, for running it some other way (behind `taskset` or
/// `script`, or with `std::process` where a test signals it).
pub fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoku-batch")
}

/// The fixture `name` in `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// `data/sample.txt`: comment lines, the three source puzzles, then 1,000 generated ones.
pub fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.txt")
}

/// The 1,003 puzzles of `data/sample.txt`, without its comment lines.
pub fn sample_puzzles() -> Vec<String> {
    std::fs::read_to_string(sample())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The records of `tests/data/mixed.txt` (valid and invalid ones), ending with a line break so
/// that more can follow.
pub fn mixed_records() -> Vec<u8> {
    let mut text = std::fs::read(data("mixed.txt")).unwrap();
    if !text.ends_with(b"\n") {
        text.push(b'\n');
    }
    text
}

/// Writes `bytes` to `name` in `dir` and returns its path.
pub fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `bytes` compressed as one gzip member.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// Runs `solve -q ARGS INPUT`.
pub fn solve(args: &[&str], input: &Path) -> Output {
    bin()
        .args(["solve", "-q"])
        .args(args)
        .arg(input)
        .output()
        .unwrap()
}

/// The standard error of a run, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One row of `solve`'s output (all but `time_ns`).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub line: u64,
    pub puzzle: String,
    pub status: String,
    pub solutions: u64,
    pub solution: String,
    pub guesses: u64,
    pub error: String,
}

/// The rows `solve` wrote to stdout, after checking that they are UTF-8 (bad bytes of the input
/// are replaced), that the header is [`HEADER`] and that every row has its eight fields.
pub fn rows(out: &Output) -> Vec<Row> {
    let text = std::str::from_utf8(&out.stdout).expect("the output is UTF-8");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<&str> = reader.headers().unwrap().iter().collect();
    assert_eq!(header.join(","), HEADER);
    reader
        .records()
        .map(|r| {
            let r = r.expect("valid CSV");
            assert_eq!(r.len(), 8, "every row has 8 fields: {r:?}");
            Row {
                line: r[0].parse().unwrap(),
                puzzle: r[1].to_string(),
                status: r[2].to_string(),
                solutions: r[3].parse().unwrap(),
                solution: r[4].to_string(),
                guesses: r[5].parse().unwrap(),
                error: r[7].to_string(),
            }
        })
        .collect()
}

/// `solve`'s rows (header included) with the `time_ns` column blanked, for comparing runs.
/// Panics on a CSV that does not parse or has a row of the wrong length.
pub fn strip_times(bytes: &[u8]) -> String {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(bytes);
    let mut text = String::new();
    for r in reader.byte_records() {
        let r = r.expect("valid CSV");
        assert_eq!(r.len(), 8, "every row has 8 fields: {r:?}");
        for (i, f) in r.iter().enumerate() {
            if i != 6 {
                text.push_str(&String::from_utf8_lossy(f));
            }
            text.push(',');
        }
        text.push('\n');
    }
    text
}

/// Fails unless `a` and `b` are the same, showing both from the first row where they differ
/// (a few rows of each: they can be tens of thousands of rows long).
pub fn assert_same(a: &str, b: &str, what: &str) {
    if a == b {
        return;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let first = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from_first = |rows: &[&str]| {
        rows[first.min(rows.len())..]
            .iter()
            .take(5)
            .copied()
            .collect::<Vec<_>>()
            .join("\n")
    };
    panic!(
        "{what}: outputs differ from row {first} on ({} vs {} rows)\n--- a\n{}\n--- b\n{}",
        a.len(),
        b.len(),
        from_first(&a),
        from_first(&b),
    );
}

/// The `sudoku` crate (a JCZSolve port) holding one puzzle: an oracle that shares no code with
/// ours.
pub struct Oracle(sudoku::Sudoku);

impl Oracle {
    /// An 81-character puzzle, read by the `sudoku` crate's own parser.
    pub fn line(puzzle: &str) -> Oracle {
        Oracle(sudoku::Sudoku::from_str_line(puzzle).unwrap())
    }

    /// A puzzle we have already parsed.
    pub fn grid(puzzle: &Grid) -> Oracle {
        Oracle(sudoku::Sudoku::from_bytes(*puzzle.cells()).expect("cells are 0-9"))
    }

    /// The number of solutions, counted up to `limit`.
    pub fn count(&self, limit: u64) -> u64 {
        self.0.solutions_count_up_to(limit as usize) as u64
    }

    /// The solution, when there is exactly one.
    pub fn solution(&self) -> Option<Grid> {
        Grid::from_cells(self.0.solution()?.to_bytes()).ok()
    }
}

/// Checks every row that is not `invalid` against the oracle: the count (to 2), the status,
/// the solution; returns how many were checked.
pub fn check_against_oracle(rows: &[Row]) -> usize {
    let mut checked = 0;
    for r in rows.iter().filter(|r| r.status != "invalid") {
        let oracle = Oracle::line(&r.puzzle);
        let n = oracle.count(2);
        assert_eq!(
            r.solutions, n,
            "solutions of {} (line {})",
            r.puzzle, r.line
        );
        let expect = match n {
            0 => "unsolvable",
            1 => "unique",
            _ => "multiple",
        };
        assert_eq!(r.status, expect, "line {}", r.line);
        if n == 1 {
            let solution = oracle.solution().unwrap().to_string();
            assert_eq!(r.solution, solution, "line {}", r.line);
        }
        if n > 0 {
            let g: Grid = r.solution.parse().unwrap();
            assert!(g.solves(&r.puzzle.parse().unwrap()), "line {}", r.line);
        }
        checked += 1;
    }
    checked
}

/// A symmetry of the rules of Sudoku: permutations of the bands, of the rows within each band,
/// of the stacks and of the columns within each stack, a relabelling of the digits and maybe a
/// transposition. It keeps the solution count, so it makes new puzzles of known behaviour.
pub struct Symmetry {
    bands: [usize; 3],
    stacks: [usize; 3],
    rows: [[usize; 3]; 3],
    cols: [[usize; 3]; 3],
    labels: [u8; 9],
    transpose: bool,
}

impl Symmetry {
    /// A symmetry drawn from `rng`.
    pub fn random(rng: &mut Rng) -> Symmetry {
        let mut perm3 = || {
            let mut v = [0usize, 1, 2];
            rng.shuffle(&mut v);
            v
        };
        let (bands, stacks) = (perm3(), perm3());
        let rows = [perm3(), perm3(), perm3()];
        let cols = [perm3(), perm3(), perm3()];
        let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut labels);
        let transpose = rng.below(2) == 1;
        Symmetry {
            bands,
            stacks,
            rows,
            cols,
            labels,
            transpose,
        }
    }

    /// `p` moved and relabelled.
    pub fn apply(&self, p: &Grid) -> Grid {
        let mut out = Grid::EMPTY;
        for r in 0..9 {
            for c in 0..9 {
                let v = p.get(r * 9 + c);
                if v == 0 {
                    continue;
                }
                let r2 = self.bands[r / 3] * 3 + self.rows[r / 3][r % 3];
                let c2 = self.stacks[c / 3] * 3 + self.cols[c / 3][c % 3];
                let (r2, c2) = if self.transpose { (c2, r2) } else { (r2, c2) };
                out.set(r2 * 9 + c2, self.labels[v as usize - 1]);
            }
        }
        out
    }
}

/// The tdoku benchmark corpora at `../shared/corpora/tdoku` beside the repository, when they
/// are there; tests that sample them skip that part with a message when they are not.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/tdoku");
    dir.is_dir().then_some(dir)
}

/// Every `step`th puzzle of the corpus file `name` in `dir`, each moved by a random symmetry.
pub fn corpus_sample(dir: &Path, name: &str, step: usize, rng: &mut Rng) -> Vec<Grid> {
    let text = std::fs::read(dir.join(name)).expect("corpus file readable");
    text.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.is_empty() && l[0] != b'#')
        .step_by(step)
        .map(|l| {
            let p = Grid::parse_bytes(l).expect("corpus line parses");
            Symmetry::random(rng).apply(&p)
        })
        .collect()
}

/// Sends `signal` (`INT`, `TERM`, `HUP`) to `child` with `kill`.
pub fn send(signal: &str, child: &Child) {
    let kill = StdCommand::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(kill.success());
}

/// Waits for `child` to exit; fails (and kills it) when it is still running 10 s later.
pub fn exits_within_10_s(child: &mut Child, after: &str) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("still running 10 s after {after}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A Parquet output's column names and its record batches.
#[cfg(feature = "parquet")]
pub fn parquet_batches(path: &Path) -> (Vec<String>, Vec<arrow_array::RecordBatch>) {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    let reader =
        ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    let names = reader
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let batches = reader.build().unwrap().map(Result::unwrap).collect();
    (names, batches)
}
