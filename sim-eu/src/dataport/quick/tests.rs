//! The classified sends against the general path: each message assembled from IGA text, run
//! once as classified and once with its classification removed, on random registers,
//! addresses (consecutive or not, misaligned, out of bounds, unmapped), surface sizes and
//! masks. Results, registers, memory and fences must all match.

use platform::Platform;
use proptest::prelude::*;

use super::{run as quick_run, Quick};
use crate::dataport::direct::{DirectTable, DirectWindow, DirectWindows, NO_WINDOWS};
use crate::dataport::{execute, Memory, Outcome, SendPlan, Surface};
use crate::error::{EuErrorKind, MemFault};
use crate::lane_mask::lane_bits;
use crate::program::Program;
use crate::Thread;

const BASE: u64 = 0x10_0000;
const SIZE: usize = 0x1000;
/// The binding-table index 1 surface starts here; its width is drawn.
const SURFACE: u64 = BASE + 0x100;
const SLM: usize = 0x800;

/// Memory of one mapped range at `BASE`, an SLM array and one buffer surface; the
/// whole-run accesses succeed only when every byte is there, as the simulator's do, or, with
/// `lane_by_lane`, never (every access then goes one by one: the reference).
#[derive(Clone, PartialEq, Debug)]
struct VecMem {
    bytes: Vec<u8>,
    slm: Vec<u8>,
    width: u64,
    fences: u32,
    /// Barrier signals heard.
    signals: u32,
    lane_by_lane: bool,
    /// The mapped range refuses writes (a read-only binding): a write faults.
    read_only: bool,
    published: Published,
}

/// The windows a memory publishes over its own bytes ([`VecMem::publish`]), and how many
/// whole-run accesses it was asked for since. Never compared, and not cloned: a clone's bytes
/// are elsewhere, so it publishes its own.
#[derive(Default)]
struct Published {
    table: Option<DirectWindows>,
    calls: u32,
}

impl Clone for Published {
    fn clone(&self) -> Self {
        Published::default()
    }
}

impl PartialEq for Published {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "published: {}", self.table.is_some())
    }
}

impl VecMem {
    /// Publishes windows that answer as this memory's whole-run accesses do: the buffer
    /// surface's mapped part, the stateless surfaces' mapped range, and the SLM.
    fn publish(&mut self) {
        let host = self.bytes.as_ptr() as u64;
        let mapped_end = BASE + SIZE as u64;
        let mut t = DirectWindows::new(false);
        let end = self.width.min(mapped_end - SURFACE);
        t.set(
            1,
            DirectWindow {
                host: host + (SURFACE - BASE),
                start: 0,
                end,
                write_end: if self.read_only { 0 } else { end },
                base: SURFACE,
            },
        );
        for bti in [253, 255] {
            t.set(
                bti,
                DirectWindow {
                    host: host.wrapping_sub(BASE),
                    start: BASE,
                    end: mapped_end,
                    write_end: if self.read_only { BASE } else { mapped_end },
                    base: 0,
                },
            );
        }
        t.set_slm(DirectWindow {
            host: self.slm.as_ptr() as u64,
            start: 0,
            end: self.slm.len() as u64,
            write_end: self.slm.len() as u64,
            base: 0,
        });
        self.published.table = Some(t);
    }

    fn at(&self, addr: u64, len: usize) -> Result<usize, MemFault> {
        let end = BASE + SIZE as u64;
        if addr < BASE || addr >= end {
            return Err(MemFault { address: addr });
        }
        if addr + len as u64 > end {
            return Err(MemFault { address: end });
        }
        Ok((addr - BASE) as usize)
    }
}

