//! One dispatch end to end: allocate the kernel's ISA, state heaps and batch; program the
//! walkers with batchbuffer's builder; submit through i915 or xe; wait; check the PIPE_CONTROL
//! post-sync fence; report GPU faults and hangs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use batchbuffer::builder::{
    front_end, gen_data, Batch, Builder, DispatchDesc, Heap, Heaps, LocalIds, Simd, WalkerKind,
};
use batchbuffer::WalkOrder;

use crate::device::{Device, ExecObject, Outcome};
use crate::error::{Error, Result};
use crate::kernel::{Description, Kernel};
use crate::memory::Bo;
use crate::ndrange::NdRange;
use crate::payload::{
    build, check_args, driver_surface_bti, slm_layout, ArgValue, DriverAddresses,
};
use crate::program::Segment;
use crate::segments::relocate;

/// Layout of the per-dispatch arena BO: batch, then the three state heaps, then the fence.
const BATCH_BYTES: usize = 64 << 10;
const SURFACE_BYTES: usize = 64 << 10;
const DYNAMIC_BYTES: usize = 16 << 10;
const INDIRECT_BYTES: usize = 256 << 10;
const FENCE_BYTES: usize = 4 << 10;
const SURFACE_AT: usize = BATCH_BYTES;
const DYNAMIC_AT: usize = SURFACE_AT + SURFACE_BYTES;
const INDIRECT_AT: usize = DYNAMIC_AT + DYNAMIC_BYTES;
const FENCE_AT: usize = INDIRECT_AT + INDIRECT_BYTES;
const ARENA_BYTES: usize = FENCE_AT + FENCE_BYTES;

/// Post-sync values: unique per dispatch so a stale fence is never mistaken for this one.
static NEXT_FENCE: AtomicU64 = AtomicU64::new(0x1000);

/// What a finished dispatch reports.
#[derive(Debug, Clone)]
pub struct DispatchReport {
    pub range: NdRange,
    pub simd: u32,
    /// Walkers programmed (more than one when the last groups are partial).
    pub walkers: usize,
    /// GPU address of the primary batch.
    pub batch_address: u64,
    /// The primary batch's bytes, as submitted.
    pub batch: Vec<u8>,
    /// Wall time from submission to the fence landing.
    pub elapsed: Duration,
}

fn words_to_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|d| d.to_le_bytes()).collect()
}

