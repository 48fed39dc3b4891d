//! `--shard K/N|auto` and `--shards N`: which part of a run this process does, given on the
//! command line or taken from the environment a cluster's scheduler sets.

use clap::Args;
use sudoku_batch::pipeline::RunError;
use sudoku_batch::shard::Shard;

/// `--shard` and `--shards`, flattened into the commands that take them.
#[derive(Debug, Args)]
pub struct ShardArgs {
    /// Do part K of N (0 <= K < N): a contiguous range of the records, each row keeping its
    /// `line`, so that the outputs of parts 0 to N-1 concatenated (or given to `merge`) are
    /// the output of one run, but for time_ns. Uncompressed text and CSV files (a record a
    /// line) are cut by bytes: part K reads the records that start in its K-th of their
    /// bytes, with the line breaks before counted, not parsed; a CSV file with a `"` before
    /// the cut is parsed up to it, so that no quoted field is split. Other inputs (compressed,
    /// grid blocks, Parquet) are cut by record index after a pass that counts the records;
    /// stdin and pipes are copied to a temporary file (in TMPDIR) for it. `auto`: K and N
    /// from SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN, divided by SLURM_ARRAY_TASK_STEP
    /// for an array such as --array=0-15:4) and SLURM_ARRAY_TASK_COUNT, or K from
    /// JOB_COMPLETION_INDEX (Kubernetes Indexed Job) with N from --shards.
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<ShardArg>,

    /// With --shard auto: the number of parts N (a Kubernetes Indexed Job's completions). In a
    /// Slurm array it must agree with SLURM_ARRAY_TASK_COUNT.
    #[arg(long, value_name = "N", requires = "shard", value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
}

/// A `--shard` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardArg {
    /// `K/N`.
    Given(Shard),
    /// `auto`: from the environment.
    Auto,
}

impl std::str::FromStr for ShardArg {
    type Err = String;

    fn from_str(s: &str) -> Result<ShardArg, String> {
        match s {
            "auto" => Ok(ShardArg::Auto),
            _ => s.parse().map(ShardArg::Given),
        }
    }
}

impl ShardArgs {
    /// The part asked for, if any, the environment read through `var`; a usage error when
    /// the arguments and the environment do not make one.
    pub fn resolve(&self, var: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
        let auto = match (self.shard, self.shards) {
            (None, _) => return Ok(None),
            (Some(ShardArg::Given(_)), Some(_)) => {
                return Err("--shards N goes with --shard auto; --shard K/N names N itself".into());
            }
            (Some(ShardArg::Given(shard)), None) => return Ok(Some(shard)),
            (Some(ShardArg::Auto), shards) => shards,
        };
        let number = |name: &str| -> Result<Option<u64>, String> {
            var(name)
                .map(|v| {
                    v.trim()
                        .parse::<u64>()
                        .map_err(|_| format!("--shard auto: {name}={v:?} is not a number"))
                })
                .transpose()
        };
        // A Slurm array's task IDs run MIN, MIN+STEP, ... (`--array=0-15:4` has a step of 4);
        // task ID k of them is part (ID - MIN) / STEP.
        let slurm_index = || -> Result<Option<u64>, String> {
            let Some(id) = number("SLURM_ARRAY_TASK_ID")? else {
                return Ok(None);
            };
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let offset = id.checked_sub(min).ok_or_else(|| {
                format!(
                    "--shard auto: SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}"
                )
            })?;
            if !offset.is_multiple_of(step) {
                return Err(format!(
                    "--shard auto: SLURM_ARRAY_TASK_ID {id} is not SLURM_ARRAY_TASK_MIN {min} plus \
                     a multiple of SLURM_ARRAY_TASK_STEP {step}: the array's task IDs are not \
                     evenly spaced (such as --array=1,2,7); give --shard K/N"
                ));
            }
            Ok(Some(offset / step))
        };
        // What the Slurm variables say of the part, for a message about one that does not exist.
        let slurm_cause = || -> String {
            let Some(id) = var("SLURM_ARRAY_TASK_ID") else {
                return String::new();
            };
            let mut said = format!(" (from SLURM_ARRAY_TASK_ID {}", id.trim());
            for name in ["SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP"] {
                if let Some(v) = var(name) {
                    said += &format!(", {name} {}", v.trim());
                }
            }
            said += "; part K is (ID - MIN) / STEP, so the array must be as --array=0-{N-1}, or \
                     MIN to MIN+(N-1)*STEP with a :STEP)";
            said
        };
        let (index, count) = match auto {
            Some(count) => {
                let index = match number("JOB_COMPLETION_INDEX")? {
                    Some(k) => k,
                    None => {
                        let k = slurm_index()?.ok_or(
                            "--shard auto: neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID \
                             is set",
                        )?;
                        if let Some(tasks) = number("SLURM_ARRAY_TASK_COUNT")?
                            && tasks != count
                        {
                            return Err(format!(
                                "--shard auto: --shards {count} disagrees with this Slurm array's \
                                 SLURM_ARRAY_TASK_COUNT {tasks}; leave --shards out to take the \
                                 array's count, or make the array of {count} tasks"
                            ));
                        }
                        k
                    }
                };
                (index, count)
            }
            None => {
                let Some(index) = slurm_index()? else {
                    return Err(if var("JOB_COMPLETION_INDEX").is_some() {
                        "--shard auto: JOB_COMPLETION_INDEX gives K but not N; give --shards N \
                         (the Job's completions)"
                            .into()
                    } else {
                        "--shard auto: SLURM_ARRAY_TASK_ID is not set (nor JOB_COMPLETION_INDEX \
                         with --shards N); give --shard K/N"
                            .into()
                    });
                };
                let count = number("SLURM_ARRAY_TASK_COUNT")?.ok_or(
                    "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT",
                )?;
                (index, count)
            }
        };
        if count == 0 {
            return Err("--shard auto: the number of parts N is 0; it must be at least 1".into());
        }
        let cause = if auto.is_some() && var("JOB_COMPLETION_INDEX").is_some() {
            " (from JOB_COMPLETION_INDEX)".to_string()
        } else {
            slurm_cause()
        };
        Shard::new(index, count).map(Some).ok_or_else(|| {
            format!("--shard auto: part {index} of {count} does not exist (0 <= K < N){cause}")
        })
    }

