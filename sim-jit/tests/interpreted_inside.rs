//! Translated runs with interpreted instructions inside them (sends, `csel`, predicated
//! scalar moves, strided regions: what IGC puts between the arithmetic of an unrolled
//! convolution) against the interpreter alone: random registers, flags, block offsets
//! (inside the surface, past its end: a fault), surface widths and budget slices. The
//! outcome (the thread's end or the fault), the register files (`tm0` aside), the
//! instruction pointer, the executed count and memory must all match.

use platform::Platform;
use proptest::prelude::*;
use sim_eu::dataport::direct::{DirectTable, DirectWindow, DirectWindows};
use sim_eu::regfile::TM0;
use sim_eu::tiling::Tiling;
use sim_eu::{
    EuError, ImageMips, ImageSurface, MemFault, Memory, Program, Sampler, Status, Surface, Thread,
};
use sim_jit::{Translated, FIRST_CHANNELS};

const BASE: u64 = 0x10_0000;
const SIZE: usize = 0x1000;
const SLM: usize = 0x800;

/// One buffer surface (binding table index 1) of `width` bytes at `BASE`.
#[derive(Clone, PartialEq, Debug)]
struct Buffer {
    bytes: Vec<u8>,
    width: u64,
    /// Asks to hear of each send (as the sanitizer does), and the instruction indices heard.
    watch: bool,
    heard: Vec<u32>,
    /// Shared local memory: `SLM` bytes.
    slm: Vec<u8>,
}

impl Buffer {
    /// `SIZE` bytes, byte `i` the low byte of `mul * i + add`, the whole buffer a surface,
    /// sends heard when `watch`, the shared local memory zero.
    fn filled(mul: usize, add: usize, watch: bool) -> Buffer {
        Buffer {
            bytes: (0..SIZE).map(|i| (i * mul + add) as u8).collect(),
            width: SIZE as u64,
            watch,
            heard: Vec::new(),
            slm: vec![0; SLM],
        }
    }

    fn at(&self, addr: u64, len: usize) -> Result<usize, MemFault> {
        if addr < BASE || addr + len as u64 > BASE + SIZE as u64 {
            return Err(MemFault { address: addr });
        }
        Ok((addr - BASE) as usize)
    }
}

impl Memory for Buffer {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        let at = self.at(addr, buf.len())?;
        buf.copy_from_slice(&self.bytes[at..at + buf.len()]);
        Ok(())
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let at = self.at(addr, data.len())?;
        self.bytes[at..at + data.len()].copy_from_slice(data);
        Ok(())
    }
    // In one access when all there, as the simulator's memory: block messages then take the
    // interpreter's quick path (and a translated run's one-send call out).
    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        self.read(addr, buf).is_ok()
    }
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        self.write(addr, data).is_ok()
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        sim_eu::dataport::read_bytes_at(&self.slm, offset, buf)
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        sim_eu::dataport::write_bytes_at(&mut self.slm, offset, data)
    }
    fn slm_read_all(&mut self, offset: u32, buf: &mut [u8]) -> bool {
        self.slm_read(offset, buf).is_ok()
    }
    fn slm_write_all(&mut self, offset: u32, data: &[u8]) -> bool {
        self.slm_write(offset, data).is_ok()
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        match bti {
            1 => Ok(Surface::buffer(BASE, self.width)),
            IMAGE_IN | IMAGE_OUT => Ok(image(bti)),
            _ => Err(MemFault {
                address: u64::from(bti),
            }),
        }
    }
    fn sampler(&mut self, index: u32) -> Result<Sampler, MemFault> {
        match index {
            0 => Ok(Sampler {
                state: batchbuffer::SamplerState {
                    tcx_address_control_mode: batchbuffer::TextureCoordinateMode::Clamp,
                    tcy_address_control_mode: batchbuffer::TextureCoordinateMode::Clamp,
                    non_normalized_coordinate_enable: true,
                    ..Default::default()
                },
                border: [0; 4],
            }),
            _ => Err(MemFault {
                address: u64::from(index),
            }),
        }
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        self.surface(offset >> 6)
    }
    fn observes_sends(&self) -> bool {
        self.watch
    }
    fn on_send(&mut self, _: &Thread, ip: u32, _: u32) {
        self.heard.push(ip);
    }
}

/// Binding-table indices of two RGBA8 images of `IMAGE_SIZE` texels in the buffer's bytes: the
/// sampler's source at `BASE + 0x400`, the typed writes' target at `BASE + 0x800`.
const IMAGE_IN: u32 = 2;
const IMAGE_OUT: u32 = 3;
const IMAGE_SIZE: [u32; 2] = [13, 5];

fn image(bti: u32) -> Surface {
    let [w, h] = IMAGE_SIZE;
    let pitch = 64;
    Surface {
        base: BASE + if bti == IMAGE_IN { 0x400 } else { 0x800 },
        width: u64::from(4 * w),
        height: h,
        pitch,
        tiling: Tiling::Linear,
        image: Some(ImageSurface {
            format: batchbuffer::surface_format::R8G8B8A8_UNORM,
            dims: 2,
            array: false,
            size: [w, h, 1],
            slice_pitch: u64::from(h) * pitch,
            row_pitch: pitch,
            mip: ImageMips::NONE,
            chroma_row: 0,
        }),
    }
}

/// [`Buffer`] with its surface's window published for translated code
/// ([`Memory::direct_windows`]), writable or not, counting the whole-run surface accesses
/// and the fences that reach the memory (fences do nothing else: the table may call them
/// quiet).
struct Windowed {
    buf: Buffer,
    table: DirectWindows,
    calls: usize,
    fences: usize,
}

impl Windowed {
    fn new(buf: Buffer, writable: bool) -> Windowed {
        Windowed::with_fences(buf, writable, false)
    }

    fn with_fences(mut buf: Buffer, writable: bool, quiet_fences: bool) -> Windowed {
        let mut table = DirectWindows::new(quiet_fences);
        // The offsets `surface_read_all` answers: inside the surface's width and the bytes.
        let end = buf.width.min(SIZE as u64);
        table.set(
            1,
            DirectWindow {
                host: buf.bytes.as_mut_ptr() as u64,
                start: 0,
                end,
                write_end: if writable { end } else { 0 },
                base: BASE,
            },
        );
        table.set_slm(DirectWindow {
            host: buf.slm.as_mut_ptr() as u64,
            start: 0,
            end: SLM as u64,
            write_end: SLM as u64,
            base: 0,
        });
        Windowed {
            buf,
            table,
            calls: 0,
            fences: 0,
        }
    }
}

