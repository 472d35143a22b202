//! The four GPU generations this stack targets, and the names each external tool uses for them.
//! Start reading: `Platform`.
//!
//! One representative platform per generation: Skylake for Gen9, Ice Lake LP for Gen11,
//! Tiger Lake LP for Gen12LP and DG2 (Alchemist, ACM-G10) for Xe-HPG. Every other crate keys its
//! per-generation tables on [`Platform`]; this file is the only place the name mapping lives.

use std::fmt;
use std::str::FromStr;

/// Bytes in one general register (GRF) on every platform here, Gen9 to Xe-HPG (Xe-HPC and
/// later double it). Register-granular sizes (payloads, message lengths, the register file)
/// derive from this.
pub const GRF_BYTES: u32 = 32;

/// GRF registers per hardware thread on every platform here, outside Xe-HPG's Large GRF Mode.
pub const GRF_REGS: u32 = 128;

/// GRF registers per hardware thread in Xe-HPG's Large GRF Mode (see
/// [`Platform::large_grf_regs`]); the most any platform here gives a thread.
pub const LARGE_GRF_REGS: u32 = 256;

/// A GPU generation, named after its representative platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Platform {
    /// Gen9 (Skylake and its derivatives).
    Skl,
    /// Gen11 (Ice Lake LP).
    Icllp,
    /// Gen12LP / Xe-LP (Tiger Lake LP, also ADL, RKL, DG1).
    Tgllp,
    /// Xe-HPG (DG2 / Alchemist, ACM-G10..G12).
    Dg2,
}

/// One row per platform: every name a user or tool may use for it.
struct Names {
    platform: Platform,
    /// Our canonical short name (also the simulator device suffix, `sim:<name>`).
    short: &'static str,
    /// IGA's `-p` platform name (`iga64 -h=p`).
    iga: &'static str,
    /// ocloc's `-device` name.
    ocloc: &'static str,
    /// Mesa's `verx10` (genxml generation times ten).
    verx10: u32,
    /// Further accepted spellings.
    aliases: &'static [&'static str],
}

const NAMES: [Names; 4] = [
    Names {
        platform: Platform::Skl,
        short: "skl",
        iga: "9",
        ocloc: "skl",
        verx10: 90,
        aliases: &["gen9"],
    },
    Names {
        platform: Platform::Icllp,
        short: "icllp",
        iga: "11",
        ocloc: "icllp",
        verx10: 110,
        aliases: &["icl", "gen11"],
    },
    Names {
        platform: Platform::Tgllp,
        short: "tgllp",
        iga: "12p1",
        ocloc: "tgllp",
        verx10: 120,
        aliases: &["tgl", "gen12lp", "xe-lp", "xelp"],
    },
    Names {
        platform: Platform::Dg2,
        short: "dg2",
        iga: "12p71",
        ocloc: "acm-g10",
        verx10: 125,
        aliases: &["dg2-g10", "xe-hpg", "xehpg"],
    },
];

impl Platform {
    /// IEEE double precision in the EUs: Gen9 has it; Gen11, Gen12LP and Xe-HPG dropped it, and
    /// ocloc defines cl_khr_fp64 only for Gen9 here.
    pub fn has_fp64(self) -> bool {
        matches!(self, Platform::Skl)
    }

    /// The channels of the EUs' systolic array (XMX), which `dpas` runs on: Xe-HPG's at SIMD8
    /// (vISA DPAS: "Only execution size of 8 is supported ... XeHP"); `None` on the platforms
    /// without one.
    pub fn systolic_channels(self) -> Option<usize> {
        match self {
            Platform::Dg2 => Some(8),
            Platform::Skl | Platform::Icllp | Platform::Tgllp => None,
        }
    }

