//! COMPUTE_WALKER's post-sync write (POSTSYNC_DATA), done once every thread of the walker ended.
//!
//! Write Immediate Data stores the 64-bit Immediate Data at the destination. Write Timestamp
//! stores four 32-bit timestamps (ATSM/DG2 PRM Vol. 2d, POSTSYNC_DATA, "The timestamp layout";
//! quoted in Mesa's anv_utrace.c): [`TIMESTAMP_LAYOUT`]. NEO's timestamp packets rely on it: its
//! dependency semaphores wait until the context-end dword (byte 8) leaves its initial value 1.

use batchbuffer::{Operation, PostsyncData};

use crate::clock::Clock;
use crate::mem::{AddressSpace, GpuFault};

/// One of the 32-bit values a timestamp post-sync writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamp {
    ContextStart,
    GlobalStart,
    ContextEnd,
    GlobalEnd,
}

/// The dwords a Write Timestamp post-sync stores, in address order from the destination.
pub const TIMESTAMP_LAYOUT: [Stamp; 4] = [
    Stamp::ContextStart,
    Stamp::GlobalStart,
    Stamp::ContextEnd,
    Stamp::GlobalEnd,
];

/// Performs `ps` for a walker that started at RING_TIMESTAMP `start` and ends now.
///
/// The simulator keeps no per-context timestamp (CTX_TIMESTAMP): the context values are the
/// same counter as the global ones, so end − start is the walker's duration in both.
pub fn write(
    ps: &PostsyncData,
    memory: &AddressSpace,
    clock: &Clock,
    start: u64,
) -> Result<(), GpuFault> {
    match ps.operation {
        Operation::NoWrite => Ok(()),
        Operation::WriteTimestamp => {
            let end = clock.ticks();
            let bytes: Vec<u8> = TIMESTAMP_LAYOUT
                .iter()
                .flat_map(|s| {
                    let t = match s {
                        Stamp::ContextStart | Stamp::GlobalStart => start,
                        Stamp::ContextEnd | Stamp::GlobalEnd => end,
                    };
                    (t as u32).to_le_bytes()
                })
                .collect();
            memory.write(ps.destination_address, &bytes)
        }
        Operation::WriteImmediateData => {
            memory.write_u64(ps.destination_address, ps.immediate_data)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::{Bo, PAGE_SIZE};

    fn memory() -> AddressSpace {
        let mut vm = AddressSpace::new();
        let bo = Bo::new(PAGE_SIZE).unwrap();
        vm.bind(0x1_0000, PAGE_SIZE, bo, 0, false).unwrap();
        vm
    }

    fn post_sync(operation: Operation) -> PostsyncData {
        PostsyncData {
            operation,
            hdc_pipeline_flush: false,
            l3_flush: false,
            mocs: 0,
            destination_address: 0x1_0040,
            immediate_data: 0x1122_3344_5566_7788,
        }
    }

    #[test]
    fn timestamp_writes_four_dwords_start_start_end_end() {
        let vm = memory();
        // NEO's timestamp packet before the walker: every dword 1.
        for i in 0..6 {
            vm.write_u32(0x1_0040 + 4 * i, 1).unwrap();
        }
        let clock = Clock::new(19_200_000);
        std::thread::sleep(std::time::Duration::from_millis(2));
        let start = clock.ticks();
        std::thread::sleep(std::time::Duration::from_millis(2));
        write(&post_sync(Operation::WriteTimestamp), &vm, &clock, start).unwrap();
        let after = clock.ticks();
        let d: Vec<u32> = (0..6)
            .map(|i| vm.read_u32(0x1_0040 + 4 * i).unwrap())
            .collect();
        assert_eq!(d[0], start as u32, "context start");
        assert_eq!(d[1], start as u32, "global start");
        assert_eq!(d[2], d[3], "context and global end: one counter");
        assert!(
            d[2] > d[0] && u64::from(d[2]) <= after,
            "end {d:?} after {after}"
        );
        assert_eq!(&d[4..], &[1, 1], "nothing past the 16 bytes");
    }

    #[test]
    fn immediate_data_is_one_qword() {
        let vm = memory();
        let clock = Clock::new(19_200_000);
        write(&post_sync(Operation::WriteImmediateData), &vm, &clock, 0).unwrap();
        assert_eq!(vm.read_u64(0x1_0040).unwrap(), 0x1122_3344_5566_7788);
        write(&post_sync(Operation::NoWrite), &vm, &clock, 0).unwrap();
        assert_eq!(vm.read_u64(0x1_0040).unwrap(), 0x1122_3344_5566_7788);
    }
}
