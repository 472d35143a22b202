//! Subgroup block reads and writes (cl_intel_subgroups 6.13.X "Sub Group Read and Write
//! Functions"; _ui and _uc forms of cl_intel_subgroups_char, _us of cl_intel_subgroups_short).
//!
//! Buffers: value k of a work-item is element `lane + k * max_sub_group_size` of its
//! subgroup's block (`p[sub_group_local_id + k * max_sub_group_size]`, so a lane reads or
//! writes the sizeof(S) bytes at byte `(lane + k * max) * sizeof(S)` past `p`, for every S);
//! every spec requires `p` 4-byte aligned for reads and 16-byte aligned for writes, whatever
//! S is, so the offsets are byte offsets of those alignments converted to elements.
//!
//! Images: value k of a work-item is the element of its type at byte
//! `x + lane * sizeof(S)` of row `y + k`, read without format conversion; for 4-byte
//! element formats, reads outside the image return the edge (in units of uints) and writes
//! outside are ignored.

use super::{alignment_offsets, name, param_ty, values};
use crate::case::{image_bpp, Arg, Case, Check};
use crate::corpus::Instance;
use crate::geometry::{Geometry, Item};
use crate::rng::Rng;
use crate::scalar::{pack, Scalar};

/// (scalar S, width N of the value type).
fn shape(inst: &Instance) -> Result<(Scalar, usize), String> {
    let s = param_ty(inst, 0)?;
    let v = param_ty(inst, 1)?;
    if s.width != 1 || v.scalar != s.scalar {
        return Err(format!(
            "{}: value type does not match the pointer",
            inst.line
        ));
    }
    Ok((s.scalar, v.width))
}

pub fn buffer_cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let (s, width) = shape(inst)?;
    let read = inst.kind.ends_with("BLOCK_READ");
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let max = simd as usize;
    let block = max * width;
    let len = geometry.subgroup_count() * block + 64;
    // Offsets in bytes: reads need 4-byte alignment, writes 16-byte. The generated corpus
    // takes one offset of every alignment below its span; the hand-listed one two.
    let align = if read { 4 } else { 16 };
    let bytes = if inst.kind.starts_with("G_") {
        alignment_offsets(align, crate::generate::BLOCK_OFFSET_SPAN)
    } else {
        vec![0, align]
    };
    let mut out = Vec::new();
    for offset in bytes.into_iter().map(|b| b / s.size()) {
        let at = |it: &Item, k: usize| offset + it.sg_index * block + it.lane + k * max;
        let case = if read {
            let data: Vec<u64> = (0..offset + len).map(|_| s.random_bits(rng)).collect();
            let mut want = vec![None; n * width];
            for it in &items {
                for k in 0..width {
                    want[it.global_linear * width + k] = Some(data[at(it, k)]);
                }
            }
            Case {
                relations: Vec::new(),
                name: name(inst, simd, &format!("offset={offset}")),
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![
                    Arg::Buf(pack(s, &data)),
                    Arg::U32(offset as u32),
                    Arg::Buf(vec![0; n * width * s.size()]),
                ],
                checks: vec![Check {
                    arg: 2,
                    scalar: s,
                    want,
                }],
            }
        } else {
            let ty = param_ty(inst, 1)?;
            let v = values(ty, n, rng, false);
            // Untouched memory stays zero; the slots of lanes a partial subgroup lacks are
            // undefined.
            let mut want = vec![Some(0); offset + len];
            for it in &items {
                for lane in it.sg_size..max {
                    for k in 0..width {
                        want[offset + it.sg_index * block + lane + k * max] = None;
                    }
                }
            }
            for it in &items {
                for k in 0..width {
                    want[at(it, k)] = Some(v[it.global_linear][k]);
                }
            }
            Case {
                relations: Vec::new(),
                name: name(inst, simd, &format!("offset={offset}")),
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![
                    Arg::Buf(super::bytes(s, &v)),
                    Arg::U32(offset as u32),
                    Arg::Buf(vec![0; (offset + len) * s.size()]),
                ],
                checks: vec![Check {
                    arg: 2,
                    scalar: s,
                    want,
                }],
            }
        };
        out.push(case);
    }
    Ok(out)
}

