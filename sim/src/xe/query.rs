//! DEVICE_QUERY: engines, memory regions, config, GT list, GT topology, hwconfig and engine
//! cycles, laid out as `xe_query.c` lays them out.

use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;
use zerocopy::IntoBytes;

use super::{regions, uapi_class};
use crate::device::SimDevice;
use crate::device_info::DeviceInfo;
use crate::mem::VA_BITS;
use crate::user;

/// Width of RING_TIMESTAMP in bits, as ENGINE_CYCLES reports it.
const TIMESTAMP_BITS: u32 = 36;

pub(crate) fn query(dev: &SimDevice, q: &mut drm_xe_device_query) -> Result<i32, Errno> {
    if q.extensions != 0 || q.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    let info = dev.info();
    let data = match q.query {
        DRM_XE_DEVICE_QUERY_ENGINES => engines(info),
        DRM_XE_DEVICE_QUERY_MEM_REGIONS => mem_regions(dev),
        DRM_XE_DEVICE_QUERY_CONFIG => config(info),
        DRM_XE_DEVICE_QUERY_GT_LIST => gt_list(info),
        DRM_XE_DEVICE_QUERY_GT_TOPOLOGY => topology(info),
        DRM_XE_DEVICE_QUERY_HWCONFIG => info.hwconfig_blob(),
        DRM_XE_DEVICE_QUERY_ENGINE_CYCLES => return engine_cycles(dev, q),
        // Firmware versions and OA units are not simulated.
        _ => return Err(Errno::EINVAL),
    };
    let len = u32::try_from(data.len()).map_err(|_| Errno::EINVAL)?;
    if q.size == 0 {
        q.size = len;
        return Ok(0);
    }
    if q.size < len {
        return Err(Errno::EINVAL);
    }
    user::write(q.data, &data)?;
    q.size = len;
    Ok(0)
}

fn engines(info: &DeviceInfo) -> Vec<u8> {
    let mut out = drm_xe_query_engines {
        num_engines: info.engines.len() as u32,
        pad: 0,
        engines: [],
    }
    .as_bytes()
    .to_vec();
    for e in info.engines {
        let eng = drm_xe_engine {
            instance: drm_xe_engine_class_instance {
                engine_class: uapi_class(e.class),
                engine_instance: e.instance,
                gt_id: 0,
                pad: 0,
            },
            reserved: [0; 3],
        };
        out.extend(eng.as_bytes());
    }
    out
}

fn mem_regions(dev: &SimDevice) -> Vec<u8> {
    let info = dev.info();
    let list = regions(info);
    let st = dev.lock();
    let mut out = drm_xe_query_mem_regions {
        num_mem_regions: list.len() as u32,
        pad: 0,
        mem_regions: [],
    }
    .as_bytes()
    .to_vec();
    for r in list {
        let used = st.gem.used.get(&r.instance).copied().unwrap_or(0);
        let vram = r.class == DRM_XE_MEM_REGION_CLASS_VRAM;
        let m = drm_xe_mem_region {
            mem_class: r.class,
            instance: r.instance,
            min_page_size: r.min_page as u32,
            total_size: info.region_size,
            used,
            // Only VRAM has a CPU-visible window to report.
            cpu_visible_size: if vram { info.region_size } else { 0 },
            cpu_visible_used: if vram { used } else { 0 },
            reserved: [0; 6],
        };
        out.extend(m.as_bytes());
    }
    out
}

fn config(info: &DeviceInfo) -> Vec<u8> {
    let n = DRM_XE_QUERY_CONFIG_MAX_EXEC_QUEUE_PRIORITY + 1;
    let mut vals = vec![0u64; n];
    vals[DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID] =
        u64::from(info.revision) << 16 | u64::from(info.pci_id);
    if info.has_local_memory {
        vals[DRM_XE_QUERY_CONFIG_FLAGS] = DRM_XE_QUERY_CONFIG_FLAG_HAS_VRAM;
    }
    vals[DRM_XE_QUERY_CONFIG_MIN_ALIGNMENT] = regions(info)
        .iter()
        .map(|r| r.min_page)
        .max()
        .unwrap_or(4096);
    vals[DRM_XE_QUERY_CONFIG_VA_BITS] = u64::from(VA_BITS);
    vals[DRM_XE_QUERY_CONFIG_MAX_EXEC_QUEUE_PRIORITY] = 1;
    let mut out = drm_xe_query_config {
        num_params: n as u32,
        pad: 0,
        info: [],
    }
    .as_bytes()
    .to_vec();
    out.extend(vals.as_bytes());
    out
}