impl Memory for VecMem {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        let at = self.at(addr, buf.len())?;
        buf.copy_from_slice(&self.bytes[at..at + buf.len()]);
        Ok(())
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let at = self.at(addr, data.len())?;
        if self.read_only {
            return Err(MemFault { address: addr });
        }
        self.bytes[at..at + data.len()].copy_from_slice(data);
        Ok(())
    }
    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        self.published.calls += 1;
        if self.lane_by_lane {
            return false;
        }
        self.read(addr, buf).is_ok()
    }
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        self.published.calls += 1;
        if self.lane_by_lane {
            return false;
        }
        self.write(addr, data).is_ok()
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        crate::dataport::read_bytes_at(&self.slm, offset, buf)
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        crate::dataport::write_bytes_at(&mut self.slm, offset, data)
    }
    fn slm_read_all(&mut self, offset: u32, buf: &mut [u8]) -> bool {
        self.published.calls += 1;
        if self.lane_by_lane {
            return false;
        }
        self.slm_read(offset, buf).is_ok()
    }
    fn slm_write_all(&mut self, offset: u32, data: &[u8]) -> bool {
        self.published.calls += 1;
        if self.lane_by_lane {
            return false;
        }
        self.slm_write(offset, data).is_ok()
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        match bti {
            1 => Ok(Surface::buffer(SURFACE, self.width)),
            255 | 253 => Ok(Surface::buffer(0, u64::MAX)),
            _ => Err(MemFault {
                address: u64::from(bti),
            }),
        }
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        self.surface(offset >> 6)
    }
    fn fence(&mut self, _global: bool) {
        self.fences += 1;
    }
    fn direct_windows(&self) -> *const DirectTable {
        self.published
            .table
            .as_ref()
            .map_or(&NO_WINDOWS, DirectWindows::as_ptr)
    }
    fn barrier_signal(&mut self) {
        self.signals += 1;
    }
}

/// How a message's addresses are formed: (platform, IGA text, lanes, bytes per address,
/// addressing). Payload registers: addresses from r4, store data from r12, response r20.
#[derive(Debug, Clone, Copy)]
enum Addr {
    /// Virtual addresses around the mapped range.
    Va,
    /// Offsets into surface 1.
    Bti,
    /// SLM offsets.
    Slm,
    /// No addresses (fences, end of thread).
    None,
    /// A block message's offset in header DWord 2 (r4.2) into surface 1 (or SLM): in bytes,
    /// or (`owords`) in OWords.
    Block { owords: bool },
}

