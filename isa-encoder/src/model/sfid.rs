//! Shared-function IDs and the mnemonic suffix IGA gives them on Gen12+ (`send.dc1`).
//! Gen9/Gen11 print a bare `send`: the SFID sits in `ex_desc[3:0]` there.

use platform::Platform;

/// SFID value -> name, one column per platform ([`Platform::ALL`] order). `None`: no name
/// (Gen9/Gen11 never print one; on Gen12+ an unnamed SFID cannot be written in IGA syntax).
/// Verified by assembling `send.<name>` with `iga64 -a` (SFID is bits [95:92] on Gen12+).
const SFID_NAMES: [[Option<&str>; 4]; 16] = [
    [None, None, Some("null"), Some("null")],
    [None, None, None, Some("ugml")],
    [None, None, Some("smpl"), Some("smpl")],
    [None, None, Some("gtwy"), Some("gtwy")],
    [None, None, Some("dc2"), Some("dc2")],
    [None, None, Some("rc"), Some("rc")],
    [None, None, Some("urb"), Some("urb")],
    [None, None, Some("ts"), Some("btd")],
    [None, None, Some("vme"), Some("rta")],
    [None, None, Some("dcro"), Some("dcro")],
    [None, None, Some("dc0"), Some("dc0")],
    [None, None, Some("pixi"), Some("pixi")],
    [None, None, Some("dc1"), Some("dc1")],
    [None, None, Some("cre"), Some("tgm")],
    [None, None, None, Some("slm")],
    [None, None, None, Some("ugm")],
];

/// The mnemonic suffix for `sfid` on `platform` (Gen12+), e.g. `dc1`.
pub fn sfid_name(platform: Platform, sfid: u8) -> Option<&'static str> {
    SFID_NAMES.get(sfid as usize)?[platform as usize]
}

/// The SFID spelled `name` on `platform`.
pub fn sfid_from_name(platform: Platform, name: &str) -> Option<u8> {
    SFID_NAMES
        .iter()
        .position(|row| row[platform as usize] == Some(name))
        .map(|i| i as u8)
}
