//! A hardware thread's initial GRF: the r0 header, then the payload.
//!
//! Gen9–Gen12LP (GPGPU_WALKER): r1 onward holds the thread's per-thread data (Constant URB
//! Entry Read Length GRFs), then the cross-thread data (Cross-Thread Constant Data Read Length
//! GRFs). In memory, at the indirect data address, the cross-thread data comes first and the
//! per-thread blocks follow, one per thread in dispatch order (NEO's indirect heap; IGC
//! kernels read their local IDs from r1 and their arguments after them).
//!
//! Xe-HPG (COMPUTE_WALKER): r1 onward holds the hardware-generated local IDs (Emit Local
//! channels, x then y then z, in the walk order), then one GRF of inline data. The rest of the
//! payload stays in memory: IGC's prologue reads it through r0.0 and r0.2.

use platform::Platform;

use super::gen::{gen_dispatch, BARRIER_IDS, R0_BARRIER, R0_FFTID, R0_GROUP_ID};
use super::state::{Dispatch, HwLocalIds};
use crate::eu::Thread;
use crate::mem::{AddressSpace, GpuFault};

const GRF: usize = 32;

/// GRFs one local-ID channel takes: 16-bit IDs, two GRFs at SIMD32.
pub fn grfs_per_channel(simd: u32) -> usize {
    if simd == 32 {
        2
    } else {
        1
    }
}

/// Fills `t`'s GRF for thread `index` of the group `group` (`ordinal` counts groups).
pub fn load(
    p: Platform,
    d: &Dispatch,
    vm: &AddressSpace,
    t: &mut Thread,
    group: [u32; 3],
    ordinal: u64,
    index: u32,
) -> Result<(), GpuFault> {
    let g = gen_dispatch(p);
    let grf = t.grf_mut();
    grf.fill(0);
    let mut r0 = [0u32; 8];
    for (dim, &dw) in R0_GROUP_ID.iter().enumerate() {
        r0[dw] = group[dim];
    }
    let barrier = (ordinal % u64::from(BARRIER_IDS)) as u32;
    r0[R0_BARRIER] = barrier << g.barrier_id_shift;
    r0[R0_FFTID] = index & 0x3ff;
    if g.r0_payload_pointers {
        r0[R0_BARRIER] |= index & 0xff;
        r0[0] = d.indirect_offset & !0x3f;
    }
    for (i, v) in r0.iter().enumerate() {
        grf[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
    let mut at = GRF;
    if g.loads_curbe {
        let ct = d.idd.cross_thread_constant_data_read_length as usize * GRF;
        let pt = d.idd.constant_urb_entry_read_length as usize * GRF;
        let per_thread = d.indirect.wrapping_add((ct + pt * index as usize) as u64);
        let end = at + pt + ct;
        if end > grf.len() {
            return Err(GpuFault {
                address: d.indirect,
                len: pt + ct,
                access: crate::mem::Access::Read,
            });
        }
        vm.read(per_thread, &mut grf[at..at + pt])?;
        at += pt;
        vm.read(d.indirect, &mut grf[at..at + ct])?;
    } else {
        if let Some(ids) = &d.hw_ids {
            at += write_hw_ids(&mut grf[at..], ids, d.simd, index);
        }
        if let Some(inline) = &d.inline {
            for (i, v) in inline.iter().enumerate() {
                grf[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    Ok(())
}

/// Writes the local IDs thread `index` of a group gets; returns the bytes written. Lane `l`
/// is work-item `index * simd + l` of the group, counted in the walk order.
fn write_hw_ids(out: &mut [u8], ids: &HwLocalIds, simd: u32, index: u32) -> usize {
    let block = grfs_per_channel(simd) * GRF;
    let total = ids.size.iter().product::<u32>();
    let [fast, mid, _] = ids.order;
    for lane in 0..simd {
        let item = index * simd + lane;
        if item >= total {
            break;
        }
        let mut id = [0u32; 3];
        id[fast] = item % ids.size[fast];
        id[mid] = item / ids.size[fast] % ids.size[mid];
        id[ids.order[2]] = item / (ids.size[fast] * ids.size[mid]);
        for (c, v) in id.iter().take(ids.channels as usize).enumerate() {
            let at = c * block + 2 * lane as usize;
            out[at..at + 2].copy_from_slice(&(*v as u16).to_le_bytes());
        }
    }
    ids.channels as usize * block
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(out: &[u8], channel: usize, lane: usize, simd: u32) -> u16 {
        let at = channel * grfs_per_channel(simd) * GRF + 2 * lane;
        u16::from_le_bytes([out[at], out[at + 1]])
    }

    /// Walk order lists the dimensions from fastest to slowest; channels stay x, y, z.
    #[test]
    fn hardware_local_ids_follow_the_walk_order() {
        let mut out = vec![0u8; 6 * GRF];
        let yx = HwLocalIds {
            channels: 2,
            size: [3, 2, 1],
            order: [1, 0, 2],
        };
        assert_eq!(write_hw_ids(&mut out, &yx, 8, 0), 2 * GRF);
        let got: Vec<(u16, u16)> = (0..6)
            .map(|l| (ids(&out, 0, l, 8), ids(&out, 1, l, 8)))
            .collect();
        assert_eq!(got, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
        // Lanes past the group's last work-item stay zero.
        assert_eq!((ids(&out, 0, 6, 8), ids(&out, 1, 7, 8)), (0, 0));
    }

    #[test]
    fn simd32_ids_take_two_grfs_per_channel() {
        let mut out = vec![0u8; 6 * GRF];
        let xyz = HwLocalIds {
            channels: 3,
            size: [4, 4, 4],
            order: [0, 1, 2],
        };
        assert_eq!(write_hw_ids(&mut out, &xyz, 32, 1), 6 * GRF);
        // Thread 1, lane 31 is work-item 63: (3, 3, 3).
        assert_eq!(
            (
                ids(&out, 0, 31, 32),
                ids(&out, 1, 31, 32),
                ids(&out, 2, 31, 32)
            ),
            (3, 3, 3)
        );
        assert_eq!(
            (
                ids(&out, 0, 0, 32),
                ids(&out, 1, 0, 32),
                ids(&out, 2, 0, 32)
            ),
            (0, 0, 2)
        );
    }
}
