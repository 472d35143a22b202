//! cl_intel_command_queue_families: the device's command-queue families and a queue's place in
//! one. Every queue of this runtime submits its kernels to the one engine umd gives queues
//! (`umd::device::Device::kernel_engine_name`) and its copies and fills to the copy engine when
//! the blitter expresses them, so there is one family: its queues run every command (the
//! default capabilities) and any number of them may be made, each with its own kernel-driver
//! context, so the family counts one queue (the index says nothing about the hardware here).
//! NEO lists a family per engine class it submits to (dg2: ccs, rcs and a copy-only bcs).

use opencl_sys::*;

use crate::core::device::Device;

/// The host queue properties every queue takes (CL_DEVICE_QUEUE_ON_HOST_PROPERTIES):
/// out-of-order queues are accepted and run in order, honouring every wait list.
pub const HOST_QUEUE_PROPERTIES: cl_command_queue_properties =
    CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;

/// One command-queue family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    pub name: &'static str,
    pub properties: cl_command_queue_properties,
    pub capabilities: cl_command_queue_capabilities_intel,
    pub count: cl_uint,
}

/// The families of `device`, in CL_DEVICE_QUEUE_FAMILY_PROPERTIES_INTEL's order.
pub fn families(device: &Device) -> Vec<Family> {
    vec![Family {
        name: device.umd.kernel_engine_name(),
        properties: HOST_QUEUE_PROPERTIES,
        capabilities: CL_QUEUE_DEFAULT_CAPABILITIES_INTEL,
        count: 1,
    }]
}

/// The families as the array of `cl_queue_family_properties_intel` the query returns: each
/// entry's properties, capabilities, count and NUL-terminated name at the structure's offsets,
/// its tail padding zero.
pub fn as_bytes(families: &[Family]) -> Vec<u8> {
    let size = std::mem::size_of::<cl_queue_family_properties_intel>();
    let name_at = std::mem::offset_of!(cl_queue_family_properties_intel, name);
    let mut out = Vec::with_capacity(size * families.len());
    for f in families {
        let mut entry = vec![0u8; size];
        entry[0..8].copy_from_slice(&f.properties.to_ne_bytes());
        entry[8..16].copy_from_slice(&f.capabilities.to_ne_bytes());
        entry[16..20].copy_from_slice(&f.count.to_ne_bytes());
        // At most 63 bytes of the name, so it stays NUL-terminated.
        let n = f.name.len().min(CL_QUEUE_FAMILY_MAX_NAME_SIZE_INTEL - 1);
        entry[name_at..name_at + n].copy_from_slice(&f.name.as_bytes()[..n]);
        out.extend_from_slice(&entry);
    }
    out
}

/// Where a queue made with CL_QUEUE_FAMILY_INTEL `family` and CL_QUEUE_INDEX_INTEL `index`
/// (each `None` when not given) goes: (family, index), or the specification's
/// CL_INVALID_VALUE for a family or index out of range or one given without the other. A queue
/// given neither is in the default family's first queue.
pub fn place(
    device: &Device,
    family: Option<u64>,
    index: Option<u64>,
) -> Result<(cl_uint, cl_uint), cl_int> {
    let fams = families(device);
    match (family, index) {
        (None, None) => Ok((0, 0)),
        (Some(f), Some(i)) => {
            let fam = usize::try_from(f)
                .ok()
                .and_then(|f| fams.get(f))
                .ok_or(CL_INVALID_VALUE)?;
            if i >= u64::from(fam.count) {
                return Err(CL_INVALID_VALUE);
            }
            Ok((f as cl_uint, i as cl_uint))
        }
        _ => Err(CL_INVALID_VALUE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_array_has_the_c_layout() {
        let f = Family {
            name: "rcs",
            properties: 3,
            capabilities: 0,
            count: 1,
        };
        let b = as_bytes(&[f.clone(), f]);
        let size = std::mem::size_of::<cl_queue_family_properties_intel>();
        assert_eq!(b.len(), 2 * size);
        assert_eq!(
            std::mem::offset_of!(cl_queue_family_properties_intel, count),
            16
        );
        assert_eq!(&b[size + 20..size + 24], b"rcs\0");
        assert_eq!(b[size..size + 8], 3u64.to_ne_bytes());
    }
}