impl Memory for Windowed {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.buf.read(addr, buf)
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.buf.write(addr, data)
    }
    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        self.buf.read_all(addr, buf)
    }
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        self.buf.write_all(addr, data)
    }
    fn surface_read_all(&mut self, bti: u32, offset: u64, align: u64, buf: &mut [u8]) -> bool {
        self.calls += 1;
        self.buf.surface_read_all(bti, offset, align, buf)
    }
    fn surface_write_all(&mut self, bti: u32, offset: u64, align: u64, data: &[u8]) -> bool {
        self.calls += 1;
        self.buf.surface_write_all(bti, offset, align, data)
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        self.buf.slm_read(offset, buf)
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        self.buf.slm_write(offset, data)
    }
    fn slm_read_all(&mut self, offset: u32, buf: &mut [u8]) -> bool {
        self.calls += 1;
        self.buf.slm_read_all(offset, buf)
    }
    fn slm_write_all(&mut self, offset: u32, data: &[u8]) -> bool {
        self.calls += 1;
        self.buf.slm_write_all(offset, data)
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        self.buf.surface(bti)
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        self.buf.surface_state(offset)
    }
    fn direct_windows(&self) -> *const DirectTable {
        self.table.as_ptr()
    }
    fn fence(&mut self, _global: bool) {
        self.fences += 1;
    }
}

/// Arithmetic that translates, with a block read, a block write, `csel`, a predicated scalar
/// move and a strided `add` between (payload header r2, offsets from r1.0 in bytes and r1.1
/// in OWords), then the end of the thread.
const KERNEL: &str = "
(W) mov (8|M0) r2.0<1>:ud 0x0:ud
(W) mov (1|M0) r2.2<1>:ud r1.0<0;1,0>:ud
mad (16|M0) r40.0<1>:f r10.0<8;1>:f r20.0<8;1>:f r30.0<8;1>:f
add (16|M0) r42.0<1>:d r12.0<8;8,1>:d r22.0<8;8,1>:d
mul (16|M0) r44.0<1>:f r40.0<8;8,1>:f r14.0<8;8,1>:f
(W) send.dc0 (16|M0) r36 r2 null 0x0 0x02484401
mad (16|M0) r46.0<1>:f r36.0<8;1>:f r38.0<8;1>:f r44.0<8;1>:f
(W) csel (4|M0) (eq)f0.0 r0.0<1>:w r0.0<4;1>:w r0.0<4;1>:w r0.0<1>:w
(W&f0.0.any16h) mov (1|M0) r2.2<1>:ud r1.1<0;1,0>:ud
add (16|M0) r50.0<1>:d r36.0<8;8,1>:d r42.0<8;8,1>:d
add (16|M0) r52.0<1>:d r38.0<8;8,1>:d 0x5:d
(W) send.dc0 (16|M0) null r2 r50 0x80 0x020A0301
add (16|M0) r54.0<1>:d r50.0<8;8,1>:d r52.0<8;8,1>:d
add (16|M0) r56.0<1>:f r46.0<8;8,1>:f r40.0<8;8,1>:f
add (16|M0) r58.0<1>:d r16.0<16;8,2>:d r52.0<8;8,1>:d
mul (16|M0) r60.0<1>:d r54.0<8;8,1>:d r58.0<8;8,1>:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

fn thread(words: &[u32], flags: u64, offsets: (u32, u32)) -> Thread {
    let mut t = Thread::new(0xffff);
    for (c, w) in t.grf_mut().chunks_exact_mut(4).zip(words) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    let r1 = 32;
    t.grf_mut()[r1..r1 + 4].copy_from_slice(&offsets.0.to_le_bytes());
    t.grf_mut()[r1 + 4..r1 + 8].copy_from_slice(&offsets.1.to_le_bytes());
    let f = t.flag_offset();
    t.file_mut()[f..f + 8].copy_from_slice(&flags.to_le_bytes());
    t
}

/// The first register-file byte where `got` and `want` differ, `tm0` aside (the
/// interpreter writes it when entered).
fn first_difference(got: &Thread, want: &Thread) -> Option<usize> {
    let (g, w) = (got.file(), want.file());
    (0..w.len()).find(|&a| !(TM0..TM0 + 16).contains(&a) && g[a] != w[a])
}

/// What a translated run ended with (outcome, thread, memory) against the interpreter's: the
/// same outcome, executed count, memory and registers (`tm0` aside).
type Outcome<'a> = (&'a Result<Status, EuError>, &'a Thread, &'a Buffer);

fn same_outcome(got: Outcome<'_>, want: Outcome<'_>) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.0, want.0);
    prop_assert_eq!(
        got.1.instructions_executed(),
        want.1.instructions_executed()
    );
    prop_assert!(got.2.bytes == want.2.bytes, "memory differs");
    prop_assert_eq!(first_difference(got.1, want.1), None);
    Ok(())
}

/// Runs `t` through `tr` on `memory` as [`run`] does, with the surfaces' windows published
/// (`Some(writable)`: [`Windowed`]) or not: the outcome and the memory after.
fn run_translated(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    memory: Buffer,
    windows: Option<bool>,
    slices: &[u64],
) -> (Result<Status, EuError>, Buffer) {
    match windows {
        Some(writable) => {
            let mut m = Windowed::new(memory, writable);
            (run(t, prog, Some(tr), &mut m, slices), m.buf)
        }
        None => {
            let mut m = memory;
            (run(t, prog, Some(tr), &mut m, slices), m)
        }
    }
}

/// Runs `t` to its end (or fault) in budget slices, through `tr` when given.
fn run(
    t: &mut Thread,
    prog: &Program,
    tr: Option<&Translated>,
    mem: &mut dyn Memory,
    slices: &[u64],
) -> Result<Status, EuError> {
    for k in 0..10_000 {
        let budget = slices[k % slices.len()];
        let st = match tr {
            Some(tr) => sim_jit::run(t, prog, tr, mem, budget),
            None => sim_eu::run(t, prog, mem, budget),
        };
        if st != Ok(Status::Budget) {
            return st;
        }
    }
    Ok(Status::Budget)
}

#[test]
fn the_kernel_is_one_run() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, KERNEL).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    let runs: Vec<_> = tr.runs().collect();
    // From the first `mov` to the end of the thread: the sends and the strided add run
    // inside it (`csel` of its own bytes and the group-predicated move translate), and the
    // end-of-thread send is its last instruction.
    assert_eq!(runs, [(0, 17)], "{runs:?}");
    assert_eq!(tr.translated(), 13);
    // Run whole: every translated instruction runs as translated code, none interpreted
    // after the run stopped at an interpreted one; the two block messages, in bounds and
    // aligned, are called from the run's code directly and count as its own.
    let mut mem = Buffer {
        bytes: vec![0; SIZE],
        width: SIZE as u64,
        watch: false,
        heard: Vec::new(),
        slm: vec![0; SLM],
    };
    let mut t = thread(&[0; 1024], 0, (0x10, 0x10));
    let mut translated = 0;
    let st = sim_jit::run_counted(
        &mut t,
        &prog,
        &tr,
        &mut mem.clone(),
        1 << 20,
        &mut translated,
    );
    assert_eq!(st, Ok(Status::Ended));
    assert_eq!((translated, t.instructions_executed()), (15, 17));
    // A read past the buffer's end declines the direct call: the interpreter runs it (its
    // out-of-bounds rule is the general path's).
    let mut t = thread(&[0; 1024], 0, (0x100, 0x10));
    let mut translated = 0;
    let st = sim_jit::run_counted(&mut t, &prog, &tr, &mut mem, 1 << 20, &mut translated);
    assert_eq!(st, Ok(Status::Ended));
    assert_eq!((translated, t.instructions_executed()), (14, 17));
    // Without interpreted instructions inside, the sends cut it.
    let cut = Translated::new(&prog, false).expect("translates");
    assert!(cut.runs().all(|(_, len)| len < 16));
}

