//! What the steps of a rating add up to: ER, EP and ED, the hardest technique, and how often
//! each technique was used.

use super::Rating;
use super::technique::Technique;

/// What the steps so far add up to.
pub(crate) struct Tally {
    er: f64,
    ep: f64,
    ed: f64,
    hardest: Technique,
    steps: u32,
    /// Per technique, its steps and its easiest step's rating.
    count: [u32; Technique::COUNT],
    lowest: [u16; Technique::COUNT],
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            er: 0.0,
            ep: 0.0,
            ed: 0.0,
            hardest: Technique::FullHouse,
            steps: 0,
            count: [0; Technique::COUNT],
            lowest: [u16::MAX; Technique::COUNT],
        }
    }
}

impl Tally {
    /// One step, rated `diff` (`tenths`), that placed a digit or not.
    #[inline(always)]
    pub fn add(&mut self, tech: Technique, diff: f64, tenths: u16, places: bool) {
        if diff > self.er {
            self.er = diff;
            self.hardest = tech;
        }
        self.steps += 1;
        let t = tech as usize;
        self.count[t] += 1;
        self.lowest[t] = self.lowest[t].min(tenths);
        if self.ep == 0.0 {
            if self.ed == 0.0 {
                self.ed = self.er;
            }
            if places {
                self.ep = self.er;
            }
        }
    }

    pub fn rating(&self) -> Rating {
        let mut techniques: Vec<(Technique, u32)> = (0..Technique::COUNT)
            .filter(|&t| self.count[t] > 0)
            .map(|t| (Technique::ALL[t], self.count[t]))
            .collect();
        techniques.sort_by_key(|&(t, _)| (self.lowest[t as usize], t));
        let tenths = |x: f64| (x * 10.0).round() as u16;
        Rating {
            er: tenths(self.er),
            ep: tenths(self.ep),
            ed: tenths(self.ed),
            hardest: self.hardest,
            steps: self.steps,
            techniques,
        }
    }
}