const MESSAGES: &[(Platform, &str, usize, usize, Addr)] = &[
    // untyped surface read/write, x, SIMD16 and SIMD8, BTI 1
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) r20 r4 null 0x0 0x04205E01",
        16,
        4,
        Addr::Bti,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) null r4 r12 0x80 0x04025E01",
        16,
        4,
        Addr::Bti,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) r20 r4 null 0x0 0x02106E01",
        8,
        4,
        Addr::Bti,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) null r4 r12 0x40 0x02026D01",
        8,
        4,
        Addr::Bti,
    ),
    // the same on SLM (BTI 254), the second channel of a SIMD16 write
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) r20 r4 null 0x0 0x04205EFE",
        16,
        4,
        Addr::Slm,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) null r4 r12 0x80 0x04025DFE",
        16,
        4,
        Addr::Slm,
    ),
    // A64 untyped read/write, SIMD8 and SIMD16
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) r20 r4 null 0x0 0x04146EFD",
        8,
        8,
        Addr::Va,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) null r4 r12 0x40 0x04066EFD",
        8,
        8,
        Addr::Va,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) r20 r4 null 0x0 0x08245EFD",
        16,
        8,
        Addr::Va,
    ),
    // vectors per lane: untyped xy, xyz, xyzw (BTI, SLM, A64), LSC d32x2, x3, x4
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) r20 r4 null 0x0 0x04405C01",
        16,
        4,
        Addr::Bti,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) null r4 r12 0x100 0x04025C01",
        16,
        4,
        Addr::Bti,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) r20 r4 null 0x0 0x02406001",
        8,
        4,
        Addr::Bti,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) null r4 r12 0xC0 0x02026801",
        8,
        4,
        Addr::Bti,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (16|M0) r20 r4 null 0x0 0x04405CFE",
        16,
        4,
        Addr::Slm,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) r20 r4 null 0x0 0x044460FD",
        8,
        8,
        Addr::Va,
    ),
    (
        Platform::Tgllp,
        "send.dc1 (8|M0) null r4 r12 0x80 0x04066CFD",
        8,
        8,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.ugm (16|M0) r20 r4 null:0 0x0 0x08401580",
        16,
        8,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.ugm (16|M0) null r4 r12:4 0x0 0x08001584",
        16,
        8,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.ugm (16|M0) r20 r4 null:0 0x0 0x04803500",
        16,
        4,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.slm (16|M0) null r4 r12:6 0x0 0x04002504",
        16,
        4,
        Addr::Slm,
    ),
    // OWord block reads and writes (DC0): unaligned 4 and 8 OWords, aligned 2 OWords and the
    // single high OWord, an aligned 4-OWord write, an unaligned SLM read
    (
        Platform::Tgllp,
        "send.dc0 (16|M0) r20 r4 null 0x0 0x02284301",
        16,
        4,
        Addr::Block { owords: false },
    ),
    (
        Platform::Tgllp,
        "send.dc0 (16|M0) r20 r4 null 0x0 0x02484401",
        16,
        4,
        Addr::Block { owords: false },
    ),
    (
        Platform::Tgllp,
        "send.dc0 (8|M0) r20 r4 null 0x0 0x02180201",
        8,
        4,
        Addr::Block { owords: true },
    ),
    (
        Platform::Tgllp,
        "send.dc0 (8|M0) r20 r4 null 0x0 0x02180101",
        8,
        4,
        Addr::Block { owords: true },
    ),
    (
        Platform::Tgllp,
        "send.dc0 (16|M0) null r4 r12 0x80 0x020A0301",
        16,
        4,
        Addr::Block { owords: true },
    ),
    (
        Platform::Tgllp,
        "send.dc0 (16|M0) r20 r4 null 0x0 0x022843FE",
        16,
        4,
        Addr::Block { owords: false },
    ),
    // fences and end of thread
    (
        Platform::Tgllp,
        "send.dc0 (8|M0) r20 r3 null 0x0 0x0219E000",
        0,
        0,
        Addr::None,
    ),
    (
        Platform::Tgllp,
        "send.dc0 (8|M0) r20 r3 null 0x0 0x0219E0FE",
        0,
        0,
        Addr::None,
    ),
    (
        Platform::Tgllp,
        "send.ts (8|M0) null r4 null 0x0 0x02000010 {EOT}",
        0,
        0,
        Addr::None,
    ),
    // the gateway's barrier signal (IGC's `barrier()`), with and without a response register
    (
        Platform::Tgllp,
        "send.gtwy (1|M0) null r8 null 0x0 0x02000004",
        0,
        0,
        Addr::None,
    ),
    (
        Platform::Dg2,
        "send.gtwy (1|M0) r20 r8 null:0 0x0 0x02100004",
        0,
        0,
        Addr::None,
    ),
    // LSC d32 load/store: a64 and a32 flat, SLM
    (
        Platform::Dg2,
        "send.ugm (16|M0) r20 r4 null:0 0x0 0x08200580",
        16,
        8,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.ugm (16|M0) null r4 r12:2 0x0 0x08000584",
        16,
        8,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.ugm (16|M0) r20 r4 null:0 0x0 0x04200500",
        16,
        4,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.ugm (8|M0) null r4 r12:1 0x0 0x02000504",
        8,
        4,
        Addr::Va,
    ),
    (
        Platform::Dg2,
        "send.slm (16|M0) r20 r4 null:0 0x0 0x04200500",
        16,
        4,
        Addr::Slm,
    ),
    (
        Platform::Dg2,
        "send.slm (16|M0) null r4 r12:2 0x0 0x04000504",
        16,
        4,
        Addr::Slm,
    ),
    (
        Platform::Dg2,
        "send.gtwy (8|M0) null r4 null:0 0x0 0x02000000 {EOT}",
        0,
        0,
        Addr::None,
    ),
];