/// A memory that watches sends (the sanitizer's) hears of every send the translated runs
/// call out for, once each, as with the interpreter alone.
#[test]
fn a_memory_that_watches_sends_hears_each_once() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, KERNEL).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    let memory = || Buffer {
        bytes: vec![0; SIZE],
        width: SIZE as u64,
        watch: true,
        heard: Vec::new(),
        slm: vec![0; SLM],
    };
    let (mut want_mem, mut got_mem) = (memory(), memory());
    let mut want = thread(&[0; 1024], 0, (0x100, 0x10));
    let mut got = want.clone();
    assert_eq!(
        run(&mut want, &prog, None, &mut want_mem, &[1 << 20]),
        Ok(Status::Ended)
    );
    assert_eq!(
        run(&mut got, &prog, Some(&tr), &mut got_mem, &[1 << 20]),
        Ok(Status::Ended)
    );
    // The block read, the block write and the end of the thread.
    assert_eq!(want_mem.heard, [5, 11, 16]);
    assert_eq!(got_mem.heard, want_mem.heard);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn interpreted_inside_matches_the_interpreter(
        words in proptest::collection::vec(any::<u32>(), 1024),
        flags in any::<u64>(),
        read_at in prop_oneof![3 => 0u32..0x700, 1 => 0x700u32..0x2000],
        write_at in prop_oneof![3 => 0u32..0x40, 1 => 0x40u32..0x200],
        width in prop_oneof![Just(SIZE as u64), 0x200u64..SIZE as u64],
        fill in any::<u8>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
        windowed in any::<bool>(),
        writable in any::<bool>(),
    ) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, KERNEL).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let memory = Buffer {
            bytes: (0..SIZE).map(|i| (i as u8) ^ fill).collect(),
            width,
            watch: false,
            heard: Vec::new(),
        slm: vec![0; SLM],
        };

        let mut want_mem = memory.clone();
        let mut want = thread(&words, flags, (read_at, write_at));
        let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);

        let mut got = thread(&words, flags, (read_at, write_at));
        // Through the surface's window (the translated code's own copies) or the calls.
        let (got_st, got_mem) =
            run_translated(&mut got, &prog, &tr, memory, windowed.then_some(writable), &slices);
        let got_bytes = got_mem.bytes;

        prop_assert_eq!(&got_st, &want_st);
        prop_assert_eq!(got.ip(), want.ip());
        prop_assert_eq!(got.instructions_executed(), want.instructions_executed());
        prop_assert!(got_bytes == want_mem.bytes, "memory differs");
        let (g, w) = (got.file(), want.file());
        for at in (0..w.len()).filter(|a| !(TM0..TM0 + 16).contains(a)) {
            prop_assert_eq!(g[at], w[at], "byte {} differs", at);
        }
    }
}

/// Untyped surface reads of one DWord per lane between translated instructions: predicated
/// per channel, by a horizontal group with `NoMask`, and by the execution mask alone; on
/// sixteen channels among instructions on eight (a run's copy for threads that have not
/// diverged knows only the first eight to be executing).
const LANES: &str = "
add (8|M0) r10.0<1>:d r20.0<8;8,1>:d 0x1:d
(f0.0) send.dc1 (16|M0) r40 r4 null 0x0 0x04205E01
add (8|M0) r12.0<1>:d r40.0<8;8,1>:d r10.0<8;8,1>:d
(W&f0.1.any16h) send.dc1 (16|M0) r44 r4 null 0x0 0x04205E01
add (8|M0) r14.0<1>:d r44.0<8;8,1>:d r12.0<8;8,1>:d
send.dc1 (16|M0) r48 r4 null 0x0 0x04205E01
add (8|M0) r16.0<1>:d r48.0<8;8,1>:d r14.0<8;8,1>:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The channels a send called from a run's code acts on are the interpreter's: its
    /// execution mask, predicate and `NoMask`, in the run's copies for threads that have
    /// diverged and that have not.
    #[test]
    fn sends_called_from_runs_act_on_the_interpreters_channels(
        words in proptest::collection::vec(any::<u32>(), 1024),
        active in prop_oneof![Just(0xffffu32), Just(u32::MAX), any::<u32>()],
        flags in prop_oneof![Just(u64::MAX), any::<u64>()],
        first in prop_oneof![3 => 0u32..0x100, 1 => 0x3f0u32..0x400, 1 => any::<u32>()],
        consecutive in any::<bool>(),
        windowed in any::<bool>(),
    ) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, LANES).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let mut words = words;
        // r4..r5: the lanes' byte offsets, one after the other (one access) or anywhere in
        // the buffer (one per lane).
        for (i, w) in words[32..48].iter_mut().enumerate() {
            *w = if consecutive {
                first.wrapping_add(i as u32).wrapping_mul(4)
            } else {
                (*w % (SIZE as u32 / 4)) * 4
            };
        }
        let memory = Buffer::filled(7, 0, false);
        let start = |words: &[u32]| {
            let mut t = Thread::new(active);
            for (c, w) in t.grf_mut().chunks_exact_mut(4).zip(words) {
                c.copy_from_slice(&w.to_le_bytes());
            }
            let f = t.flag_offset();
            t.file_mut()[f..f + 8].copy_from_slice(&flags.to_le_bytes());
            t
        };
        let mut want = start(&words);
        let want_st = run(&mut want, &prog, None, &mut memory.clone(), &[1 << 20]);
        let mut got = start(&words);
        let mut translated = 0;
        let mut got_mem: Box<dyn Memory> = if windowed {
            Box::new(Windowed::new(memory.clone(), true))
        } else {
            Box::new(memory.clone())
        };
        let got_st =
            sim_jit::run_counted(&mut got, &prog, &tr, &mut *got_mem, 1 << 20, &mut translated);
        prop_assert_eq!(&got_st, &want_st);
        prop_assert_eq!(got.instructions_executed(), want.instructions_executed());
        // Every channel on and every send in bounds: all but the thread's end ran from the
        // run's code.
        let in_bounds = !consecutive || u64::from(first.wrapping_mul(4)) + 64 <= SIZE as u64;
        if active & 0xffff == 0xffff && flags == u64::MAX && in_bounds {
            prop_assert_eq!(translated, got.instructions_executed() - 1);
        }
        let (g, w) = (got.file(), want.file());
        for at in (0..w.len()).filter(|a| !(TM0..TM0 + 16).contains(a)) {
            prop_assert_eq!(g[at], w[at], "byte {} differs", at);
        }
    }
}

