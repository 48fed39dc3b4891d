//! The counters of one results file (`Tally`), filled row by row and turned into its
//! [`super::InputReport`] at the end.

use super::band::Bands;
use super::{
    Command, Distribution, Failure, Grading, Hard, InputReport, Limits, MAX_STATUSES,
    MAX_TECHNIQUES, RatingPercentiles, STATUS_ORDER, Slow, Solving, TENTHS, shown, text,
};
use crate::pipeline::RunError;
use crate::pipeline::grade::{ER_BANDS, er_band, er_band_label, tenths};
use crate::report::read::{Col, Row, bad};
use crate::report::stats::{Counts, LogHistogram, TopN};

/// The counters of one results file, filled row by row.
pub(super) struct Tally {
    command: Command,
    limits: Limits,
    records: u64,
    statuses: Vec<(String, u64)>,
    failures: u64,
    failed: Vec<Failure>,
    clues: Counts<82>,
    guesses: LogHistogram,
    time: LogHistogram,
    slowest: TopN<u64, Slow>,
    /// Per hardest technique, its ratings.
    techniques: Vec<(String, Box<Counts<TENTHS>>)>,
    er: Box<Counts<TENTHS>>,
    ep: Box<Counts<TENTHS>>,
    ed: Box<Counts<TENTHS>>,
    unrated: u64,
    /// Per value of the `band` column, its puzzles rated and stopped.
    bands: Bands,
    hardest: TopN<(u16, u16, u16), Hard>,
}

/// The clues of an 81-cell puzzle as the outputs write it (`1`-`9`, `.` blanks); `None` for
/// anything else.
fn clue_count(puzzle: &[u8]) -> Option<usize> {
    if puzzle.len() != 81 {
        return None;
    }
    let mut clues = 0;
    for &b in puzzle {
        match b {
            b'1'..=b'9' => clues += 1,
            b'.' | b'0' | b'_' => {}
            _ => return None,
        }
    }
    Some(clues)
}

impl Tally {
    pub(super) fn new(command: Command, limits: Limits) -> Tally {
        Tally {
            command,
            limits,
            records: 0,
            statuses: Vec::new(),
            failures: 0,
            failed: Vec::new(),
            clues: Counts::default(),
            guesses: LogHistogram::default(),
            time: LogHistogram::default(),
            slowest: TopN::new(limits.top),
            techniques: Vec::new(),
            er: Box::default(),
            ep: Box::default(),
            ed: Box::default(),
            unrated: 0,
            bands: Bands::default(),
            hardest: TopN::new(limits.top),
        }
    }

