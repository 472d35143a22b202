//! The mnemonic suffix IGA gives a shared-function ID on Gen12+ (`send.dc1`).
//! Gen9/Gen11 print a bare `send`: the SFID sits in `ex_desc[3:0]` there.
//!
//! The SFID numbers and names themselves live in one table, [`crate::sendmsg::sfid`].

use platform::Platform;

use crate::sendmsg::sfid::Sfid;

/// The first platform whose send mnemonics carry the SFID name.
const NAMED_FROM: Platform = Platform::Tgllp;

/// The mnemonic suffix for `sfid` on `platform` (Gen12+), e.g. `dc1`.
pub fn sfid_name(platform: Platform, sfid: u8) -> Option<&'static str> {
    (platform >= NAMED_FROM)
        .then(|| Sfid::decode(platform, sfid))
        .flatten()
        .map(Sfid::mnemonic)
}

/// The SFID spelled `name` on `platform`.
pub fn sfid_from_name(platform: Platform, name: &str) -> Option<u8> {
    (platform >= NAMED_FROM)
        .then(|| Sfid::from_mnemonic(platform, name))
        .flatten()
        .and_then(|s| s.encode(platform))
}
