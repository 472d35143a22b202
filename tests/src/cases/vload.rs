//! vloadn and vstoren (OpenCL C 2.0, 6.13.7): "Return sizeof (gentypen) bytes of data read
//! from address (p + (offset * n))" and "Write sizeof (gentypen) bytes given by data to address
//! (p + (offset * n))"; p must be aligned to the scalar (`generate::vload`). Work-item i uses
//! offset i through a pointer `off` bytes into the buffer.

use super::{alignment_offsets, name, param_ty, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::generate::VLOAD_OFFSET_SPAN;
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::{Scalar, Ty};

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let s = param_ty(inst, 0)?.scalar;
    let n_width = inst
        .params
        .get(1)
        .and_then(|w| w.parse::<usize>().ok())
        .ok_or_else(|| format!("{}: no width", inst.line))?;
    let ty = Ty::parse(&format!("{}{n_width}", s.name()))
        .ok_or_else(|| format!("{}: no such vector", inst.line))?;
    let load = inst.kind == "VLOAD";
    let geometry = Geometry::standard(simd);
    let n = geometry.items().len();
    // Elements per value in a `global T##N *` array: 3-component vectors take 4.
    let slot = ty.size() / s.size();
    let span = n * n_width * s.size();
    let mut out = Vec::new();
    for off in alignment_offsets(s.size(), VLOAD_OFFSET_SPAN) {
        let variant = format!("off={off}");
        // Byte `off + (i * n + k) * sizeof(T)` holds component k of work-item i.
        let at = |i: usize, k: usize| off + (i * n_width + k) * s.size();
        let total = off + span + 16;
        let case = if load {
            let mut mem: Vec<u8> = (0..total).map(|_| rng.next_u64() as u8).collect();
            let v = values(ty, n, rng, false);
            let mut want = vec![None; n * slot];
            for (i, vi) in v.iter().enumerate() {
                for (k, x) in vi.iter().enumerate() {
                    let b = &x.to_le_bytes()[..s.size()];
                    mem[at(i, k)..at(i, k) + s.size()].copy_from_slice(b);
                    want[i * slot + k] = Some(*x);
                }
            }
            Case {
                relations: Vec::new(),
                name: name(inst, simd, &variant),
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![
                    Arg::Buf(mem),
                    Arg::U32(off as u32),
                    Arg::Buf(vec![0; n * ty.size()]),
                ],
                checks: vec![Check {
                    arg: 2,
                    scalar: s,
                    want,
                }],
            }
        } else {
            let v = values(ty, n, rng, false);
            let mut input = Vec::with_capacity(n * ty.size());
            for vi in &v {
                for k in 0..slot {
                    // The fourth slot of a 3-vector is padding: any value.
                    let x = vi.get(k).copied().unwrap_or(0x55);
                    s.write(x, &mut input);
                }
            }
            // Memory the stores do not reach must keep its (random) bytes.
            let mem: Vec<u8> = (0..total).map(|_| rng.next_u64() as u8).collect();
            let mut want: Vec<Option<u64>> = mem.iter().map(|&b| Some(b as u64)).collect();
            for (i, vi) in v.iter().enumerate() {
                for (k, x) in vi.iter().enumerate() {
                    for (j, b) in x.to_le_bytes()[..s.size()].iter().enumerate() {
                        want[at(i, k) + j] = Some(*b as u64);
                    }
                }
            }
            Case {
                relations: Vec::new(),
                name: name(inst, simd, &variant),
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![Arg::Buf(input), Arg::U32(off as u32), Arg::Buf(mem)],
                checks: vec![Check {
                    arg: 2,
                    scalar: Scalar::Uchar,
                    want,
                }],
            }
        };
        out.push(case);
    }
    Ok(out)
}
