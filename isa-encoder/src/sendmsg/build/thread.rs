//! Builders for thread-control messages: end of thread and barrier.

use platform::Platform;

use super::{finish, Message, Result};
use crate::sendmsg::gateway::{GATEWAY_BARRIER, GATEWAY_EOT, SPAWNER_EOT_BIT};
use crate::sendmsg::sfid::Sfid;

/// End of thread: to the thread spawner before Xe-HPG, to the gateway on Xe-HPG. src0 is r0's
/// copy (usually r127).
pub fn end_of_thread(platform: Platform) -> Result<Message> {
    if platform >= Platform::Dg2 {
        finish(
            Sfid::Gateway,
            GATEWAY_EOT | 1 << SPAWNER_EOT_BIT,
            0,
            1,
            0,
            0,
            false,
        )
    } else {
        finish(Sfid::ThreadSpawner, 1 << SPAWNER_EOT_BIT, 0, 1, 0, 0, false)
    }
}

/// Barrier signal to the gateway: src0 holds the barrier id and counts (from r0.2).
pub fn barrier(_platform: Platform) -> Result<Message> {
    finish(Sfid::Gateway, GATEWAY_BARRIER, 0, 1, 0, 0, false)
}
