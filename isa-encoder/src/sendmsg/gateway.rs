//! Gateway and thread-spawner messages: barrier, events and end of thread.
//!
//! Source: IGA `Backend/Messages/MessageDecoderOther.cpp` and `IR/EnumSendOpInfo.hpp`
//! (igc-1.0.12504); PRM "Message Gateway". Xe-HPG has no thread spawner: EOT goes to the gateway.
//! iga64 is the judge (`tests/sendmsg_oracle.rs`).

use super::fields::bits;

/// Gateway opcodes, desc\[2:0\], and iga64's name for each.
#[rustfmt::skip]
pub const GATEWAY_OPS: [(u32, &str); 6] = [
    (0, "end of thread"),
    (1, "signal event"),
    (2, "monitor event"),
    (3, "unmonitor event"),
    (4, "signal barrier"),
    (6, "wait for event"),
];

/// Gateway opcode values the builders use.
pub const GATEWAY_EOT: u32 = 0;
pub const GATEWAY_BARRIER: u32 = 4;

/// Thread spawner: desc\[2:0\] = 0 is end of thread (desc\[4\] is the EOT request bit).
pub const SPAWNER_EOT_BIT: u32 = 4;

pub fn describe_gateway(desc: u32) -> String {
    let op = bits(desc, 0, 3);
    GATEWAY_OPS
        .iter()
        .find(|(v, _)| *v == op)
        .map_or("?", |(_, name)| name)
        .to_string()
}

pub fn describe_spawner(desc: u32) -> String {
    if bits(desc, 0, 3) == 0 {
        "end of thread"
    } else {
        "?"
    }
    .to_string()
}
