//! What the command line shows on stderr: the progress bar and the end-of-run summaries.
//!
//! The bar is updated once per batch, never per puzzle. When the input is a file of known size
//! it shows percent and ETA from the bytes read; otherwise a spinner with records and rate. It
//! is drawn only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::sync::OnceLock;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudoku_batch::pipeline::grade::{ErBand, Ratings, Side, er_band_label};
use sudoku_batch::pipeline::solve::Status;
use sudoku_batch::pipeline::{Progress, Summary};
use sudoku_batch::validate::{Checker, Problem};
use sudoku_batch::words::{count, thousands};

/// The progress bar, made at the first report (when the input's size is known).
#[derive(Debug)]
pub struct Bar {
    enabled: bool,
    bar: OnceLock<ProgressBar>,
}

impl Bar {
    /// A progress bar; hidden unless `enabled` and stderr is a terminal.
    pub fn new(enabled: bool) -> Bar {
        Bar {
            enabled: enabled && std::io::stderr().is_terminal(),
            bar: OnceLock::new(),
        }
    }

    /// Shows how far the run has come.
    pub fn update(&self, progress: &Progress) {
        if !self.enabled {
            return;
        }
        let bar = self.bar.get_or_init(|| new_bar(progress.bytes_total));
        bar.set_message(format!(
            "{}, {} puzzles/s",
            count(progress.records, "record", "records"),
            thousands(rate(progress.records, progress.elapsed.as_secs_f64()) as u64)
        ));
        bar.set_position(progress.bytes_read);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

/// A bar over `size` bytes, or a spinner when the size is unknown.
fn new_bar(size: Option<u64>) -> ProgressBar {
    let (bar, template) = match size {
        Some(n) => (
            ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
            "{msg} [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta}",
        ),
        None => (
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            "{spinner} {msg} [{elapsed_precise}]",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn rate(n: u64, secs: f64) -> f64 {
    if secs > 0.0 { n as f64 / secs } else { 0.0 }
}

/// Writes the first lines of a run's summary, the same for every command: records, time and
/// rate, the inputs, the columns read, and the records a resumed run found already written.
pub fn write_head(out: &mut dyn Write, summary: &Summary) -> std::io::Result<()> {
    let secs = summary.wall.as_secs_f64();
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
    if summary.inputs > 1 {
        writeln!(
            out,
            "  from {}",
            count(summary.inputs as u64, "input", "inputs")
        )?;
    }
    for column in &summary.columns {
        writeln!(out, "  {column}")?;
    }
    if summary.resumed > 0 {
        writeln!(
            out,
            "  resumed: {} already in the output ({} invalid)",
            count(summary.resumed, "record was", "records were"),
            thousands(summary.resumed_invalid)
        )?;
    }
    Ok(())
}

/// Writes the end-of-run summary: records, count per status, wall time, rate, mean guesses per
/// puzzle searched, the share of them settled without guessing, and the puzzles not searched.
pub fn write_summary(out: &mut dyn Write, summary: &Summary) -> std::io::Result<()> {
    write_head(out, summary)?;
    let counts: Vec<String> = Status::ALL
        .iter()
        .map(|&s| format!("{} {}", s, thousands(summary.count(s))))
        .collect();
    writeln!(out, "  {}", counts.join(", "))?;
    // Guesses say little of a run that rates puzzles: its histogram follows instead.
    let searched = summary.searched();
    if searched > 0 && summary.ratings == Ratings::default() {
        writeln!(
            out,
            "  {:.2} guesses per puzzle, {:.1}% settled without guessing{}",
            summary.guesses as f64 / searched as f64,
            100.0 * summary.no_guess as f64 / searched as f64,
            if summary.copied > 0 {
                format!(" (of the {} searched)", thousands(searched))
            } else {
                String::new()
            }
        )?;
    }
    if summary.copied > 0 {
        writeln!(
            out,
            "  {} not searched: isomorphs of earlier puzzles, with their status",
            thousands(summary.copied)
        )?;
    }
    Ok(())
}

/// Writes `grade`'s histogram: puzzles per band of ER (bands with none left out), a bar of
/// up to 40 `#` for each, and the puzzles not rated.
pub fn write_ratings(out: &mut dyn Write, ratings: &Ratings) -> std::io::Result<()> {
    let rated = ratings.rated();
    writeln!(
        out,
        "  {} rated on the Sudoku Explainer scale",
        count(rated, "puzzle", "puzzles")
    )?;
    let most = ratings.bands.iter().copied().max().unwrap_or(0).max(1);
    for (i, &n) in ratings.bands.iter().enumerate().filter(|(_, n)| **n > 0) {
        let bar = "#".repeat(((n * 40).div_ceil(most)) as usize);
        writeln!(
            out,
            "    ER {:<9} {:>11} {:>5.1}%  {bar}",
            er_band_label(i),
            thousands(n),
            100.0 * n as f64 / rated as f64
        )?;
    }
    if ratings.unrated > 0 {
        writeln!(
            out,
            "  {} not rated (over --max-time-ms, or beyond the techniques known)",
            count(ratings.unrated, "puzzle", "puzzles")
        )?;
    }
    Ok(())
}

/// Writes `grade --min-er/--max-er`'s count of puzzles below, within and above the band
/// (`< 9.0: 880, >= 9.0: 120`), and how many of them stopped at the bound; nothing without a
/// band.
pub fn write_band(out: &mut dyn Write, ratings: &Ratings, band: &ErBand) -> std::io::Result<()> {
    if !band.any() {
        return Ok(());
    }
    let sides = ratings.sides(band);
    let counts: Vec<String> = [Side::Below, Side::Within, Side::Above]
        .iter()
        .filter(|&&side| !band.label(side).is_empty())
        .map(|&side| format!("{} {}", band.label(side), thousands(sides[side as usize])))
        .collect();
    writeln!(out, "  {}: {}", band.words(), counts.join(", "))?;
    let stopped = ratings.stopped();
    if stopped > 0 {
        writeln!(
            out,
            "  {} stopped as soon as known {} (a bound, not a rating: no ER, EP, ED)",
            count(stopped, "puzzle", "puzzles"),
            band.label(if band.max.is_some() {
                Side::Above
            } else {
                Side::Within
            })
        )?;
    }
    Ok(())
}

/// Writes `validate`'s summary line: how many records fail, and why.
pub fn write_problems(
    out: &mut dyn Write,
    checker: &Checker,
    interrupted: bool,
) -> std::io::Result<()> {
    if checker.failed() == 0 {
        return if interrupted {
            writeln!(
                out,
                "  every record checked before the stop passes; the rest were not checked"
            )
        } else {
            writeln!(out, "  every record passes")
        };
    }
    let before = if interrupted {
        " (of those checked before the stop; the rest were not checked)"
    } else {
        ""
    };
    let why: Vec<String> = Problem::ALL
        .iter()
        .filter(|&&k| checker.count(k) > 0)
        .map(|&k| format!("{} {}", k.label(), thousands(checker.count(k))))
        .collect();
    writeln!(
        out,
        "  {}: {}{before}",
        count(checker.failed(), "record fails", "records fail"),
        why.join(", ")
    )
}

/// After a run stopped by a signal, when its output `output` can be resumed (the options that
/// made its rows are kept beside it in `sidecar`): the command that finishes it, which is this
/// one with `--resume`, and what the sidecar is.
pub fn write_resume_hint(
    out: &mut dyn Write,
    output: &std::path::Path,
    sidecar: &std::path::Path,
) -> std::io::Result<()> {
    let mut words: Vec<String> = std::env::args_os()
        .map(|a| shell_word(&a.to_string_lossy()))
        .collect();
    if !words.iter().any(|w| w == "--resume") {
        words.push("--resume".into());
    }
    writeln!(
        out,
        "sudoku-batch: interrupted; the rows in {} are complete. To finish it, run:\n  {}\n\
         ({} records the options that made the rows, for --resume and merge; it stays \
         beside the finished output)",
        output.display(),
        words.join(" "),
        sidecar.display()
    )
}

/// `word` as a shell reads it back: as it is when it holds only characters a shell leaves
/// alone, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./,:=@%+".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
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
    fn shell_words_are_quoted_when_a_shell_would_change_them() {
        assert_eq!(shell_word("out.csv"), "out.csv");
        assert_eq!(shell_word("my file.csv"), "'my file.csv'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
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
