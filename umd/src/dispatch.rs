//! One dispatch end to end: the kernel resident on the device, the batch and state heaps
//! built in the queue's staging memory and copied into a pooled arena, the walkers programmed
//! with batchbuffer's builder, submitted through i915 or xe; completion is the PIPE_CONTROL
//! post-sync fence landing once the kernel retires the batch (see [`crate::queue`]).

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use batchbuffer::builder::{
    front_end, gen_data, prepare, Batch, BuildError, Builder, DispatchDesc, Heap, Heaps, LocalIds,
    SamplerTable, Simd, WalkerKind, SURFACE_STATE_STRIDE,
};
use batchbuffer::{Packet, RenderSurfaceState, WalkOrder};
use platform::Platform;

use crate::batch_memo::{ArenaMemo, BatchKey, Fixed, WalkerKey};
use crate::device::{Engine, ExecObject};
use crate::error::{Error, Result};
use crate::kernel::{Description, Kernel};
use crate::local_ids;
use crate::memory::Bo;
use crate::ndrange::NdRange;
use crate::payload::{build, check_args, slm_layout_into, ArgValue};
use crate::printf::buffer::PrintfOutput;
use crate::queue::arena::{DYNAMIC_AT, END_TICKS_AT, INDIRECT_AT, START_TICKS_AT, SURFACE_AT};
use crate::queue::{Event, Fence, Queue, Ready, ARENA_BYTES, FENCE_AT, NEXT_FENCE};

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
    /// Wall time from building the batch to its completion.
    pub elapsed: Duration,
    /// The printf buffer, when the kernel calls printf (complete: decode it).
    pub printf: Option<PrintfOutput>,
}

/// What building a dispatch produced, for the synchronous report.
struct Built {
    walkers: usize,
    batch_address: u64,
    batch: Vec<u8>,
    printf: Option<PrintfOutput>,
}

/// The dword where RENDER_SURFACE_STATE's Surface Base Address starts on `p`, when it fills
/// two whole dwords (so writing the new address there is the whole change).
fn surface_address_dword(p: Platform) -> Option<usize> {
    static AT: OnceLock<[Option<usize>; 4]> = OnceLock::new();
    AT.get_or_init(|| {
        Platform::ALL.map(|q| {
            let loc = RenderSurfaceState::LAYOUT
                .field("Surface Base Address")?
                .loc(q)?;
            (loc.lo == 0 && loc.width() == 64).then_some(loc.dw as usize)
        })
    })[p as usize]
}

/// Rewrites in `arena` what differs between the batch `m` holds and the one `new` describes
/// (which [`BatchKey::patchable_to`] allows), and makes `m` describe `new`'s walkers.
fn patch(p: Platform, arena: &Bo, m: &mut ArenaMemo, new: &BatchKey) -> Result<()> {
    let ArenaMemo { key, walkers, .. } = m;
    for ((batch_at, prepared), (old, w)) in
        walkers.iter_mut().zip(key.walkers.iter().zip(&new.walkers))
    {
        let mut commands = false;
        if (old.group_start, old.group_count) != (w.group_start, w.group_count) {
            prepared.set_group_start(w.group_start);
            prepared.set_group_count(w.group_end());
            commands = true;
        }
        let (was, now) = (
            &key.words[old.words.0..old.words.1],
            &new.words[w.words.0..w.words.1],
        );
        if was != now {
            let lost = || Error::OutOfRange("a walker's payload no longer fits its batch".into());
            let ((was_inline, was_indirect), (inline, indirect)) = (
                prepared.split_cross_thread(was).ok_or_else(lost)?,
                prepared.split_cross_thread(now).ok_or_else(lost)?,
            );
            if was_inline != inline {
                prepared.set_inline_data(inline);
                commands = true;
            }
            if was_indirect != indirect {
                let at = INDIRECT_AT + prepared.payload_offset() as usize;
                write_words(arena, at, indirect)?;
            }
        }
        if commands {
            write_words(arena, 4 * *batch_at, prepared.commands())?;
        }
        let (was, now) = (
            &key.surfaces[old.surfaces.0..old.surfaces.1],
            &new.surfaces[w.surfaces.0..w.surfaces.1],
        );
        for (i, (a, b)) in was.iter().zip(now).enumerate() {
            if a == b {
                continue;
            }
            let at = SURFACE_AT
                + prepared.surface_state_offset(i).ok_or_else(|| {
                    Error::OutOfRange("a walker's surface no longer fits its batch".into())
                })? as usize;
            // Another buffer of the same size: only the address moves.
            let moved = RenderSurfaceState {
                surface_base_address: b.surface_base_address,
                ..*a
            };
            match surface_address_dword(p) {
                Some(dw) if moved == *b => {
                    arena
                        .map
                        .write(at + 4 * dw, &b.surface_base_address.to_le_bytes())?;
                }
                _ => {
                    let mut state = [0u32; SURFACE_STATE_STRIDE as usize / 4];
                    b.pack(p, &mut state).map_err(BuildError::from)?;
                    write_words(arena, at, &state)?;
                }
            }
        }
    }
    Ok(())
}

