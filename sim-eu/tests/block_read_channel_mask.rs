//! An OWord block read under a per-channel predicate writes DWord `i` of the destination only
//! where channel `i` is enabled. The send below is the one Intel's oneDNN generates for its
//! Xe-HPG convolutions (OpenVINO's GPU plugin runs them on dg2): it zeroes the destination,
//! then reads a row of 16 floats under a predicate that is false for the padding columns, which
//! must stay zero. The instruction's bytes are `iga64 -a -p 12p71`'s for
//! `(W&f0.0) send.dc1 (16|M0) r28 r19 null:0 0x0 0x022D03FF` (A64 unaligned OWord block read,
//! four OWords).

use platform::Platform;
use sim_eu::dataport::{Memory, Surface};
use sim_eu::error::MemFault;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, Program, Status, Thread};

const P: Platform = Platform::Dg2;
const SEND: [u8; 16] = [
    0x31, 0x00, 0x04, 0x81, 0x00, 0x00, 0x14, 0x1c, 0x0c, 0x13, 0xfe, 0xc7, 0x00, 0x00, 0x40, 0x03,
];
const BASE: u64 = 0x4000;

/// 256 bytes at `BASE`: byte `i` holds `i + 1`.
struct Row(Vec<u8>);

impl Memory for Row {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        let at = addr.checked_sub(BASE).ok_or(MemFault { address: addr })? as usize;
        let s = self
            .0
            .get(at..at + buf.len())
            .ok_or(MemFault { address: addr })?;
        buf.copy_from_slice(s);
        Ok(())
    }
    fn write(&mut self, addr: u64, _data: &[u8]) -> Result<(), MemFault> {
        Err(MemFault { address: addr })
    }
    fn slm_read(&mut self, offset: u32, _buf: &mut [u8]) -> Result<(), MemFault> {
        Err(MemFault {
            address: u64::from(offset),
        })
    }
    fn slm_write(&mut self, offset: u32, _data: &[u8]) -> Result<(), MemFault> {
        Err(MemFault {
            address: u64::from(offset),
        })
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        Err(MemFault {
            address: u64::from(bti),
        })
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        Err(MemFault {
            address: u64::from(offset),
        })
    }
}

/// Runs: zero r28..r29, f0.0 = `predicate`, r19.0:uq = BASE, the send; gives r28..r29. (The
/// descriptor's message-control bits 4:3 are 0: a 16-byte-aligned read in Mesa's encoding,
/// `brw_dp_a64_oword_block_rw_desc`, though iga64 names it "unaligned".)
fn read_under(predicate: u16) -> Vec<u8> {
    read_at(BASE, predicate).expect("the read runs")
}

/// [`read_under`] with the block at `addr`; the run's error when a read faulted.
fn read_at(addr: u64, predicate: u16) -> Result<Vec<u8>, sim_eu::error::EuError> {
    let before = isa_encoder::assemble(
        P,
        &format!(
            "(W) mov (16|M0) r28.0<1>:f 0x0:f\n\
             (W) mov (1|M0) f0.0<1>:uw {predicate:#x}:uw\n\
             (W) mov (1|M0) r19.0<1>:uq {:#x}:uq\n",
            addr
        ),
    )
    .unwrap();
    let mut code = before;
    code.extend(SEND);
    code.extend(isa_encoder::assemble(P, "nop").unwrap());
    let prog = Program::decode(P, &code);
    let mut t = Thread::new(0xffff);
    let mut mem = Row((0..=255u8).map(|i| i.wrapping_add(1)).collect());
    assert_eq!(run(&mut t, &prog, &mut mem, 4)?, Status::Budget);
    Ok(t.grf()[28 * REG_BYTES..30 * REG_BYTES].to_vec())
}

#[test]
fn disabled_channels_keep_their_dwords() {
    // Channels 1..=14 enabled: DWords 0 and 15 (the padding columns) stay zero.
    let got = read_under(0x7ffe);
    for i in 0..16 {
        let dword = &got[4 * i..4 * i + 4];
        if i == 0 || i == 15 {
            assert_eq!(dword, [0; 4], "DWord {i}");
        } else {
            let want: Vec<u8> = (0..4).map(|b| (4 * i + b + 1) as u8).collect();
            assert_eq!(dword, &want[..], "DWord {i}");
        }
    }
}

#[test]
fn all_channels_read_the_whole_block() {
    let got = read_under(0xffff);
    let want: Vec<u8> = (0..64).map(|b| (b + 1) as u8).collect();
    assert_eq!(got, want);
}

/// A disabled channel's DWord is not read at all: oneDNN's guard disables the DWords past a
/// row's end, which may lie past the buffer (here: past the memory, where a read faults).
#[test]
fn disabled_channels_are_not_read() {
    // The block's last 16 bytes (DWords 12..=15) lie past the memory's 256 bytes.
    let at = BASE + 208;
    let got = read_at(at, 0x0fff).expect("only the 48 bytes inside are read");
    for i in 0..12 {
        let want: Vec<u8> = (0..4).map(|b| (208 + 4 * i + b + 1) as u8).collect();
        assert_eq!(&got[4 * i..4 * i + 4], &want[..], "DWord {i}");
    }
    assert_eq!(&got[48..64], [0; 16], "DWords 12..=15 stay zero");
    assert!(
        read_at(at, 0xffff).is_err(),
        "enabled, DWords 12..=15 fault"
    );
    assert_eq!(
        read_at(BASE + 0x1000, 0),
        Ok(vec![0; 64]),
        "no channel, no access"
    );
}
