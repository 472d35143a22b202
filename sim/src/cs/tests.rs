//! Command streamer behaviour, with batches built by `batchbuffer`'s packers.

use std::sync::Arc;
use std::time::Duration;

use batchbuffer::*;
use platform::Platform;

use super::*;
use crate::clock::Clock;
use crate::device_info::DeviceInfo;
use crate::gpu_error::{GpuErrorKind, HangReason};
use crate::mem::{Access, AddressSpace, Bo};
use crate::regs::RegisterFile;

const BATCH: u64 = 0x10_0000;
const DATA: u64 = 0x20_0000;

struct Rig {
    p: Platform,
    ring: EngineRing,
    vm: AddressSpace,
    batch: Arc<Bo>,
    data: Arc<Bo>,
    regs: RegisterFile,
    compute: ComputeState,
    clock: Clock,
}

impl Rig {
    fn new(p: Platform) -> Rig {
        let info = DeviceInfo::get(p);
        let mut vm = AddressSpace::new();
        let batch = Bo::new(0x2000).unwrap();
        let data = Bo::new(0x1000).unwrap();
        vm.bind(BATCH, 0x2000, batch.clone(), 0, false).unwrap();
        vm.bind(DATA, 0x1000, data.clone(), 0, false).unwrap();
        Rig {
            p,
            ring: EngineRing::new(&info.engines[0]).unwrap(),
            vm,
            batch,
            data,
            regs: RegisterFile::default(),
            compute: ComputeState::default(),
            clock: Clock::new(info.timestamp_hz),
        }
    }

    /// Packs `cmds` (each packs itself) into the batch at `offset`.
    fn put(&self, offset: u64, dw: &[u32]) {
        let bytes: Vec<u8> = dw.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.batch.write(offset, &bytes).unwrap();
    }

    fn run(&mut self, budget: Budget) -> Result<(), CsError> {
        self.run_logged(budget, None)
    }

    fn run_logged(&mut self, budget: Budget, log: Option<&mut CommandLog>) -> Result<(), CsError> {
        self.ring.submit(RingRun {
            platform: self.p,
            topology: DeviceInfo::get(self.p).topology,
            clock: &self.clock,
            ppgtt: &self.vm,
            regs: &mut self.regs,
            compute: &mut self.compute,
            walker: &NoWalkerExecutor,
            sanitizer: None,
            budget,
            timer: &super::GpuTimer::new(super::HangRule::None),
            batch: BATCH,
            log,
        })
    }

    fn data_u32(&self, off: usize) -> u32 {
        self.data.mapping().load_u32(off).unwrap()
    }
}

fn pack(p: Platform, pk: &impl Packet) -> Vec<u32> {
    let mut out = vec![0u32; 64];
    let n = pk.pack(p, &mut out).unwrap();
    out.truncate(n);
    out
}

fn sdi(p: Platform, addr: u64, v: u32) -> Vec<u32> {
    pack(
        p,
        &MiStoreDataImm {
            address: addr,
            immediate_data: v.into(),
            ..Default::default()
        },
    )
}

fn end(p: Platform) -> Vec<u32> {
    pack(p, &MiBatchBufferEnd::default())
}

fn bb_start(p: Platform, addr: u64, second: bool) -> Vec<u32> {
    pack(
        p,
        &MiBatchBufferStart {
            address_space_indicator: AddressSpaceIndicator::Ppgtt,
            second_level_batch_buffer: if second {
                SecondLevelBatchBuffer::SecondLevelBatch
            } else {
                SecondLevelBatchBuffer::FirstLevelBatch
            },
            batch_buffer_start_address: addr,
            ..Default::default()
        },
    )
}

#[test]
fn store_dword_reaches_memory_on_every_platform() {
    for p in Platform::ALL {
        let mut r = Rig::new(p);
        let mut b = sdi(p, DATA + 8, 0xc0ffee);
        b.extend(end(p));
        r.put(0, &b);
        // Two submissions: the ring keeps working after the first.
        r.run(Budget::default()).unwrap();
        r.run(Budget::default()).unwrap();
        assert_eq!(r.data_u32(8), 0xc0ffee, "{p}");
        assert_eq!(r.ring.completed_seqno(), 2);
    }
}