    pub(super) fn add(&mut self, row: &Row, name: &str) -> Result<(), RunError> {
        let number = |col: Col| -> Result<Option<u64>, RunError> {
            let field = row.get(col).trim_ascii();
            if field.is_empty() {
                return Ok(None);
            }
            std::str::from_utf8(field)
                .ok()
                .and_then(|f| f.parse().ok())
                .map(Some)
                .ok_or_else(|| {
                    bad(
                        name,
                        format!(
                            "line {}: `{}` is `{}`, not a whole number",
                            row.at,
                            col.name(),
                            shown(field)
                        ),
                    )
                })
        };
        let rating = |col: Col| -> Result<Option<u16>, RunError> {
            let field = row.get(col).trim_ascii();
            if field.is_empty() {
                return Ok(None);
            }
            let value = std::str::from_utf8(field)
                .ok()
                .and_then(|f| f.parse::<f64>().ok())
                .filter(|v| (0.0..1000.0).contains(v));
            match value {
                Some(v) => Ok(Some((v * 10.0).round() as u16)),
                None => Err(bad(
                    name,
                    format!(
                        "line {}: `{}` is `{}`, not a rating such as 7.2",
                        row.at,
                        col.name(),
                        shown(field)
                    ),
                )),
            }
        };
        let line = number(Col::Line)?
            .ok_or_else(|| bad(name, format!("line {}: the `line` field is empty", row.at)))?;
        self.records += 1;
        let status = row.get(Col::Status);
        let known = self
            .statuses
            .iter()
            .position(|(s, _)| s.as_bytes() == status);
        let other = || self.statuses.iter().position(|(s, _)| s == "other");
        match known.or_else(|| (self.statuses.len() >= MAX_STATUSES).then(other).flatten()) {
            Some(at) => self.statuses[at].1 += 1,
            None if self.statuses.len() < MAX_STATUSES => self.statuses.push((text(status), 1)),
            None => self.statuses.push(("other".into(), 1)),
        }
        let problem = row.get(Col::Problem);
        let error = row.get(Col::Error);
        let proper = matches!(status, b"unique" | b"solved");
        if !problem.is_empty() || !error.is_empty() || !proper {
            self.failures += 1;
            if self.failed.len() < self.limits.failures {
                let reason = [problem, error]
                    .into_iter()
                    .find(|r| !r.is_empty())
                    .map(text)
                    .unwrap_or_else(|| match status {
                        b"multiple" => "more than one solution".into(),
                        b"unsolvable" => "no solution".into(),
                        other => text(other),
                    });
                self.failed.push(Failure {
                    file: text(row.get(Col::File)),
                    line,
                    row: row.at,
                    puzzle: shown(row.get(Col::Puzzle)),
                    status: text(status),
                    reason,
                });
            }
        }
        if status == b"invalid" {
            return Ok(());
        }
        let puzzle = row.get(Col::Puzzle);
        if let Some(clues) = clue_count(puzzle) {
            self.clues.add(clues);
        }
        match self.command {
            Command::Solve | Command::Validate => {
                // A later isomorph whose status `validate --duplicates --isomorphs` took from
                // its class was not searched: no guesses, no time, nothing to count here.
                let (Some(guesses), Some(time)) = (number(Col::Guesses)?, number(Col::TimeNs)?)
                else {
                    return Ok(());
                };
                self.guesses.add(guesses);
                self.time.add(time);
                if self.slowest.would_keep(&time) {
                    let slow = Slow {
                        file: text(row.get(Col::File)),
                        line,
                        puzzle: shown(puzzle),
                        status: text(status),
                        guesses,
                        time_ns: time,
                    };
                    self.slowest.push(time, slow);
                }
            }
            Command::Grade => {
                if let Some(time) = number(Col::TimeNs)? {
                    self.time.add(time);
                }
                // `grade --min-er/--max-er` writes where each rating falls against its band;
                // a rating stopped as soon as the band was known has that and no ER.
                let band = row.get(Col::Band).trim_ascii();
                let Some(er) = rating(Col::Er)? else {
                    if !band.is_empty() {
                        self.bands.add(band, false);
                    } else if status == b"unique" {
                        self.unrated += 1;
                    }
                    return Ok(());
                };
                if !band.is_empty() {
                    self.bands.add(band, true);
                }
                let ep = rating(Col::Ep)?.unwrap_or(0);
                let ed = rating(Col::Ed)?.unwrap_or(0);
                self.er.add(er.into());
                self.ep.add(ep.into());
                self.ed.add(ed.into());
                let hardest = row.get(Col::Hardest);
                let at = match self
                    .techniques
                    .iter()
                    .position(|(t, _)| t.as_bytes() == hardest)
                {
                    Some(at) => at,
                    None if self.techniques.len() < MAX_TECHNIQUES => {
                        self.techniques.push((text(hardest), Box::default()));
                        self.techniques.len() - 1
                    }
                    None => match self.techniques.iter().position(|(t, _)| t == "other") {
                        Some(at) => at,
                        None => {
                            self.techniques.push(("other".into(), Box::default()));
                            self.techniques.len() - 1
                        }
                    },
                };
                self.techniques[at].1.add(er.into());
                let key = (er, ep, ed);
                if self.hardest.would_keep(&key) {
                    let hard = Hard {
                        file: text(row.get(Col::File)),
                        line,
                        puzzle: shown(puzzle),
                        er: tenths(er),
                        ep: tenths(ep),
                        ed: tenths(ed),
                        hardest: text(hardest),
                    };
                    self.hardest.push(key, hard);
                }
            }
        }
        Ok(())
    }

    pub(super) fn finish(self, path: String) -> InputReport {
        let mut statuses = self.statuses;
        let order = |s: &str| {
            STATUS_ORDER
                .iter()
                .position(|o| *o == s)
                .unwrap_or(usize::MAX)
        };
        // A stable sort: other statuses stay in the order met.
        statuses.sort_by_key(|(s, _)| order(s));
        let solving = matches!(self.command, Command::Solve | Command::Validate).then(|| Solving {
            guesses: Distribution::of(&self.guesses),
            time_ns: Distribution::of(&self.time),
            slowest: self
                .slowest
                .into_sorted()
                .into_iter()
                .map(|(_, s)| s)
                .collect(),
        });
        let grading = (self.command == Command::Grade).then(|| {
            let bands = |c: &Counts<TENTHS>| {
                let mut bands = vec![0; ER_BANDS];
                for (t, &n) in c.counts().iter().enumerate() {
                    bands[er_band(t as u16)] += n;
                }
                bands
            };
            let mut by_technique: Vec<(String, Vec<u64>)> = self
                .techniques
                .iter()
                .map(|(name, c)| (name.clone(), bands(c)))
                .collect();
            // Most frequent first; of equal counts, the easier (lower mean band) first.
            by_technique.sort_by_key(|(_, b)| std::cmp::Reverse(b.iter().sum::<u64>()));
            let by_band = self.bands.finish();
            Grading {
                rated: self.er.total(),
                unrated: self.unrated,
                stopped: by_band.iter().map(|b| b.stopped).sum(),
                by_band,
                bands: (0..ER_BANDS).map(er_band_label).collect(),
                by_technique,
                er_bands: bands(&self.er),
                ep_bands: bands(&self.ep),
                ed_bands: bands(&self.ed),
                er: RatingPercentiles::of(&self.er),
                ep: RatingPercentiles::of(&self.ep),
                ed: RatingPercentiles::of(&self.ed),
                time_ns: self.time.summary(),
                hardest: self
                    .hardest
                    .into_sorted()
                    .into_iter()
                    .map(|(_, h)| h)
                    .collect(),
            }
        });
        InputReport {
            path,
            command: self.command,
            records: self.records,
            statuses,
            failures: self.failures,
            failed: self.failed,
            clues: self.clues.range(),
            solving,
            grading,
        }
    }
}
