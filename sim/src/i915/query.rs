//! DRM_IOCTL_I915_QUERY: engine info, topology, memory regions and the hwconfig table, laid out
//! as `i915_query.c` lays them out.

use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;
use zerocopy::{FromBytes, IntoBytes};

use crate::device::SimDevice;
use crate::device_info::DeviceInfo;
use crate::user;

use super::uapi_numbers::{region_key, uapi_class};

pub(crate) fn query(dev: &SimDevice, q: &mut drm_i915_query) -> Result<i32, Errno> {
    if q.flags != 0 {
        return Err(Errno::EINVAL);
    }
    let size = std::mem::size_of::<drm_i915_query_item>() as u64;
    for i in 0..u64::from(q.num_items) {
        let at = i
            .checked_mul(size)
            .and_then(|o| q.items_ptr.checked_add(o))
            .ok_or(Errno::EFAULT)?;
        let item: drm_i915_query_item = user::read_val(at)?;
        if item.query_id == 0 {
            return Err(Errno::EINVAL);
        }
        let ret = answer(dev, &item);
        if ret != item.length {
            let length_at = at + std::mem::offset_of!(drm_i915_query_item, length) as u64;
            user::write_val(length_at, &ret)?;
        }
    }
    Ok(0)
}

/// One item's answer: its length, or a negative errno.
fn answer(dev: &SimDevice, item: &drm_i915_query_item) -> i32 {
    let info = dev.info();
    let data = match item.query_id {
        DRM_I915_QUERY_TOPOLOGY_INFO if item.flags == 0 => Ok(topology(info)),
        DRM_I915_QUERY_ENGINE_INFO if item.flags == 0 => {
            checked_header::<drm_i915_query_engine_info>(item).map(|_| engines(info))
        }
        DRM_I915_QUERY_MEMORY_REGIONS if item.flags == 0 => {
            checked_header::<drm_i915_query_memory_regions>(item).map(|_| regions(dev))
        }
        DRM_I915_QUERY_HWCONFIG_BLOB if item.flags == 0 => {
            let blob = info.hwconfig_blob();
            if blob.is_empty() {
                Err(Errno::ENODEV)
            } else {
                Ok(blob)
            }
        }
        _ => Err(Errno::EINVAL),
    };
    match data.and_then(|d| copy_item(item, &d)) {
        Ok(len) => len,
        Err(e) => -(e as i32),
    }
}