#[derive(Debug, Clone)]
struct Case {
    msg: usize,
    /// 0: consecutive DWords; 1: consecutive from any byte; 2: random per lane; 3:
    /// consecutive DWords that wrap past the top of the address (2^32 for A32 values, 2^64 for
    /// A64), which the classified form must leave to the general path; 4: random DWords per
    /// lane (a gather); 5: four neighbouring DWords shared by the lanes (vectors that overlap,
    /// so the order of the lanes' writes shows).
    pattern: u8,
    start: u64,
    lane_offs: Vec<u64>,
    mask: u32,
    width: u64,
    grf: Vec<u8>,
    mem: Vec<u8>,
    read_only: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..MESSAGES.len(),
        0u8..6,
        0u64..0x1100,
        proptest::collection::vec(0u64..0x1100, 16),
        prop_oneof![Just(u32::MAX), Just(0xffff), any::<u32>()],
        prop_oneof![Just(0x1000u64), 0u64..0x1000],
        proptest::collection::vec(any::<u8>(), 32 * 32),
        proptest::collection::vec(any::<u8>(), 64),
        proptest::bool::weighted(0.2),
    )
        .prop_map(
            |(msg, pattern, start, lane_offs, mask, width, grf, mem, read_only)| Case {
                msg,
                pattern,
                start,
                lane_offs,
                mask,
                width,
                grf,
                mem,
                read_only,
            },
        )
}

/// Lane `i`'s address value for the message's addressing, for a message of `vec` DWords per
/// lane (consecutive lanes step by `4 * vec` bytes).
fn address(c: &Case, addr: Addr, i: usize, vec: u64) -> u64 {
    let step = 4 * vec * i as u64;
    let off = match c.pattern {
        0 => (c.start & !3) + step,
        1 => c.start + step,
        2 => c.lane_offs[i],
        4 => c.lane_offs[i] & !3,
        5 => (c.start & !3) + 4 * (c.lane_offs[i] & 3),
        // Lane 8 (or 4 for A64) is the first past the top.
        _ => {
            return match addr {
                Addr::Va => (u64::MAX - 0xf).wrapping_add(step),
                _ => (0xffff_ffe0u64 + step) & 0xffff_ffff,
            };
        }
    };
    match addr {
        // Around the mapped range: some runs start before it or leave it.
        Addr::Va => BASE - 0x40 + off,
        Addr::Block { owords: true } => off >> 4,
        Addr::Bti | Addr::Slm | Addr::None | Addr::Block { .. } => off,
    }
}

fn setup(c: &Case) -> (Program, Thread, VecMem) {
    let (platform, text, lanes, addr_bytes, addr) = MESSAGES[c.msg];
    let bytes = isa_encoder::assemble(platform, text).expect("assembles");
    let prog = Program::decode(platform, &bytes);
    let vec = match prog.insts[0].send.and_then(|p| p.quick) {
        Some(Quick::Lanes(l)) => u64::from(l.vec),
        _ => 1,
    };
    let mut t = Thread::new(u32::MAX);
    // r0..r31 random (addresses overwrite r4 on), the response and data registers included.
    t.file[..c.grf.len()].copy_from_slice(&c.grf);
    if let Addr::Block { .. } = addr {
        // The offset in header DWord 2.
        let a = address(c, addr, 0, vec);
        t.file[4 * 32 + 8..4 * 32 + 12].copy_from_slice(&a.to_le_bytes()[..4]);
    } else {
        for i in 0..lanes {
            let a = address(c, addr, i, vec);
            let at = 4 * 32 + addr_bytes * i;
            t.file[at..at + addr_bytes].copy_from_slice(&a.to_le_bytes()[..addr_bytes]);
        }
    }
    let mut bytes = vec![0u8; SIZE];
    for (k, b) in bytes.iter_mut().enumerate() {
        *b = c.mem[k % c.mem.len()] ^ (k >> 6) as u8;
    }
    let mem = VecMem {
        slm: bytes[..SLM].iter().map(|b| !b).collect(),
        bytes,
        width: c.width,
        fences: 0,
        signals: 0,
        lane_by_lane: false,
        read_only: c.read_only,
        published: Published::default(),
    };
    (prog, t, mem)
}

