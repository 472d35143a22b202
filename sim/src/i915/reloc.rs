//! i915 relocations (`drm_i915_gem_relocation_entry`), as Linux 6.12's
//! `gem/i915_gem_execbuffer.c` applies them once every object of an execbuf is placed:
//!
//! - They are processed unless `I915_EXEC_NO_RELOC` is set and every object is where its
//!   `offset` said (`__EXEC_HAS_RELOC`).
//! - A target is an index into the execbuf's object list with `I915_EXEC_HANDLE_LUT`, else a
//!   handle of that list; anything else is ENOENT.
//! - More than one write domain, or a domain outside the GPU domains (`I915_GEM_GPU_DOMAINS`:
//!   render, sampler, command, instruction, vertex), is EINVAL; a write domain marks the
//!   target written by the request.
//! - An entry whose `presumed_offset` is the target's canonical address is left alone. Else its
//!   `offset` must be 4-byte aligned and leave room for the 64-bit value (Gen8+ writes 64-bit
//!   relocations: `HAS_64BIT_RELOC`), else EINVAL; the canonical address of target + `delta`
//!   (a signed 32-bit value) is written there, and `presumed_offset` in the user's entry is
//!   updated to the target's canonical address.
//! - Before the CPU writes into an object the kernel waits for the GPU to be done with it.
//! - Platforms after TGL-LP refuse relocations (EINVAL); see `DeviceInfo::i915_relocations`.

use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use crate::mem::Bo;
use crate::user;

/// `I915_GEM_GPU_DOMAINS` (the kernel's `i915_gem.h`, not uAPI).
const GPU_DOMAINS: u32 = I915_GEM_DOMAIN_RENDER
    | I915_GEM_DOMAIN_SAMPLER
    | I915_GEM_DOMAIN_COMMAND
    | I915_GEM_DOMAIN_INSTRUCTION
    | I915_GEM_DOMAIN_VERTEX;

/// Bytes a relocation writes on Gen8 and later.
const RELOC_BYTES: u64 = 8;

/// One value to write: `value` at `offset` of object `object`.
pub(super) struct Patch {
    pub object: usize,
    pub offset: u64,
    pub value: u64,
    /// Where the user's `presumed_offset` of this entry is, and what it becomes.
    pub presumed_at: u64,
    pub presumed: u64,
}

/// What the relocations of one execbuf amount to.
#[derive(Default)]
pub(super) struct Plan {
    pub patches: Vec<Patch>,
    /// Objects a relocation names with a write domain.
    pub written: Vec<usize>,
}

/// The relocations of `entries`, whose objects were placed at `addresses` (`canonical` turns
/// an address into the form the uAPI reports). `bos` are the objects' memory.
pub(super) fn plan(
    entries: &[drm_i915_gem_exec_object2],
    bos: &[&Bo],
    addresses: &[u64],
    handle_lut: bool,
    canonical: fn(u64) -> u64,
) -> Result<Plan, Errno> {
    let mut plan = Plan::default();
    let entry_size = std::mem::size_of::<drm_i915_gem_relocation_entry>() as u64;
    let presumed_field =
        std::mem::offset_of!(drm_i915_gem_relocation_entry, presumed_offset) as u64;
    for (i, e) in entries.iter().enumerate() {
        if e.relocation_count == 0 {
            continue;
        }
        let relocs: Vec<drm_i915_gem_relocation_entry> =
            user::read_array(e.relocs_ptr, e.relocation_count as usize)?;
        for (j, r) in relocs.iter().enumerate() {
            let target = if handle_lut {
                let t = r.target_handle as usize;
                (t < entries.len()).then_some(t)
            } else {
                entries.iter().position(|x| x.handle == r.target_handle)
            }
            .ok_or(Errno::ENOENT)?;
            if r.write_domain & r.write_domain.wrapping_sub(1) != 0
                || (r.write_domain | r.read_domains) & !GPU_DOMAINS != 0
            {
                return Err(Errno::EINVAL);
            }
            if r.write_domain != 0 && !plan.written.contains(&target) {
                plan.written.push(target);
            }
            let target_addr = canonical(addresses[target]);
            if target_addr == r.presumed_offset {
                continue;
            }
            let size = bos[i].size();
            if r.offset > size - RELOC_BYTES || r.offset & 3 != 0 {
                return Err(Errno::EINVAL);
            }
            let delta = i64::from(r.delta as i32) as u64;
            plan.patches.push(Patch {
                object: i,
                offset: r.offset,
                value: canonical(addresses[target].wrapping_add(delta)),
                presumed_at: e.relocs_ptr + j as u64 * entry_size + presumed_field,
                presumed: target_addr,
            });
        }
    }
    Ok(plan)
}

/// Writes the patches into the objects and tells the user the new presumed offsets (a
/// failure to write those back is ignored, as the kernel's `__put_user` there is).
pub(super) fn apply(plan: &Plan, bos: &[&Bo]) -> Result<(), Errno> {
    for p in &plan.patches {
        bos[p.object]
            .write(p.offset, &p.value.to_le_bytes())
            .map_err(|_| Errno::EFAULT)?;
        let _ = user::write_val(p.presumed_at, &p.presumed);
    }
    Ok(())
}