fn words_to_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|d| d.to_le_bytes()).collect()
}

fn write_words(bo: &Bo, at: usize, words: &[u32]) -> Result<()> {
    // The host and every GPU this driver targets are little-endian.
    let bytes: &[u8] = zerocopy::IntoBytes::as_bytes(words);
    Ok(bo.map.write(at, bytes)?)
}

impl Queue {
    /// Runs `kernel` over `range` with `args` once every event in `wait_for` has completed.
    /// Returns when the batch is submitted (or held for a host event); the event completes
    /// when the GPU is done.
    pub fn dispatch(
        &self,
        kernel: &Kernel,
        range: &NdRange,
        args: &[ArgValue],
        wait_for: &[Event],
    ) -> Result<Event> {
        self.enqueue_dispatch(kernel, range, args, &[], wait_for, false)
            .map(|(e, _)| e)
    }

    /// [`Queue::dispatch`], also giving the dispatch's printf buffer when the kernel calls
    /// printf: decode it once the event has completed.
    pub fn dispatch_printf(
        &self,
        kernel: &Kernel,
        range: &NdRange,
        args: &[ArgValue],
        wait_for: &[Event],
    ) -> Result<(Event, Option<PrintfOutput>)> {
        self.enqueue_dispatch(kernel, range, args, &[], wait_for, false)
            .map(|(e, b)| (e, b.printf))
    }

    /// [`Queue::dispatch_printf`] with `resident`'s BOs in the submission too: memory the
    /// kernel reaches through pointers it does not get as arguments (unified shared memory
    /// it loads from memory, `crate::usm`).
    pub fn dispatch_resident(
        &self,
        kernel: &Kernel,
        range: &NdRange,
        args: &[ArgValue],
        resident: &[crate::memory::Buffer],
        wait_for: &[Event],
    ) -> Result<(Event, Option<PrintfOutput>)> {
        self.enqueue_dispatch(kernel, range, args, resident, wait_for, false)
            .map(|(e, b)| (e, b.printf))
    }

