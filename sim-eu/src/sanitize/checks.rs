//! The checks by name, as `INTEL_GPU_SANITIZE` and `--sanitize` list them.

use std::fmt;

/// One check of the sanitizer. Every name the command line accepts is here; which of them
/// the simulator runs on the GPU is [`Check::on_gpu`] (`api` is the OpenCL ICD's: it checks
/// API calls, not kernels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Check {
    /// Global accesses against the allocations at byte granularity, shared local memory
    /// against the work-group's size, writes to read-only buffers.
    Memcheck,
    /// Reads of memory never written.
    Initcheck,
    /// Conflicting unordered accesses of different work-items.
    Racecheck,
    /// Barriers and collectives not reached by the whole work-group or sub-group.
    Synccheck,
    /// The alignment and size rules of the block-IO extensions.
    Alignment,
    /// OpenCL calls that return an error.
    Api,
    /// Per-kernel execution statistics (not a check: `all` leaves it out).
    Stats,
}

impl Check {
    pub const ALL: [Check; 7] = [
        Check::Memcheck,
        Check::Initcheck,
        Check::Racecheck,
        Check::Synccheck,
        Check::Alignment,
        Check::Api,
        Check::Stats,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Check::Memcheck => "memcheck",
            Check::Initcheck => "initcheck",
            Check::Racecheck => "racecheck",
            Check::Synccheck => "synccheck",
            Check::Alignment => "alignment",
            Check::Api => "api",
            Check::Stats => "stats",
        }
    }

    /// Whether the simulator performs this check on the kernels it runs (`api` is performed by
    /// the OpenCL ICD on the calls it gets).
    pub fn on_gpu(self) -> bool {
        !matches!(self, Check::Api)
    }

    /// Whether `all` selects it: every check, not the statistics (which find nothing).
    pub fn in_all(self) -> bool {
        !matches!(self, Check::Stats)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of checks; empty means the sanitizer is off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Checks(u8);

/// Why a list of check names was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChecksError {
    #[error("unknown sanitizer check `{0}` (known: memcheck, initcheck, racecheck, synccheck, alignment, api, all, stats)")]
    Unknown(String),
}

impl Checks {
    pub const NONE: Checks = Checks(0);

    /// Every check (what `all` selects: not `stats`).
    pub fn implemented() -> Checks {
        Check::ALL
            .into_iter()
            .filter(|c| c.in_all())
            .fold(Checks::NONE, Checks::with)
    }

    pub fn with(self, c: Check) -> Checks {
        Checks(self.0 | c.bit())
    }

    /// The checks of this set the simulator runs on kernels (all but `api`).
    pub fn on_gpu(self) -> Checks {
        Check::ALL
            .into_iter()
            .filter(|c| c.on_gpu() && self.has(*c))
            .fold(Checks::NONE, Checks::with)
    }

    pub fn has(self, c: Check) -> bool {
        self.0 & c.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether any of `cs` is on.
    pub fn has_any(self, cs: &[Check]) -> bool {
        cs.iter().any(|c| self.has(*c))
    }

    /// Parses a comma-separated list of check names, or `all` (every check), and `stats`. Blank entries
    /// are ignored; an empty list is the sanitizer off. An unknown name is refused, never
    /// silently dropped.
    pub fn parse(list: &str) -> Result<Checks, ChecksError> {
        let mut set = Checks::NONE;
        for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            if word.eq_ignore_ascii_case("all") {
                set = Checks(set.0 | Checks::implemented().0);
                continue;
            }
            let c = Check::ALL
                .into_iter()
                .find(|c| c.name().eq_ignore_ascii_case(word))
                .ok_or_else(|| ChecksError::Unknown(word.to_string()))?;
            set = set.with(c);
        }
        Ok(set)
    }
}

impl fmt::Display for Checks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = Check::ALL
            .into_iter()
            .filter(|c| self.has(*c))
            .map(Check::name)
            .collect();
        f.write_str(&names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_and_unknown_checks_are_refused_by_name() {
        let c = Checks::parse("memcheck, alignment").unwrap();
        assert!(c.has(Check::Memcheck) && c.has(Check::Alignment));
        let all = Checks::parse("all").unwrap();
        assert_eq!(all, Checks::implemented());
        assert_eq!(
            all.to_string(),
            "memcheck,initcheck,racecheck,synccheck,alignment,api"
        );
        assert!(Checks::parse("").unwrap().is_empty());
        let api = Checks::parse("memcheck,api").unwrap();
        assert!(api.has(Check::Api));
        assert_eq!(api.on_gpu(), Checks::NONE.with(Check::Memcheck));
        assert!(Checks::parse("api").unwrap().on_gpu().is_empty());
        // `stats` is asked for by name: `all` is the checks.
        assert!(!all.has(Check::Stats));
        let s = Checks::parse("all,stats").unwrap();
        assert!(s.has(Check::Stats) && s.has(Check::Memcheck));
        assert_eq!(s.on_gpu(), s.on_gpu().with(Check::Stats));
        assert_eq!(
            Checks::parse("stats").unwrap().on_gpu().to_string(),
            "stats"
        );
        assert_eq!(
            Checks::parse("memchek"),
            Err(ChecksError::Unknown("memchek".into()))
        );
    }
}