impl Device {
    /// Runs `kernel` over `range` with `args` and waits for it.
    pub fn dispatch(
        &self,
        kernel: &Kernel,
        range: &NdRange,
        args: &[ArgValue],
    ) -> Result<DispatchReport> {
        let p = self.platform();
        if kernel.platform != p {
            return Err(Error::Argument(format!(
                "kernel {} is for {}, the device is {}",
                kernel.name, kernel.platform, p
            )));
        }
        // Both are public structs: a hand-built one is checked as a parsed one was.
        range.validate()?;
        if let Description::Ocloc(k, _) = &kernel.description {
            crate::limits::check_kernel(k, p)?;
        }
        check_args(kernel, args)?;
        let g = gen_data(p);
        let simd = Simd::from_lanes(kernel.simd)?;
        range.check_fits(p, kernel.simd)?;

        // Program-scope data, then the ISA (patched for it) in its own BO at Instruction Base
        // Address.
        let mut extra: Vec<std::sync::Arc<Bo>> = Vec::new();
        let (mut scratch, mut driver) = (None, DriverAddresses::default());
        let mut code = kernel.isa.clone();
        if let Description::Ocloc(k, data) = &kernel.description {
            // With program data, every binding-table entry must be an argument's or a driver
            // surface's (bound in `build`): an unknown one might be program data and would run
            // against an unset surface.
            let program: Vec<u32> = k
                .driver_surfaces
                .iter()
                .filter_map(|s| driver_surface_bti(k, s))
                .collect();
            let unbound: Vec<u32> = k
                .binding_table
                .iter()
                .map(|e| e.index)
                .filter(|i| {
                    !program.contains(i)
                        && !k.args.iter().any(|a| match &a.kind {
                            crate::program::ArgKind::Buffer { bti, .. }
                            | crate::program::ArgKind::Image { bti, .. } => *bti == Some(*i),
                            _ => false,
                        })
                })
                .collect();
            if !data.is_empty() && !unbound.is_empty() {
                return Err(Error::Unsupported(format!(
                    "kernel {} reads program-scope data and uses binding-table entries \
                     {unbound:?} that belong to no argument or driver surface",
                    kernel.name
                )));
            }
            let placed = self.place(data)?;
            relocate(&mut code, &k.isa_relocations, &placed)?;
            driver.constant_base = placed.base(Segment::Constant);
            driver.global_base = placed.base(Segment::Global);
            driver.constant_size = placed.size(Segment::Constant);
            driver.global_size = placed.size(Segment::Global);
            extra.extend(placed.bos().cloned());
        }
        let isa = self.alloc_bo(code.len() as u64)?;
        isa.map.write(0, &code)?;
        let (local_ids, inline, barriers) = match &kernel.description {
            Description::Raw => (LocalIds::Runtime { channels: 3 }, false, 0),
            Description::Ocloc(k, _) => {
                if k.memory.scratch_slot1 > 0 {
                    return Err(Error::Unsupported(format!(
                        "kernel {} needs {} bytes of scratch slot 1 (private scratch), which \
                         this driver does not program",
                        kernel.name, k.memory.scratch_slot1
                    )));
                }
                if let Some((bo, space)) = self.scratch_for(k.memory.scratch)? {
                    scratch = Some(space);
                    extra.push(bo);
                }
                if k.memory.private > 0 {
                    let per_thread = k.memory.private as u64
                        * if k.memory.private_is_simt {
                            kernel.simd as u64
                        } else {
                            1
                        };
                    let bo = self.alloc_bo(per_thread * g.max_threads as u64)?;
                    driver.private_base = bo.gpu_address;
                    driver.private_size = bo.size;
                    extra.push(bo);
                }
                let dims = k.per_thread.local_id_dims as u32;
                let ids = match (dims, k.per_thread.hw_generated_local_ids) {
                    (0, _) => LocalIds::None,
                    (c, true) => LocalIds::Hardware {
                        channels: c,
                        walk_order: WalkOrder::Walk012,
                    },
                    (c, false) => LocalIds::Runtime { channels: c },
                };
                (ids, k.per_thread.pass_inline_data, k.barrier_count)
            }
        };

        // The kernel's own SLM plus the `local` arguments'.
        let (_, slm_total) = slm_layout(kernel, args)?;

        // Build the batch and heaps in host memory, then copy them into the arena BO.
        let arena = self.alloc_bo(ARENA_BYTES as u64)?;
        let base = arena.gpu_address;
        let mut batch_mem = vec![0u32; BATCH_BYTES / 4];
        let mut surf = vec![0u32; SURFACE_BYTES / 4];
        let mut dynm = vec![0u32; DYNAMIC_BYTES / 4];
        let mut indr = vec![0u32; INDIRECT_BYTES / 4];
        let fence_value = NEXT_FENCE.fetch_add(1, Ordering::Relaxed);
        let regions = range.regions();
        let batch_len = {
            let mut heaps = Heaps {
                surface: Heap::new("surface", base + SURFACE_AT as u64, &mut surf),
                dynamic: Heap::new("dynamic", base + DYNAMIC_AT as u64, &mut dynm),
                indirect: Heap::new("indirect", base + INDIRECT_AT as u64, &mut indr),
            };
            let mut batch = Batch::new(&mut batch_mem);
            let b = Builder::new(p);
            // COMPUTE_WALKER's Indirect Data Start Address is General State Base relative (the
            // kernel's payload prologue reads it through the General-State-relative stateless
            // BTI), so there General State Base is the indirect heap; before Xe-HPG it is 0
            // (A64 stateless addresses are absolute either way).
            let general_base = match g.walker {
                WalkerKind::Compute => heaps.indirect.gpu_base,
                WalkerKind::Gpgpu => 0,
            };
            let fe = front_end(p, &mut heaps, general_base, scratch.as_ref())?;
            b.preamble(
                &mut batch,
                &heaps,
                general_base,
                (isa.gpu_address, isa.size as usize),
                fe,
            )?;
            for region in &regions {
                let (cross_thread, surfaces) = build(kernel, range, region, args, driver)?;
                b.dispatch(
                    &mut batch,
                    &mut heaps,
                    &DispatchDesc {
                        kernel_offset: 0,
                        simd,
                        local_size: region.local,
                        // The walker's group dimension is where iteration ends (start + count).
                        group_count: [0, 1, 2]
                            .map(|d| region.group_start[d] + region.group_count[d]),
                        group_start: region.group_start,
                        cross_thread: &cross_thread,
                        local_ids,
                        inline_data: inline,
                        slm_bytes: slm_total,
                        barriers,
                        surfaces: &surfaces,
                    },
                )?;
            }
            b.finish(&mut batch, base + FENCE_AT as u64, fence_value)?;
            batch.len()
        };
        let batch_bytes = words_to_bytes(&batch_mem[..batch_len]);
        arena.map.write(0, &batch_bytes)?;
        arena.map.write(SURFACE_AT, &words_to_bytes(&surf))?;
        arena.map.write(DYNAMIC_AT, &words_to_bytes(&dynm))?;
        arena.map.write(INDIRECT_AT, &words_to_bytes(&indr))?;

        let mut objects: Vec<ExecObject> = Vec::new();
        objects.extend(arena.exec_object(true));
        objects.extend(isa.exec_object(false));
        objects.extend(extra.iter().filter_map(|b| b.exec_object(true)));
        for a in args {
            let bo = match a {
                ArgValue::Buffer(b) => &b.bo,
                ArgValue::Image(i) => &i.buffer().bo,
                ArgValue::Value(_) | ArgValue::Local(_) => continue,
            };
            if !objects.iter().any(|o| o.handle == bo.handle) {
                objects.extend(bo.exec_object(true));
            }
        }
        let start = Instant::now();
        let outcome = self.inner.backend().submit(&objects)?;
        let elapsed = start.elapsed();
        let landed = arena.map.load_u64(FENCE_AT)? == fence_value;
        match (outcome, landed) {
            (Outcome::Done, true) => Ok(DispatchReport {
                range: *range,
                simd: kernel.simd,
                walkers: regions.len(),
                batch_address: base,
                batch: batch_bytes,
                elapsed,
            }),
            _ => Err(self.inner.explain_failure(base)),
        }
    }

    /// Submits a caller-built batch (`commands`, ending in MI_BATCH_BUFFER_END) that signals
    /// completion by writing `fence_value` (64 bits) at `fence_offset` of the batch BO, whose
    /// address is passed to `commands`. For tests of the submission and error paths.
    pub fn submit_raw(
        &self,
        commands: impl FnOnce(u64) -> Vec<u8>,
        fence_offset: usize,
        fence_value: u64,
    ) -> Result<u64> {
        let bo = self.alloc_bo(ARENA_BYTES as u64)?;
        let bytes = commands(bo.gpu_address);
        if fence_offset < bytes.len() || fence_offset + 8 > ARENA_BYTES {
            return Err(Error::OutOfRange(format!(
                "fence offset {fence_offset:#x} overlaps the batch or leaves the BO"
            )));
        }
        bo.map.write(0, &bytes)?;
        let objects: Vec<ExecObject> = bo.exec_object(true).into_iter().collect();
        let outcome = self.inner.backend().submit(&objects)?;
        let landed = bo.map.load_u64(fence_offset)? == fence_value;
        match (outcome, landed) {
            (Outcome::Done, true) => Ok(bo.gpu_address),
            _ => Err(self.inner.explain_failure(bo.gpu_address)),
        }
    }
}
