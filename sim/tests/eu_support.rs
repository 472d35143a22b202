//! Shared helpers of the EU tests: a memory on vectors, and running IGA text assembled by
//! iga64 on a thread.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;

use platform::Platform;
use sim_eu::{run, EuError, MemFault, Memory, Program, Sampler, Status, Surface, Thread};

/// One mapped range of GPU memory, SLM and a binding table of surfaces.
pub struct TestMem {
    pub base: u64,
    pub bytes: Vec<u8>,
    pub slm: Vec<u8>,
    pub surfaces: HashMap<u32, Surface>,
    /// The sampler table, by sampler index.
    pub samplers: HashMap<u32, Sampler>,
    pub barriers: u32,
    /// Accesses made one element at a time ([`Memory::read`], [`Memory::write`]) and as one
    /// run ([`Memory::read_all`], [`Memory::write_all`]).
    pub one_by_one: u32,
    pub whole: u32,
}

impl TestMem {
    pub fn new(base: u64, size: usize) -> TestMem {
        TestMem {
            base,
            bytes: vec![0; size],
            slm: vec![0; 64 * 1024],
            surfaces: HashMap::new(),
            samplers: HashMap::new(),
            barriers: 0,
            one_by_one: 0,
            whole: 0,
        }
    }

    fn range(&self, addr: u64, len: usize) -> Result<std::ops::Range<usize>, MemFault> {
        let end = self.base + self.bytes.len() as u64;
        if addr < self.base || addr >= end {
            return Err(MemFault { address: addr });
        }
        if addr + len as u64 > end {
            return Err(MemFault { address: end });
        }
        let at = (addr - self.base) as usize;
        Ok(at..at + len)
    }

    pub fn u32_at(&self, addr: u64) -> u32 {
        let at = (addr - self.base) as usize;
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().unwrap())
    }

    pub fn put_u32s(&mut self, addr: u64, vals: &[u32]) {
        for (i, v) in vals.iter().enumerate() {
            let at = (addr - self.base) as usize + 4 * i;
            self.bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
}

impl Memory for TestMem {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.one_by_one += 1;
        let r = self.range(addr, buf.len())?;
        buf.copy_from_slice(&self.bytes[r]);
        Ok(())
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.one_by_one += 1;
        let r = self.range(addr, data.len())?;
        self.bytes[r].copy_from_slice(data);
        Ok(())
    }
    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        let Ok(r) = self.range(addr, buf.len()) else {
            return false;
        };
        self.whole += 1;
        buf.copy_from_slice(&self.bytes[r]);
        true
    }
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        let Ok(r) = self.range(addr, data.len()) else {
            return false;
        };
        self.whole += 1;
        self.bytes[r].copy_from_slice(data);
        true
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        sim_eu::dataport::read_bytes_at(&self.slm, offset, buf)
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        sim_eu::dataport::write_bytes_at(&mut self.slm, offset, data)
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        if bti == 255 || bti == 253 {
            return Ok(Surface::buffer(0, u64::MAX));
        }
        self.surfaces.get(&bti).copied().ok_or(MemFault {
            address: u64::from(bti),
        })
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        self.surface(offset >> 6)
    }
    fn sampler(&mut self, index: u32) -> Result<Sampler, MemFault> {
        self.samplers.get(&index).copied().ok_or(MemFault {
            address: u64::from(index),
        })
    }
    fn barrier_signal(&mut self) {
        self.barriers += 1;
    }
}

/// The end-of-thread send of each platform, in iga64's syntax.
pub fn eot(p: Platform) -> &'static str {
    match p {
        Platform::Dg2 => "send.gtwy (8|M0) null r127 null:0 0x0 0x02000000 {EOT}\n",
        Platform::Tgllp => "send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}\n",
        _ => "send (8|M0) null r127 0x27 0x02000010 {EOT}\n",
    }
}

/// Assembles `body` plus an end of thread with iga64 and decodes it.
pub fn program(iga: &Path, p: Platform, body: &str) -> Program {
    let text = format!("{body}\n{}", eot(p));
    let bytes = oracles::iga64::asm(iga, p, &text, &[]).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let prog = Program::decode(p, &bytes);
    for i in &prog.insts {
        assert!(
            i.invalid.is_none(),
            "{:?} at {:#x}\n{text}",
            i.invalid,
            i.pc
        );
    }
    prog
}

/// Runs `prog` on a fresh SIMD-`simd` thread whose GRF `init` prepares.
pub fn run_on(
    prog: &Program,
    simd: u32,
    mem: &mut TestMem,
    init: impl FnOnce(&mut Thread),
) -> Result<Thread, EuError> {
    let mask = if simd == 32 {
        u32::MAX
    } else {
        (1 << simd) - 1
    };
    let mut t = Thread::new(mask);
    init(&mut t);
    let st = run(&mut t, prog, mem, 1_000_000)?;
    assert_eq!(st, Status::Ended);
    Ok(t)
}

/// Writes little-endian u32s into the GRF starting at register `reg`.
pub fn set_u32s(t: &mut Thread, reg: usize, vals: &[u32]) {
    for (i, v) in vals.iter().enumerate() {
        let at = reg * 32 + 4 * i;
        t.grf_mut()[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// Reads `n` u32s from the GRF starting at register `reg`.
pub fn u32s(t: &Thread, reg: usize, n: usize) -> Vec<u32> {
    (0..n).map(|i| t.grf_u32(reg + i / 8, i % 8)).collect()
}

/// Reads `n` f32s from the GRF starting at register `reg`.
pub fn f32s(t: &Thread, reg: usize, n: usize) -> Vec<f32> {
    u32s(t, reg, n).into_iter().map(f32::from_bits).collect()
}

/// Deterministic test values with the edge cases first.
pub fn values(n: usize, seed: u32) -> Vec<u32> {
    let edges = [
        0u32,
        1,
        0xffff_ffff,
        0x8000_0000,
        0x7fff_ffff,
        0xff,
        0x100,
        0xffff,
    ];
    (0..n)
        .map(|i| {
            if i < edges.len() && seed == 0 {
                edges[i]
            } else {
                let x = (i as u32 + 1).wrapping_mul(0x9e37_79b9) ^ seed.wrapping_mul(0x85eb_ca6b);
                x ^ (x >> 13)
            }
        })
        .collect()
}

/// The platforms whose native codec is in isa-encoder.
pub const GEN12: [Platform; 2] = [Platform::Tgllp, Platform::Dg2];

/// Every platform (Gen9/Gen11 decode through isa-encoder's gen9_11 codec).
pub const ALL: [Platform; 4] = [
    Platform::Skl,
    Platform::Icllp,
    Platform::Tgllp,
    Platform::Dg2,
];
