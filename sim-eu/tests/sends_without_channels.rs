//! A message whose effects are per channel (an address and data per lane) does nothing when
//! no channel is enabled: it reaches no surface, sampler or memory, and its response
//! registers keep their bytes, as disabled channels' do. A SIMD32 thread dispatched for fewer
//! than 17 work-items sends its second half's messages so. Each send is one IGC (ocloc,
//! tgllp; `iga64 -d -p 12p1` of the kernel) emitted for an OpenCL C image copy, SAXPY, or a
//! byte copy or atomic add (stateless with `-cl-intel-greater-than-4GB-buffer-required`);
//! here a predicate whose flag is all zeros switches its channels off. With the flag all
//! ones the same send asks the memory, which refuses everything, for what it needs.

use platform::Platform;
use sim_eu::dataport::{Memory, Surface};
use sim_eu::error::MemFault;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, EuError, Program, Status, Thread};

const P: Platform = Platform::Tgllp;

/// Counts every access and refuses it.
#[derive(Default)]
struct Refusing {
    asked: usize,
}

impl Refusing {
    fn no(&mut self, address: u64) -> MemFault {
        self.asked += 1;
        MemFault { address }
    }
}

impl Memory for Refusing {
    fn read(&mut self, addr: u64, _buf: &mut [u8]) -> Result<(), MemFault> {
        Err(self.no(addr))
    }
    fn write(&mut self, addr: u64, _data: &[u8]) -> Result<(), MemFault> {
        Err(self.no(addr))
    }
    fn slm_read(&mut self, offset: u32, _buf: &mut [u8]) -> Result<(), MemFault> {
        Err(self.no(u64::from(offset)))
    }
    fn slm_write(&mut self, offset: u32, _data: &[u8]) -> Result<(), MemFault> {
        Err(self.no(u64::from(offset)))
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        Err(self.no(u64::from(bti)))
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        Err(self.no(u64::from(offset)))
    }
}

/// The sends, as IGC wrote them (`(W)` and the predicate added here).
const SENDS: [(&str, &str); 9] = [
    (
        "sampler sample_lz, SIMD16",
        "send.smpl (16|M0) r42 r34 r38 0x80 0x04858000",
    ),
    (
        "typed surface write, SIMD8",
        "send.dc1 (8|M0) null r13 r58 0x140 0x02035001",
    ),
    (
        "untyped surface read, SIMD16",
        "send.dc1 (16|M0) r11 r5 null 0x0 0x04205E00",
    ),
    (
        "untyped surface write, SIMD16",
        "send.dc1 (16|M0) null r5 r11 0x80 0x04025E01",
    ),
    (
        "byte gathering read, SIMD16",
        "send.dc0 (16|M0) r13 r5 null 0x0 0x04210100",
    ),
    (
        "byte scattering write, SIMD16",
        "send.dc0 (16|M0) null r5 r17 0x80 0x04030101",
    ),
    (
        "A64 dword gathering read, SIMD16",
        "send.dc1 (16|M0) r39 r31 null 0x0 0x082411FF",
    ),
    (
        "A64 dword scattering write, SIMD16",
        "send.dc1 (16|M0) null r59 r43 0x80 0x080691FF",
    ),
    (
        "A64 atomic add, SIMD8",
        "send.dc1 (8|M0) null r27 r35 0x40 0x040487FF",
    ),
];

/// Fills r0..r127 with 0x40 bytes (aligned addresses and data), sets f0.0 to `flag`, then runs
/// `send` under `(f0.0)`; gives the run's result, the GRF after it and the memory's count.
fn run_send(send: &str, flag: u16) -> (Result<Status, EuError>, Vec<u8>, usize) {
    let code = isa_encoder::assemble(
        P,
        &format!("(W) mov (1|M0) f0.0<1>:uw {flag:#x}:uw\n(f0.0) {send}\nnop\n"),
    )
    .unwrap_or_else(|e| panic!("{send}: {e}"));
    let prog = Program::decode(P, &code);
    let mut t = Thread::new(0xffff);
    t.grf_mut().fill(0x40);
    let before = t.grf().to_vec();
    let mut mem = Refusing::default();
    let st = run(&mut t, &prog, &mut mem, 2);
    let after = t.grf().to_vec();
    assert_eq!(
        before[REG_BYTES..],
        after[REG_BYTES..],
        "{send}: only r0 may differ (nothing here writes it)"
    );
    (st, after, mem.asked)
}

#[test]
fn no_channel_no_access_and_no_response() {
    for (what, send) in SENDS {
        let (st, _, asked) = run_send(send, 0);
        assert_eq!(st, Ok(Status::Budget), "{what}");
        assert_eq!(asked, 0, "{what}: the memory was asked");
    }
}

/// The contrast: with every channel enabled each of them needs the memory (which refuses).
#[test]
fn enabled_channels_ask_the_memory() {
    for (what, send) in SENDS {
        let (st, _, asked) = run_send(send, 0xffff);
        assert!(st.is_err(), "{what}: {st:?}");
        assert!(asked > 0, "{what}");
    }
}