    fn enqueue_dispatch(
        &self,
        kernel: &Kernel,
        range: &NdRange,
        args: &[ArgValue],
        also_resident: &[crate::memory::Buffer],
        wait_for: &[Event],
        keep_batch: bool,
    ) -> Result<(Event, Built)> {
        let q = &self.inner;
        let dev = &q.dev;
        let p = dev.info.platform;
        if kernel.platform != p {
            return Err(Error::Argument(format!(
                "kernel {} is for {}, the device is {}",
                kernel.name, kernel.platform, p
            )));
        }
        // A public struct: a hand-built range is checked as a parsed one was. A kernel's
        // description was checked when it was made (its fields are private).
        range.validate()?;
        check_args(kernel, args)?;
        let g = gen_data(p);
        let simd = Simd::from_lanes(kernel.simd)?;
        range.check_fits(&dev.info, kernel.simd)?;
        let resident = kernel.resident(dev)?;
        let mut driver = resident.driver;

        let mut st = q.lock();
        let st = &mut *st;
        // Vectors of earlier submissions, emptied: no allocation in steady state.
        let mut keep: Vec<Arc<Bo>> = st.spare_keep();
        keep.push(resident.isa.clone());
        keep.extend(resident.placed.bos().cloned());
        let mut scratch = None;
        // The sanitizer's per-thread memory: scratch (IGC keeps `__private` arrays there too)
        // and the private buffer.
        let mut per_thread: [Option<std::ops::Range<u64>>; 2] = [None, None];
        // memcheck's slots: the private buffer's bytes per hardware thread.
        let mut private_slot = 0;
        let regions = range.regions();
        let mut kernel_offset = 0;
        let (local_ids, inline, barriers) = match &kernel.description {
            Description::Raw => (
                LocalIds::Runtime {
                    channels: 3,
                    walk_order: WalkOrder::Walk012,
                },
                false,
                0,
            ),
            Description::Ocloc(k, _) => {
                if k.memory.scratch_slot1 > 0 {
                    return Err(Error::Unsupported(format!(
                        "kernel {} needs {} bytes of scratch slot 1 (private scratch), which \
                         this driver does not program",
                        kernel.name, k.memory.scratch_slot1
                    )));
                }
                if let Some((bo, space)) = st.scratch.get(dev, k.memory.scratch)? {
                    scratch = Some(space);
                    per_thread[0] = Some(bo.gpu_address..bo.gpu_address + bo.size);
                    keep.push(bo);
                }
                if k.memory.private > 0 {
                    let per_thread = k.memory.private as u64
                        * if k.memory.private_is_simt {
                            kernel.simd as u64
                        } else {
                            1
                        };
                    // A slice per hardware thread the device can run, as for scratch.
                    let need = per_thread * u64::from(dev.info.limits.scratch_slices);
                    // The queue's work runs in order: one private buffer serves all of it,
                    // replaced by a bigger one when needed (running work keeps the old one).
                    let bo = match &st.private {
                        Some(b) if b.size >= need => b.clone(),
                        _ => {
                            let b = dev.alloc_bo(need)?;
                            st.private = Some(b.clone());
                            b
                        }
                    };
                    private_slot = per_thread;
                    driver.private_base = bo.gpu_address;
                    driver.private_size = need;
                    keep.push(bo);
                }
                let locals = regions.iter().map(|r| r.local);
                let (ids, start) = local_ids::delivery(p, &k.per_thread, kernel.simd, locals);
                kernel_offset = start;
                (ids, k.per_thread.pass_inline_data, k.barrier_count)
            }
        };

        // The kernel's own SLM plus the `local` arguments'.
        let slm_total = slm_layout_into(kernel, args, &mut st.slm_offsets)?;

        let arena = q.arena(st)?;
        // After the arena: taking one reaps retired batches, which frees their printf buffers.
        let printf = match &resident.printf {
            Some(strings) => {
                let bo = q.printf_bo(st)?;
                keep.push(bo.clone());
                let out = PrintfOutput::lend(bo, Arc::downgrade(&q.printf_pool), strings.clone())?;
                (driver.printf_base, driver.printf_size) = out.address();
                Some(out)
            }
            None => None,
        };
        let base = arena.gpu_address;
        // The sanitizer finds this dispatch's walkers by their indirect data, in the arena.
        dev.sanitize.dispatch(
            base..base + arena.size,
            &kernel.name,
            kernel_offset as u32,
            slm_total,
            (driver.private_size > 0)
                .then(|| driver.private_base..driver.private_base + driver.private_size)
                .into_iter()
                .chain(per_thread.iter().flatten().cloned())
                .collect(),
            match &kernel.description {
                Description::Ocloc(k, _) => Some(&k.source_lines),
                Description::Raw => None,
            },
        );
        dev.sanitize.dispatch_bounds(
            base,
            || {
                args.iter()
                    .filter_map(|a| match a {
                        ArgValue::Buffer(b) => Some(b.gpu_address()..b.gpu_address() + b.size()),
                        _ => None,
                    })
                    .collect()
            },
            per_thread[0].clone(),
            (driver.private_size > 0).then(|| {
                let at = driver.private_base;
                (at..at + driver.private_size, private_slot)
            }),
        );
        let fence_value = NEXT_FENCE.fetch_add(1, Ordering::Relaxed);
        let crate::queue::QueueState {
            staging: s,
            payload,
            slm_offsets,
            key,
            memos,
            ..
        } = st;
        // The batch's inputs; each walker's payload and surfaces are built into the key.
        key.walkers.clear();
        key.words.clear();
        key.surfaces.clear();
        key.dsh.clear();
        key.samplers = match &kernel.description {
            Description::Ocloc(k, _) => k.sampler_array,
            _ => None,
        };
        key.fixed = Some(Fixed {
            isa: (resident.isa.gpu_address, resident.isa.size as usize),
            simd: kernel.simd,
            local_ids,
            kernel_offset,
            inline,
            barriers,
            slm_bytes: slm_total,
            scratch,
            large_grf: kernel.grf_regs() > platform::GRF_REGS,
        });
        for region in regions.iter() {
            build(kernel, range, region, args, driver, slm_offsets, payload)?;
            let (w, f) = (key.words.len(), key.surfaces.len());
            key.words.extend_from_slice(&payload.words);
            key.surfaces.extend_from_slice(&payload.surfaces);
            key.walkers.push(WalkerKey {
                local: region.local,
                group_start: region.group_start,
                group_count: region.group_count,
                words: (w, key.words.len()),
                surfaces: (f, key.surfaces.len()),
            });
            // The same for every region (it depends on the arguments only).
            key.dsh.clone_from(&payload.dsh);
        }
        let memo = memos
            .iter()
            .position(|m| std::ptr::eq(m.arena.as_ptr(), Arc::as_ptr(&arena)));
        let reuse = memo.and_then(|i| {
            let same = memos[i].key == *key;
            (same || memos[i].key.patchable_to(key)).then_some((i, same))
        });
        let built = match reuse {
            Some((i, same)) => {
                // The arena already holds this batch and its heaps, or one that differs in
                // what `patch` rewrites; then the fence value changes. Out of the list while
                // patched: a failure leaves the arena's contents unknown, and no memo.
                let mut m = memos.swap_remove(i);
                if !same {
                    patch(p, &arena, &mut m, key)?;
                    std::mem::swap(&mut m.key, key);
                }
                arena
                    .map
                    .write(m.fence_value_at, &fence_value.to_le_bytes())?;
                let mut batch = Vec::new();
                if keep_batch {
                    batch.resize(m.batch_dwords * 4, 0);
                    arena.map.read(0, &mut batch)?;
                }
                memos.push(m);
                Built {
                    walkers: regions.len(),
                    batch_address: base,
                    batch,
                    printf: None,
                }
            }
            None => {
                // What the arena held is about to be overwritten.
                let mut old = memo.map(|i| memos.swap_remove(i));
                let mut placed = old
                    .as_mut()
                    .map(|m| std::mem::take(&mut m.walkers))
                    .unwrap_or_default();
                placed.clear();
                let mut heaps = Heaps {
                    surface: Heap::new("surface", base + SURFACE_AT as u64, &mut s.surface),
                    dynamic: Heap::new("dynamic", base + DYNAMIC_AT as u64, &mut s.dynamic),
                    indirect: Heap::new("indirect", base + INDIRECT_AT as u64, &mut s.indirect),
                };
                let mut batch = Batch::new(&mut s.batch);
                let b = Builder::with_limits(p, dev.info.limits);
                // COMPUTE_WALKER's Indirect Data Start Address is General State Base relative
                // (the kernel's payload prologue reads it through the General-State-relative
                // stateless BTI), so there General State Base is the indirect heap; before
                // Xe-HPG it is 0 (A64 stateless addresses are absolute either way).
                let general_base = match g.walker {
                    WalkerKind::Compute => heaps.indirect.gpu_base,
                    WalkerKind::Gpgpu => 0,
                };
                let mut fe = front_end(p, &mut heaps, general_base, scratch.as_ref())?;
                // Every batch programs the mode its kernel needs, so a 128-register kernel
                // after a 256-register one runs with Large GRF Mode cleared again (as NEO
                // reprograms STATE_COMPUTE_MODE when a kernel's register count changes it).
                fe.large_grf = kernel.grf_regs() > platform::GRF_REGS;
                b.preamble(
                    &mut batch,
                    &heaps,
                    general_base,
                    (resident.isa.gpu_address, resident.isa.size as usize),
                    fe,
                )?;
                b.timestamp(&mut batch, base + START_TICKS_AT as u64)?;
                for w in &key.walkers {
                    let prepared = prepare(
                        p,
                        &mut heaps,
                        &DispatchDesc {
                            kernel_offset,
                            simd,
                            local_size: w.local,
                            group_count: w.group_end(),
                            group_start: w.group_start,
                            cross_thread: &key.words[w.words.0..w.words.1],
                            local_ids,
                            inline_data: inline,
                            slm_bytes: slm_total,
                            barriers,
                            surfaces: &key.surfaces[w.surfaces.0..w.surfaces.1],
                            samplers: key.samplers.map(|(array_offset, count)| SamplerTable {
                                heap: &key.dsh,
                                array_offset,
                                count,
                            }),
                        },
                    )?;
                    placed.push((batch.len(), prepared));
                    prepared.emit(&mut batch)?;
                }
                b.timestamp(&mut batch, base + END_TICKS_AT as u64)?;
                let fence_value_at = b.finish_value_at().map(|v| 4 * (batch.len() + v));
                b.finish(&mut batch, base + FENCE_AT as u64, fence_value)?;
                // Only what was written goes to the arena (heap allocations are zeroed as
                // handed out).
                let batch_words = batch.as_slice();
                write_words(&arena, 0, batch_words)?;
                let (su, du, iu) = (
                    heaps.surface.used() / 4,
                    heaps.dynamic.used() / 4,
                    heaps.indirect.used() / 4,
                );
                let built = Built {
                    walkers: regions.len(),
                    batch_address: base,
                    batch: if keep_batch {
                        words_to_bytes(batch_words)
                    } else {
                        Vec::new()
                    },
                    printf: None,
                };
                let batch_dwords = batch_words.len();
                write_words(&arena, SURFACE_AT, &s.surface[..su])?;
                write_words(&arena, DYNAMIC_AT, &s.dynamic[..du])?;
                write_words(&arena, INDIRECT_AT, &s.indirect[..iu])?;
                // The arena now holds this key's batch; the key's vectors change places
                // with the replaced memo's (no allocation once both have grown).
                if let Some(fence_value_at) = fence_value_at {
                    // Memos of arenas freed since (after a failed submission).
                    memos.retain(|m| m.arena.strong_count() > 0);
                    let mut m = old.unwrap_or(ArenaMemo {
                        arena: Arc::downgrade(&arena),
                        key: BatchKey::default(),
                        fence_value_at,
                        batch_dwords,
                        walkers: Vec::new(),
                    });
                    m.fence_value_at = fence_value_at;
                    m.batch_dwords = batch_dwords;
                    m.walkers = placed;
                    std::mem::swap(&mut m.key, key);
                    memos.push(m);
                }
                built
            }
        };
        // Reset the slots: a reused arena holds its last batch's values.
        arena.map.store_u64(FENCE_AT, 0)?;
        arena.map.store_u64(START_TICKS_AT, 0)?;
        arena.map.store_u64(END_TICKS_AT, 0)?;

        let mut objects: Vec<ExecObject> = st.spare_objects();
        objects.extend(arena.exec_object(true));
        objects.extend(resident.isa.exec_object(false));
        objects.extend(keep[1..].iter().filter_map(|b| b.exec_object(true)));
        let arg_bos = args.iter().filter_map(|a| match a {
            ArgValue::Buffer(b) => Some(&b.bo),
            ArgValue::Image(i) => Some(&i.buffer().bo),
            ArgValue::NullBuffer
            | ArgValue::Value(_)
            | ArgValue::Local(_)
            | ArgValue::Sampler(_) => None,
        });
        for bo in arg_bos.chain(also_resident.iter().map(|b| &b.bo)) {
            if !objects.iter().any(|o| o.handle == bo.handle) {
                objects.extend(bo.exec_object(true));
            }
            keep.push(bo.clone());
        }
        let ready = Ready {
            engine: Engine::Compute,
            objects,
            fence: Fence {
                bo: arena.clone(),
                offset: FENCE_AT,
                value: fence_value,
                ticks: Some((START_TICKS_AT, END_TICKS_AT)),
            },
            keep,
            arena: Some(arena),
            isa: Some((resident.isa.gpu_address, resident.isa.size)),
        };
        let event = q.enqueue(st, ready, wait_for)?;
        Ok((event, Built { printf, ..built }))
    }

