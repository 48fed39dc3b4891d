//! The clock behind every row's `time_ns`: two readings around each puzzle's search.
//!
//! `Instant::now` (`clock_gettime`) costs tens of nanoseconds and waits for the instructions
//! before it to retire; read twice a puzzle it was 3% of the time that Python's `solve` spends
//! on the 49,158 17-clue puzzles, whose searches take under 2 us each. Where the kernel itself
//! keeps time by the processor's time stamp counter (Linux on x86-64 with the clocksource
//! `tsc`, which the kernel keeps only for a counter that runs at a constant rate and agrees
//! across CPUs), a [`Stopwatch`] reads that counter instead, a few cycles, and converts ticks
//! to nanoseconds at a rate measured against `Instant`: stopwatches use `Instant` for the
//! first millisecond after the first one starts, and the rate is the ticks counted from that
//! start to the first stopwatch started a millisecond or more later. Elsewhere it is `Instant`
//! throughout. Side by side on that corpus: Python's `solve` 2-3% quicker, the command line's
//! `solve` 2-3% less CPU.
//!
//! The crates that offer such a clock measure the rate before their first reading, in a busy
//! loop (`minstant`: spans of 10 ms until two agree; `quanta`: 500 rounds or more, for up to
//! 200 ms), a start-up cost that every short run would pay.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A started measurement of elapsed time.
#[derive(Debug, Clone, Copy)]
pub enum Stopwatch {
    /// The counter's reading at the start, and nanoseconds per tick.
    Ticks(u64, f64),
    /// While the counter's rate is not known, or where it is not used: the system's clock.
    Clock(Instant),
}

impl Stopwatch {
    /// Starts a measurement.
    #[inline]
    pub fn start() -> Stopwatch {
        let rate = f64::from_bits(RATE.load(Ordering::Relaxed));
        if rate > 0.0 {
            Stopwatch::Ticks(ticks(), rate)
        } else if rate < 0.0 {
            Stopwatch::Clock(Instant::now())
        } else {
            Stopwatch::Clock(calibrating())
        }
    }

    /// Nanoseconds since the start.
    #[inline]
    pub fn elapsed_ns(&self) -> u64 {
        match *self {
            // A float multiply: exact to well under a nanosecond for any search's length.
            Stopwatch::Ticks(start, ns_per_tick) => {
                (ticks().saturating_sub(start) as f64 * ns_per_tick) as u64
            }
            Stopwatch::Clock(start) => start.elapsed().as_nanos() as u64,
        }
    }
}

/// Nanoseconds per tick of the counter as `f64` bits: 0 while it is being measured, negative
/// where the counter is not used.
static RATE: AtomicU64 = AtomicU64::new(0);

/// The counter and the clock read together when the first stopwatch started; `None` where the
/// counter is not used.
static ANCHOR: OnceLock<Option<(u64, Instant)>> = OnceLock::new();

/// How long the rate is measured for: each end's reading is off by tens of nanoseconds, so
/// the rate is within 1e-4 of the truth.
const CALIBRATION: Duration = Duration::from_millis(1);

/// The clock's time, for a stopwatch started while the rate is not known; sets the rate once
/// [`CALIBRATION`] has passed since the first stopwatch started.
#[cold]
fn calibrating() -> Instant {
    let now = Instant::now();
    let Some((t0, i0)) = *ANCHOR.get_or_init(|| kernel_uses_counter().then(reading)) else {
        RATE.store((-1.0f64).to_bits(), Ordering::Relaxed);
        return now;
    };
    if now.duration_since(i0) >= CALIBRATION {
        let (t1, i1) = reading();
        let ticks = t1.saturating_sub(t0).max(1) as f64;
        let ns_per_tick = i1.duration_since(i0).as_nanos() as f64 / ticks;
        // Any counter of this century ticks at 0.1 to 10 GHz; anything else is not trusted.
        let rate = if (0.1..=10.0).contains(&ns_per_tick) {
            ns_per_tick
        } else {
            -1.0
        };
        RATE.store(rate.to_bits(), Ordering::Relaxed);
    }
    now
}

/// The counter and the clock read together: of a few tries, the one whose two counter
/// readings around the clock's are closest, the counter taken at their midpoint.
fn reading() -> (u64, Instant) {
    (0..8)
        .map(|_| {
            let before = ticks();
            let clock = Instant::now();
            let after = ticks();
            let spread = after.saturating_sub(before);
            (spread, before + spread / 2, clock)
        })
        .min_by_key(|&(spread, _, _)| spread)
        .map(|(_, tick, clock)| (tick, clock))
        .expect("eight tries")
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn kernel_uses_counter() -> bool {
    std::fs::read_to_string("/sys/devices/system/clocksource/clocksource0/current_clocksource")
        .is_ok_and(|source| source.trim() == "tsc")
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
fn kernel_uses_counter() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn ticks() -> u64 {
    // SAFETY: every x86-64 processor has the instruction; it reads a register and touches no
    // memory.
    unsafe { std::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn ticks() -> u64 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that a stopwatch measures a sleep as the clock does: its interval lies between
    /// two clock intervals, one inside it and one around it, within the rate's error.
    fn check(sleep: Duration) -> Stopwatch {
        let outer = Instant::now();
        let watch = Stopwatch::start();
        let inner = Instant::now();
        std::thread::sleep(sleep);
        let inner = inner.elapsed().as_nanos() as f64;
        let measured = watch.elapsed_ns() as f64;
        let outer = outer.elapsed().as_nanos() as f64;
        assert!(
            measured >= inner * 0.999 - 1e3,
            "{watch:?}: {measured} < {inner}"
        );
        assert!(
            measured <= outer * 1.001 + 1e3,
            "{watch:?}: {measured} > {outer}"
        );
        watch
    }

    #[test]
    fn a_stopwatch_reads_what_the_clock_reads_before_and_after_calibration() {
        check(Duration::from_millis(2));
        // Once a millisecond has passed, the next stopwatch sets the rate (or learns that the
        // counter is not used); the ones after it read the counter where it is used.
        check(Duration::ZERO);
        assert_ne!(
            RATE.load(Ordering::Relaxed),
            0,
            "the rate is still being measured"
        );
        for sleep in [0, 2, 20] {
            let watch = check(Duration::from_millis(sleep));
            let counter = matches!(ANCHOR.get(), Some(Some(_)));
            assert_eq!(matches!(watch, Stopwatch::Ticks(..)), counter, "{watch:?}");
        }
    }
}