    /// GRF registers per thread in Large GRF Mode (STATE_COMPUTE_MODE DWord 1 bit 15), on the
    /// platforms that have it: Xe-HPG's threads may have 256 registers, at half the threads per
    /// EU (NEO's Xe-HPG helpers: `calculateAvailableThreadCount` halves the thread count when a
    /// kernel's `numGrfRequired` exceeds 128; `StateComputeModeProperties::setProperties` sets
    /// the mode for `numGrfRequired == 256`). `None` before Xe-HPG, whose STATE_COMPUTE_MODE
    /// has no such field.
    pub fn large_grf_regs(self) -> Option<u32> {
        match self {
            Platform::Dg2 => Some(LARGE_GRF_REGS),
            Platform::Skl | Platform::Icllp | Platform::Tgllp => None,
        }
    }

    /// GRF registers per thread with Large GRF Mode set (`large`) or clear: [`GRF_REGS`] where
    /// the platform has no such mode.
    pub fn grf_regs(self, large: bool) -> u32 {
        large
            .then(|| self.large_grf_regs())
            .flatten()
            .unwrap_or(GRF_REGS)
    }

    /// All supported platforms, oldest first.
    pub const ALL: [Platform; 4] = [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ];

    fn names(self) -> &'static Names {
        // NAMES is ordered like the enum's discriminants.
        &NAMES[self as usize]
    }

    /// Canonical short name: `skl`, `icllp`, `tgllp`, `dg2`.
    pub fn name(self) -> &'static str {
        self.names().short
    }

    /// The platform name `iga64 -p` takes.
    pub fn iga_name(self) -> &'static str {
        self.names().iga
    }

    /// The device name `ocloc -device` takes.
    pub fn ocloc_device(self) -> &'static str {
        self.names().ocloc
    }

    /// Generation times ten, as Mesa's genxml numbers them (90, 110, 120, 125).
    pub fn verx10(self) -> u32 {
        self.names().verx10
    }

    /// True from Gen12LP on: software scoreboarding replaces hardware dependency checks.
    pub fn has_swsb(self) -> bool {
        self >= Platform::Tgllp
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A platform name that none of the tables knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown platform '{0}' (expected one of skl, icllp, tgllp, dg2, acm-g10, 9, 11, 12p1, 12p71)"
)]
pub struct UnknownPlatform(pub String);

impl FromStr for Platform {
    type Err = UnknownPlatform;

    /// Accepts our names, IGA's, ocloc's and common aliases, case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        NAMES
            .iter()
            .find(|n| {
                n.short == lower
                    || n.iga == lower
                    || n.ocloc == lower
                    || n.aliases.contains(&lower.as_str())
            })
            .map(|n| n.platform)
            .ok_or_else(|| UnknownPlatform(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_matches_enum() {
        for (i, n) in NAMES.iter().enumerate() {
            assert_eq!(n.platform as usize, i);
        }
    }

    #[test]
    fn every_spelling_round_trips() {
        for p in Platform::ALL {
            let n = p.names();
            for s in [n.short, n.iga, n.ocloc].iter().chain(n.aliases) {
                assert_eq!(s.parse::<Platform>(), Ok(p), "{s}");
                assert_eq!(s.to_ascii_uppercase().parse::<Platform>(), Ok(p), "{s}");
            }
        }
    }

    #[test]
    fn unknown_name_is_an_error() {
        assert!("gen8".parse::<Platform>().is_err());
        assert!("".parse::<Platform>().is_err());
    }

    #[test]
    fn no_spelling_names_two_platforms() {
        let spellings = |n: &Names| -> Vec<&str> {
            [n.short, n.iga, n.ocloc]
                .into_iter()
                .chain(n.aliases.iter().copied())
                .collect()
        };
        for a in &NAMES {
            for b in NAMES.iter().filter(|b| b.platform != a.platform) {
                for s in spellings(a) {
                    assert!(
                        !spellings(b).contains(&s),
                        "{s} names both {} and {}",
                        a.short,
                        b.short
                    );
                }
            }
        }
    }
}