/// Untyped reads through one address register (r4..r5) that changes between them: its
/// second half by an `add`, then all of it by a read's response (the first `add` starts
/// the run). The run's code checks the
/// lanes' offsets once for the sends that share them, and again after each change.
const ONE_ADDRESS_CHANGING: &str = "
add (8|M0) r10.0<1>:d r20.0<8;8,1>:d 0x1:d
send.dc1 (16|M0) r40 r4 null 0x0 0x04205E01
send.dc1 (16|M0) r42 r4 null 0x0 0x04205E01
add (8|M0) r5.0<1>:d r5.0<8;8,1>:d r20.0<8;8,1>:d
send.dc1 (16|M0) r44 r4 null 0x0 0x04205E01
send.dc1 (16|M0) r4 r4 null 0x0 0x04205E01
send.dc1 (16|M0) r46 r4 null 0x0 0x04205E01
send.dc1 (16|M0) r48 r4 null 0x0 0x04205E01
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// [`ONE_ADDRESS_CHANGING`] through the surface's window: consecutive offsets in r4..r5, the
    /// `add`'s r20 zero (they stay so) or not, the buffer's DWords consecutive offsets from
    /// `shift` (the response makes r4..r5 consecutive again from another first lane) or
    /// not. Registers, memory and the outcome match the interpreter's.
    #[test]
    fn sends_sharing_an_address_register_see_its_changes(
        words in proptest::collection::vec(any::<u32>(), 1024),
        first in 0u32..0x100,
        delta in prop_oneof![Just(0u32), 1u32..0x40, any::<u32>()],
        shift in prop_oneof![3 => 0u32..0x300, 1 => any::<u32>()],
        offsets_in_memory in any::<bool>(),
    ) {
        let bytes =
            isa_encoder::assemble(Platform::Tgllp, ONE_ADDRESS_CHANGING).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let mut words = words;
        for (i, w) in words[32..48].iter_mut().enumerate() {
            *w = (first + i as u32) * 4;
        }
        for (i, w) in words[160..168].iter_mut().enumerate() {
            *w = delta.wrapping_mul(i as u32 + 1);
        }
        let mut memory = Buffer::filled(7, 0, false);
        if offsets_in_memory {
            for (j, c) in memory.bytes.chunks_exact_mut(4).enumerate() {
                let off = (j as u32).wrapping_add(shift).wrapping_mul(4) % SIZE as u32;
                c.copy_from_slice(&off.to_le_bytes());
            }
        }
        let start = |words: &[u32]| {
            let mut t = Thread::new(0xffff);
            for (c, w) in t.grf_mut().chunks_exact_mut(4).zip(words) {
                c.copy_from_slice(&w.to_le_bytes());
            }
            t
        };
        let mut want = start(&words);
        let mut want_mem = memory.clone();
        let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
        let mut got = start(&words);
        let mut got_mem = Windowed::new(memory, true);
        let mut translated = 0;
        let got_st =
            sim_jit::run_counted(&mut got, &prog, &tr, &mut got_mem, 1 << 20, &mut translated);
        prop_assert_eq!(&got_st, &want_st);
        prop_assert_eq!(got.instructions_executed(), want.instructions_executed());
        prop_assert!(translated > 0);
        prop_assert!(got_mem.buf.bytes == want_mem.bytes, "memory differs");
        prop_assert_eq!(first_difference(&got, &want), None);
    }
}

/// With the surface's window published, block reads and writes inside it are the run's own
/// copies: the memory is not called; outside it (past the end, a read-only binding for the
/// write) the classified send's call takes them, with the same outcome.
#[test]
fn sends_inside_a_window_copy_without_calling_the_memory() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, KERNEL).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    // Bytes below 0x40: no value is a NaN, which the run would leave for.
    let memory = || Buffer {
        bytes: (0..SIZE).map(|i| (i * 13) as u8 & 0x3f).collect(),
        width: SIZE as u64,
        watch: false,
        heard: Vec::new(),
        slm: vec![0; SLM],
    };
    // (offset: bytes for the read, OWords for the write; writable binding) -> whether the
    // memory is called, and the instructions the run's code executed: both sends in the
    // window are its copies; a write to a read-only binding is called (the classified send
    // does it); a write past the surface's end is declined and interpreted (and the
    // general path tries its pieces). All else but the interpreted `csel` and the thread's
    // end runs as the run's code.
    let cases = [
        ((0x10, true), false, 15),
        ((0x10, false), true, 15),
        ((0x100, true), true, 14),
    ];
    for ((read_at, writable), called, run_code) in cases {
        let words: Vec<u32> = (0..1024u32)
            .map(|i| i.wrapping_mul(0x9e37_79b9) & 0x3f3f_3f3f)
            .collect();
        let mut want_mem = memory();
        let mut want = thread(&words, 0, (read_at, 0x10));
        let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
        let mut got_mem = Windowed::new(memory(), writable);
        let mut got = thread(&words, 0, (read_at, 0x10));
        let mut translated = 0;
        let got_st =
            sim_jit::run_counted(&mut got, &prog, &tr, &mut got_mem, 1 << 20, &mut translated);
        assert_eq!(got_st, want_st, "read at {read_at:#x}");
        assert_eq!(
            got_mem.calls != 0,
            called,
            "at {read_at:#x}, writable {writable}"
        );
        assert_eq!((translated, got.instructions_executed()), (run_code, 17));
        assert!(got_mem.buf.bytes == want_mem.bytes, "memory differs");
        assert_eq!(first_difference(&got, &want), None, "read at {read_at:#x}");
    }
}

/// A fence between translated instructions (IGC's before the end of a thread that wrote
/// global memory): called when the memory's fences are not quiet, skipped by the run's code
/// when they are, with the same registers either way.
#[test]
fn quiet_fences_are_not_called() {
    let text = "
add (8|M0) r10.0<1>:d r20.0<8;8,1>:d 0x1:d
(W) send.dc0 (8|M0) r23 r3 null 0x0 0x0219E000
add (8|M0) r12.0<1>:d r10.0<8;8,1>:d r23.0<8;8,1>:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    let words: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x0101_0101)).collect();
    let buffer = || Buffer {
        bytes: vec![0; SIZE],
        width: SIZE as u64,
        watch: false,
        heard: Vec::new(),
        slm: vec![0; SLM],
    };
    let mut want = thread(&words, 0, (0, 0));
    let mut want_mem = Windowed::new(buffer(), true);
    assert_eq!(
        run(&mut want, &prog, None, &mut want_mem, &[1 << 20]),
        Ok(Status::Ended)
    );
    assert_eq!(want_mem.fences, 1, "the interpreter tells the memory");
    for (quiet, fences) in [(false, 1), (true, 0)] {
        let mut got = thread(&words, 0, (0, 0));
        let mut mem = Windowed::with_fences(buffer(), true, quiet);
        let mut translated = 0;
        let st = sim_jit::run_counted(&mut got, &prog, &tr, &mut mem, 1 << 20, &mut translated);
        assert_eq!(st, Ok(Status::Ended));
        assert_eq!(mem.fences, fences, "quiet {quiet}");
        assert_eq!((translated, got.instructions_executed()), (3, 4));
        assert_eq!(first_difference(&got, &want), None, "quiet {quiet}");
    }
}