/// Runs `c`'s message classified and with its classification removed: the results,
/// registers and memory must be the same.
fn same_as_general(c: &Case) -> Result<(), TestCaseError> {
    let (prog, t0, mem0) = setup(c);
    let inst = &prog.insts[0];
    let plan = inst.send.expect("a send");
    prop_assert!(plan.quick.is_some(), "{} is classified", MESSAGES[c.msg].1);
    let general = SendPlan {
        quick: None,
        ..plan
    };
    let mask = c.mask & lane_bits(inst.n);
    let (mut tq, mut mq) = (t0.clone(), mem0.clone());
    let (mut tg, mut mg) = (t0.clone(), mem0.clone());
    // The general path with no whole-run access anywhere: every lane and channel alone.
    let (mut tl, mut ml) = (
        t0,
        VecMem {
            lane_by_lane: true,
            ..mem0
        },
    );
    // Classified with the memory's windows published: what translated code's calls meet.
    let (mut tw, mut mw) = (tq.clone(), mq.clone());
    mw.publish();
    let q = execute(&mut tq, prog.platform, &plan, inst.n, mask, &mut mq);
    let w = execute(&mut tw, prog.platform, &plan, inst.n, mask, &mut mw);
    let g = execute(&mut tg, prog.platform, &general, inst.n, mask, &mut mg);
    let l = execute(&mut tl, prog.platform, &general, inst.n, mask, &mut ml);
    let outcome =
        |r: &Result<Outcome, EuErrorKind>| r.as_ref().map(|o| o.eot).map_err(|e| e.clone());
    prop_assert_eq!(outcome(&q), outcome(&g));
    prop_assert_eq!(outcome(&q), outcome(&l));
    prop_assert_eq!(outcome(&q), outcome(&w));
    prop_assert!(tq.file == tw.file, "registers differ through the windows");
    prop_assert!(mq == mw, "memory differs through the windows");
    prop_assert!(tq.file == tg.file, "registers differ");
    prop_assert_eq!(tq.barrier_pending, tg.barrier_pending);
    prop_assert!(tq.file == tl.file, "registers differ from lane by lane");
    prop_assert!(mq == mg, "memory differs");
    ml.lane_by_lane = false;
    prop_assert!(mq == ml, "memory differs from lane by lane");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn classified_sends_equal_the_general_path(c in case()) {
        same_as_general(&c)?;
    }
}

/// A consecutive surface run ending just inside, at, or just past the surface's width (the
/// buffer's per-byte bounds: lanes past the end read zero and drop their writes), the edge
/// random widths rarely hit.
#[test]
fn surface_runs_at_the_width_edge_equal_the_general_path() {
    for (k, &(_, text, lanes, _, addr)) in MESSAGES.iter().enumerate() {
        if !matches!(addr, Addr::Bti) {
            continue;
        }
        let start = 0x140u64;
        let end = start + 4 * lanes as u64;
        for width in [end - 4, end - 1, end, end + 1, end + 4] {
            for mask in [u32::MAX, 0xfffe] {
                let c = Case {
                    msg: k,
                    pattern: 0,
                    start,
                    lane_offs: vec![0; 16],
                    mask,
                    width,
                    grf: (0..32 * 32).map(|i| i as u8).collect(),
                    mem: (0..64).map(|i| 0x80 | i as u8).collect(),
                    read_only: false,
                };
                if let Err(e) = same_as_general(&c) {
                    panic!("{text}, width {width:#x}, mask {mask:#x}: {e}");
                }
            }
        }
    }
}

/// The common case does take the classified path (the property above would also hold if
/// it never did).
#[test]
fn consecutive_in_bounds_lanes_take_the_classified_path() {
    for (k, &(_, text, lanes, _, _)) in MESSAGES.iter().enumerate() {
        let c = Case {
            msg: k,
            pattern: 0,
            start: 0x140,
            lane_offs: vec![0; 16],
            mask: u32::MAX,
            width: 0x1000,
            grf: vec![7; 32 * 32],
            mem: vec![3; 64],
            read_only: false,
        };
        let mask = if lanes == 0 {
            0xff
        } else {
            lane_bits(lanes as u8)
        };
        assert!(classified_run(&c, mask), "{text}");
    }
}