    /// Submits a caller-built batch (`commands`, ending in MI_BATCH_BUFFER_END) that signals
    /// completion by writing `fence_value` (64 bits) at `fence_offset` of the batch BO, whose
    /// address is passed to `commands`, once every event in `wait_for` has completed. For
    /// tests of the submission and error paths. Returns the event and the batch's address.
    pub fn submit_raw(
        &self,
        commands: impl FnOnce(u64) -> Vec<u8>,
        fence_offset: usize,
        fence_value: u64,
        wait_for: &[Event],
    ) -> Result<(Event, u64)> {
        let q = &self.inner;
        let bo = q.dev.alloc_bo(ARENA_BYTES as u64)?;
        let bytes = commands(bo.gpu_address);
        if fence_offset < bytes.len() || fence_offset + 8 > ARENA_BYTES {
            return Err(Error::OutOfRange(format!(
                "fence offset {fence_offset:#x} overlaps the batch or leaves the BO"
            )));
        }
        bo.map.write(0, &bytes)?;
        let objects: Vec<ExecObject> = bo.exec_object(true).into_iter().collect();
        let address = bo.gpu_address;
        let ready = Ready {
            engine: Engine::Compute,
            objects,
            fence: Fence {
                bo,
                offset: fence_offset,
                value: fence_value,
                ticks: None,
            },
            keep: Vec::new(),
            arena: None,
            isa: None,
        };
        let mut st = q.lock();
        Ok((q.enqueue(&mut st, ready, wait_for)?, address))
    }
}

impl Queue {
    /// [`crate::device::Device::dispatch`]: [`Queue::dispatch`] waited for, with its report.
    pub(crate) fn dispatch_and_wait(
        &self,
        kernel: &Kernel,
        range: &NdRange,
        args: &[ArgValue],
    ) -> Result<DispatchReport> {
        let start = Instant::now();
        let (event, built) = self.enqueue_dispatch(kernel, range, args, &[], &[], true)?;
        event.wait(None)?;
        Ok(DispatchReport {
            range: *range,
            simd: kernel.simd,
            walkers: built.walkers,
            batch_address: built.batch_address,
            batch: built.batch,
            elapsed: start.elapsed(),
            printf: built.printf,
        })
    }
}