/// One image layout: format, size in bytes and rows, and the first block's byte coordinate.
struct Layout {
    format: &'static str,
    width_bytes: usize,
    height: usize,
    x0: usize,
    y0: usize,
}

pub fn image_cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let (s, width) = shape(inst)?;
    let read = inst.kind == "IMAGE_READ";
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let max = simd as usize;
    let block_bytes = max * s.size();
    let bands = geometry.subgroup_count().div_ceil(2);
    let inside = |format| Layout {
        format,
        width_bytes: 2 * block_bytes + 8,
        height: bands * width + 2,
        x0: 4,
        y0: 1,
    };
    let mut layouts = vec![];
    if s == Scalar::Uint {
        layouts.push(inside("r32ui"));
        // Blocks of the right column hang two uints over the right edge; the last band
        // hangs one row below the bottom.
        layouts.push(Layout {
            format: "rgba8ui",
            width_bytes: 2 * block_bytes - 8,
            height: bands * width - 1,
            x0: 0,
            y0: 0,
        });
    } else {
        layouts.push(inside("r8ui"));
    }
    let mut out = Vec::new();
    for l in layouts {
        let bpp = image_bpp(l.format) as usize;
        let size = l.width_bytes * l.height;
        let clamps = bpp == 4;
        // Byte coordinate (x, y) of value k of a lane of subgroup `sg`.
        let at = |sg: usize, lane: usize, k: usize| -> (usize, usize) {
            let x = l.x0 + (sg % 2) * block_bytes + lane * s.size();
            let y = l.y0 + (sg / 2) * width + k;
            (x, y)
        };
        let inside = |x: usize, y: usize| x + s.size() <= l.width_bytes && y < l.height;
        let name = name(inst, simd, l.format);
        let case = if read {
            let image: Vec<u8> = (0..size).map(|_| rng.next_u64() as u8).collect();
            let mut want = vec![None; n * width];
            for it in &items {
                for k in 0..width {
                    let (mut x, mut y) = at(it.sg_index, it.lane, k);
                    if clamps {
                        // The edge uint of the row, the edge row.
                        x = x.min(l.width_bytes - 4);
                        y = y.min(l.height - 1);
                    }
                    if inside(x, y) {
                        let b = &image[y * l.width_bytes + x..];
                        want[it.global_linear * width + k] = Some(s.read(b));
                    }
                }
            }
            Case {
                relations: Vec::new(),
                name,
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![
                    image_arg(&l, bpp, image),
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
            let ty = param_ty(inst, 1)?;
            let v = values(ty, n, rng, false);
            let mut want = vec![Some(0u64); size];
            image_block_written(&mut want, &items, &v, s, (max, width), |sg, lane, k| {
                let (x, y) = at(sg, lane, k);
                inside(x, y).then(|| y * l.width_bytes + x)
            });
            Case {
                relations: Vec::new(),
                name,
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![
                    image_arg(&l, bpp, vec![0; size]),
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

/// What an image block write leaves in the packed image `want`: in every subgroup each of
/// the `max` (max_sub_group_size) lanes writes its value k (k < `width`) at `at(subgroup's
/// sg_index, lane, k)`, the byte index of an element inside the image (None: outside, left as
/// it is); the lanes a partial subgroup lacks write undefined bytes.
pub(super) fn image_block_written(
    want: &mut [Option<u64>],
    items: &[Item],
    v: &[Vec<u64>],
    s: Scalar,
    (max, width): (usize, usize),
    at: impl Fn(usize, usize, usize) -> Option<usize>,
) {
    for sg in super::subgroups(items) {
        for lane in 0..max {
            for k in 0..width {
                let Some(i) = at(sg[0].sg_index, lane, k) else {
                    continue;
                };
                let bytes = sg.get(lane).map(|o| v[o.global_linear][k].to_le_bytes());
                for (b, to) in want.iter_mut().skip(i).take(s.size()).enumerate() {
                    *to = bytes.map(|v| v[b] as u64);
                }
            }
        }
    }
}

fn image_arg(l: &Layout, bpp: usize, bytes: Vec<u8>) -> Arg {
    Arg::Image {
        width: (l.width_bytes / bpp) as u32,
        height: l.height as u32,
        format: l.format,
        bytes,
    }
}