#[test]
fn chained_and_second_level_batches() {
    let p = Platform::Tgllp;
    let mut r = Rig::new(p);
    // 0x000: SDI a; BB_START 2nd level -> 0x800; SDI c; BB_START chain -> 0x1000
    // 0x800: SDI b; BB_END (returns)        0x1000: SDI d; BB_END (ends the batch)
    let mut main = sdi(p, DATA, 1);
    main.extend(bb_start(p, BATCH + 0x800, true));
    main.extend(sdi(p, DATA + 8, 3));
    main.extend(bb_start(p, BATCH + 0x1000, false));
    let mut sub = sdi(p, DATA + 4, 2);
    sub.extend(end(p));
    let mut tail = sdi(p, DATA + 12, 4);
    tail.extend(end(p));
    r.put(0, &main);
    r.put(0x800, &sub);
    r.put(0x1000, &tail);
    r.run(Budget::default()).unwrap();
    let got: Vec<u32> = (0..4).map(|i| r.data_u32(i * 4)).collect();
    assert_eq!(got, [1, 2, 3, 4]);
}

#[test]
fn registers_and_timestamps() {
    let p = Platform::Icllp;
    let mut r = Rig::new(p);
    let gpr0 = 0x2600;
    let mut b = pack(
        p,
        &MiLoadRegisterImm {
            register_offset: gpr0,
            data_dword: 0x1234_5678,
            ..Default::default()
        },
    );
    b.extend(pack(
        p,
        &MiLoadRegisterReg {
            source_register_address: gpr0,
            destination_register_address: gpr0 + 8,
            ..Default::default()
        },
    ));
    b.extend(pack(
        p,
        &MiStoreRegisterMem {
            register_address: gpr0 + 8,
            memory_address: DATA,
            ..Default::default()
        },
    ));
    b.extend(pack(
        p,
        &MiLoadRegisterMem {
            register_address: gpr0 + 16,
            memory_address: DATA,
            ..Default::default()
        },
    ));
    b.extend(pack(
        p,
        &MiStoreRegisterMem {
            register_address: 0x2358,
            memory_address: DATA + 8,
            ..Default::default()
        },
    ));
    b.extend(pack(
        p,
        &PipeControl {
            post_sync_operation: PostSyncOperation::WriteTimestamp,
            address: DATA + 16,
            ..Default::default()
        },
    ));
    b.extend(pack(
        p,
        &PipeControl {
            post_sync_operation: PostSyncOperation::WriteImmediateData,
            address: DATA + 24,
            immediate_data: 0xaaaa_bbbb_cccc_dddd,
            ..Default::default()
        },
    ));
    b.extend(end(p));
    r.put(0, &b);
    std::thread::sleep(Duration::from_millis(1));
    r.run(Budget::default()).unwrap();
    assert_eq!(r.data_u32(0), 0x1234_5678);
    assert_eq!(r.regs.read(0x2000, &r.clock, gpr0 + 16), 0x1234_5678);
    assert!(r.data_u32(8) > 0, "SRM of RING_TIMESTAMP");
    let ts = r.data.mapping().load_u64(16).unwrap();
    assert!(ts > 0 && ts <= r.clock.ticks());
    assert_eq!(
        r.data.mapping().load_u64(24).unwrap(),
        0xaaaa_bbbb_cccc_dddd
    );
}

#[test]
fn semaphore_wait_passes_when_satisfied_and_hangs_otherwise() {
    let p = Platform::Dg2;
    let wait = |op, data| {
        pack(
            p,
            &MiSemaphoreWait {
                compare_operation: op,
                wait_mode: WaitMode::PollingMode,
                semaphore_data_dword: data,
                semaphore_address: DATA + 0x100,
                ..Default::default()
            },
        )
    };
    let mut r = Rig::new(p);
    r.data.write(0x100, &5u32.to_le_bytes()).unwrap();
    let mut b = wait(CompareOperation::SadGreaterThanOrEqualSdd, 5);
    b.extend(wait(CompareOperation::SadNotEqualSdd, 4));
    b.extend(sdi(p, DATA, 9));
    b.extend(end(p));
    r.put(0, &b);
    r.run(Budget::default()).unwrap();
    assert_eq!(r.data_u32(0), 9);

    let mut b = wait(CompareOperation::SadEqualSdd, 6);
    b.extend(end(p));
    r.put(0, &b);
    let short = Budget {
        commands: u64::MAX,
        time: Duration::from_millis(50),
    };
    let e = r.run(short).unwrap_err();
    assert!(matches!(
        e.kind,
        GpuErrorKind::Hang(HangReason::Watchdog { .. })
    ));
    assert_eq!(e.head, BATCH);
}

#[test]
fn self_loop_is_a_hang_within_budget() {
    let p = Platform::Skl;
    let mut r = Rig::new(p);
    r.put(0, &bb_start(p, BATCH, false));
    // Stopped by the command budget (not by host time): one command past it.
    let budget = Budget::default();
    let e = r.run(budget).unwrap_err();
    assert!(matches!(
        e.kind,
        GpuErrorKind::Hang(HangReason::Watchdog { commands }) if commands == budget.commands + 1
    ));
    // The engine was reset past the request: the next one runs.
    let mut b = sdi(p, DATA, 7);
    b.extend(end(p));
    r.put(0, &b);
    r.run(Budget::default()).unwrap();
    assert_eq!(r.data_u32(0), 7);
}

