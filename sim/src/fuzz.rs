//! Drives a simulated device with arbitrary bytes: the cargo-fuzz target (`sim/fuzz`) and the
//! no-panic test feed it inputs; whatever they contain, the simulator must not panic.
//!
//! Input layout: byte 0 picks the (platform, driver) pair; the next 256 bytes seed a scratch
//! buffer; then a sequence of operations, each a tag byte followed by its bytes:
//! - tag < 0x80: one of kmd-iface's known ioctl requests (any driver's) with an argument read
//!   from the input;
//! - tag 0xff: `mmap(offset, len)` with both from the input, then a CPU access to the mapping;
//! - other tags: a raw 8-byte request number from the input, with an argument.
//!
//! Argument words whose top 16 bits are 0xaaaa become pointers into the scratch buffer, so
//! inputs can reach code behind valid user pointers; all other words stay as given (almost
//! always unmapped addresses, which must give EFAULT). The scratch buffer is followed by an
//! inaccessible guard, so an ioctl told to copy past its end gets EFAULT, as from the kernel:
//! on plain heap memory the simulator's user copies (like the kernel's) would overwrite
//! whatever lies behind it.

use std::num::NonZeroUsize;
use std::ptr::NonNull;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use kmd_iface::ioc::arg_size;
use kmd_iface::seam::DeviceFile;
use nix::sys::mman::{mmap_anonymous, mprotect, MapFlags, ProtFlags};
use platform::Platform;

use crate::cs::Budget;
use crate::{open_device, Kmd, SimConfig};

const SCRATCH: usize = 64 << 10;
/// Inaccessible bytes after the scratch buffer (a whole number of pages on any host).
const GUARD: usize = 64 << 10;
const SEED: usize = 256;
const POINTER_TAG: u64 = 0xaaaa;
const MAX_ARG: usize = 4096;

/// Every (platform, driver) pair the simulator supports.
fn combos() -> Vec<(Platform, Kmd)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| [(p, Kmd::I915), (p, Kmd::Xe)])
        .filter(|&(p, k)| crate::device_info::DeviceInfo::get(p).supports(k))
        .collect()
}

/// Small limits so endless batches and waits cost milliseconds, not seconds.
fn config() -> SimConfig {
    SimConfig {
        budget: Budget {
            commands: 20_000,
            time: Duration::from_millis(20),
        },
        wait_limit: Some(Duration::from_millis(1)),
        ..SimConfig::default()
    }
}

struct Input<'a> {
    data: &'a [u8],
}

impl Input<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let n = n.min(self.data.len());
        let (head, tail) = self.data.split_at(n);
        self.data = tail;
        head
    }

    fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        let t = self.take(8);
        b[..t.len()].copy_from_slice(t);
        u64::from_le_bytes(b)
    }
}

/// The scratch buffer's address: one anonymous mapping per process with a guard after it,
/// never unmapped (the simulated GPU, on its own thread, may still copy into user memory for
/// an earlier input's work), reached only through the simulator's user copies. None when the
/// host refuses the mapping.
fn scratch() -> Option<u64> {
    static BASE: OnceLock<Option<u64>> = OnceLock::new();
    *BASE.get_or_init(|| {
        let rw = ProtFlags::PROT_READ | ProtFlags::PROT_WRITE;
        let len = NonZeroUsize::new(SCRATCH + GUARD)?;
        // SAFETY: a new private anonymous mapping at an address the kernel picks overlaps no
        // memory anything else owns; it is never unmapped and never dereferenced here.
        let at = unsafe { mmap_anonymous(None, len, rw, MapFlags::MAP_PRIVATE) }.ok()?;
        let guard = NonNull::new((at.as_ptr() as usize + SCRATCH) as *mut std::ffi::c_void)?;
        // SAFETY: `guard` is the tail of the mapping just made, which nothing references.
        unsafe { mprotect(guard, GUARD, ProtFlags::PROT_NONE) }.ok()?;
        Some(at.as_ptr() as u64)
    })
}

/// Runs one input against a fresh simulated device.
pub fn run(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let pairs = combos();
    let (p, kmd) = pairs[usize::from(pick) % pairs.len()];
    let Ok(dev) = open_device(p, kmd, config()) else {
        return;
    };
    let file: Arc<dyn DeviceFile> = dev.clone();
    let mut input = Input { data: rest };
    let Some(base) = scratch() else {
        return;
    };
    let mut fill = vec![0u8; SCRATCH];
    let seed = input.take(SEED);
    fill[..seed.len()].copy_from_slice(seed);
    if crate::user::write(base, &fill).is_err() {
        return;
    }
    let known: Vec<u64> = kmd_iface::all_ioctls().map(|i| i.request).collect();
    while !input.data.is_empty() {
        let tag = input.take(1)[0];
        if tag == 0xff {
            let offset = input.u64();
            let len = (input.u64() & 0xf_ffff) as usize;
            if let Ok(m) = file.mmap(offset, len) {
                let _ = m.write(m.len().saturating_sub(1), &[tag]);
            }
            continue;
        }
        let request = if tag < 0x80 {
            known[usize::from(tag) % known.len()]
        } else {
            input.u64()
        };
        let mut arg = vec![0u8; arg_size(request).min(MAX_ARG)];
        let bytes = input.take(arg.len());
        arg[..bytes.len()].copy_from_slice(bytes);
        for w in arg.chunks_exact_mut(8) {
            let v = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
            if v >> 48 == POINTER_TAG {
                let at = base + (v & 0xffff) % SCRATCH as u64;
                w.copy_from_slice(&at.to_le_bytes());
            }
        }
        // SAFETY: every word of `arg` that looks like a pointer was steered into the scratch
        // pages above (mapped, owned by this function, borrowed by nothing); any other value
        // is an address the simulator fault-checks and answers EFAULT for, or a scalar.
        let _ = unsafe { file.ioctl(request, &mut arg) };
    }
    // Out-fence fds belong to the caller, which is us: close them so runs do not pile them up.
    for fd in dev.lock().sync_files.exported() {
        let _ = nix::unistd::close(fd);
    }
}
