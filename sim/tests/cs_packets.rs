//! Command-streamer packets real clients (NEO, IGT) put in their batches, executed through the
//! i915 uAPI on every simulated platform: MI_ATOMIC, MI_PREDICATE with predicated
//! MI_BATCH_BUFFER_START and MI_STORE_REGISTER_MEM, PIPE_CONTROL post-sync writes, chained and
//! second-level batches, and an MI_SEMAPHORE_WAIT released by another context's batch.
//!
//! Expected values follow the PRM's definitions of each operation (Vol. 2a: MI_ATOMIC's
//! operation table, MI_PREDICATE's load/combine rules), computed here by hand.

use crate::common;

use std::sync::Arc;

use batchbuffer::*;
use common::*;
use kmd_iface::i915::uapi::*;
use kmd_iface::i915::{ContextParams, Execbuf, PinnedObject};
use platform::Platform;
use sim::cs::NoWalkerExecutor;
use sim::gpu::{GpuErrorKind, HangReason};
use sim::Kmd;

const BATCH: u64 = 0x10_0000;
const DATA: u64 = 0x20_0000;
/// MI_PREDICATE_SRC0/SRC1 (Mesa's and NEO's render-engine offsets).
const SRC0: u32 = 0x2400;
const SRC1: u32 = 0x2408;
/// CS_GPR0 of the render engine (base 0x2000 + 0x600).
const GPR0: u32 = 0x2600;

fn pk(p: Platform, out: &mut Vec<u32>, packet: &impl Packet) {
    let mut buf = [0u32; 16];
    let n = packet.pack(p, &mut buf).unwrap();
    out.extend_from_slice(&buf[..n]);
}

fn end(p: Platform, out: &mut Vec<u32>) {
    pk(p, out, &MiBatchBufferEnd::default());
}

fn sdi(p: Platform, out: &mut Vec<u32>, address: u64, value: u32) {
    pk(
        p,
        out,
        &MiStoreDataImm {
            address,
            immediate_data: value.into(),
            ..Default::default()
        },
    );
}

fn lri(p: Platform, out: &mut Vec<u32>, pairs: &[(u32, u32)]) {
    pk(p, out, &MiLoadRegisterImm::from_pairs(pairs).unwrap());
}

fn bbs(p: Platform, out: &mut Vec<u32>, to: u64, second: bool, predicated: bool) {
    pk(
        p,
        out,
        &MiBatchBufferStart {
            address_space_indicator: AddressSpaceIndicator::Ppgtt,
            second_level_batch_buffer: if second {
                SecondLevelBatchBuffer::SecondLevelBatch
            } else {
                SecondLevelBatchBuffer::FirstLevelBatch
            },
            predication_enable: predicated,
            batch_buffer_start_address: to,
            ..Default::default()
        },
    );
}

fn atomic(op: AtomicOpcode, size: AtomicDataSize, at: u64, src0: u64, src1: u64) -> MiAtomic {
    let inline = !matches!(
        op,
        AtomicOpcode::Inc | AtomicOpcode::Dec | AtomicOpcode::Inc8b | AtomicOpcode::Dec8b
    );
    MiAtomic {
        atomic_opcode: op,
        data_size: size,
        inline_data: inline,
        memory_address: at,
        operand1_data_dword_0: src0 as u32,
        operand1_data_dword_1: (src0 >> 32) as u32,
        operand2_data_dword_0: src1 as u32,
        operand2_data_dword_1: (src1 >> 32) as u32,
        ..Default::default()
    }
}