/// With no lane enabled, an SLM or flat message is done without the general path (it changes
/// nothing); one through a surface asks the general path, which checks the binding.
#[test]
fn messages_without_lanes_do_nothing_unless_a_surface_is_named() {
    for (k, &(_, text, lanes, _, addr)) in MESSAGES.iter().enumerate() {
        if lanes == 0 || matches!(addr, Addr::Block { .. }) {
            continue;
        }
        let c = Case {
            msg: k,
            pattern: 0,
            start: 0x140,
            lane_offs: vec![0; 16],
            mask: 0,
            width: 0x1000,
            grf: vec![7; 32 * 32],
            mem: vec![3; 64],
            read_only: false,
        };
        let (prog, t0, mem0) = setup(&c);
        let (mut t, mut mem) = (t0.clone(), mem0.clone());
        let done = classified_run(&c, 0);
        assert_eq!(done, matches!(addr, Addr::Slm | Addr::Va), "{text}");
        if done {
            let q = prog.insts[0]
                .send
                .and_then(|p| p.quick)
                .expect("classified");
            quick_run(&mut t, q, 0, &mut mem);
            assert!(t.file == t0.file && mem == mem0, "{text} changed something");
        }
        if let Err(e) = same_as_general(&c) {
            panic!("{text}: {e}");
        }
    }
}

/// Whether `c`'s message, classified, runs on the lanes in `mask` without the general path.
fn classified_run(c: &Case, mask: u32) -> bool {
    let (prog, mut t, mut mem) = setup(c);
    let q: Quick = prog.insts[0]
        .send
        .and_then(|p| p.quick)
        .expect("classified");
    quick_run(&mut t, q, mask, &mut mem)
}

/// Message `msg` with lanes in `pattern` (4: DWords in no order, 5: some sharing one, 0:
/// consecutive) at offsets in bounds for every message's addressing, DWord-aligned.
fn scattered(msg: usize, pattern: u8, mask: u32, grf: Vec<u8>, mem: Vec<u8>) -> Case {
    Case {
        msg,
        pattern,
        start: 0x140,
        lane_offs: (0..16).map(|i| 0x100 + 0x24 * ((i * 7) % 16)).collect(),
        mask,
        width: 0x1000,
        grf,
        mem,
        read_only: false,
    }
}

/// Gathers and scatters (lanes at DWords in no order, some sharing one) and partly enabled
/// lanes take the classified path too, one access per lane, when every access is whole.
#[test]
fn scattered_and_partly_enabled_lanes_take_the_classified_path() {
    for (k, &(_, text, lanes, _, addr)) in MESSAGES.iter().enumerate() {
        // (A block message has one address, and moves only some DWords when channels are off.)
        if lanes == 0 || matches!(addr, Addr::Block { .. }) {
            continue;
        }
        for (pattern, mask) in [(4, u32::MAX), (5, u32::MAX), (0, 0x7), (4, 0xa5a5)] {
            let c = scattered(k, pattern, mask, vec![7; 32 * 32], vec![3; 64]);
            let mask = mask & lane_bits(lanes as u8);
            assert!(
                classified_run(&c, mask),
                "{text}, pattern {pattern}, mask {mask:#x}"
            );
            if let Err(e) = same_as_general(&c) {
                panic!("{text}, pattern {pattern}, mask {mask:#x}: {e}");
            }
        }
    }
}

/// Gathers, scatters and partly enabled lanes of a surface or the SLM copy through the
/// memory's published windows without asking the memory for any access, and leave what the
/// memory itself would (the property above compares them on random cases).
#[test]
fn scattered_lanes_copy_through_published_windows() {
    let mut through = 0;
    for (k, &(_, text, lanes, addr_bytes, addr)) in MESSAGES.iter().enumerate() {
        if lanes == 0 || addr_bytes != 4 || !matches!(addr, Addr::Bti | Addr::Slm) {
            continue;
        }
        for (pattern, mask) in [(4, u32::MAX), (5, u32::MAX), (0, 0x7), (4, 0xa5a5)] {
            let grf = (0..32 * 32).map(|i| (i * 7) as u8).collect();
            let c = scattered(
                k,
                pattern,
                mask,
                grf,
                (0..64).map(|i| 0x80 | i as u8).collect(),
            );
            let mask = mask & lane_bits(lanes as u8);
            let (prog, t0, mem0) = setup(&c);
            let q: Quick = prog.insts[0]
                .send
                .and_then(|p| p.quick)
                .expect("classified");
            let (mut tw, mut mw) = (t0.clone(), mem0.clone());
            mw.publish();
            assert!(quick_run(&mut tw, q, mask, &mut mw), "{text}");
            assert_eq!(
                mw.published.calls, 0,
                "{text}, pattern {pattern}, mask {mask:#x}"
            );
            let (mut tm, mut mm) = (t0, mem0);
            assert!(quick_run(&mut tm, q, mask, &mut mm), "{text}");
            assert!(
                tw.file == tm.file && mw == mm,
                "{text}, pattern {pattern}, mask {mask:#x}"
            );
            through += 1;
        }
    }
    assert!(through >= 8, "only {through} cases");
}

