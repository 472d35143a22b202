//! The generated image block reads and writes (`generate::block_image`), from
//! cl_intel_subgroups' text: value k of a work-item is the element of its type at byte
//! `x + lane * sizeof(S)` of row `y + k`, read or written without format conversion.
//!
//! Bounds are checked "to the image width in units of uints": for a 4-byte element format an
//! out-of-bounds read returns the edge element (clamp to edge; the byte within the element
//! is kept) and an out-of-bounds write is ignored. For smaller elements "the entire image is
//! addressable" but out-of-bounds reads may return invalid data and writes may corrupt other
//! memory: only in-bounds elements are checked there, and once a block crosses an edge, only
//! the bytes the in-bounds stores write. Reads may start at any byte, writes at a multiple
//! of four bytes.

use super::block::image_block_written;
use super::{name, param_ty, values};
use crate::case::{image_bpp, Arg, Case, Check};
use crate::corpus::Instance;
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::Scalar;

/// One image for a case: format, size in bytes and rows, the first block's byte coordinate.
struct Layout {
    name: &'static str,
    format: &'static str,
    width_bytes: usize,
    height: usize,
    x0: i64,
    y0: i64,
}

/// The formats, one of each element size block IO allows.
const FORMATS: [&str; 3] = ["r8ui", "r16ui", "r32ui"];

/// The layouts for blocks of `block_bytes` side by side, in `rows` rows of bands.
fn layouts(read: bool, block_bytes: usize, rows: usize) -> Vec<Layout> {
    let mut v = Vec::new();
    for format in FORMATS {
        let bpp = image_bpp(format) as usize;
        let l = |name, width_bytes, height, x0, y0| Layout {
            name,
            format,
            width_bytes,
            height,
            x0,
            y0,
        };
        // In bounds, a margin on every side; reads of small elements start off a uint.
        let x0 = if read && bpp < 4 { bpp as i64 } else { 4 };
        v.push(l("in", 2 * block_bytes + 8, rows + 2, x0, 1));
        // Ending exactly at the right and bottom edges.
        v.push(l("edge", 2 * block_bytes + 4, rows + 1, 4, 1));
        // The right column 8 bytes over the right edge, the last row below the bottom.
        v.push(l("across", 2 * block_bytes - 8, rows - 1, 0, 0));
        if bpp == 4 {
            // Over the left and top edges (defined for 4-byte elements only).
            v.push(l("before", 2 * block_bytes, rows, -8, -1));
        }
    }
    v
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let s = param_ty(inst, 0)?;
    let ty = param_ty(inst, 1)?;
    if s.width != 1 || ty.scalar != s.scalar {
        return Err(format!("{}: value type does not match", inst.line));
    }
    let (s, width) = (s.scalar, ty.width);
    let read = inst.kind == "G_IMAGE_READ";
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let max = simd as usize;
    let block_bytes = max * s.size();
    let rows = geometry.subgroup_count().div_ceil(2) * width;
    let mut out = Vec::new();
    for l in layouts(read, block_bytes, rows) {
        let bpp = image_bpp(l.format) as i64;
        let (w, h) = (l.width_bytes as i64, l.height as i64);
        let size = l.width_bytes * l.height;
        // The byte of (lane, value k) of subgroup `sg`.
        let at = |sg: usize, lane: usize, k: usize| {
            let x = l.x0 + ((sg % 2) * block_bytes + lane * s.size()) as i64;
            let y = l.y0 + ((sg / 2) * width + k) as i64;
            (x, y)
        };
        let inside = |x: i64, y: i64| x >= 0 && x + s.size() as i64 <= w && y >= 0 && y < h;
        let index = |x: i64, y: i64| (y * w + x) as usize;
        let name = name(inst, simd, &format!("{} {}", l.format, l.name));
        let image_arg = |bytes| Arg::Image {
            width: (l.width_bytes / bpp as usize) as u32,
            height: l.height as u32,
            format: l.format,
            bytes,
        };
        let case = if read {
            let image: Vec<u8> = (0..size).map(|_| rng.next_u64() as u8).collect();
            let mut want = vec![None; n * width];
            for it in &items {
                for k in 0..width {
                    let (mut x, mut y) = at(it.sg_index, it.lane, k);
                    if bpp == 4 {
                        // The edge element, the same byte within it; the edge row.
                        let e = x.div_euclid(4).clamp(0, w / 4 - 1);
                        x = 4 * e + x.rem_euclid(4);
                        y = y.clamp(0, h - 1);
                    }
                    if inside(x, y) {
                        let v = s.read(&image[index(x, y)..]);
                        want[it.global_linear * width + k] = Some(v);
                    }
                }
            }
            Case {
                relations: Vec::new(),
                name,
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![
                    image_arg(image),
                    Arg::I32(l.x0 as i32),
                    Arg::I32(l.y0 as i32),
                    Arg::Buf(vec![0; n * width * s.size()]),
                ],
                checks: vec![Check {
                    arg: 3,
                    scalar: s,
                    want,
                }],
            }
        } else {
            let v = values(ty, n, rng, false);
            // Untouched bytes stay zero, except where small elements make an out-of-bounds
            // write undefined.
            let crosses = bpp < 4 && l.name == "across";
            let mut want = vec![if crosses { None } else { Some(0u64) }; size];
            image_block_written(&mut want, &items, &v, s, (max, width), |sg, lane, k| {
                let (x, y) = at(sg, lane, k);
                inside(x, y).then(|| index(x, y))
            });
            Case {
                relations: Vec::new(),
                name,
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![
                    image_arg(vec![0; size]),
                    Arg::I32(l.x0 as i32),
                    Arg::I32(l.y0 as i32),
                    Arg::Buf(super::bytes(s, &v)),
                ],
                checks: vec![Check {
                    arg: 0,
                    scalar: Scalar::Uchar,
                    want,
                }],
            }
        };
        out.push(case);
    }
    Ok(out)
}