/// Untyped atomic adds (no classified form: interpreted inside the run) on the first and
/// the second sixteen channels of a SIMD32 thread: predicated per channel, by the execution
/// mask alone, and by a horizontal group with `NoMask`. Offsets of the first in r4..r5, of
/// the others in r6..r7; data in r30..r31 and r32..r33.
const ATOMICS: &str = "
add (16|M0) r10.0<1>:d r20.0<8;8,1>:d 0x1:d
(f0.0) send.dc1 (16|M0) null r4 r30 0x80 0x04008701
add (16|M16) r12.0<1>:d r22.0<8;8,1>:d r10.0<8;8,1>:d
send.dc1 (16|M16) null r6 r32 0x80 0x04008701
(W&f1.0.any16h) send.dc1 (16|M16) null r6 r32 0x80 0x04008701
add (16|M0) r14.0<1>:d r12.0<8;8,1>:d 0x2:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

/// A SIMD32 thread with `active` channels for [`ATOMICS`]: registers from `words`, the
/// offsets' DWords (r4..r7) made byte offsets inside the buffer, flags `flags`.
fn atomics_thread(words: &[u32], active: u32, flags: u64) -> Thread {
    let mut t = Thread::new(active);
    for (i, (c, w)) in t.grf_mut().chunks_exact_mut(4).zip(words).enumerate() {
        let w = if (32..64).contains(&i) {
            (w % (SIZE as u32 / 4)) * 4
        } else {
            *w
        };
        c.copy_from_slice(&w.to_le_bytes());
    }
    let f = t.flag_offset();
    t.file_mut()[f..f + 8].copy_from_slice(&flags.to_le_bytes());
    t
}

/// A send that acts per channel only, with none of its channels enabled and predicated, is
/// skipped by the run's code (counted as its own instruction, the memory not asked); with
/// channels, or when the memory hears of sends, the interpreter runs it, as alone.
#[test]
fn sends_without_channels_are_skipped_by_the_runs_code() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, ATOMICS).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.runs().collect::<Vec<_>>(), [(0, 7)]);
    let words: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    // (channels, flags) -> the sends the interpreter runs from the run's code (the first
    // when channel 0 executes and f0.0's bit 0 is on, the second when channel 16 executes,
    // the third when any of f1.1's bits, the second sixteen channels' of f1, is on): the
    // thread's end and those are what the run's code does not count as its own.
    let cases = [
        (0x1, 0x1, 1),
        (0x1, 0x0, 0),
        (0x1, 1 << 48, 1),
        (0x1, 1 << 32, 0),
        (0x1_0001, 0x1, 2),
        (0x1_0000, 0x1, 1),
        (0x1_0001, 1 << 63 | 1, 3),
    ];
    for (active, flags, interpreted) in cases {
        for watch in [false, true] {
            let memory = || Buffer::filled(7, 0, watch);
            let mut want_mem = memory();
            let mut want = atomics_thread(&words, active, flags);
            let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
            assert_eq!(want_st, Ok(Status::Ended));
            let mut got_mem = memory();
            let mut got = atomics_thread(&words, active, flags);
            let mut translated = 0;
            let got_st =
                sim_jit::run_counted(&mut got, &prog, &tr, &mut got_mem, 1 << 20, &mut translated);
            let case = format!("channels {active:#x}, flags {flags:#x}, watched {watch}");
            same_outcome((&got_st, &got, &got_mem), (&want_st, &want, &want_mem))
                .unwrap_or_else(|e| panic!("{case}: {e}"));
            // A memory that hears of sends hears every one, with channels or not.
            let skipped = if watch { 0 } else { 3 - interpreted };
            assert_eq!(translated, 3 + skipped, "{case}");
            assert_eq!(got_mem.heard, want_mem.heard, "{case}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The channels of sends the run's code may skip are the interpreter's: any execution
    /// mask and flags give the interpreter's memory, registers and count.
    #[test]
    fn skipped_sends_are_the_ones_without_channels(
        words in proptest::collection::vec(any::<u32>(), 1024),
        active in prop_oneof![Just(1u32), Just(0x1_0000u32), Just(u32::MAX), any::<u32>()],
        flags in prop_oneof![Just(0u64), Just(u64::MAX), any::<u64>()],
    ) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, ATOMICS).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let memory = Buffer::filled(7, 0, false);
        let mut want_mem = memory.clone();
        let mut want = atomics_thread(&words, active, flags);
        let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
        let mut got_mem = memory;
        let mut got = atomics_thread(&words, active, flags);
        let got_st = run(&mut got, &prog, Some(&tr), &mut got_mem, &[1 << 20]);
        same_outcome((&got_st, &got, &got_mem), (&want_st, &want, &want_mem))?;
    }
}

/// The image copy of the Khronos CTS's `imagedim` kernel as IGC writes it for a SIMD32 thread
/// (its listing for Gen12LP, registers renumbered): the coordinates made floats, the sampler's
/// `sample_lz` on each sixteen channels (unnormalized, nearest, clamped to the edge), the
/// texels moved into four typed writes of eight channels each. Coordinates: u in r10..r13,
/// v in r14..r17 (floats for the sampler), the same as integers in r20..r23 and r24..r27.
const IMAGE_COPY: &str = "
add (16|M0) r34.0<1>:f r10.0<8;8,1>:f 0x0:f
add (16|M16) r36.0<1>:f r12.0<8;8,1>:f 0x0:f
add (16|M0) r38.0<1>:f r14.0<8;8,1>:f 0x0:f
add (16|M16) r40.0<1>:f r16.0<8;8,1>:f 0x0:f
send.smpl (16|M0) r42 r34 r38 0x80 0x04858002
send.smpl (16|M16) r50 r36 r40 0x80 0x04858002
mov (8|M0) r58.0<1>:f r24.0<8;8,1>:f
mov (8|M8) r63.0<1>:f r25.0<8;8,1>:f
mov (8|M16) r68.0<1>:f r26.0<8;8,1>:f
mov (8|M24) r73.0<1>:f r27.0<8;8,1>:f
mov (8|M0) r59.0<1>:f r42.0<8;8,1>:f
mov (8|M0) r60.0<1>:f r44.0<8;8,1>:f
mov (8|M0) r61.0<1>:f r46.0<8;8,1>:f
mov (8|M0) r62.0<1>:f r48.0<8;8,1>:f
mov (8|M8) r64.0<1>:f r43.0<8;8,1>:f
mov (8|M8) r65.0<1>:f r45.0<8;8,1>:f
mov (8|M8) r66.0<1>:f r47.0<8;8,1>:f
mov (8|M8) r67.0<1>:f r49.0<8;8,1>:f
mov (8|M16) r69.0<1>:f r50.0<8;8,1>:f
mov (8|M16) r70.0<1>:f r52.0<8;8,1>:f
mov (8|M16) r71.0<1>:f r54.0<8;8,1>:f
mov (8|M16) r72.0<1>:f r56.0<8;8,1>:f
mov (8|M24) r74.0<1>:f r51.0<8;8,1>:f
mov (8|M24) r75.0<1>:f r53.0<8;8,1>:f
mov (8|M24) r76.0<1>:f r55.0<8;8,1>:f
mov (8|M24) r77.0<1>:f r57.0<8;8,1>:f
send.dc1 (8|M0) null r20 r58 0x140 0x02035003
send.dc1 (8|M8) null r21 r63 0x140 0x02035003
send.dc1 (8|M16) null r22 r68 0x140 0x02035003
send.dc1 (8|M24) null r23 r73 0x140 0x02035003
add (16|M0) r80.0<1>:d r42.0<8;8,1>:d 0x1:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

