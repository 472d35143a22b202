//! A stateless OWord block message (binding-table index 255) adds its header's DWord 5 bits
//! 31:10, the Buffer Base Offset, to the offset in DWord 2 on Gen9–Gen12LP: a header copied
//! from r0 then reaches the thread's own scratch slice (r0.5 holds its pointer). IGC spills so
//! when a kernel's scratch passes 60 % of the scratch message's 128 KiB (vISA
//! `createSpillSendMsgDescOWord`: header r0, offset in OWords, BTI 0xFF); Mesa's Gen6 spills
//! were built the same way (`brw_oword_block_write_scratch`). The send is IGC's, as ocloc
//! emits it for tgllp: `send.dc0 (8|M0) null r2 r3 0x40 0x020A02FF` ("oword block write x2").
//! Xe-HPG's r0.5 names the scratch surface state instead; there the offset is not added.

use platform::Platform;
use sim_eu::dataport::{Memory, Surface};
use sim_eu::error::MemFault;
use sim_eu::{run, Program, Status, Thread};

/// General State Base Address: where index 255's space starts.
const GENERAL: u64 = 0x10_0000;

/// Records every write (one by one, or whole blocks); reads fault.
struct Writes(Vec<(u64, Vec<u8>)>);

fn fault(address: u64) -> MemFault {
    MemFault { address }
}

impl Memory for Writes {
    fn read(&mut self, addr: u64, _buf: &mut [u8]) -> Result<(), MemFault> {
        Err(fault(addr))
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.0.push((addr, data.to_vec()));
        Ok(())
    }
    /// One access for a whole block: the data port's quick form takes it.
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        self.0.push((addr, data.to_vec()));
        true
    }
    fn slm_read(&mut self, offset: u32, _buf: &mut [u8]) -> Result<(), MemFault> {
        Err(fault(u64::from(offset)))
    }
    fn slm_write(&mut self, offset: u32, _data: &[u8]) -> Result<(), MemFault> {
        Err(fault(u64::from(offset)))
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        match bti {
            255 => Ok(Surface::buffer(GENERAL, 1 << 40)),
            _ => Err(fault(u64::from(bti))),
        }
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        Err(fault(u64::from(offset)))
    }
}

/// The block write (header r2, data r3) in each generation's syntax, as iga64 prints ocloc's.
fn send(p: Platform) -> &'static str {
    match p {
        Platform::Skl | Platform::Icllp => "sends (8|M0) null:ud r2 r3 0x4A 0x020A02FF",
        Platform::Tgllp => "send.dc0 (8|M0) null r2 r3 0x40 0x020A02FF",
        Platform::Dg2 => "send.dc0 (8|M0) null r2 r3:1 0x0 0x020A02FF",
    }
}

/// Runs, with r0.5 = `r0_5` and channels `predicate` enabled: the header r2 = r0 with the
/// offset 0x10 OWords, data r3 = DWords 1..=8, the block write; gives the bytes written where.
fn spill(p: Platform, r0_5: u32, predicate: u16) -> Vec<(u64, Vec<u8>)> {
    let code = isa_encoder::assemble(
        p,
        &format!(
            "(W) mov (8|M0) r2.0<1>:ud r0.0<8;8,1>:ud\n\
             (W) mov (1|M0) r2.2<1>:ud 0x10:ud\n\
             (W) mov (8|M0) r3.0<1>:ud 0x76543210:uv\n\
             (W) add (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0x1:ud\n\
             (W) mov (1|M0) f0.0<1>:uw {predicate:#x}:uw\n\
             (W&f0.0) {SEND}\n\
             nop\n",
            SEND = send(p)
        ),
    )
    .unwrap();
    let prog = Program::decode(p, &code);
    let mut t = Thread::new(0xff);
    t.file_mut()[20..24].copy_from_slice(&r0_5.to_le_bytes());
    let mut mem = Writes(Vec::new());
    assert_eq!(run(&mut t, &prog, &mut mem, 6), Ok(Status::Budget), "{p}");
    mem.0
}

/// The DWords written, by address.
fn dwords(writes: &[(u64, Vec<u8>)]) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    for (addr, bytes) in writes {
        for (i, d) in bytes.chunks_exact(4).enumerate() {
            out.push((
                addr + 4 * i as u64,
                u32::from_le_bytes(d.try_into().unwrap()),
            ));
        }
    }
    out.sort_unstable();
    out
}

/// DWords 1..=`n` from `at`.
fn block(at: u64, n: u32) -> Vec<(u64, u32)> {
    (0..n).map(|i| (at + 4 * u64::from(i), i + 1)).collect()
}

#[test]
fn the_header_pointer_moves_the_block_into_the_threads_slice() {
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        // Slice pointer 0x2400, FFTID 5 in the low bits (not part of the offset).
        let at = GENERAL + 0x2400 + 0x10 * 16;
        // Every channel (the quick form), and channel 7 off (the general path).
        assert_eq!(dwords(&spill(p, 0x2405, 0xff)), block(at, 8), "{p}");
        assert_eq!(dwords(&spill(p, 0x2405, 0x7f)), block(at, 7), "{p} masked");
        // A header whose DWord 5 is zero adds nothing.
        assert_eq!(dwords(&spill(p, 0, 0xff)), block(GENERAL + 0x100, 8), "{p}");
    }
}

#[test]
fn xe_hpg_does_not_add_it() {
    let p = Platform::Dg2;
    assert_eq!(dwords(&spill(p, 0x2405, 0xff)), block(GENERAL + 0x100, 8));
    assert_eq!(dwords(&spill(p, 0x2405, 0x7f)), block(GENERAL + 0x100, 7));
}
