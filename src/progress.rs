//! The progress bar on stderr and the end-of-run summary.
//!
//! The bar is updated once per batch by the writer thread, never per puzzle. When the input is a
//! file of known size it shows percent and ETA from the bytes read; otherwise a spinner with
//! records and rate. It is drawn only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::pipeline::Summary;
use crate::pipeline::solve::Status;

/// A progress display fed by the writer stage, after each batch of rows.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    bytes_read: Arc<AtomicU64>,
    started: Instant,
}

impl Progress {
    /// A progress display; hidden unless `enabled` and stderr is a terminal. `size` is the
    /// input's size in bytes when known, `bytes_read` counts the bytes read so far.
    pub fn new(
        enabled: bool,
        size: Option<u64>,
        bytes_read: Arc<AtomicU64>,
        started: Instant,
    ) -> Progress {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = match size {
                Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr())
                    .with_style(
                        ProgressStyle::with_template(
                            "{msg} [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta}",
                        )
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                    ),
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                    .with_style(
                        ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
                            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                    ),
            };
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            bytes_read,
            started,
        }
    }

    /// Shows that `records` rows have been written.
    pub fn update(&self, records: u64) {
        if let Some(bar) = &self.bar {
            let secs = self.started.elapsed().as_secs_f64();
            bar.set_message(format!(
                "{}, {} puzzles/s",
                count(records, "record", "records"),
                thousands(rate(records, secs) as u64)
            ));
            bar.set_position(self.bytes_read.load(Ordering::Relaxed));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn rate(n: u64, secs: f64) -> f64 {
    if secs > 0.0 { n as f64 / secs } else { 0.0 }
}

/// `n` with thousands separators: `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` with thousands separators and the noun that agrees with it: `1 record`, `0 records`,
/// `1,204 records`.
pub fn count(n: u64, singular: &str, plural: &str) -> String {
    format!(
        "{} {}",
        thousands(n),
        if n == 1 { singular } else { plural }
    )
}

/// Writes the end-of-run summary: records, count per status, wall time, rate, mean guesses per
/// puzzle and the share of puzzles settled without guessing.
pub fn write_summary(out: &mut dyn Write, summary: &Summary) -> std::io::Result<()> {
    let secs = summary.wall.as_secs_f64();
    let puzzles = summary.puzzles();
    writeln!(
        out,
        "{} in {:.2} s ({} puzzles/s){}",
        count(summary.records, "record", "records"),
        secs,
        thousands(rate(summary.records, secs) as u64),
        if summary.interrupted {
            ", interrupted"
        } else {
            ""
        }
    )?;
    if summary.resumed > 0 {
        writeln!(
            out,
            "  resumed: {} already in the output ({} invalid)",
            count(summary.resumed, "record was", "records were"),
            thousands(summary.resumed_invalid)
        )?;
    }
    let counts: Vec<String> = Status::ALL
        .iter()
        .map(|&s| format!("{} {}", s, thousands(summary.count(s))))
        .collect();
    writeln!(out, "  {}", counts.join(", "))?;
    if puzzles > 0 {
        writeln!(
            out,
            "  {:.2} guesses per puzzle, {:.1}% settled without guessing",
            summary.guesses as f64 / puzzles as f64,
            100.0 * summary.no_guess as f64 / puzzles as f64
        )?;
    }
    Ok(())
}

/// Writes the end-of-run summary of `generate`: how many `noun`s (singular, plural) were
/// written, in what wall time, at what rate, and whether the run was interrupted.
pub fn write_generated(
    out: &mut dyn Write,
    written: u64,
    noun: (&str, &str),
    wall: Duration,
    interrupted: bool,
) -> std::io::Result<()> {
    let secs = wall.as_secs_f64();
    writeln!(
        out,
        "{} in {:.2} s ({} {}/s){}",
        count(written, noun.0, noun.1),
        secs,
        thousands(rate(written, secs) as u64),
        noun.1,
        if interrupted { ", interrupted" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(0, "record", "records"), "0 records");
        assert_eq!(count(1, "record", "records"), "1 record");
        assert_eq!(count(2, "record", "records"), "2 records");
        assert_eq!(count(1001, "record", "records"), "1,001 records");
    }

    #[test]
    fn generate_summary_text() {
        let mut out = Vec::new();
        write_generated(
            &mut out,
            1,
            ("puzzle", "puzzles"),
            Duration::from_millis(500),
            true,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "1 puzzle in 0.50 s (2 puzzles/s), interrupted\n"
        );
    }

    /// Guards the grammar of a one-record run: "1 record in", not "1 records in".
    #[test]
    fn r_summary_of_one_record_is_singular() {
        let mut s = Summary {
            records: 1,
            resumed: 1,
            wall: Duration::from_millis(1000),
            ..Summary::default()
        };
        s.by_status[0] = 1;
        let mut out = Vec::new();
        write_summary(&mut out, &s).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("1 record in 1.00 s (1 puzzles/s)\n"),
            "{text}"
        );
        assert!(
            text.contains("  resumed: 1 record was already in the output (0 invalid)\n"),
            "{text}"
        );
    }

    #[test]
    fn summary_text() {
        let mut s = Summary {
            records: 4,
            guesses: 6,
            no_guess: 1,
            wall: Duration::from_millis(2000),
            ..Summary::default()
        };
        s.by_status[0] = 3;
        s.by_status[5] = 1;
        let mut out = Vec::new();
        write_summary(&mut out, &s).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "4 records in 2.00 s (2 puzzles/s)\n  \
             unique 3, multiple 0, solved 0, unsolvable 0, aborted 0, invalid 1\n  \
             2.00 guesses per puzzle, 33.3% settled without guessing\n"
        );
    }
}