/// A SIMD32 thread with `active` channels for [`IMAGE_COPY`]: lane i's texel coordinates
/// `coords[i]` (some outside the image), as floats and as integers; other registers from
/// `words`.
fn image_thread(words: &[u32], active: u32, coords: &[(i32, i32)]) -> Thread {
    let mut t = Thread::new(active);
    for (c, w) in t.grf_mut().chunks_exact_mut(4).zip(words) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    for (i, &(u, v)) in coords.iter().enumerate().take(32) {
        let put = |t: &mut Thread, reg: usize, x: u32| {
            let at = reg * 32 + 4 * i;
            t.grf_mut()[at..at + 4].copy_from_slice(&x.to_le_bytes());
        };
        put(&mut t, 10, (u as f32).to_bits());
        put(&mut t, 14, (v as f32).to_bits());
        put(&mut t, 20, u as u32);
        put(&mut t, 24, v as u32);
    }
    t
}

fn image_memory() -> Buffer {
    Buffer::filled(37, 11, false)
}

/// One channel (a work-group of one item): the sampler and the typed write of the first
/// sixteen and eight channels run from the run's code (the data port called directly), the
/// others are skipped; the texel is copied as the interpreter copies it, through the kernel's
/// translation and through the one for threads of their first four channels.
#[test]
fn image_messages_of_one_channel_run_from_the_runs_code() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, IMAGE_COPY).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let whole = Translated::with_min_run(&prog, 1).expect("translates");
    let first = Translated::with_min_run_for(&prog, 1, FIRST_CHANNELS).expect("translates");
    let words = vec![0u32; 1024];
    for (u, v) in [(0, 0), (3, 2), (12, 4), (-1, 7)] {
        let coords = [(u, v); 32];
        let mut want_mem = image_memory();
        let mut want = image_thread(&words, 0x1, &coords);
        assert_eq!(
            run(&mut want, &prog, None, &mut want_mem, &[1 << 20]),
            Ok(Status::Ended)
        );
        for tr in [&whole, &first] {
            let mut got_mem = image_memory();
            let mut got = image_thread(&words, 0x1, &coords);
            let mut translated = 0;
            let st =
                sim_jit::run_counted(&mut got, &prog, tr, &mut got_mem, 1 << 20, &mut translated);
            let want_st = Ok(Status::Ended);
            same_outcome((&st, &got, &got_mem), (&want_st, &want, &want_mem))
                .unwrap_or_else(|e| panic!("at ({u}, {v}): {e}"));
            // All but the end of the thread: nothing interpreted.
            assert_eq!(translated, 31);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Sampler and typed messages from translated code, on any channels and coordinates,
    /// inside the image and past its edges: the interpreter's registers, memory and count.
    #[test]
    fn image_messages_from_runs_match_the_interpreter(
        words in proptest::collection::vec(any::<u32>(), 1024),
        active in prop_oneof![Just(1u32), 1u32..16, Just(u32::MAX), any::<u32>()],
        coords in proptest::collection::vec((-3i32..16, -3i32..8), 32),
    ) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, IMAGE_COPY).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let whole = Translated::with_min_run(&prog, 1).expect("translates");
        let first = Translated::with_min_run_for(&prog, 1, FIRST_CHANNELS).expect("translates");
        let mut want_mem = image_memory();
        let mut want = image_thread(&words, active, &coords);
        let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
        for tr in [&whole, &first] {
            let mut got_mem = image_memory();
            let mut got = image_thread(&words, active, &coords);
            let got_st = run(&mut got, &prog, Some(tr), &mut got_mem, &[1 << 20]);
            same_outcome((&got_st, &got, &got_mem), (&want_st, &want, &want_mem))?;
        }
    }
}

/// Untyped reads and writes of two and four DWords per lane (channels xy and xyzw) between
/// translated instructions: lane-major in memory, component-major in the registers. Offsets
/// of the four sends in r4 (xyzw read), r8 (xy read), r6 (xyzw write), r2 (xy write).
const VECTORS: &str = "
add (8|M0) r10.0<1>:d r20.0<8;8,1>:d 0x1:d
send.dc1 (16|M0) r40 r4 null 0x0 0x04805001
add (8|M0) r12.0<1>:d r40.0<8;8,1>:d r46.0<8;8,1>:d
send.dc1 (16|M0) r50 r8 null 0x0 0x04405C01
add (8|M0) r14.0<1>:d r52.0<8;8,1>:d r12.0<8;8,1>:d
send.dc1 (16|M0) null r6 r40 0x200 0x04025001
add (8|M0) r16.0<1>:d r14.0<8;8,1>:d 0x2:d
send.dc1 (16|M0) null r2 r50 0x100 0x04025C01
add (8|M0) r18.0<1>:d r16.0<8;8,1>:d r50.0<8;8,1>:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

/// The first GRF DWord of each send's offsets in [`VECTORS`] and its lanes' step.
const VECTOR_OFFSETS: [(usize, u32); 4] = [(32, 16), (64, 8), (48, 16), (16, 8)];

fn vector_thread(words: &[u32], active: u32, firsts: [u32; 4], consecutive: [bool; 4]) -> Thread {
    let mut words = words.to_vec();
    for (k, &(at, step)) in VECTOR_OFFSETS.iter().enumerate() {
        for (i, w) in words[at..at + 16].iter_mut().enumerate() {
            *w = if consecutive[k] {
                firsts[k].wrapping_add(step * i as u32)
            } else {
                (*w % (SIZE as u32 / 16)) * 16
            };
        }
    }
    let mut t = Thread::new(active);
    for (c, w) in t.grf_mut().chunks_exact_mut(4).zip(&words) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    t
}