fn gt_list(info: &DeviceInfo) -> Vec<u8> {
    let bit = |i: u16| 1u64 << i;
    let (near, far) = if info.has_local_memory {
        (bit(1), bit(0))
    } else {
        (bit(0), 0)
    };
    let gt = drm_xe_gt {
        r#type: DRM_XE_QUERY_GT_TYPE_MAIN,
        reference_clock: u32::try_from(info.timestamp_hz).unwrap_or(u32::MAX),
        near_mem_regions: near,
        far_mem_regions: far,
        ip_ver_major: info.ip_version.0,
        ip_ver_minor: info.ip_version.1,
        ..Default::default()
    };
    let mut out = drm_xe_query_gt_list {
        num_gt: 1,
        pad: 0,
        gt_list: [],
    }
    .as_bytes()
    .to_vec();
    out.extend(gt.as_bytes());
    out
}

/// One mask record of `len_bits` bits: header then the mask's bytes, as the kernel's records.
fn mask_record(out: &mut Vec<u8>, ty: u16, len_bits: u32, bits: u64) {
    let n = len_bits.div_ceil(8);
    let hdr = drm_xe_query_topology_mask {
        gt_id: 0,
        r#type: ty,
        num_bytes: n,
        mask: [],
    };
    out.extend(hdr.as_bytes());
    out.extend((0..n).map(|i| bits.checked_shr(i * 8).unwrap_or(0) as u8));
}

/// The DSS masks (every DSS does geometry and compute here) and the EU mask every DSS shares.
fn topology(info: &DeviceInfo) -> Vec<u8> {
    let t = &info.topology;
    let mut out = Vec::new();
    let dss = t.max_subslices();
    mask_record(&mut out, DRM_XE_TOPO_DSS_GEOMETRY, dss, t.subslice_mask);
    mask_record(&mut out, DRM_XE_TOPO_DSS_COMPUTE, dss, t.subslice_mask);
    let eus = t.eus_per_subslice;
    mask_record(&mut out, DRM_XE_TOPO_EU_PER_DSS, eus, t.eu_mask.into());
    out
}

fn engine_cycles(dev: &SimDevice, q: &mut drm_xe_device_query) -> Result<i32, Errno> {
    let size = std::mem::size_of::<drm_xe_query_engine_cycles>() as u32;
    if q.size == 0 {
        q.size = size;
        return Ok(0);
    }
    if q.size != size {
        return Err(Errno::EINVAL);
    }
    let mut c: drm_xe_query_engine_cycles = user::read_val(q.data)?;
    let info = dev.info();
    let known = info
        .engines
        .iter()
        .any(|e| uapi_class(e.class) == c.eci.engine_class && e.instance == c.eci.engine_instance);
    if !known || c.eci.gt_id != 0 {
        return Err(Errno::EINVAL);
    }
    use nix::time::{clock_gettime, ClockId};
    let clock = match c.clockid {
        0 => ClockId::CLOCK_REALTIME,
        1 => ClockId::CLOCK_MONOTONIC,
        4 => ClockId::CLOCK_MONOTONIC_RAW,
        7 => ClockId::CLOCK_BOOTTIME,
        11 => ClockId::CLOCK_TAI,
        _ => return Err(Errno::EINVAL),
    };
    let ns = |t: nix::sys::time::TimeSpec| {
        (t.tv_sec() as u64)
            .wrapping_mul(1_000_000_000)
            .wrapping_add(t.tv_nsec() as u64)
    };
    let before = ns(clock_gettime(clock)?);
    let ticks = dev.lock().gpu.clock.ticks();
    let after = ns(clock_gettime(clock)?);
    c.engine_cycles = ticks & ((1u64 << TIMESTAMP_BITS) - 1);
    c.width = TIMESTAMP_BITS;
    c.cpu_timestamp = before;
    c.cpu_delta = after.saturating_sub(before);
    user::write_val(q.data, &c)?;
    Ok(0)
}