#[test]
fn faults_and_bad_commands_are_reported_with_addresses() {
    let p = Platform::Tgllp;
    let mut r = Rig::new(p);
    let mut b = sdi(p, 0xdead_0000, 1);
    b.extend(end(p));
    r.put(0, &b);
    let e = r.run(Budget::default()).unwrap_err();
    assert_eq!(e.head, BATCH);
    match e.kind {
        GpuErrorKind::PageFault { fault: f, by: None } => {
            assert_eq!((f.address, f.access), (0xdead_0000, Access::Write))
        }
        k => panic!("{k:?}"),
    }

    // Opcode 0x3f of MI is not a command: an unknown header.
    r.put(0, &[0x1f80_0000, 0]);
    let e = r.run(Budget::default()).unwrap_err();
    assert!(matches!(
        e.kind,
        GpuErrorKind::Hang(HangReason::BadCommand {
            header: 0x1f80_0000,
            ..
        })
    ));

    // Running off the end of the batch's binding: fetch fault.
    r.put(0, &bb_start(p, BATCH + 0x1ffc, false));
    r.put(0x1ffc, &[0]);
    let e = r.run(Budget::default()).unwrap_err();
    match e.kind {
        GpuErrorKind::PageFault { fault: f, by: None } => {
            assert_eq!((f.address, f.access), (BATCH + 0x2000, Access::Read))
        }
        k => panic!("{k:?}"),
    }

    // Three levels of batches: deeper than the hardware nests.
    r.put(0, &bb_start(p, BATCH + 0x100, true));
    r.put(0x100, &bb_start(p, BATCH + 0x200, true));
    let e = r.run(Budget::default()).unwrap_err();
    assert!(matches!(
        e.kind,
        GpuErrorKind::Hang(HangReason::BatchNesting { depth: 3 })
    ));
}

#[test]
fn state_is_recorded_and_walkers_go_to_the_executor() {
    let p = Platform::Dg2;
    let mut r = Rig::new(p);
    let mut b = pack(
        p,
        &PipelineSelect {
            pipeline_selection: PipelineSelection::Gpgpu,
            ..Default::default()
        },
    );
    let sba = pack(p, &StateBaseAddress::default());
    b.extend(&sba);
    b.extend(pack(p, &ComputeWalker::default()));
    b.extend(end(p));
    r.put(0, &b);
    let e = r.run(Budget::default()).unwrap_err();
    assert!(
        matches!(&e.kind, GpuErrorKind::Hang(HangReason::Unsupported { packet }) if packet.contains("COMPUTE_WALKER")),
        "{e:?}"
    );
    assert_eq!(r.compute.pipeline, Some(PipelineSelection::Gpgpu));
    assert_eq!(r.compute.get(PacketId::StateBaseAddress), Some(&sba[..]));
}

#[test]
fn semaphore_wait_sees_a_cpu_write_made_while_it_polls() {
    let p = Platform::Tgllp;
    let mut r = Rig::new(p);
    let mut b = pack(
        p,
        &MiSemaphoreWait {
            compare_operation: CompareOperation::SadEqualSdd,
            wait_mode: WaitMode::PollingMode,
            semaphore_data_dword: 1,
            semaphore_address: DATA + 0x200,
            ..Default::default()
        },
    );
    b.extend(sdi(p, DATA, 0x5e));
    b.extend(end(p));
    r.put(0, &b);
    let cpu = r.data.mapping();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        cpu.write(0x200, &1u32.to_le_bytes()).unwrap();
    });
    r.run(Budget::default()).unwrap();
    writer.join().unwrap();
    assert_eq!(r.data_u32(0), 0x5e);
}

#[test]
fn the_command_log_holds_the_executed_batch_commands_in_order() {
    let p = Platform::Tgllp;
    let mut rig = Rig::new(p);
    // batch: SDI, jump (first level) to 0x800, where: SDI, END. The dwords between are skipped.
    let first = [sdi(p, DATA, 1), bb_start(p, BATCH + 0x800, false)].concat();
    rig.put(0, &first);
    rig.put(first.len() as u64 * 4, &sdi(p, DATA + 4, 99));
    let second = [sdi(p, DATA + 8, 2), end(p)].concat();
    rig.put(0x800, &second);
    let mut log = CommandLog::default();
    rig.run_logged(Budget::default(), Some(&mut log)).unwrap();
    assert_eq!(log.dwords, [first, second].concat());
    assert!(log.dispatches.is_empty());
    assert_eq!(
        (rig.data_u32(0), rig.data_u32(4), rig.data_u32(8)),
        (1, 0, 2)
    );
}
