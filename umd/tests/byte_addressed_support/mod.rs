//! Shared by the `vloadn`/`vstoren` tests (global and local memory): the element types,
//! widths and offsets they try, and what ocloc compiled, as iga64 prints it from ocloc's own
//! dump, to check the messages IGC chose before running them.
#![allow(dead_code)]

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// Element types of the kernels (name, bytes) and vector widths.
pub const TYPES: [(&str, usize); 5] = [
    ("char", 1),
    ("uchar", 1),
    ("short", 2),
    ("ushort", 2),
    ("int", 4),
];
pub const WIDTHS: [usize; 5] = [2, 3, 4, 8, 16];
/// The element offsets tried (byte offsets 0..3 for char).
pub const OFFSETS: [usize; 4] = [0, 1, 2, 3];

pub struct Tools {
    pub ocloc: std::path::PathBuf,
    pub iga: std::path::PathBuf,
}

/// The instructions of kernel `name` in `bin`.
pub fn listing(tools: &Tools, bin: &[u8], name: &str, p: Platform) -> Vec<String> {
    let heaps = oracles::ocloc::kernel_heaps(&tools.ocloc, bin).unwrap();
    let heap = heaps.iter().find(|h| h.name == name).expect(name);
    oracles::iga64::listing(&tools.iga, p, &heap.bytes)
        .unwrap()
        .into_iter()
        .map(|(_, t)| t)
        .collect()
}

/// The send instructions of kernel `name` in `bin`.
pub fn sends(tools: &Tools, bin: &[u8], name: &str, p: Platform) -> Vec<String> {
    listing(tools, bin, name, p)
        .into_iter()
        .filter(|t| t.contains("send"))
        .collect()
}

/// A copy kernel's source `a` and destination `b` for `items` work-items of `elem`-byte
/// elements (room for the widest vector at the largest offset), and their initial bytes.
pub struct Buffers {
    pub a_init: Vec<u8>,
    pub b_init: Vec<u8>,
    pub a: Buffer,
    pub b: Buffer,
}

impl Buffers {
    pub fn new(d: &Device, items: usize, elem: usize) -> Buffers {
        let bytes = (items * 16 + OFFSETS.len()) * elem;
        let a_init: Vec<u8> = (0..bytes).map(|i| (i * 37 + 11) as u8).collect();
        let b_init: Vec<u8> = (0..bytes).map(|i| (i * 101 + 7) as u8).collect();
        let (a, b) = (
            d.create_buffer(bytes as u64).unwrap(),
            d.create_buffer(bytes as u64).unwrap(),
        );
        a.write(0, &a_init).unwrap();
        Buffers {
            a_init,
            b_init,
            a,
            b,
        }
    }

    /// Resets `b`, runs `kernel(a, b, off, extra...)` and checks that `b` then holds `want`.
    pub fn run(
        &self,
        d: &Device,
        (kernel, range): (&Kernel, &NdRange),
        off: usize,
        extra: &[ArgValue],
        want: &[u8],
        what: &str,
    ) {
        self.b.write(0, &self.b_init).unwrap();
        let mut args = vec![
            ArgValue::Buffer(self.a.clone()),
            ArgValue::Buffer(self.b.clone()),
            ArgValue::Value((off as u32).to_le_bytes().to_vec()),
        ];
        args.extend_from_slice(extra);
        if let Err(e) = d.dispatch(kernel, range, &args) {
            panic!("{what}: {e}");
        }
        let got = self.b.to_vec().unwrap();
        if let Some(at) = (0..want.len()).find(|&i| got[i] != want[i]) {
            panic!("{what}: byte {at} is {:#x}, want {:#x}", got[at], want[at]);
        }
    }
}