/// A scattered lane outside the window, misaligned, or writing a read-only binding leaves
/// the whole message to the memory, nothing copied before it.
#[test]
fn a_lane_the_window_does_not_hold_leaves_the_message_to_the_memory() {
    for (k, &(_, text, lanes, addr_bytes, addr)) in MESSAGES.iter().enumerate() {
        if lanes < 8 || addr_bytes != 4 || !matches!(addr, Addr::Bti) {
            continue;
        }
        let mut offs: Vec<u64> = (0..16).map(|i| 0x100 + 0x24 * ((i * 7) % 16)).collect();
        for (lane, off) in [(5usize, 0x2000u64), (7, 0x101)] {
            offs[lane] = off;
            let c = Case {
                msg: k,
                pattern: 2,
                start: 0,
                lane_offs: offs.clone(),
                mask: u32::MAX,
                width: 0x1000,
                grf: (0..32 * 32).map(|i| (i * 5) as u8).collect(),
                mem: (0..64).map(|i| 0x40 | i as u8).collect(),
                read_only: false,
            };
            let (prog, t0, mut mem) = setup(&c);
            mem.publish();
            let q: Quick = prog.insts[0]
                .send
                .and_then(|p| p.quick)
                .expect("classified");
            let table = mem.direct_windows();
            let mut t = t0.clone();
            let l = match q {
                Quick::Lanes(l) => l,
                _ => panic!("{text}: lanes"),
            };
            let bytes = mem.bytes.clone();
            // SAFETY: the memory's own table, the memory alive and unused meanwhile.
            let done = unsafe {
                crate::dataport::direct::lanes_through(&*table, &mut t.file, &l, lane_bits(16))
            };
            assert!(!done, "{text}: lane {lane} at {off:#x} copied");
            assert!(
                t.file == t0.file && mem.bytes == bytes,
                "{text}: changed something"
            );
        }
    }
}

