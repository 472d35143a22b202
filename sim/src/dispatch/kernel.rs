//! Fetching a kernel's bytes from the instruction heap and decoding them once per address.

use std::collections::HashMap;
use std::sync::Arc;

use platform::Platform;

use super::jit::{self, Tier};
use crate::mem::{AddressSpace, PAGE_SIZE};
use sim_eu::{Program, ProgramCache};

/// Longest kernel fetched: a bound on a runaway scan, not on real kernels. Most of IGC's
/// kernels are a few KiB, but its unoptimized code (`-cl-opt-disable`) for a large kernel
/// passes 1 MiB (1.25 MiB seen, 80,000 instructions).
const MAX_KERNEL_BYTES: usize = 16 << 20;
/// CompactControl (bit 29 of the first dword): an 8-byte compacted instruction.
const COMPACT_BIT: u8 = 1 << 5;

/// Reads the kernel at `addr`: instructions up to and including the first all-zero native
/// instruction (opcode 0 is `illegal`, which is where IGC's padding starts), or up to the
/// first unmapped page.
pub fn fetch(vm: &AddressSpace, addr: u64) -> Vec<u8> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut pc = 0usize;
    loop {
        // Keep at least one whole instruction buffered past `pc`.
        while bytes.len() < pc + 16 && bytes.len() < MAX_KERNEL_BYTES {
            let at = addr.wrapping_add(bytes.len() as u64);
            let in_page = PAGE_SIZE - at % PAGE_SIZE;
            let mut chunk = vec![0u8; in_page as usize];
            if vm.read(at, &mut chunk).is_err() {
                return bytes;
            }
            bytes.extend_from_slice(&chunk);
        }
        let Some(inst) = bytes.get(pc..pc + 16) else {
            return bytes;
        };
        if inst[3] & COMPACT_BIT != 0 {
            pc += 8;
        } else if inst.iter().all(|&b| b == 0) {
            bytes.truncate(pc + 16);
            return bytes;
        } else {
            pc += 16;
        }
    }
}

/// Kernel addresses whose bytes and decoded programs are kept; past it all are forgotten
/// (a process that builds programs without end keeps moving its kernels to new addresses).
const MAX_KERNELS: usize = 512;

/// Decoded kernels by address, re-decoded when the bytes at an address change. Every
/// address's bytes are kept: a queue alternates between its programs' kernels (a network's
/// layers, a BLAS routine's copy and compute kernels), each decoded once.
#[derive(Default)]
pub struct Kernels {
    cache: ProgramCache,
    bytes: HashMap<(Platform, u64), Vec<u8>>,
}

impl Kernels {
    /// The kernel at `addr` decoded for threads with `grf_regs` GRF registers, and with
    /// `translate` (`Some`: after that many interpreted instructions per instruction) its
    /// way to translated code ([`jit::tier`]).
    pub fn get(
        &mut self,
        p: Platform,
        vm: &AddressSpace,
        addr: u64,
        grf_regs: usize,
        translate: Option<u64>,
    ) -> (Arc<Program>, Option<Tier>) {
        let bytes = fetch(vm, addr);
        if self.bytes.get(&(p, addr)) != Some(&bytes) {
            // New there, or rewritten: what was decoded from that address is stale.
            self.cache.invalidate_at(p, addr);
            if self.bytes.len() >= MAX_KERNELS {
                self.cache.invalidate();
                self.bytes.clear();
            }
            self.bytes.insert((p, addr), bytes.clone());
        }
        // The closure never fails, so neither does the lookup.
        let prog = self
            .cache
            .get_or_decode(p, addr, grf_regs, || Ok(bytes.clone()))
            .unwrap_or_else(|_| Arc::new(Program::decode(p, &[])));
        let tier = translate.and_then(|hot| jit::tier(p, &bytes, &prog, hot));
        (prog, tier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::Bo;

    fn vm_with(bytes: &[u8]) -> AddressSpace {
        let bo = Bo::new(PAGE_SIZE).unwrap();
        bo.write(0, bytes).unwrap();
        let mut vm = AddressSpace::new();
        vm.bind(0x1000, PAGE_SIZE, bo, 0, false).unwrap();
        vm
    }

    #[test]
    fn fetch_stops_after_the_first_zero_native_instruction() {
        let mut k = vec![0x41u8; 16];
        // An 8-byte compacted instruction whose second half would look like padding if it
        // were read as the start of a native one.
        k.extend_from_slice(&[1, 0, 0, COMPACT_BIT, 0, 0, 0, 0]);
        k.extend_from_slice(&[0u8; 32]);
        k.extend_from_slice(&[0x41u8; 16]);
        let got = fetch(&vm_with(&k), 0x1000);
        assert_eq!(got.len(), 16 + 8 + 16);
        assert_eq!(&got[..24], &k[..24]);
    }

    #[test]
    fn fetch_takes_a_kernel_of_more_than_a_mebibyte_whole() {
        // 1.25 MiB of native instructions (any bytes not all zero, no compaction bit), then
        // the all-zero one that ends it.
        let len = 0x14_0000;
        let bo = Bo::new(len + PAGE_SIZE).unwrap();
        bo.write(0, &vec![0x61u8; len as usize]).unwrap();
        let mut vm = AddressSpace::new();
        vm.bind(0x1000, len + PAGE_SIZE, bo, 0, false).unwrap();
        assert_eq!(fetch(&vm, 0x1000).len(), len as usize + 16);
    }

    #[test]
    fn kernels_at_two_addresses_decode_once_each_until_rewritten() {
        // One native instruction (any bytes not all zero, no compaction bit) then an all-zero
        // one (the end), twice: at 0x1000 and 0x1100.
        let mov = [0x61u8; 16];
        let mut page = vec![0u8; PAGE_SIZE as usize];
        page[..16].copy_from_slice(&mov);
        page[0x100..0x110].copy_from_slice(&mov);
        let bo = Bo::new(PAGE_SIZE).unwrap();
        bo.write(0, &page).unwrap();
        let mut vm = AddressSpace::new();
        vm.bind(0x1000, PAGE_SIZE, bo.clone(), 0, false).unwrap();
        let mut k = Kernels::default();
        let p = Platform::Tgllp;
        let a = k.get(p, &vm, 0x1000, 128, None).0;
        let b = k.get(p, &vm, 0x1100, 128, None).0;
        // Alternating between them decodes neither again.
        assert!(Arc::ptr_eq(&a, &k.get(p, &vm, 0x1000, 128, None).0));
        assert!(Arc::ptr_eq(&b, &k.get(p, &vm, 0x1100, 128, None).0));
        // Rewriting one address re-decodes that kernel alone.
        bo.write(0x100, &[0u8; 16]).unwrap();
        let b2 = k.get(p, &vm, 0x1100, 128, None).0;
        assert!(!Arc::ptr_eq(&b, &b2));
        assert_eq!(
            b2.insts.len(),
            1,
            "the rewritten kernel is its one end instruction"
        );
        assert!(Arc::ptr_eq(&a, &k.get(p, &vm, 0x1000, 128, None).0));
    }

    #[test]
    fn fetch_stops_at_an_unmapped_page() {
        let got = fetch(&vm_with(&[0x41u8; PAGE_SIZE as usize]), 0x1000);
        assert_eq!(got.len(), PAGE_SIZE as usize);
        assert!(fetch(&vm_with(&[]), 0x9000).is_empty());
    }
}
