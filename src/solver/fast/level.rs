//! The instruction set the search is compiled for, chosen at run time: the binary is built for
//! the x86-64 baseline, so that it runs on any x86-64 processor, and carries copies of the
//! search compiled for newer levels, which a solver takes when the processor it runs on has
//! their features.

/// A level of the x86-64 instruction set (the psABI's microarchitecture levels) for which
/// the search has a copy of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Level {
    /// The x86-64 baseline (SSE2), or another architecture: the code as the build compiles it.
    Base,
    /// x86-64-v3: AVX2, BMI1 and BMI2, LZCNT, POPCNT, FMA, MOVBE. The bit operations the
    /// search runs most (lowest set bit, clear it, and-not, shifts by a variable) take one
    /// instruction each, and the vector code takes the three-operand VEX forms.
    V3,
}

impl Level {
    /// The highest level whose features the processor has.
    pub(super) fn detect() -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("fma")
                && std::is_x86_feature_detected!("movbe")
            {
                return Level::V3;
            }
        }
        Level::Base
    }
}
