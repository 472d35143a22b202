//! Shared-function ids: the 4-bit SFID field of a send, and the names iga64 gives it.
//!
//! Source: the numbers were read off `iga64 -a` encodings of `send.<name>` (instruction bits
//! 95:92 on 12p1/12p71); the Gen9/Gen11 comment names follow IGA's
//! `Frontend/SendDescriptorDecoding.cpp` (igc-1.0.12504). iga64 is the judge in
//! `tests/sendmsg_oracle.rs`.

use platform::Platform;

/// A shared function a send can address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sfid {
    Null,
    Sampler,
    Gateway,
    /// Data cache 2 (Gen9+ reuse of the old sampler id).
    Dc2,
    RenderCache,
    Urb,
    /// Thread spawner (end of thread before Xe-HPG).
    ThreadSpawner,
    Vme,
    /// Read-only data cache (constant cache).
    Dcro,
    Dc0,
    PixelInterpolator,
    Dc1,
    Cre,
    /// Xe-HPG bindless thread dispatcher.
    Btd,
    /// Xe-HPG ray tracing accelerator.
    Rta,
    /// LSC typed global memory.
    Tgm,
    /// LSC shared local memory.
    Slm,
    /// LSC untyped global memory.
    Ugm,
    /// LSC untyped global memory, low bandwidth.
    Ugml,
}

/// One SFID: its encoding per platform generation and its names.
struct SfidRow {
    sfid: Sfid,
    /// Encoding on Gen9 and Gen11. iga64 also decodes 1, 14 and 15 there, as the LSC ports
    /// they became on Xe-HPG (nothing emits them; describe() follows iga64).
    gen9_11: Option<u8>,
    /// Encoding on Gen12LP.
    gen12: Option<u8>,
    /// Encoding on Xe-HPG (12p71).
    xe_hpg: Option<u8>,
    /// `send.<mnemonic>` suffix on Gen12LP and later.
    mnemonic: &'static str,
    /// Name in the send comment on Gen9/Gen11 (`hdc.dc0`, `spawner`, ...).
    comment: &'static str,
}

#[rustfmt::skip]
const SFIDS: [SfidRow; 19] = [
    SfidRow { sfid: Sfid::Null, gen9_11: Some(0), gen12: Some(0), xe_hpg: Some(0), mnemonic: "null", comment: "null" },
    SfidRow { sfid: Sfid::Ugml, gen9_11: Some(1), gen12: None, xe_hpg: Some(1), mnemonic: "ugml", comment: "?" },
    SfidRow { sfid: Sfid::Sampler, gen9_11: Some(2), gen12: Some(2), xe_hpg: Some(2), mnemonic: "smpl", comment: "sampler" },
    SfidRow { sfid: Sfid::Gateway, gen9_11: Some(3), gen12: Some(3), xe_hpg: Some(3), mnemonic: "gtwy", comment: "gateway" },
    SfidRow { sfid: Sfid::Dc2, gen9_11: Some(4), gen12: Some(4), xe_hpg: Some(4), mnemonic: "dc2", comment: "hdc.dc2" },
    SfidRow { sfid: Sfid::RenderCache, gen9_11: Some(5), gen12: Some(5), xe_hpg: Some(5), mnemonic: "rc", comment: "hdc.rc" },
    SfidRow { sfid: Sfid::Urb, gen9_11: Some(6), gen12: Some(6), xe_hpg: Some(6), mnemonic: "urb", comment: "hdc.urb" },
    SfidRow { sfid: Sfid::ThreadSpawner, gen9_11: Some(7), gen12: Some(7), xe_hpg: None, mnemonic: "ts", comment: "spawner" },
    SfidRow { sfid: Sfid::Btd, gen9_11: None, gen12: None, xe_hpg: Some(7), mnemonic: "btd", comment: "?" },
    SfidRow { sfid: Sfid::Vme, gen9_11: Some(8), gen12: Some(8), xe_hpg: None, mnemonic: "vme", comment: "vme" },
    SfidRow { sfid: Sfid::Rta, gen9_11: None, gen12: None, xe_hpg: Some(8), mnemonic: "rta", comment: "?" },
    SfidRow { sfid: Sfid::Dcro, gen9_11: Some(9), gen12: Some(9), xe_hpg: Some(9), mnemonic: "dcro", comment: "hdc.dcro" },
    SfidRow { sfid: Sfid::Dc0, gen9_11: Some(10), gen12: Some(10), xe_hpg: Some(10), mnemonic: "dc0", comment: "hdc.dc0" },
    SfidRow { sfid: Sfid::PixelInterpolator, gen9_11: Some(11), gen12: Some(11), xe_hpg: Some(11), mnemonic: "pixi", comment: "pi" },
    SfidRow { sfid: Sfid::Dc1, gen9_11: Some(12), gen12: Some(12), xe_hpg: Some(12), mnemonic: "dc1", comment: "hdc.dc1" },
    SfidRow { sfid: Sfid::Cre, gen9_11: Some(13), gen12: Some(13), xe_hpg: None, mnemonic: "cre", comment: "cre" },
    SfidRow { sfid: Sfid::Tgm, gen9_11: None, gen12: None, xe_hpg: Some(13), mnemonic: "tgm", comment: "?" },
    SfidRow { sfid: Sfid::Slm, gen9_11: Some(14), gen12: None, xe_hpg: Some(14), mnemonic: "slm", comment: "?" },
    SfidRow { sfid: Sfid::Ugm, gen9_11: Some(15), gen12: None, xe_hpg: Some(15), mnemonic: "ugm", comment: "?" },
];