/// With every channel on and every send's lanes consecutive inside the window, the four
/// sends are the run's own copies: the memory is not called, and all agrees with the
/// interpreter.
#[test]
fn vectors_per_lane_copy_through_the_window() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, VECTORS).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    let words: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x2545_f491)).collect();
    let memory = Buffer {
        bytes: (0..SIZE).map(|i| (i * 29 + 3) as u8).collect(),
        width: SIZE as u64,
        watch: false,
        heard: Vec::new(),
        slm: vec![0; SLM],
    };
    let firsts = [0x40, 0x300, 0x600, 0x900];
    let mut want = vector_thread(&words, 0xffff, firsts, [true; 4]);
    let mut want_mem = memory.clone();
    let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
    assert_eq!(want_st, Ok(Status::Ended));
    let mut got = vector_thread(&words, 0xffff, firsts, [true; 4]);
    let mut got_mem = Windowed::new(memory, true);
    let mut translated = 0;
    let got_st = sim_jit::run_counted(&mut got, &prog, &tr, &mut got_mem, 1 << 20, &mut translated);
    assert_eq!(got_st, want_st);
    assert_eq!(got_mem.calls, 0, "every send the run's copy");
    assert_eq!((translated, got.instructions_executed()), (9, 10));
    assert!(got_mem.buf.bytes == want_mem.bytes, "memory differs");
    assert_eq!(first_difference(&got, &want), None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Vectors per lane through the window or the calls, against the interpreter: channels,
    /// offsets consecutive or scattered, in and out of the surface.
    #[test]
    fn vectors_per_lane_match_the_interpreter(
        words in proptest::collection::vec(any::<u32>(), 1024),
        active in prop_oneof![Just(0xffffu32), Just(u32::MAX), any::<u32>()],
        firsts in proptest::array::uniform4(prop_oneof![
            3 => (0u32..0xf0).prop_map(|x| x * 16),
            1 => 0xf00u32..0x1100,
            1 => any::<u32>(),
        ]),
        consecutive in proptest::array::uniform4(prop_oneof![3 => Just(true), 1 => Just(false)]),
        width in prop_oneof![Just(SIZE as u64), 0x200u64..SIZE as u64],
        windowed in any::<bool>(),
        writable in any::<bool>(),
    ) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, VECTORS).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let memory = Buffer {
            bytes: (0..SIZE).map(|i| (i * 31) as u8).collect(),
            width,
            watch: false,
            heard: Vec::new(),
        slm: vec![0; SLM],
        };
        let mut want = vector_thread(&words, active, firsts, consecutive);
        let mut want_mem = memory.clone();
        let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
        let mut got = vector_thread(&words, active, firsts, consecutive);
        let (got_st, got_mem) =
            run_translated(&mut got, &prog, &tr, memory, windowed.then_some(writable), &[1 << 20]);
        let got_bytes = got_mem.bytes;
        prop_assert_eq!(&got_st, &want_st);
        prop_assert_eq!(got.instructions_executed(), want.instructions_executed());
        prop_assert!(got_bytes == want_mem.bytes, "memory differs");
        let (g, w) = (got.file(), want.file());
        for at in (0..w.len()).filter(|a| !(TM0..TM0 + 16).contains(a)) {
            prop_assert_eq!(g[at], w[at], "byte {} differs", at);
        }
    }
}

/// Shared local memory between translated instructions, as IGC addresses it (binding-table
/// index 254; offsets may carry IGC's tag in bits 31:28): an untyped read and write of one
/// DWord per lane (offsets in r4 and r6), of four (r8), and an OWord block read and write
/// (header r2, its offset from r1.0 in OWords).
const SHARED: &str = "
(W) mov (8|M0) r2.0<1>:ud 0x0:ud
(W) mov (1|M0) r2.2<1>:ud r1.0<0;1,0>:ud
add (8|M0) r10.0<1>:d r20.0<8;8,1>:d 0x1:d
send.dc1 (16|M0) r40 r4 null 0x0 0x04205EFE
add (8|M0) r12.0<1>:d r40.0<8;8,1>:d r10.0<8;8,1>:d
send.dc1 (16|M0) null r6 r40 0x80 0x04025EFE
send.dc1 (16|M0) r44 r8 null 0x0 0x048050FE
add (8|M0) r14.0<1>:d r44.0<8;8,1>:d r50.0<8;8,1>:d
(W) send.dc0 (16|M0) r52 r2 null 0x0 0x024844FE
(W) send.dc0 (16|M0) null r2 r44 0x80 0x020A03FE
add (8|M0) r16.0<1>:d r52.0<8;8,1>:d r14.0<8;8,1>:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

/// The first GRF DWord of each lane send's offsets in [`SHARED`] and its lanes' step.
const SHARED_OFFSETS: [(usize, u32); 3] = [(32, 4), (48, 4), (64, 16)];

fn shared_thread(
    words: &[u32],
    active: u32,
    firsts: [u32; 3],
    consecutive: [bool; 3],
    block: u32,
) -> Thread {
    let mut words = words.to_vec();
    for (k, &(at, step)) in SHARED_OFFSETS.iter().enumerate() {
        for (i, w) in words[at..at + 16].iter_mut().enumerate() {
            *w = if consecutive[k] {
                firsts[k].wrapping_add(step * i as u32)
            } else {
                (*w % (SLM as u32 / 16)) * 16
            };
        }
    }
    words[8] = block;
    let mut t = Thread::new(active);
    for (c, w) in t.grf_mut().chunks_exact_mut(4).zip(&words) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    t
}

fn shared_memory() -> Buffer {
    Buffer {
        bytes: vec![0; SIZE],
        width: SIZE as u64,
        watch: false,
        heard: Vec::new(),
        slm: (0..SLM).map(|i| (i * 37 + 1) as u8).collect(),
    }
}

/// Every channel on and every access inside the SLM (offsets tagged as IGC tags them): the
/// run's own copies, the memory not called, all equal to the interpreter.
#[test]
fn shared_local_memory_copies_through_its_window() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, SHARED).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    let words: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x6c8e_9cf5)).collect();
    let firsts = [0x1000_0040, 0x200, 0x1000_0400];
    let mut want = shared_thread(&words, 0xffff, firsts, [true; 3], 0x10);
    let mut want_mem = shared_memory();
    let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
    assert_eq!(want_st, Ok(Status::Ended));
    let mut got = shared_thread(&words, 0xffff, firsts, [true; 3], 0x10);
    let mut got_mem = Windowed::new(shared_memory(), true);
    let mut translated = 0;
    let got_st = sim_jit::run_counted(&mut got, &prog, &tr, &mut got_mem, 1 << 20, &mut translated);
    assert_eq!(got_st, want_st);
    assert_eq!(got_mem.calls, 0, "every send the run's copy");
    assert_eq!((translated, got.instructions_executed()), (11, 12));
    assert!(
        got_mem.buf.slm == want_mem.slm,
        "shared local memory differs"
    );
    assert_eq!(first_difference(&got, &want), None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Shared local memory through its window or the calls, against the interpreter:
    /// channels, offsets consecutive or scattered, tagged, in and out of the SLM, blocks
    /// anywhere.
    #[test]
    fn shared_local_memory_matches_the_interpreter(
        words in proptest::collection::vec(any::<u32>(), 1024),
        active in prop_oneof![Just(0xffffu32), any::<u32>()],
        firsts in proptest::array::uniform3(prop_oneof![
            3 => (0u32..0x200).prop_map(|x| x * 4),
            1 => (0u32..0x200).prop_map(|x| 0x1000_0000 | (x * 4)),
            // An address bit, not a tag: past the SLM.
            1 => (0u32..0x200).prop_map(|x| 0x0800_0000 | (x * 4)),
            1 => 0x7c0u32..0x840,
            1 => any::<u32>(),
        ]),
        consecutive in proptest::array::uniform3(prop_oneof![3 => Just(true), 1 => Just(false)]),
        // The write counts OWords: tagged once multiplied by 16, or past 32 bits then.
        block in prop_oneof![
            3 => 0u32..0x80,
            1 => (0u32..0x80).prop_map(|x| 0x0100_0000 | x),
            1 => (0u32..0x80).prop_map(|x| 0x1000_0000 | x),
            1 => any::<u32>(),
        ],
        windowed in any::<bool>(),
    ) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, SHARED).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let mut want = shared_thread(&words, active, firsts, consecutive, block);
        let mut want_mem = shared_memory();
        let want_st = run(&mut want, &prog, None, &mut want_mem, &[1 << 20]);
        let mut got = shared_thread(&words, active, firsts, consecutive, block);
        let (got_st, got_mem) =
            run_translated(&mut got, &prog, &tr, shared_memory(), windowed.then_some(true), &[1 << 20]);
        let got_slm = got_mem.slm;
        prop_assert_eq!(&got_st, &want_st);
        prop_assert_eq!(got.instructions_executed(), want.instructions_executed());
        prop_assert!(got_slm == want_mem.slm, "shared local memory differs");
        prop_assert_eq!(first_difference(&got, &want), None);
    }
}

