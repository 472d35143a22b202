//! printf end to end on every simulated platform, in both of ocloc's formats: a kernel's
//! records decoded into the text C99 / OpenCL C 3.0 §6.15.14 define (expected lines written
//! from those rules, not from our output).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use kmd_iface::seam::{DeviceFile, Errno, Mapping};
use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// What work item `i` prints, by the C rules, given `v[i] = 7 - 3i`.
fn expected(i: i64) -> String {
    let v = 7 - 3 * i;
    let c = (200 + i) as u8 as i8;
    let f = format!("{:5.2}", 1.5 * i as f64);
    let x = format!("{:x}", v as i32 as u32);
    let mut s = format!(
        "item {i}: {v} {f} 2.500000e-01 1e-05 0x1p+0|str|{}|{c}|{x}\n",
        (b'A' + i as u8) as char
    );
    // On Xe-HPG IGC stores these with LSC D64 at DWord-aligned buffer offsets.
    s += &format!("long {} -1,1099511627776\n", v * 100_000_000_000);
    s += &format!(
        "v {i},{},3,4 ffff,{i:x} {i},{},-3 0.500000,{i}.000000,-2.000000,3.250000 %\n",
        -i,
        2 * i
    );
    s
}

#[test]
fn printf_records_decode_to_c_text_on_every_platform() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = include_str!("printf_support/printf_mix.cl");
    let n = 5u32;
    for p in Platform::ALL.iter().copied() {
        for format in [
            oracles::ocloc::Format::PatchTokens,
            oracles::ocloc::Format::Zebin,
        ] {
            let bin = oracles::ocloc::compile(&ocloc, p, src, "", format).unwrap();
            let kernel = Kernel::from_ocloc(&bin, Some("mix"), Some(p)).unwrap();
            let d = Device::open_sim(p, None).unwrap();
            let v = d.create_buffer(4 * n as u64).unwrap();
            let vals: Vec<u8> = (0..n as i32)
                .flat_map(|i| (7 - 3 * i).to_le_bytes())
                .collect();
            v.write(0, &vals).unwrap();
            let range = NdRange::new(&[n], Some(&[1]), kernel.simd, None).unwrap();
            let r = d
                .dispatch(&kernel, &range, &[ArgValue::Buffer(v)])
                .unwrap_or_else(|e| panic!("{p} {format:?}: {e}"));
            let out = r.printf.expect("a printf kernel has a printf buffer");
            let dec = out.decode().unwrap();
            assert_eq!(dec.error, None, "{p} {format:?}");
            let text = String::from_utf8(dec.text).unwrap();
            // Work items may print in any order; each item's lines are its own records.
            let mut got: Vec<&str> = text.lines().collect();
            let want_text: String = (0..n as i64).map(expected).collect();
            let mut want: Vec<&str> = want_text.lines().collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{p} {format:?}:\n{text}");
        }
    }
}

/// The simulator's device file, counting GEM creations (i915's and xe's).
#[derive(Debug)]
struct CountingCreates {
    inner: Arc<sim::SimDevice>,
    creates: AtomicUsize,
}

impl DeviceFile for CountingCreates {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        if kmd_iface::ioc::ioctl_name(request)
            .is_some_and(|n| n.ends_with("_GEM_CREATE") || n.ends_with("_GEM_CREATE_EXT"))
        {
            self.creates.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged under the caller's contract.
        unsafe { self.inner.ioctl(request, arg) }
    }
    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, Errno> {
        self.inner.mmap(offset, len)
    }
    unsafe fn mmap_at(&self, offset: u64, len: usize, at: *mut u8) -> Result<Mapping, Errno> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { self.inner.mmap_at(offset, len, at) }
    }
    fn shared_host_memory(&self) -> kmd_iface::seam::SharedHostMemory {
        self.inner.shared_host_memory()
    }
    fn sysfs_dir(&self) -> Option<std::path::PathBuf> {
        DeviceFile::sysfs_dir(&*self.inner)
    }
}

const SAY: &str = "kernel void say(int x) { if (get_global_id(0) == 0) printf(\"x=%d\\n\", x); }";

fn say(ocloc: &std::path::Path, p: Platform) -> Kernel {
    let bin = oracles::ocloc::compile(ocloc, p, SAY, "", oracles::ocloc::Format::Zebin).unwrap();
    Kernel::from_ocloc(&bin, Some("say"), Some(p)).unwrap()
}

fn int(x: i32) -> [ArgValue; 1] {
    [ArgValue::Value(x.to_le_bytes().to_vec())]
}

fn text(out: &umd::printf::PrintfOutput) -> String {
    let dec = out.decode().unwrap();
    assert_eq!(dec.error, None);
    String::from_utf8(dec.text).unwrap()
}