    /// [`ShardArgs::resolve`] from the process environment, as a usage error of the run.
    pub fn shard(&self) -> Result<Option<Shard>, RunError> {
        let shard = self
            .resolve(|name| std::env::var(name).ok())
            .map_err(usage)?;
        if let Some(warning) = self.lone_task_warning(shard) {
            eprintln!("sudoku-batch: warning: {warning}");
        }
        Ok(shard)
    }

    /// A warning when `--shard auto` takes an array of one Slurm task: part 0 of 1, the whole
    /// input. That is what `sbatch --array=5` makes of a resubmitted task of a larger array,
    /// whose part file would then hold every record.
    fn lone_task_warning(&self, shard: Option<Shard>) -> Option<String> {
        let from_slurm = self.shard == Some(ShardArg::Auto) && self.shards.is_none();
        (from_slurm && shard.is_some_and(|s| s.count() == 1)).then(|| {
            "--shard auto: this Slurm array has one task, so its part is the whole input; to \
             redo part K of an array of N, give --shard K/N"
                .to_string()
        })
    }
}

/// A shard option the run cannot take, as the run's error (exit 2).
pub fn usage(message: String) -> RunError {
    let (path, message) = match message.strip_prefix("--shard auto: ") {
        Some(rest) => ("--shard auto", rest.to_string()),
        None => ("--shard", message),
    };
    RunError::Usage {
        path: path.into(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(
        shard: &str,
        shards: Option<u64>,
        env: &[(&str, &str)],
    ) -> Result<Option<Shard>, String> {
        let args = ShardArgs {
            shard: Some(shard.parse().unwrap()),
            shards,
        };
        args.resolve(|name| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn auto_reads_slurm_and_kubernetes() {
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "7"),
        ];
        assert_eq!(resolve("auto", None, &slurm), Ok(Shard::new(3, 7)));
        let from_one = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(resolve("auto", None, &from_one), Ok(Shard::new(3, 4)));
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert_eq!(resolve("auto", Some(5), &k8s), Ok(Shard::new(2, 5)));
        assert_eq!(resolve("1/2", None, &k8s), Ok(Shard::new(1, 2)));
    }

    #[test]
    fn auto_refuses_what_makes_no_shard() {
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert!(
            resolve("auto", None, &k8s)
                .unwrap_err()
                .contains("--shards N")
        );
        assert!(
            resolve("auto", Some(2), &k8s)
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(resolve("auto", None, &[]).is_err());
        assert!(resolve("auto", None, &[("SLURM_ARRAY_TASK_ID", "1")]).is_err());
        assert!(resolve("auto", Some(3), &[("JOB_COMPLETION_INDEX", "x")]).is_err());
        assert!(resolve("0/2", Some(2), &[]).is_err());
    }

    #[test]
    fn a_stepped_slurm_array_is_counted_by_its_step() {
        let stepped = |id: &str| {
            resolve(
                "auto",
                None,
                &[
                    ("SLURM_ARRAY_TASK_ID", id),
                    ("SLURM_ARRAY_TASK_MIN", "2"),
                    ("SLURM_ARRAY_TASK_STEP", "4"),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                ],
            )
        };
        // --array=2-14:4: tasks 2, 6, 10, 14.
        assert_eq!(stepped("2"), Ok(Shard::new(0, 4)));
        assert_eq!(stepped("14"), Ok(Shard::new(3, 4)));
        let uneven = stepped("7").unwrap_err();
        assert!(uneven.contains("SLURM_ARRAY_TASK_STEP 4"), "{uneven}");
        // A part past the count names the variables it came from.
        let past = stepped("18").unwrap_err();
        assert!(
            past.contains("part 4 of 4") && past.contains("SLURM_ARRAY_TASK_STEP 4"),
            "{past}"
        );
    }

    #[test]
    fn shards_that_disagree_with_slurm_are_refused() {
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        let err = resolve("auto", Some(3), &slurm).unwrap_err();
        assert!(
            err.contains("--shards 3") && err.contains("COUNT 4"),
            "{err}"
        );
        assert_eq!(resolve("auto", Some(4), &slurm), Ok(Shard::new(1, 4)));
        let zero = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "0"),
        ];
        assert!(
            resolve("auto", None, &zero)
                .unwrap_err()
                .contains("at least 1")
        );
    }
}