/// With every translated run checked against the interpreter, this file's tests pass too:
/// runs that called out for sends (which may write what the interpreter's second go would
/// read) are not compared, so the check reports no difference that is not one.
#[test]
fn the_tests_pass_with_every_run_checked() {
    if std::env::var(sim_jit::check::ENV_CHECK).is_ok_and(|v| v == "1") {
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--skip",
            "the_tests_pass_with_every_run_checked",
            "--test-threads",
            "2",
        ])
        .env(sim_jit::check::ENV_CHECK, "1")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A thread started through a [`sim_jit::Starter`] (the dispatcher's way for a group's
    /// fresh threads) ends as `run_counting` leaves it: [`KERNEL`] (sends, interpreted
    /// instructions inside its run, the end) and [`ONE_ADDRESS_CHANGING`], any channels, the
    /// surface's window published or not, sends heard or not (no starter then), a first
    /// budget shorter than the run or not, then on to the end in slices. Outcome, registers
    /// (`tm0` aside), executed and translated counts and memory match.
    #[test]
    fn a_starter_runs_a_fresh_thread_as_the_run_loop_does(
        words in proptest::collection::vec(any::<u32>(), 1024),
        flags in any::<u64>(),
        which in any::<bool>(),
        active in prop_oneof![Just(0xffffu32), 1u32..0x10000],
        read_at in prop_oneof![3 => 0u32..0x700, 1 => 0x700u32..0x2000],
        first_budget in prop_oneof![1u64..20, Just(1u64 << 20)],
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
        windowed in any::<bool>(),
        watch in any::<bool>(),
    ) {
        let text = if which { KERNEL } else { ONE_ADDRESS_CHANGING };
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let start = || {
            let mut t = thread(&words, flags, (read_at, 0x10));
            let mut fresh = Thread::new(active);
            fresh.file_mut().copy_from_slice(t.file());
            t = fresh;
            if !which {
                // Consecutive offsets in r4 (ONE_ADDRESS_CHANGING's address register).
                for i in 0..16 {
                    let at = 4 * 32 + 4 * i;
                    let off = ((read_at % 0x300) + i as u32) * 4;
                    t.grf_mut()[at..at + 4].copy_from_slice(&off.to_le_bytes());
                }
            }
            t
        };
        let memory = Buffer::filled(5, 3, watch);
        let outcome = |starter: bool| {
            let mut t = start();
            if windowed {
                let mut m = Windowed::new(memory.clone(), true);
                m.buf.watch = watch;
                let (st, n) =
                    start_then_on(&mut t, &prog, &tr, &mut m, starter, first_budget, &slices);
                (st, n, t, m.buf)
            } else {
                let mut m = memory.clone();
                let (st, n) =
                    start_then_on(&mut t, &prog, &tr, &mut m, starter, first_budget, &slices);
                (st, n, t, m)
            }
        };
        let (want_st, want_n, want, want_mem) = outcome(false);
        let (got_st, got_n, got, got_mem) = outcome(true);
        // (Checked runs take `run_counting`'s way: no starter then either.)
        prop_assert_eq!(
            sim_jit::Starter::new(&prog, &tr, &memory).is_some(),
            !watch && !sim_jit::check::checking()
        );
        prop_assert_eq!(got_n, want_n);
        prop_assert_eq!(got.ip(), want.ip());
        same_outcome((&got_st, &got, &got_mem), (&want_st, &want, &want_mem))?;
    }
}

/// Runs fresh thread `t` for `first_budget` instructions through a [`sim_jit::Starter`]
/// made with `mem` (`starter`, when one is made) or `run_counting`, then on to its end in
/// `slices` as the dispatcher goes on: the outcome and the instructions translated.
fn start_then_on(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    mem: &mut dyn Memory,
    starter: bool,
    first_budget: u64,
    slices: &[u64],
) -> (Result<Status, EuError>, u64) {
    let mut counts = sim_jit::Counts::default();
    let mut st = match sim_jit::Starter::new(prog, tr, mem).filter(|_| starter) {
        Some(s) => s.run(t, mem, first_budget, &mut counts),
        None => sim_jit::run_counting(t, prog, tr, mem, first_budget, &mut counts),
    };
    for k in 0..10_000 {
        if st != Ok(Status::Budget) {
            break;
        }
        st = sim_jit::run_counting(t, prog, tr, mem, slices[k % slices.len()], &mut counts);
    }
    (st, counts.translated)
}

/// A starter made with one memory and given another (another window table, other bytes)
/// runs the thread as `run_counting` does with the memory it is given: the run's code never
/// reads the first memory's table.
#[test]
fn a_starter_given_another_memory_takes_the_run_loops_way() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, KERNEL).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    let words: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let made_for = Windowed::new(Buffer::filled(3, 1, false), true);
    let Some(starter) = sim_jit::Starter::new(&prog, &tr, &made_for) else {
        // Checked runs take `run_counting`'s way: no starter is made.
        assert!(sim_jit::check::checking());
        return;
    };
    let run_with = |use_starter: bool| {
        let mut m = Windowed::new(Buffer::filled(5, 3, false), true);
        let mut t = thread(&words, 0, (0x40, 0x10));
        let mut counts = sim_jit::Counts::default();
        let st = if use_starter {
            starter.run(&mut t, &mut m, 1 << 20, &mut counts)
        } else {
            sim_jit::run_counting(&mut t, &prog, &tr, &mut m, 1 << 20, &mut counts)
        };
        (st, counts.translated, t, m.buf)
    };
    let (want_st, want_n, want, want_mem) = run_with(false);
    let (got_st, got_n, got, got_mem) = run_with(true);
    assert_eq!(got_st, want_st);
    assert_eq!(got_st, Ok(Status::Ended));
    assert_eq!(got_n, want_n);
    assert!(got_mem.bytes == want_mem.bytes, "memory differs");
    assert_eq!(first_difference(&got, &want), None);
}