/// Runs `batch` (at BATCH, 8 KiB) with a 4 KiB data buffer at DATA holding `data`; returns the
/// data buffer's first `len` bytes, or the wait's error.
fn run(g: &I915Gpu, batch: &[u32], data: &[u8], len: usize) -> Result<Vec<u8>, String> {
    let b = g.bo(&bytes(batch), 0x2000);
    let d = g.bo(data, 0x1000);
    let objs = [
        Placed {
            gpu_address: BATCH,
            handle: b,
            write: false,
        },
        Placed {
            gpu_address: DATA,
            handle: d,
            write: true,
        },
    ];
    let r = g.exec(&objs, 1).map(|_| g.read(d, len, 0x1000));
    g.close(&objs);
    r
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn gpu(p: Platform) -> I915Gpu {
    i915_gpu(p, Arc::new(NoWalkerExecutor))
}

#[test]
fn mi_atomic_dword_and_qword_operations() {
    use AtomicDataSize::{Dword, Qword};
    use AtomicOpcode::*;
    // (op, size, initial, src0, src1, expected) per the PRM's operation table.
    let cases: &[(AtomicOpcode, AtomicDataSize, u64, u64, u64, u64)] = &[
        (Inc, Dword, 0xffff_ffff, 0, 0, 0),
        (Dec, Dword, 5, 0, 0, 4),
        (Add, Dword, 40, 2, 0, 42),
        (Sub, Dword, 2, 3, 0, 0xffff_ffff),
        (Rsub, Dword, 3, 10, 0, 7),
        (And, Dword, 0xf0f0, 0xff00, 0, 0xf000),
        (Or, Dword, 0xf0f0, 0x0f00, 0, 0xfff0),
        (Xor, Dword, 0xff, 0x0f, 0, 0xf0),
        (Move, Dword, 1, 0xdead_beef, 0, 0xdead_beef),
        // -2 against 5: signed max is 5, unsigned max is -2.
        (Imax, Dword, 0xffff_fffe, 5, 0, 5),
        (Umax, Dword, 0xffff_fffe, 5, 0, 0xffff_fffe),
        (Imin, Dword, 0xffff_fffe, 5, 0, 0xffff_fffe),
        (Umin, Dword, 0xffff_fffe, 5, 0, 5),
        (CmpWr, Dword, 7, 7, 99, 99),
        (CmpWr, Dword, 8, 7, 99, 8),
        (Inc8b, Qword, 0xffff_ffff, 0, 0, 0x1_0000_0000),
        (Add8b, Qword, 0x1_0000_0000, 0x2_0000_0001, 0, 0x3_0000_0001),
        (
            Move8b,
            Qword,
            0,
            0x1234_5678_9abc_def0,
            0,
            0x1234_5678_9abc_def0,
        ),
        (Imin8b, Qword, u64::MAX, 1, 0, u64::MAX),
        (CmpWr8b, Qword, 1 << 40, 1 << 40, 3, 3),
    ];
    for p in platforms(Kmd::I915) {
        let g = gpu(p);
        let mut batch = Vec::new();
        let mut data = Vec::new();
        for (i, &(op, size, init, src0, src1, _)) in cases.iter().enumerate() {
            data.extend(init.to_le_bytes());
            pk(
                p,
                &mut batch,
                &atomic(op, size, DATA + 8 * i as u64, src0, src1),
            );
        }
        end(p, &mut batch);
        let out = run(&g, &batch, &data, data.len()).unwrap();
        for (i, (&(op, size, init, .., want), got)) in cases.iter().zip(u64s(&out)).enumerate() {
            // A dword operation leaves the slot's high dword alone.
            let want = if size == Dword {
                (init & !0xffff_ffff) | want
            } else {
                want
            };
            assert_eq!(got, want, "{p} case {i}: {op:?}");
        }
    }
}

/// Forms the simulator does not execute stop the batch with a GPU error naming them, and a
/// Data Size that disagrees with the opcode is a bad command.
#[test]
fn mi_atomic_refusals_are_specific() {
    let p = Platform::Tgllp;
    let unsupported = [
        MiAtomic {
            return_data_control: true,
            ..atomic(AtomicOpcode::Inc, AtomicDataSize::Dword, DATA, 0, 0)
        },
        MiAtomic {
            // Operands would come from the GPRs (the 3-dword form has none inline).
            inline_data: false,
            ..atomic(AtomicOpcode::Add, AtomicDataSize::Dword, DATA, 0, 0)
        },
    ];
    for a in unsupported {
        let g = gpu(p);
        let mut batch = Vec::new();
        pk(p, &mut batch, &a);
        end(p, &mut batch);
        assert!(run(&g, &batch, &[0; 8], 8).is_err());
        let e = &g.dev.error_states()[0];
        assert!(
            matches!(&e.kind, GpuErrorKind::Hang(HangReason::Unsupported { packet }) if packet.starts_with("MI_ATOMIC")),
            "{:?}",
            e.kind
        );
    }
    let g = gpu(p);
    let mut batch = Vec::new();
    pk(
        p,
        &mut batch,
        &atomic(AtomicOpcode::Inc, AtomicDataSize::Qword, DATA, 0, 0),
    );
    end(p, &mut batch);
    assert!(run(&g, &batch, &[0; 8], 8).is_err());
    assert!(matches!(
        g.dev.error_states()[0].kind,
        GpuErrorKind::Hang(HangReason::BadCommand { .. })
    ));
}

/// MI_PREDICATE from SRC0 == SRC1, then a predicated second-level batch (runs only while the
/// predicate is set) and a predicated MI_STORE_REGISTER_MEM.
#[test]
fn predicated_batch_start_and_store_register_mem() {
    let second_at = BATCH + 0x1000;
    for p in platforms(Kmd::I915) {
        let g = gpu(p);
        let mut b = Vec::new();
        let pred = |b: &mut Vec<u32>, load: PredicateLoad| {
            pk(
                p,
                b,
                &MiPredicate {
                    compare_operation: PredicateCompare::SrcsEqual,
                    combine_operation: PredicateCombine::Set,
                    load_operation: load,
                },
            )
        };
        let srm = |b: &mut Vec<u32>, at: u64| {
            pk(
                p,
                b,
                &MiStoreRegisterMem {
                    predicate_enable: true,
                    register_address: GPR0,
                    memory_address: at,
                    ..Default::default()
                },
            )
        };
        lri(
            p,
            &mut b,
            &[(SRC0, 5), (SRC0 + 4, 1), (SRC1, 5), (SRC1 + 4, 1)],
        );
        lri(p, &mut b, &[(GPR0, 0x600d)]);
        // Equal sources, LOAD: set. The second-level batch runs and returns here.
        pred(&mut b, PredicateLoad::Load);
        bbs(p, &mut b, second_at, true, true);
        srm(&mut b, DATA + 8);
        // LOADINV: clear. Neither runs.
        pred(&mut b, PredicateLoad::Loadinv);
        bbs(p, &mut b, second_at + 0x100, true, true);
        srm(&mut b, DATA + 12);
        // Sources differ in the high dword only: the 64-bit compare says unequal.
        lri(p, &mut b, &[(SRC1 + 4, 2)]);
        pred(&mut b, PredicateLoad::Load);
        srm(&mut b, DATA + 16);
        sdi(p, &mut b, DATA + 20, 0xe0d);
        end(p, &mut b);
        let mut second = Vec::new();
        sdi(p, &mut second, DATA, 0x5ec);
        end(p, &mut second);
        let mut not_run = Vec::new();
        sdi(p, &mut not_run, DATA + 4, 0xbad);
        end(p, &mut not_run);
        let mut all = b.clone();
        all.resize(0x400, 0);
        all.extend(&second);
        all.resize(0x440, 0);
        all.extend(&not_run);
        let out = u32s(&run(&g, &all, &[0; 24], 24).unwrap());
        assert_eq!(out, [0x5ec, 0, 0x600d, 0, 0, 0xe0d], "{p}");
    }
}

/// Batches chained by first-level MI_BATCH_BUFFER_START (no return), a second-level call that
/// returns, and PIPE_CONTROL post-sync writes of immediate data and of the timestamp.
#[test]
fn chained_batches_and_pipe_control_post_sync() {
    for p in platforms(Kmd::I915) {
        let g = gpu(p);
        let (second, third) = (BATCH + 0x800, BATCH + 0x1000);
        let mut a = Vec::new();
        sdi(p, &mut a, DATA, 1);
        bbs(p, &mut a, second, false, false);
        sdi(p, &mut a, DATA + 4, 0xbad); // never reached: a first-level start does not return
        let mut b = Vec::new();
        bbs(p, &mut b, third, true, false);
        sdi(p, &mut b, DATA + 8, 3); // after the second-level batch returns
        pk(
            p,
            &mut b,
            &PipeControl {
                command_streamer_stall_enable: true,
                post_sync_operation: PostSyncOperation::WriteImmediateData,
                address: DATA + 16,
                immediate_data: 0x1122_3344_5566_7788,
                ..Default::default()
            },
        );
        pk(
            p,
            &mut b,
            &PipeControl {
                command_streamer_stall_enable: true,
                post_sync_operation: PostSyncOperation::WriteTimestamp,
                address: DATA + 24,
                ..Default::default()
            },
        );
        end(p, &mut b);
        let mut c = Vec::new();
        sdi(p, &mut c, DATA + 12, 4);
        end(p, &mut c);
        let mut all = a;
        all.resize(0x200, 0);
        all.extend(&b);
        all.resize(0x400, 0);
        all.extend(&c);
        let out = run(&g, &all, &[0; 32], 32).unwrap();
        assert_eq!(u32s(&out[..16]), [1, 0, 3, 4], "{p}");
        assert_eq!(u64s(&out[16..24]), [0x1122_3344_5566_7788], "{p}");
        assert_ne!(u64s(&out[24..32]), [0], "{p}: the timestamp is running");
    }
}

/// Context A's batch waits on a semaphore in a VM it shares with context B; B's batch releases
/// it with MI_ATOMIC MOVE. A finishes only then.
#[test]
fn semaphore_released_by_another_contexts_batch() {
    for p in platforms(Kmd::I915) {
        let g = gpu(p);
        let d = &g.i915;
        let vm = d.vm_create().unwrap();
        let ctx = |_| {
            d.context_create(&ContextParams {
                vm_id: Some(vm),
                ..Default::default()
            })
            .unwrap()
        };
        let (a, b) = (ctx(0), ctx(1));
        let sem = DATA;
        let waiter = semaphore_store_batch(p, sem, DATA + 8, 0xa11);
        let mut release = Vec::new();
        pk(
            p,
            &mut release,
            &atomic(AtomicOpcode::Move, AtomicDataSize::Dword, sem, 1, 0),
        );
        end(p, &mut release);
        let wb = g.bo(&waiter, 0x1000);
        let rb = g.bo(&bytes(&release), 0x1000);
        let data = g.bo(&[0; 16], 0x1000);
        // The release must not wait for the waiter, which writes the same object: without
        // EXEC_OBJECT_ASYNC the kernel would order it behind (implicit synchronisation).
        let submit = |ctx_id, batch, no_implicit_sync| {
            d.execbuffer2(&Execbuf {
                objects: &[
                    PinnedObject {
                        handle: batch,
                        gpu_address: BATCH,
                        write: false,
                    },
                    PinnedObject {
                        handle: data,
                        gpu_address: DATA,
                        write: true,
                    },
                ],
                engine: I915_EXEC_RENDER,
                ctx_id,
                no_implicit_sync,
                ..Default::default()
            })
            .unwrap()
        };
        submit(a, wb, false);
        // Still waiting: the batch object is busy after a short wait.
        assert!(!d.gem_wait(wb, 20_000_000).unwrap(), "{p}");
        submit(b, rb, true);
        assert!(d.gem_wait(wb, 5_000_000_000).unwrap(), "{p}");
        assert_eq!(u32s(&g.read(data, 12, 0x1000)), [1, 0, 0xa11], "{p}");
    }
}
