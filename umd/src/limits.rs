//! What a kernel from a binary may ask of the driver. Every size, offset and index a binary
//! carries is checked here, against the hardware's limits (the batch builder's, where they are
//! encoded) and this driver's, before anything is allocated, looped over or programmed from it.
//! A hostile binary thus gets [`Error::BadKernel`] naming the value, never a panic or a huge
//! allocation further down.

use batchbuffer::builder::{
    scratch_slice_bytes, slm_encoding, MAX_BINDING_TABLE_ENTRIES, MAX_INDIRECT_DATA_BYTES,
    MAX_LOCAL_TOTAL,
};
use platform::Platform;

use crate::error::{Error, Result};
use crate::program::{ArgKind, ArgParam, Kernel, Slot};

/// Arguments a kernel may have. OpenCL bounds a kernel's argument bytes by
/// CL_DEVICE_MAX_PARAMETER_SIZE (at least 1024) and every argument takes at least one byte;
/// this driver offers the minimum.
pub const MAX_KERNEL_ARGS: u32 = 1024;

/// The GRF registers per thread kernel `k` is dispatched with on `p`: 128, or for a kernel
/// compiled for more (zebin `.ze_info` `grf_count: 256`, ocloc `-ze-opt-large-register-file`)
/// the platform's Large GRF Mode count (Xe-HPG: 256, with half the threads per EU), which the
/// batch then programs in STATE_COMPUTE_MODE. `None` when the platform has no register count
/// the kernel fits in.
pub fn dispatch_grf_regs(grf_count: Option<u32>, p: Platform) -> Option<u32> {
    match grf_count {
        None | Some(0) => Some(platform::GRF_REGS),
        Some(g) if g <= platform::GRF_REGS => Some(platform::GRF_REGS),
        Some(g) => p.large_grf_regs().filter(|&large| g <= large),
    }
}

/// Checks what kernel `k` asks for on `p`.
pub fn check_kernel(k: &Kernel, p: Platform) -> Result<()> {
    let bad = |problem: String| Error::BadKernel {
        kernel: k.name.clone(),
        problem,
    };
    if k.isa.is_empty() {
        return Err(bad("the binary holds no ISA for it".into()));
    }
    if let Some(r) = k.unresolved().next() {
        return Err(bad(format!(
            "unresolved {r}: nothing in the program defines it"
        )));
    }
    if !matches!(k.simd_size, 8 | 16 | 32) {
        return Err(bad(format!("SIMD{} is not a dispatch width", k.simd_size)));
    }
    if !matches!(k.required_subgroup_size, 0 | 8 | 16 | 32) {
        return Err(bad(format!(
            "required subgroup size {} is not 8, 16 or 32",
            k.required_subgroup_size
        )));
    }
    if let Some(wg) = k.required_work_group_size {
        // Three u32s can overflow a u64 (the fuzzer found 2^32 - 1 in every dimension).
        let total = wg
            .iter()
            .try_fold(1u64, |t, &d| t.checked_mul(u64::from(d)))
            .unwrap_or(u64::MAX);
        if wg.contains(&0) || total > u64::from(MAX_LOCAL_TOTAL) {
            return Err(bad(format!(
                "required work-group size {wg:?} is not 1 to {MAX_LOCAL_TOTAL} work-items \
                 with every dimension at least 1"
            )));
        }
    }
    if dispatch_grf_regs(k.grf_count, p).is_none() {
        let most = p.grf_regs(true);
        return Err(bad(format!(
            "it needs {} GRF registers per thread; {p} threads have at most {most}{}",
            k.grf_count.unwrap_or_default(),
            if p.large_grf_regs().is_none() {
                " (no Large GRF Mode before Xe-HPG)"
            } else {
                ""
            }
        )));
    }
    slm_encoding(k.slm_size).map_err(|e| bad(e.to_string()))?;
    scratch_slice_bytes(p, k.memory.scratch).map_err(|e| bad(e.to_string()))?;
    if k.cross_thread_size > MAX_INDIRECT_DATA_BYTES {
        return Err(bad(format!(
            "{} bytes of cross-thread data exceed the walker's {MAX_INDIRECT_DATA_BYTES}",
            k.cross_thread_size
        )));
    }
    let inside = |what: &dyn Fn() -> String, s: Slot| {
        if u64::from(s.offset) + u64::from(s.size) > u64::from(k.cross_thread_size) {
            Err(bad(format!(
                "{} at bytes {}+{} lies outside the {} bytes of cross-thread data",
                what(),
                s.offset,
                s.size,
                k.cross_thread_size
            )))
        } else {
            Ok(())
        }
    };
    let bti_ok = |what: &dyn Fn() -> String, bti: u32| {
        if bti as usize >= MAX_BINDING_TABLE_ENTRIES {
            Err(bad(format!(
                "{} uses binding-table index {bti} (at most {})",
                what(),
                MAX_BINDING_TABLE_ENTRIES - 1
            )))
        } else {
            Ok(())
        }
    };
    for imp in &k.implicit {
        let slot = Slot {
            offset: imp.offset,
            size: imp.size,
        };
        inside(&|| format!("implicit {:?}", imp.kind), slot)?;
    }
    for e in &k.binding_table {
        bti_ok(&|| "the binding table".into(), e.index)?;
    }
    for a in &k.args {
        let i = a.index;
        if i >= MAX_KERNEL_ARGS {
            return Err(bad(format!(
                "argument index {i} (a kernel has at most {MAX_KERNEL_ARGS} arguments)"
            )));
        }
        let arg = || format!("argument {i}");
        let params = |params: &[(ArgParam, Slot)]| {
            params
                .iter()
                .try_for_each(|(p, s)| inside(&|| format!("argument {i}'s {p:?}"), *s))
        };
        match &a.kind {
            ArgKind::Value { pieces } => {
                for piece in pieces {
                    let slot = Slot {
                        offset: piece.offset,
                        size: piece.size,
                    };
                    inside(&arg, slot)?;
                    if piece.source_offset.checked_add(piece.size).is_none() {
                        return Err(bad(format!(
                            "argument {i} has a piece at byte {} of {} bytes, past 4 GiB",
                            piece.source_offset, piece.size
                        )));
                    }
                }
            }
            ArgKind::Buffer {
                stateless,
                bti,
                buffer_offset,
                ..
            } => {
                for s in stateless.iter().chain(buffer_offset) {
                    inside(&arg, *s)?;
                }
                bti.map_or(Ok(()), |b| bti_ok(&arg, b))?;
            }
            ArgKind::Local { slm_offset, .. } => inside(&arg, *slm_offset)?,
            ArgKind::Image {
                bti, params: ps, ..
            } => {
                bti.map_or(Ok(()), |b| bti_ok(&arg, b))?;
                params(ps)?;
            }
            ArgKind::Sampler { params: ps, .. } => params(ps)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 256 registers only where STATE_COMPUTE_MODE has Large GRF Mode (Xe-HPG); more than
    /// any mode gives, nowhere.
    #[test]
    fn kernels_get_the_registers_their_platform_has() {
        for p in Platform::ALL {
            assert_eq!(dispatch_grf_regs(None, p), Some(128), "{p}");
            assert_eq!(dispatch_grf_regs(Some(128), p), Some(128), "{p}");
            assert_eq!(dispatch_grf_regs(Some(96), p), Some(128), "{p}");
            let want = (p == Platform::Dg2).then_some(256);
            assert_eq!(dispatch_grf_regs(Some(256), p), want, "{p}");
            assert_eq!(dispatch_grf_regs(Some(512), p), None, "{p}");
        }
    }
}
