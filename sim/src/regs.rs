//! Engine MMIO registers the command streamer reads and writes (MI_LOAD_REGISTER_*,
//! MI_STORE_REGISTER_MEM). Offsets are relative to the engine's MMIO base, from the kernel's
//! `intel_engine_regs.h`.

use std::collections::HashMap;

use crate::clock::Clock;

/// RING_TIMESTAMP and its high dword, as kmd-iface declares them for the uAPI's REG_READ.
pub use kmd_iface::i915::reg::{RING_TIMESTAMP, RING_TIMESTAMP_UDW};
/// First command streamer general purpose register (16 x 64 bits).
pub const CS_GPR0: u32 = 0x600;
pub const CS_GPR_COUNT: u32 = 16;
/// With "Add CS MMIO Start Offset" (Gen11+) a register offset's low 12 bits are relative to the
/// executing engine's MMIO base.
const CS_MMIO_RELATIVE_MASK: u32 = 0xfff;

/// One context's view of one engine's registers. Registers nobody wrote read as zero; the
/// timestamp is live.
#[derive(Debug, Default, Clone)]
pub struct RegisterFile {
    values: HashMap<u32, u32>,
}

impl RegisterFile {
    pub fn read(&self, mmio_base: u32, clock: &Clock, offset: u32) -> u32 {
        match offset.wrapping_sub(mmio_base) {
            RING_TIMESTAMP => clock.ticks() as u32,
            RING_TIMESTAMP_UDW => (clock.ticks() >> 32) as u32,
            _ => self.values.get(&offset).copied().unwrap_or(0),
        }
    }

    /// Writes a register. The timestamp is read-only, as on hardware.
    pub fn write(&mut self, mmio_base: u32, offset: u32, value: u32) {
        match offset.wrapping_sub(mmio_base) {
            RING_TIMESTAMP | RING_TIMESTAMP_UDW => {}
            _ => {
                self.values.insert(offset, value);
            }
        }
    }
}

/// The register a command names: `offset` itself, or relative to the engine's MMIO base when
/// the command sets "Add CS MMIO Start Offset".
pub fn resolve(mmio_base: u32, offset: u32, cs_relative: bool) -> u32 {
    if cs_relative {
        mmio_base + (offset & CS_MMIO_RELATIVE_MASK)
    } else {
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gprs_hold_values_and_timestamp_is_live() {
        let clock = Clock::new(12_000_000);
        let mut r = RegisterFile::default();
        r.write(0x2000, 0x2000 + CS_GPR0 + 4, 7);
        assert_eq!(r.read(0x2000, &clock, 0x2604), 7);
        assert_eq!(r.read(0x2000, &clock, 0x2608), 0);
        r.write(0x2000, 0x2358, 1234);
        let a = r.read(0x2000, &clock, 0x2358);
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(r.read(0x2000, &clock, 0x2358) != a);
    }

    #[test]
    fn cs_relative_offsets_follow_the_engine() {
        assert_eq!(resolve(0x1a000, 0x600, true), 0x1a600);
        assert_eq!(resolve(0x1a000, 0x2600, true), 0x1a600);
        assert_eq!(resolve(0x1a000, 0x7000, false), 0x7000);
    }
}