fn encoding(row: &SfidRow, platform: Platform) -> Option<u8> {
    match platform {
        Platform::Skl | Platform::Icllp => row.gen9_11,
        Platform::Tgllp => row.gen12,
        Platform::Dg2 => row.xe_hpg,
    }
}

impl Sfid {
    fn row(self) -> &'static SfidRow {
        // Every variant has exactly one row.
        SFIDS.iter().find(|r| r.sfid == self).unwrap_or(&SFIDS[0])
    }

    /// The SFID encoded as `bits` on `platform`, if that encoding is assigned.
    pub fn decode(platform: Platform, bits: u8) -> Option<Sfid> {
        SFIDS
            .iter()
            .find(|r| encoding(r, platform) == Some(bits))
            .map(|r| r.sfid)
    }

    /// The 4-bit encoding on `platform`; `None` where the platform lacks this shared function.
    pub fn encode(self, platform: Platform) -> Option<u8> {
        encoding(self.row(), platform)
    }

    /// The `send.<name>` suffix iga64 uses on Gen12LP and later (`dc0`, `ugm`, `gtwy`, ...).
    pub fn mnemonic(self) -> &'static str {
        self.row().mnemonic
    }

    /// The SFID whose `send.<name>` suffix is `name` on `platform` (case-insensitive).
    pub fn from_mnemonic(platform: Platform, name: &str) -> Option<Sfid> {
        SFIDS
            .iter()
            .find(|r| r.mnemonic.eq_ignore_ascii_case(name) && encoding(r, platform).is_some())
            .map(|r| r.sfid)
    }

    /// Whether this shared function is an LSC port (Xe-HPG).
    pub fn is_lsc(self) -> bool {
        matches!(self, Sfid::Ugm | Sfid::Ugml | Sfid::Slm | Sfid::Tgm)
    }
}

/// The name Gen9/Gen11 print for SFID bits `bits` in a send comment (`hdc.dc0`, `spawner`, `?`).
pub fn gen9_comment_name(bits: u8) -> &'static str {
    SFIDS
        .iter()
        .find(|r| r.gen9_11 == Some(bits))
        .map_or("?", |r| r.comment)
}
