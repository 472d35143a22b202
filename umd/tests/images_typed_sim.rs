//! `read_image*`/`write_image*` without a sampler, compiled by ocloc and run through umd on
//! every simulated platform and kernel driver, for every format of umd's table and every image
//! type (1D, 1D array, 2D, 2D array, 3D). IGC reads with the sampler's `ld_lz` and writes with
//! the data port's typed surface write (iga64 names both in the listing this test checks
//! first). Expected texels come from the OpenCL C specification's conversion rules, written
//! here from its text and the format's OpenCL channel order and data type (not from the
//! simulator's tables): normalized channels read as `c / (2^n - 1)` (signed:
//! `max(c / (2^(n-1) - 1), -1)`) and are written as `convert_<type>_sat_rte(f * (2^n - 1))`,
//! integer writes saturate (`convert_<type>_sat`), half writes round to nearest even, missing
//! channels read as 0 and alpha as 1, CL_BGRA stores B, G, R, A. Writes outside the image are
//! dropped (PRM: typed writes out of bounds are discarded), so the row padding stays zero.
//! The cl.h values of umd's channel orders and types are checked against the OpenCL headers.

use platform::Platform;
use umd::device::Device;
use umd::image::{ChannelOrder, ChannelType, Image, ImageDesc, ImageFormat, ImageType};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
kernel void add_ui(read_only image2d_t src, write_only image2d_t dst) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(dst, c, read_imageui(src, c) + (uint4)(1, 2, 3, 4));
}
kernel void sub_i(read_only image2d_t src, write_only image2d_t dst) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imagei(dst, c, read_imagei(src, c) - (int4)(100, 0, -100, 1));
}
kernel void scale_f(read_only image2d_t src, write_only image2d_t dst, float k) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, c, read_imagef(src, c) * k);
}
kernel void fill(write_only image2d_t dst) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(dst, c, (uint4)(c.x + 1, c.y + 1, 0, 0));
}
kernel void add_1d(read_only image1d_t src, write_only image1d_t dst) {
  int c = get_global_id(0);
  write_imageui(dst, c, read_imageui(src, c) + (uint4)(1, 2, 3, 4));
}
kernel void add_1d_array(read_only image1d_array_t src, write_only image1d_array_t dst) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(dst, c, read_imageui(src, c) + (uint4)(1, 2, 3, 4));
}
kernel void add_2d_array(read_only image2d_array_t src, write_only image2d_array_t dst) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imageui(dst, c, read_imageui(src, c) + (uint4)(1, 2, 3, 4));
}
kernel void add_3d(read_only image3d_t src, write_only image3d_t dst) {
  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imageui(dst, c, read_imageui(src, c) + (uint4)(1, 2, 3, 4));
}
"#;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Uint,
    Sint,
    Unorm,
    Snorm,
    Float,
}

/// A format as OpenCL describes it: the RGBA channel of each stored channel in memory order
/// (CL_BGRA stores B, G, R, A), bytes per channel, how a channel's bits read.
fn layout(f: ImageFormat) -> (&'static [usize], usize, Kind) {
    use ChannelType::*;
    let chans: &[usize] = match f.order() {
        ChannelOrder::R | ChannelOrder::Depth => &[0],
        ChannelOrder::Rg => &[0, 1],
        ChannelOrder::Rgba => &[0, 1, 2, 3],
        ChannelOrder::Bgra => &[2, 1, 0, 3],
        // Texel pairs sharing chroma: no per-texel layout (read-only; sim-eu's texel tests).
        ChannelOrder::Yuyv
        | ChannelOrder::Uyvy
        | ChannelOrder::Yvyu
        | ChannelOrder::Vyuy
        | ChannelOrder::Nv12 => panic!("{f:?}: YUV has no per-texel channel layout"),
    };
    let (size, kind) = match f.data_type() {
        SnormInt8 => (1, Kind::Snorm),
        SnormInt16 => (2, Kind::Snorm),
        UnormInt8 => (1, Kind::Unorm),
        UnormInt16 => (2, Kind::Unorm),
        SignedInt8 => (1, Kind::Sint),
        SignedInt16 => (2, Kind::Sint),
        SignedInt32 => (4, Kind::Sint),
        UnsignedInt8 => (1, Kind::Uint),
        UnsignedInt16 => (2, Kind::Uint),
        UnsignedInt32 => (4, Kind::Uint),
        HalfFloat => (2, Kind::Float),
        Float => (4, Kind::Float),
    };
    (chans, size, kind)
}

fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from(h >> 10 & 0x1f);
    let m = f32::from(h & 0x3ff);
    sign * match e {
        0 => m * 2f32.powi(-24),
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    }
}

/// f32 to half, round to nearest even, for the finite normal values this test writes.
fn f32_to_half(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let m = b & 0x7f_ffff;
    assert!((1..31).contains(&e), "{f} is not a normal half");
    let mut h = (e as u32) << 10 | m >> 13;
    let rest = m & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

/// Texel bytes to (R, G, B, A) as the kernel sees them: integers, or floats as f64.
fn read(f: ImageFormat, bytes: &[u8]) -> [f64; 4] {
    let (chans, size, kind) = layout(f);
    let mut out = [0.0, 0.0, 0.0, 1.0];
    for (k, &c) in chans.iter().enumerate() {
        let mut w = [0u8; 4];
        w[..size].copy_from_slice(&bytes[k * size..(k + 1) * size]);
        let raw = u32::from_le_bytes(w);
        let bits = 8 * size as u32;
        let signed = if bits == 32 {
            raw as i32
        } else {
            ((raw << (32 - bits)) as i32) >> (32 - bits)
        };
        out[c] = match kind {
            Kind::Uint => f64::from(raw),
            Kind::Sint => f64::from(signed),
            Kind::Unorm => f64::from(raw as f32 / ((1u64 << bits) - 1) as f32),
            Kind::Snorm => f64::from((signed as f32 / ((1u32 << (bits - 1)) - 1) as f32).max(-1.0)),
            Kind::Float if size == 2 => f64::from(half_to_f32(raw as u16)),
            Kind::Float => f64::from(f32::from_bits(raw)),
        };
    }
    out
}

/// (R, G, B, A) as `write_image*` stores them in `f`.
fn write(f: ImageFormat, v: [f64; 4]) -> Vec<u8> {
    let (chans, size, kind) = layout(f);
    let mut out = Vec::new();
    for &c in chans {
        let bits = 8 * size as u32;
        let max = ((1u64 << bits) - 1) as f64;
        let smax = ((1u64 << (bits - 1)) - 1) as f64;
        let raw: u32 = match kind {
            Kind::Uint => v[c].clamp(0.0, max) as u32,
            Kind::Sint => v[c].clamp(-smax - 1.0, smax) as i32 as u32,
            Kind::Unorm => ((v[c] as f32).clamp(0.0, 1.0) * max as f32).round_ties_even() as u32,
            Kind::Snorm => {
                ((v[c] as f32).clamp(-1.0, 1.0) * smax as f32).round_ties_even() as i32 as u32
            }
            Kind::Float if size == 2 => u32::from(f32_to_half(v[c] as f32)),
            Kind::Float => (v[c] as f32).to_bits(),
        };
        out.extend_from_slice(&raw.to_le_bytes()[..size]);
    }
    out
}

/// What a kernel does to a texel's (R, G, B, A).
type Op = dyn Fn([f64; 4]) -> [f64; 4];

const W: u32 = 16;
const H: u32 = 4;

/// Packed input texels for `n` texels of `f`.
fn input(f: ImageFormat, n: usize) -> Vec<u8> {
    let bpe = f.desc().bytes_per_element as usize;
    let bytes = n * bpe;
    match layout(f) {
        // Finite values: halves between 1 and 2, floats from small numbers.
        (_, 2, Kind::Float) => (0..bytes / 2)
            .flat_map(|i| (0x3c00u16 + (i as u16 * 13 % 0x3ff)).to_le_bytes())
            .collect(),
        (_, _, Kind::Float) => (0..bytes / 4)
            .flat_map(|i| (i as f32 * 0.37 - 5.0).to_bits().to_le_bytes())
            .collect(),
        _ => (0..bytes).map(|i| (i * 151 % 256) as u8).collect(),
    }
}

/// Runs `kernel` from a `desc` image of `f` filled with [`input`] to a second one; returns
/// the second one's texels, packed.
fn run(
    d: &Device,
    kernel: &Kernel,
    desc: &ImageDesc,
    f: ImageFormat,
    extra: Vec<ArgValue>,
) -> Result<Vec<u8>, String> {
    let src = d.create_image_desc(desc, f).map_err(|e| e.to_string())?;
    let dst = d.create_image_desc(desc, f).map_err(|e| e.to_string())?;
    let n = src.packed_bytes() / f.desc().bytes_per_element as usize;
    src.write_packed(&input(f, n)).map_err(|e| e.to_string())?;
    let global: Vec<u32> = match desc.ty {
        ImageType::D1 | ImageType::D1Buffer => vec![desc.width],
        ImageType::D1Array => vec![desc.width, desc.array_size],
        ImageType::D2 => vec![desc.width, desc.height],
        ImageType::D2Array => vec![desc.width, desc.height, desc.array_size],
        ImageType::D3 => vec![desc.width, desc.height, desc.depth],
    };
    let range = NdRange::new(&global, None, kernel.simd, None).map_err(|e| e.to_string())?;
    let mut args = vec![ArgValue::Image(src), ArgValue::Image(dst.clone())];
    args.extend(extra);
    d.dispatch(kernel, &range, &args)
        .map_err(|e| e.to_string())?;
    dst.read_packed().map_err(|e| e.to_string())
}

/// Compares `got` with `op` applied to every input texel; the first mismatch goes to `failed`.
fn check(
    f: ImageFormat,
    got: &[u8],
    op: impl Fn([f64; 4]) -> [f64; 4],
    what: &str,
    failed: &mut Vec<String>,
) {
    let bpe = f.desc().bytes_per_element as usize;
    let inp = input(f, got.len() / bpe);
    for (i, (g, x)) in got.chunks(bpe).zip(inp.chunks(bpe)).enumerate() {
        let want = write(f, op(read(f, x)));
        if g != want.as_slice() {
            failed.push(format!("{what} {f:?} texel {i}: got {g:?}, want {want:?}"));
            return;
        }
    }
}

#[test]
fn read_and_write_image_built_ins_for_every_format_and_image_type() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let mut failed = Vec::new();
    // Xe-HPG too: for these kernels IGC emits the same HDC typed writes and sampler loads there
    // (ending with an LSC `fence.tgm`), no LSC typed loads or stores.
    for p in Platform::ALL {
        let bin = oracles::ocloc::compile(&ocloc, p, SRC, "", oracles::ocloc::Format::PatchTokens)
            .unwrap();
        // What IGC chose: the sampler's ld_lz for the read, typed writes for the write.
        let heaps = oracles::ocloc::kernel_heaps(&ocloc, &bin).unwrap();
        for name in ["add_ui", "add_1d", "add_1d_array", "add_2d_array", "add_3d"] {
            let heap = heaps.iter().find(|h| h.name == name).unwrap();
            let text: Vec<String> = oracles::iga64::listing(&iga, p, &heap.bytes)
                .unwrap()
                .into_iter()
                .map(|(_, t)| t)
                .collect();
            assert!(
                text.iter()
                    .any(|t| t.contains("sample load with lod forced to 0")),
                "{p} {name}: {text:#?}"
            );
            assert!(
                text.iter().any(|t| t.contains("typed surface write")),
                "{p} {name}: {text:#?}"
            );
        }
        let kernel = |name: &str| Kernel::from_ocloc(&bin, Some(name), Some(p)).unwrap();
        let (add_ui, sub_i, scale_f, fill) = (
            kernel("add_ui"),
            kernel("sub_i"),
            kernel("scale_f"),
            kernel("fill"),
        );
        let d2 = ImageDesc::d2(W, H);
        for k in umd::device::sim_kmds(p) {
            let d = Device::open_sim(p, Some(k)).unwrap();
            let what = format!("{p} {k:?}");
            let k = 1.5f32;
            // YUV images are read-only: kernels cannot write them.
            for f in ImageFormat::all().filter(|f| !f.is_packed_yuv() && !f.is_planar_yuv()) {
                let (kernel, extra, op): (_, _, Box<Op>) = match layout(f).2 {
                    Kind::Uint => (
                        &add_ui,
                        vec![],
                        Box::new(|v| [v[0] + 1.0, v[1] + 2.0, v[2] + 3.0, v[3] + 4.0]),
                    ),
                    Kind::Sint => (
                        &sub_i,
                        vec![],
                        Box::new(|v| [v[0] - 100.0, v[1], v[2] + 100.0, v[3] - 1.0]),
                    ),
                    _ => (
                        &scale_f,
                        vec![ArgValue::Value(k.to_le_bytes().to_vec())],
                        Box::new(move |v: [f64; 4]| v.map(|c| f64::from(c as f32 * k))),
                    ),
                };
                match run(&d, kernel, &d2, f, extra) {
                    Ok(got) => check(f, &got, op, &what, &mut failed),
                    Err(e) => failed.push(format!("{what} {f:?}: {e}")),
                }
            }
            // Every image type, with an unsigned and a 16-byte format.
            let shapes = [
                ("add_1d", ImageType::D1, [37, 1, 1, 1]),
                ("add_1d_array", ImageType::D1Array, [37, 1, 1, 3]),
                ("add_2d_array", ImageType::D2Array, [9, 5, 1, 3]),
                ("add_3d", ImageType::D3, [9, 5, 3, 1]),
            ];
            for (name, ty, [width, height, depth, array_size]) in shapes {
                let kern = kernel(name);
                let desc = ImageDesc {
                    ty,
                    width,
                    height,
                    depth,
                    array_size,
                    levels: 1,
                };
                for f in [ImageFormat::R8ui, ImageFormat::Rgba32ui] {
                    match run(&d, &kern, &desc, f, vec![]) {
                        Ok(got) => check(
                            f,
                            &got,
                            |v| [v[0] + 1.0, v[1] + 2.0, v[2] + 3.0, v[3] + 4.0],
                            &format!("{what} {name}"),
                            &mut failed,
                        ),
                        Err(e) => failed.push(format!("{what} {name} {f:?}: {e}")),
                    }
                }
            }
            // A 5x3 image written by a 16x4 range: the texels outside are dropped.
            let img: Image = d.create_image(5, 3, ImageFormat::Rgba8ui).unwrap();
            let range = NdRange::new(&[W, H], None, fill.simd, None).unwrap();
            match d.dispatch(&fill, &range, &[ArgValue::Image(img.clone())]) {
                Ok(_) => {
                    let all = img.buffer().to_vec().unwrap();
                    let mut want = vec![0u8; all.len()];
                    for y in 0..3usize {
                        for x in 0..5usize {
                            let at = y * img.pitch as usize + 4 * x;
                            want[at..at + 4].copy_from_slice(&[x as u8 + 1, y as u8 + 1, 0, 0]);
                        }
                    }
                    if all != want {
                        failed.push(format!("{what} fill past the edge: {all:?}"));
                    }
                }
                Err(e) => failed.push(format!("{what} fill: {e}")),
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The `cl_channel_order`/`cl_channel_type` values umd reports to kernels
/// (`get_image_channel_order`/`_data_type`) and the ICD reports, against Debian's OpenCL
/// headers.
#[test]
fn channel_order_and_type_values_are_cl_h_s() {
    let header = "/usr/include/CL/cl.h";
    // The packed YUV orders are cl_intel_packed_yuv's, in cl_ext.h.
    let ext = std::fs::read_to_string("/usr/include/CL/cl_ext.h");
    let Ok(text) = std::fs::read_to_string(header).and_then(|t| Ok(t + &ext?)) else {
        let why = format!("{header} (Debian opencl-c-headers) not found");
        assert!(!oracles::required(), "{why}, and ORACLES=required");
        oracles::skip("channel_order_and_type_values_are_cl_h_s", &why);
        return;
    };
    let value = |name: &str| -> u32 {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name) && l.starts_with("#define"))
            .unwrap_or_else(|| panic!("{name} not in {header}"));
        let v = line.split_whitespace().nth(2).unwrap();
        u32::from_str_radix(v.trim_start_matches("0x"), 16).unwrap()
    };
    let mut seen = 0;
    for f in ImageFormat::all() {
        let mut order = format!("CL_{}", format!("{:?}", f.order()).to_uppercase());
        if f.is_packed_yuv() || f.is_planar_yuv() {
            order += "_INTEL";
        }
        let ty = match f.data_type() {
            ChannelType::SnormInt8 => "CL_SNORM_INT8",
            ChannelType::SnormInt16 => "CL_SNORM_INT16",
            ChannelType::UnormInt8 => "CL_UNORM_INT8",
            ChannelType::UnormInt16 => "CL_UNORM_INT16",
            ChannelType::SignedInt8 => "CL_SIGNED_INT8",
            ChannelType::SignedInt16 => "CL_SIGNED_INT16",
            ChannelType::SignedInt32 => "CL_SIGNED_INT32",
            ChannelType::UnsignedInt8 => "CL_UNSIGNED_INT8",
            ChannelType::UnsignedInt16 => "CL_UNSIGNED_INT16",
            ChannelType::UnsignedInt32 => "CL_UNSIGNED_INT32",
            ChannelType::HalfFloat => "CL_HALF_FLOAT",
            ChannelType::Float => "CL_FLOAT",
        };
        assert_eq!(f.order() as u32, value(&order), "{f:?}");
        assert_eq!(f.data_type() as u32, value(ty), "{f:?}");
        assert_eq!(
            ImageFormat::from_cl(value(&order), value(ty)),
            Some(f),
            "{f:?}"
        );
        seen += 1;
    }
    // OpenCL 3.0's minimum list for read-only and write-only images: R, RG and RGBA in the
    // twelve types, BGRA in UNORM_INT8; cl_khr_depth_images' DEPTH in UNORM_INT16 and FLOAT;
    // cl_intel_packed_yuv's four orders and cl_intel_planar_yuv's NV12 in UNORM_INT8.
    assert_eq!(seen, 44);
}

const BUF_SRC: &str = r#"
kernel void add_ui(read_only image1d_buffer_t src, write_only image1d_buffer_t dst) {
  int c = get_global_id(0);
  write_imageui(dst, c, read_imageui(src, c) + (uint4)(1, 2, 3, 4));
}
kernel void sub_i(read_only image1d_buffer_t src, write_only image1d_buffer_t dst) {
  int c = get_global_id(0);
  write_imagei(dst, c, read_imagei(src, c) - (int4)(100, 0, -100, 1));
}
kernel void scale_f(read_only image1d_buffer_t src, write_only image1d_buffer_t dst, float k) {
  int c = get_global_id(0);
  write_imagef(dst, c, read_imagef(src, c) * k);
}
kernel void window(read_only image1d_buffer_t src, global uint4 *out) {
  int c = get_global_id(0);
  out[c] = read_imageui(src, c - 4);
}
kernel void fill(write_only image1d_buffer_t dst) {
  int c = get_global_id(0);
  write_imageui(dst, c - 4, (uint4)(c, c + 1, c + 2, c + 3));
}
kernel void query(read_only image1d_buffer_t src, global int *out) {
  out[0] = get_image_width(src);
  out[1] = get_image_channel_order(src);
  out[2] = get_image_channel_data_type(src);
}
"#;

/// Elements of the 1D image buffers, and where in their (larger) buffers they start: a
/// multiple of every element size, so aligned for each format.
const N: u32 = 37;
const VIEW_AT: u64 = 64;
/// What the buffers' bytes outside the views hold; kernels must leave it.
const SENTINEL: u8 = 0xA5;

/// A buffer of `VIEW_AT` + N elements + 48 bytes filled with [`SENTINEL`], and a 1D image
/// buffer of `N` elements of `f` over it at `VIEW_AT`.
fn view(d: &Device, f: ImageFormat) -> Result<Image, String> {
    let bpe = u64::from(f.desc().bytes_per_element);
    let bytes = VIEW_AT + u64::from(N) * bpe + 48;
    let buf = d.create_buffer(bytes).map_err(|e| e.to_string())?;
    buf.write(0, &vec![SENTINEL; bytes as usize])
        .map_err(|e| e.to_string())?;
    Image::buffer_view(&buf, VIEW_AT, N, f).map_err(|e| e.to_string())
}

/// The bytes of `img`'s buffer outside the view are all still [`SENTINEL`].
fn outside_untouched(img: &Image) -> Result<bool, String> {
    let all = img.buffer().to_vec().map_err(|e| e.to_string())?;
    let (start, end) = (VIEW_AT as usize, VIEW_AT as usize + img.row_bytes());
    Ok(all[..start]
        .iter()
        .chain(&all[end..])
        .all(|&b| b == SENTINEL))
}

/// image1d_buffer: IGC reads it with the sampler's `ld_lz` and writes it with typed surface
/// writes, as for image1d (iga64's listing, checked first), over a SURFTYPE_BUFFER surface.
/// For every format of the table, a kernel reads a view at a non-zero offset of one buffer and
/// writes a view of another: the results follow the conversion rules and the bytes around the
/// views stay as they were. Then reads and writes at coordinates -4..N+4: out of bounds, reads
/// return 0 in every channel and writes are dropped (PRM: out-of-bounds typed and sampler
/// accesses to buffers). `get_image_width` and the channel queries report the view.
#[test]
fn image1d_buffer_views_for_every_format() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let mut failed = Vec::new();
    for p in Platform::ALL {
        let bin =
            oracles::ocloc::compile(&ocloc, p, BUF_SRC, "", oracles::ocloc::Format::PatchTokens)
                .unwrap();
        let heaps = oracles::ocloc::kernel_heaps(&ocloc, &bin).unwrap();
        let heap = heaps.iter().find(|h| h.name == "add_ui").unwrap();
        let text: Vec<String> = oracles::iga64::listing(&iga, p, &heap.bytes)
            .unwrap()
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        for what in ["sample load with lod forced to 0", "typed surface write"] {
            assert!(text.iter().any(|t| t.contains(what)), "{p}: {text:#?}");
        }
        let kernel = |name: &str| Kernel::from_ocloc(&bin, Some(name), Some(p)).unwrap();
        let (add_ui, sub_i, scale_f) = (kernel("add_ui"), kernel("sub_i"), kernel("scale_f"));
        let (window, fill, query) = (kernel("window"), kernel("fill"), kernel("query"));
        for km in umd::device::sim_kmds(p) {
            let d = Device::open_sim(p, Some(km)).unwrap();
            let what = format!("{p} {km:?} image1d_buffer");
            let k = 1.5f32;
            for f in ImageFormat::all().filter(|f| f.allows(ImageType::D1Buffer)) {
                let (kernel, extra, op): (_, _, Box<Op>) = match layout(f).2 {
                    Kind::Uint => (
                        &add_ui,
                        vec![],
                        Box::new(|v| [v[0] + 1.0, v[1] + 2.0, v[2] + 3.0, v[3] + 4.0]),
                    ),
                    Kind::Sint => (
                        &sub_i,
                        vec![],
                        Box::new(|v| [v[0] - 100.0, v[1], v[2] + 100.0, v[3] - 1.0]),
                    ),
                    _ => (
                        &scale_f,
                        vec![ArgValue::Value(k.to_le_bytes().to_vec())],
                        Box::new(move |v: [f64; 4]| v.map(|c| f64::from(c as f32 * k))),
                    ),
                };
                let run = || -> Result<(Vec<u8>, bool, bool), String> {
                    let (src, dst) = (view(&d, f)?, view(&d, f)?);
                    src.write_packed(&input(f, N as usize))
                        .map_err(|e| e.to_string())?;
                    let range =
                        NdRange::new(&[N], None, kernel.simd, None).map_err(|e| e.to_string())?;
                    let mut args = vec![ArgValue::Image(src.clone()), ArgValue::Image(dst.clone())];
                    args.extend(extra);
                    d.dispatch(kernel, &range, &args)
                        .map_err(|e| e.to_string())?;
                    let got = dst.read_packed().map_err(|e| e.to_string())?;
                    Ok((got, outside_untouched(&src)?, outside_untouched(&dst)?))
                };
                match run() {
                    Ok((got, src_ok, dst_ok)) => {
                        check(f, &got, op, &what, &mut failed);
                        if !(src_ok && dst_ok) {
                            failed.push(format!("{what} {f:?}: bytes outside the views changed"));
                        }
                    }
                    Err(e) => failed.push(format!("{what} {f:?}: {e}")),
                }
            }
            // Out of bounds: global ids 0..N+8 address elements -4..N+4.
            let range = NdRange::new(&[N + 8], None, window.simd, None).unwrap();
            for f in [ImageFormat::R8ui, ImageFormat::Rgba32ui] {
                let oob = || -> Result<(), String> {
                    let src = view(&d, f)?;
                    src.write_packed(&input(f, N as usize))
                        .map_err(|e| e.to_string())?;
                    let out = d
                        .create_buffer(16 * u64::from(N + 8))
                        .map_err(|e| e.to_string())?;
                    d.dispatch(
                        &window,
                        &range,
                        &[ArgValue::Image(src.clone()), ArgValue::Buffer(out.clone())],
                    )
                    .map_err(|e| e.to_string())?;
                    let got = out.to_vec().map_err(|e| e.to_string())?;
                    let inp = input(f, N as usize);
                    let bpe = f.desc().bytes_per_element as usize;
                    for (i, g) in got.chunks(16).enumerate() {
                        let at = i as i64 - 4;
                        let want: [u32; 4] = if (0..i64::from(N)).contains(&at) {
                            let a = at as usize * bpe;
                            read(f, &inp[a..a + bpe]).map(|c| c as u32)
                        } else {
                            [0; 4]
                        };
                        let want: Vec<u8> = want.iter().flat_map(|c| c.to_le_bytes()).collect();
                        if g != want.as_slice() {
                            return Err(format!("read of element {at}: got {g:?}, want {want:?}"));
                        }
                    }
                    let dst = view(&d, f)?;
                    d.dispatch(&fill, &range, &[ArgValue::Image(dst.clone())])
                        .map_err(|e| e.to_string())?;
                    let got = dst.read_packed().map_err(|e| e.to_string())?;
                    let want: Vec<u8> = (0..N)
                        .flat_map(|x| {
                            let c = f64::from(x + 4);
                            write(f, [c, c + 1.0, c + 2.0, c + 3.0])
                        })
                        .collect();
                    if got != want {
                        return Err(format!("writes: got {got:?}, want {want:?}"));
                    }
                    if !outside_untouched(&dst)? {
                        return Err("writes out of bounds reached the buffer".into());
                    }
                    Ok(())
                };
                if let Err(e) = oob() {
                    failed.push(format!("{what} {f:?} out of bounds: {e}"));
                }
            }
            // The queries see the view.
            let q = || -> Result<Vec<u8>, String> {
                let src = view(&d, ImageFormat::Rgba16ui)?;
                let out = d.create_buffer(12).map_err(|e| e.to_string())?;
                let one = NdRange::new(&[1], None, query.simd, None).map_err(|e| e.to_string())?;
                d.dispatch(
                    &query,
                    &one,
                    &[ArgValue::Image(src), ArgValue::Buffer(out.clone())],
                )
                .map_err(|e| e.to_string())?;
                out.to_vec().map_err(|e| e.to_string())
            };
            let f = ImageFormat::Rgba16ui;
            let want: Vec<u8> = [N, f.order() as u32, f.data_type() as u32]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect();
            match q() {
                Ok(got) if got == want => {}
                Ok(got) => failed.push(format!("{what} queries: got {got:?}, want {want:?}")),
                Err(e) => failed.push(format!("{what} queries: {e}")),
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A 1D image buffer's own errors: no elements or more than a surface holds, a range past the
/// buffer's end, a start not aligned to the element size.
#[test]
fn image1d_buffer_view_errors() {
    let d = Device::open_sim(Platform::Tgllp, None).unwrap();
    let buf = d.create_buffer(1024).unwrap();
    let f = ImageFormat::Rgba32ui;
    assert_eq!(Image::buffer_base_alignment(f), 16);
    assert_eq!(Image::buffer_base_alignment(ImageFormat::R8ui), 1);
    assert!(Image::buffer_view(&buf, 0, 64, f).is_ok());
    assert!(Image::buffer_view(&buf, 1008, 1, f).is_ok());
    for (offset, width) in [(0, 0), (0, 65), (1008, 2), (u64::MAX - 8, 1)] {
        match Image::buffer_view(&buf, offset, width, f) {
            Err(umd::Error::OutOfRange(_)) => {}
            other => panic!("{offset} {width}: {other:?}"),
        }
    }
    assert!(matches!(
        Image::buffer_view(
            &buf,
            0,
            umd::image::MAX_BUFFER_ELEMENTS + 1,
            ImageFormat::R8ui
        ),
        Err(umd::Error::OutOfRange(_))
    ));
    match Image::buffer_view(&buf, 8, 4, f) {
        Err(umd::Error::ImageBufferAlignment { align: 16, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(Image::buffer_view(&buf, 3, 4, ImageFormat::R8ui).is_ok());
}
