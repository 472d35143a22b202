//! An OWord block write under a per-channel predicate writes DWord `i` of the block only where
//! channel `i` is enabled, as the block read writes back (`block_read_channel_mask.rs`). The
//! send below is the one Intel's oneDNN generates for its Xe-HPG convolutions (OpenVINO's GPU
//! plugin runs them on dg2): each work-group writes a 64-byte block of which its predicate
//! enables only its own DWords, the rest being the next group's; written whole, the groups'
//! blocks overlapped and the output depended on which group wrote last. oneDNN's generator
//! states the rule (gemmstone `layout_setup.cxx`: "Block accesses mask by dwords"). The bytes
//! are `iga64 -a -p 12p71`'s for `(W&f0.0) send.dc1 (16|M0) null r20 r15:2 0x0 0x020D43FF`
//! (A64 OWord block write, four OWords; header r20, data r15..r16).

use platform::Platform;
use sim_eu::dataport::{Memory, Surface};
use sim_eu::error::MemFault;
use sim_eu::{run, Program, Status, Thread};

const P: Platform = Platform::Dg2;
const SEND: [u8; 16] = [
    0x31, 0x00, 0x04, 0x81, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x14, 0xfe, 0xc7, 0x14, 0x0f, 0x50, 0x03,
];
const BASE: u64 = 0x4000;

/// 64 bytes at `BASE`, all 0xEE before the write.
struct Block(Vec<u8>);

fn fault(address: u64) -> MemFault {
    MemFault { address }
}

impl Memory for Block {
    fn read(&mut self, addr: u64, _buf: &mut [u8]) -> Result<(), MemFault> {
        Err(fault(addr))
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let at = addr.checked_sub(BASE).ok_or(fault(addr))? as usize;
        self.0
            .get_mut(at..at + data.len())
            .ok_or(fault(addr))?
            .copy_from_slice(data);
        Ok(())
    }
    fn slm_read(&mut self, offset: u32, _buf: &mut [u8]) -> Result<(), MemFault> {
        Err(fault(u64::from(offset)))
    }
    fn slm_write(&mut self, offset: u32, _data: &[u8]) -> Result<(), MemFault> {
        Err(fault(u64::from(offset)))
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        Err(fault(u64::from(bti)))
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        Err(fault(u64::from(offset)))
    }
}

/// Runs: r15..r16 = DWords 1..=16, f0.0 = `predicate`, r20.0:uq = BASE, the send; gives the
/// 64 bytes at BASE.
fn write_under(predicate: u16) -> Vec<u8> {
    let mut code = isa_encoder::assemble(
        P,
        &format!(
            "(W) mov (8|M0) r15.0<1>:ud 0x76543210:uv\n\
             (W) add (8|M0) r15.0<1>:ud r15.0<8;8,1>:ud 0x1:ud\n\
             (W) add (8|M0) r16.0<1>:ud r15.0<8;8,1>:ud 0x8:ud\n\
             (W) mov (1|M0) f0.0<1>:uw {predicate:#x}:uw\n\
             (W) mov (1|M0) r20.0<1>:uq {BASE:#x}:uq\n"
        ),
    )
    .unwrap();
    code.extend(SEND);
    code.extend(isa_encoder::assemble(P, "nop").unwrap());
    let prog = Program::decode(P, &code);
    let mut t = Thread::new(0xffff);
    let mut mem = Block(vec![0xEE; 64]);
    assert_eq!(run(&mut t, &prog, &mut mem, 6), Ok(Status::Budget));
    mem.0
}

fn dword(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap())
}

#[test]
fn disabled_channels_leave_their_dwords_in_memory() {
    // Channels 0..=5 enabled: DWords 6..=15 belong to someone else and keep their bytes.
    let got = write_under(0x003f);
    for i in 0..16 {
        let want = if i < 6 { i as u32 + 1 } else { 0xEEEE_EEEE };
        assert_eq!(dword(&got, i), want, "DWord {i}");
    }
}

#[test]
fn all_channels_write_the_whole_block() {
    let got = write_under(0xffff);
    let want: Vec<u32> = (1..=16).collect();
    assert_eq!((0..16).map(|i| dword(&got, i)).collect::<Vec<_>>(), want);
}