/// HDC byte scattered reads and writes on surface 1: (IGA text, lanes, bytes per lane), the
/// descriptors as IGC's `0x04210500` (16-bit reads, SIMD16).
const BYTE_SCATTERED: &[(&str, usize, usize)] = &[
    ("send.dc0 (16|M0) r20 r4 null 0x0 0x04210101", 16, 1),
    ("send.dc0 (16|M0) r20 r4 null 0x0 0x04210501", 16, 2),
    ("send.dc0 (16|M0) r20 r4 null 0x0 0x04210901", 16, 4),
    ("send.dc0 (8|M0) r20 r4 null 0x0 0x02110401", 8, 2),
    ("send.dc0 (16|M0) null r4 r12 0x80 0x04030101", 16, 1),
    ("send.dc0 (16|M0) null r4 r12 0x80 0x04030501", 16, 2),
    ("send.dc0 (8|M0) null r4 r12 0x40 0x02030801", 8, 4),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Byte scattered messages of 1, 2 and 4 bytes per lane, SIMD8 and SIMD16: consecutive
    /// lanes `size` apart (one whole-run access) or anywhere, any mask, widths, read-only
    /// memory: classified (also with the memory's windows published, as translated code's
    /// calls meet it), the same results, registers and memory as the general path's and as
    /// every lane alone.
    #[test]
    fn byte_scattered_runs_equal_lane_by_lane(
        msg in 0..BYTE_SCATTERED.len(),
        consecutive in proptest::bool::weighted(0.7),
        start in 0u64..0x1100,
        lane_offs in proptest::collection::vec(0u64..0x1100, 16),
        mask in prop_oneof![Just(u32::MAX), Just(0xffff), any::<u32>()],
        width in prop_oneof![Just(0x1000u64), 0u64..0x1000],
        grf in proptest::collection::vec(any::<u8>(), 32 * 32),
        mem in proptest::collection::vec(any::<u8>(), 64),
        read_only in proptest::bool::weighted(0.2),
    ) {
        let (text, lanes, size) = BYTE_SCATTERED[msg];
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let inst = &prog.insts[0];
        let plan = inst.send.expect("a send");
        let mut t = Thread::new(u32::MAX);
        t.file[..grf.len()].copy_from_slice(&grf);
        for (i, &o) in lane_offs.iter().enumerate().take(lanes) {
            let a = if consecutive { start + (size * i) as u64 } else { o } as u32;
            t.file[4 * 32 + 4 * i..4 * 32 + 4 * i + 4].copy_from_slice(&a.to_le_bytes());
        }
        let mut bytes = vec![0u8; SIZE];
        for (k, b) in bytes.iter_mut().enumerate() {
            *b = mem[k % mem.len()] ^ (k >> 6) as u8;
        }
        let m0 = VecMem {
            slm: vec![0; SLM],
            bytes,
            width,
            fences: 0,
            signals: 0,
            lane_by_lane: false,
            read_only,
            published: Published::default(),
        };
        let mask = mask & lane_bits(inst.n);
        prop_assert!(matches!(plan.quick, Some(Quick::Bytes(_))), "{} is classified", text);
        let general = SendPlan { quick: None, ..plan };
        let (mut tr, mut mr) = (t.clone(), m0.clone());
        let (mut tw, mut mw) = (t.clone(), m0.clone());
        mw.publish();
        let (mut tg, mut mg) = (t.clone(), m0.clone());
        let (mut tl, mut ml) = (t, VecMem { lane_by_lane: true, ..m0 });
        let r = execute(&mut tr, prog.platform, &plan, inst.n, mask, &mut mr);
        let w = execute(&mut tw, prog.platform, &plan, inst.n, mask, &mut mw);
        let g = execute(&mut tg, prog.platform, &general, inst.n, mask, &mut mg);
        let l = execute(&mut tl, prog.platform, &general, inst.n, mask, &mut ml);
        let outcome =
            |r: &Result<Outcome, EuErrorKind>| r.as_ref().map(|o| o.eot).map_err(|e| e.clone());
        prop_assert_eq!(outcome(&r), outcome(&g), "{}", text);
        prop_assert_eq!(outcome(&r), outcome(&w), "{}", text);
        prop_assert_eq!(outcome(&r), outcome(&l), "{}", text);
        prop_assert!(tr.file == tg.file, "registers differ from the general path: {}", text);
        prop_assert!(tr.file == tw.file, "registers differ through the windows: {}", text);
        prop_assert!(tr.file == tl.file, "registers differ: {}", text);
        prop_assert!(mr == mg, "memory differs from the general path: {}", text);
        prop_assert!(mr == mw, "memory differs through the windows: {}", text);
        ml.lane_by_lane = false;
        prop_assert!(mr == ml, "memory differs: {}", text);
    }
}

/// A consecutive, in-bounds, fully enabled byte scattered message is one whole-run access
/// (the property above would also hold if it never were).
#[test]
fn consecutive_byte_scattered_lanes_are_one_access() {
    for &(text, lanes, size) in BYTE_SCATTERED {
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let inst = &prog.insts[0];
        let mut t = Thread::new(u32::MAX);
        for i in 0..lanes {
            let a = (0x40 + size * i) as u32;
            t.file[4 * 32 + 4 * i..4 * 32 + 4 * i + 4].copy_from_slice(&a.to_le_bytes());
        }
        let mut m = VecMem {
            slm: vec![0; SLM],
            bytes: vec![5; SIZE],
            width: 0x1000,
            fences: 0,
            signals: 0,
            lane_by_lane: false,
            read_only: false,
            published: Published::default(),
        };
        let plan = inst.send.expect("a send");
        execute(
            &mut t,
            prog.platform,
            &plan,
            inst.n,
            lane_bits(inst.n),
            &mut m,
        )
        .expect("runs");
        assert_eq!(m.published.calls, 1, "{text}");
    }
}