/// Queries whose reply starts with a header the user must have zeroed (the kernel checks it).
fn checked_header<H: FromBytes + IntoBytes + zerocopy::Immutable>(
    item: &drm_i915_query_item,
) -> Result<(), Errno> {
    let need = std::mem::size_of::<H>() as i32;
    if item.length == 0 || item.length < need {
        return Ok(()); // size probe, or too short: copy_item reports it
    }
    let hdr: H = user::read_val(item.data_ptr)?;
    if hdr.as_bytes().iter().any(|&b| b != 0) {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// `copy_query_item`: a zero length asks for the size; a short buffer is EINVAL.
fn copy_item(item: &drm_i915_query_item, data: &[u8]) -> Result<i32, Errno> {
    let len = i32::try_from(data.len()).map_err(|_| Errno::EINVAL)?;
    if item.length == 0 {
        return Ok(len);
    }
    if item.length < len {
        return Err(Errno::EINVAL);
    }
    user::write(item.data_ptr, data)?;
    Ok(len)
}

fn bytes_for(bits: u32) -> u16 {
    bits.div_ceil(8) as u16
}

/// The largest topology in the header, then the enabled slices, subslices per slice and EUs
/// per subslice (a fused-off subslice's EU bytes stay zero, as the kernel leaves them).
fn topology(info: &DeviceInfo) -> Vec<u8> {
    let t = &info.topology;
    let ss_stride = bytes_for(t.subslices_per_slice);
    let eu_stride = bytes_for(t.eus_per_subslice);
    let slice_len = bytes_for(t.slices);
    let hdr = drm_i915_query_topology_info {
        flags: 0,
        max_slices: t.slices as u16,
        max_subslices: t.subslices_per_slice as u16,
        max_eus_per_subslice: t.eus_per_subslice as u16,
        subslice_offset: slice_len,
        subslice_stride: ss_stride,
        eu_offset: slice_len + t.slices as u16 * ss_stride,
        eu_stride,
        data: [],
    };
    let mut out = hdr.as_bytes().to_vec();
    out.extend(mask(t.slice_mask(), slice_len));
    for s in 0..t.slices {
        out.extend(mask(t.subslices_of(s), ss_stride));
    }
    for ss in 0..t.max_subslices() {
        let on = t.subslice_mask >> ss.min(63) & 1 != 0;
        out.extend(mask(if on { t.eu_mask.into() } else { 0 }, eu_stride));
    }
    out
}

/// `bits` as `len` little-endian bytes.
fn mask(bits: u64, len: u16) -> Vec<u8> {
    (0..u32::from(len))
        .map(|i| bits.checked_shr(i * 8).unwrap_or(0) as u8)
        .collect()
}

fn engines(info: &DeviceInfo) -> Vec<u8> {
    let hdr = drm_i915_query_engine_info {
        num_engines: info.engines.len() as u32,
        rsvd: [0; 3],
        engines: [],
    };
    let mut out = hdr.as_bytes().to_vec();
    for e in info.engines {
        let ei = drm_i915_engine_info {
            engine: i915_engine_class_instance {
                engine_class: uapi_class(e.class),
                engine_instance: e.instance,
            },
            flags: I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE,
            logical_instance: e.instance,
            ..Default::default()
        };
        out.extend(ei.as_bytes());
    }
    out
}

fn regions(dev: &SimDevice) -> Vec<u8> {
    let info = dev.info();
    let st = dev.lock();
    let mut list = vec![(I915_MEMORY_CLASS_SYSTEM, 0u16)];
    if info.has_local_memory {
        list.push((I915_MEMORY_CLASS_DEVICE, 0));
    }
    let hdr = drm_i915_query_memory_regions {
        num_regions: list.len() as u32,
        rsvd: [0; 3],
        regions: [],
    };
    let mut out = hdr.as_bytes().to_vec();
    for (class, instance) in list {
        let used = st
            .gem
            .used
            .get(&region_key(class, instance))
            .copied()
            .unwrap_or(0);
        let free = info.region_size.saturating_sub(used);
        let r = drm_i915_memory_region_info {
            region: drm_i915_gem_memory_class_instance {
                memory_class: class,
                memory_instance: instance,
            },
            probed_size: info.region_size,
            unallocated_size: free,
            probed_cpu_visible_size: info.region_size,
            unallocated_cpu_visible_size: free,
            ..Default::default()
        };
        out.extend(r.as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform::Platform;

    #[test]
    fn topology_layout_matches_the_header_offsets() {
        let info = DeviceInfo::get(Platform::Dg2);
        let b = topology(info);
        let (hdr, data) = drm_i915_query_topology_info::read_from_prefix(&b).unwrap();
        assert_eq!((hdr.max_slices, hdr.max_subslices), (1, 32));
        assert_eq!(data[0], 1);
        let ss = &data[hdr.subslice_offset as usize..][..hdr.subslice_stride as usize];
        assert_eq!(ss, [0xff; 4]);
        let eu_end = hdr.eu_offset as usize + 32 * hdr.eu_stride as usize;
        assert_eq!(data.len(), eu_end);
        assert!(data[hdr.eu_offset as usize..].iter().all(|&b| b == 0xff));
        assert_eq!(mask(0x07, 1), [0x07]);
        assert_eq!(mask(0xfff, 2), [0xff, 0x0f]);
    }
}
