//! cl_khr_device_uuid and cl_khr_pci_bus_info: how a device and this driver identify
//! themselves to applications that match devices across APIs (Vulkan, Level Zero) or processes.

use opencl_sys::{CL_LUID_SIZE_KHR, CL_UUID_SIZE_KHR};

/// The PCI vendor id of every device here (CL_DEVICE_VENDOR_ID).
pub const INTEL_VENDOR_ID: u32 = 0x8086;

/// CL_DEVICE_UUID_KHR, laid out as Intel's runtime (NEO 22.43, `Device::generateUuid`) lays
/// it out for OpenCL, so an application sees the same UUID from either driver: the PCI vendor
/// id (bytes 0-3), the PCI device id the kernel driver reports (bytes 4-7) and the device's
/// index among the platform's devices (bytes 8-11), little-endian, zeros after. The ids are
/// the device's own; the index keeps two devices with the same id apart.
pub fn device_uuid(pci_device_id: u16, index: u32) -> [u8; CL_UUID_SIZE_KHR] {
    let mut uuid = [0u8; CL_UUID_SIZE_KHR];
    uuid[0..4].copy_from_slice(&INTEL_VENDOR_ID.to_le_bytes());
    uuid[4..8].copy_from_slice(&u32::from(pci_device_id).to_le_bytes());
    uuid[8..12].copy_from_slice(&index.to_le_bytes());
    uuid
}

/// CL_DRIVER_UUID_KHR: the driver's version text (CL_DRIVER_VERSION), NUL-padded to 16 bytes,
/// the scheme NEO uses with its own version. Two processes with the same build of this driver
/// get the same UUID; another build's version gives another.
pub fn driver_uuid(driver_version: &str) -> [u8; CL_UUID_SIZE_KHR] {
    let mut uuid = [0u8; CL_UUID_SIZE_KHR];
    let n = driver_version.len().min(CL_UUID_SIZE_KHR);
    uuid[..n].copy_from_slice(&driver_version.as_bytes()[..n]);
    uuid
}

/// CL_DEVICE_LUID_KHR: a LUID is a Windows adapter id (the spec ties it to `IDXGIAdapter1`);
/// on Linux no device has one, CL_DEVICE_LUID_VALID_KHR is false and the value, which the
/// specification leaves undefined then, is zeros.
pub const LUID: [u8; CL_LUID_SIZE_KHR] = [0; CL_LUID_SIZE_KHR];

/// CL_DEVICE_NODE_MASK_KHR without a valid LUID: undefined by the specification; zero here.
pub const NODE_MASK: u32 = 0;

/// CL_DEVICE_PCI_BUS_INFO_KHR's bytes: a `cl_device_pci_bus_info_khr` (domain, bus, device,
/// function, each a cl_uint) of the device's PCI address.
pub fn pci_bus_info(a: kmd_iface::pci_address::PciAddress) -> Vec<u8> {
    [a.domain, a.bus.into(), a.device.into(), a.function.into()]
        .iter()
        .flat_map(|v: &u32| v.to_ne_bytes())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencl_sys::cl_device_pci_bus_info_khr;

    #[test]
    fn the_bus_info_is_the_c_struct() {
        let a = "0001:03:1f.7".parse().unwrap();
        let bytes = pci_bus_info(a);
        assert_eq!(
            bytes.len(),
            std::mem::size_of::<cl_device_pci_bus_info_khr>()
        );
        let words: Vec<u32> = bytes
            .chunks(4)
            .map(|c| u32::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, [1, 3, 0x1f, 7]);
    }

    #[test]
    fn a_long_version_is_cut_to_the_uuid() {
        assert_eq!(&driver_uuid("0.1.0")[..6], b"0.1.0\0");
        assert_eq!(driver_uuid("12345678901234567890"), *b"1234567890123456");
    }
}