/// Two dispatches of one kernel in flight at once (both held behind a host event, then
/// run) each have their own buffer and print only their own record.
#[test]
fn dispatches_in_flight_print_into_their_own_buffers() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Tgllp;
    let kernel = say(&ocloc, p);
    let d = Device::open_sim(p, None).unwrap();
    let q = d.create_queue().unwrap();
    let range = NdRange::new(&[8], Some(&[8]), kernel.simd, None).unwrap();
    let gate = d.host_event();
    let (e1, o1) = q
        .dispatch_printf(&kernel, &range, &int(1), std::slice::from_ref(&gate))
        .unwrap();
    let (e2, o2) = q
        .dispatch_printf(&kernel, &range, &int(2), std::slice::from_ref(&gate))
        .unwrap();
    let (o1, o2) = (o1.unwrap(), o2.unwrap());
    assert_ne!(o1.address().0, o2.address().0);
    gate.signal().unwrap();
    e1.wait(None).unwrap();
    e2.wait(None).unwrap();
    assert_eq!(text(&o1), "x=1\n");
    assert_eq!(text(&o2), "x=2\n");
}

/// Dispatches after the first few reuse printf buffers (no GEM object is created for them),
/// and each reused buffer starts empty: it holds only its dispatch's record.
#[test]
fn repeated_dispatches_reuse_their_printf_buffers() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Tgllp;
    let kernel = say(&ocloc, p);
    let file = Arc::new(CountingCreates {
        inner: sim::open_device(p, sim::Kmd::I915, sim::SimConfig::default()).unwrap(),
        creates: AtomicUsize::new(0),
    });
    let d = Device::open_device_file("sim:tgllp", file.clone(), None).unwrap();
    let range = NdRange::new(&[8], Some(&[8]), kernel.simd, None).unwrap();
    let mut seen = Vec::new();
    let mut creates = 0;
    for i in 0..8 {
        if i == 2 {
            creates = file.creates.load(Ordering::Relaxed);
        }
        let r = d.dispatch(&kernel, &range, &int(i)).unwrap();
        let out = r.printf.unwrap();
        assert_eq!(text(&out), format!("x={i}\n"), "dispatch {i}");
        seen.push(out.address().0);
    }
    assert_eq!(file.creates.load(Ordering::Relaxed), creates, "{seen:x?}");
    seen.sort();
    seen.dedup();
    assert!(seen.len() <= 2, "{seen:x?}");
}

/// C evaluates and ignores arguments beyond the format's conversions (C99 7.19.6.1p2, which
/// OpenCL C's printf follows): IGC records them anyway, and the text is the format's alone.
/// Patch-token binaries (Gen9, Gen11) name formats by string index; here the only string is
/// index 0, which no extra argument's type tag (int 3, float 4, long 6) equals. (Where a tag
/// or value equals a string's index the records are ambiguous: see `printf::decode_in`.)
const EXTRA: &str = r#"
kernel void extra(int x) {
  int i = get_global_id(0);
  printf("more %d\n", x + i, 3, 2.5f, (long)i, 7);
}
"#;

/// More conversions than arguments.
const FEWER: &str = r#"
kernel void fewer(int x) {
  printf("fewer %d %d\n", x);
}
"#;

#[test]
fn arguments_beyond_the_format_are_ignored_on_patch_token_platforms() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for p in [Platform::Skl, Platform::Icllp] {
        let compile = |src: &str, name: &str| {
            let bin = oracles::ocloc::compile(
                &ocloc,
                p,
                src,
                "-cl-std=CL1.2",
                oracles::ocloc::Format::PatchTokens,
            )
            .unwrap();
            Kernel::from_ocloc(&bin, Some(name), Some(p)).unwrap()
        };
        let d = Device::open_sim(p, None).unwrap();
        let kernel = compile(EXTRA, "extra");
        let n = 6u32;
        let range = NdRange::new(&[n], Some(&[n]), kernel.simd, None).unwrap();
        let r = d.dispatch(&kernel, &range, &int(10)).unwrap();
        let got = text(&r.printf.unwrap());
        let mut got: Vec<&str> = got.lines().collect();
        let want: String = (0..n).map(|i| format!("more {}\n", 10 + i)).collect();
        let mut want: Vec<&str> = want.lines().collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{p}");

        // Fewer arguments than conversions is undefined (C99 7.19.6.1p2): the conversion that
        // has one prints it, and decoding stops with an error where the second has none.
        let kernel = compile(FEWER, "fewer");
        let range = NdRange::new(&[1], Some(&[1]), kernel.simd, None).unwrap();
        let r = d.dispatch(&kernel, &range, &int(5)).unwrap();
        let dec = r.printf.unwrap().decode().unwrap();
        let t = String::from_utf8_lossy(&dec.text);
        assert!(t.starts_with("fewer 5 "), "{p}: {t:?} {:?}", dec.error);
        assert!(dec.error.is_some(), "{p}: {t:?}");
    }
}
