//! Shared test support: the simulated devices and batches built with `batchbuffer`.
#![allow(dead_code)]

use std::sync::Arc;

use batchbuffer::{
    AddressSpaceIndicator, MiBatchBufferEnd, MiBatchBufferStart, MiStoreDataImm, Packet,
    SecondLevelBatchBuffer,
};
use kmd_iface::seam::DeviceFile;
use platform::Platform;
use sim::{Kmd, SimConfig, SimDevice};

/// Every (platform, driver) pair the simulator offers.
pub fn combos() -> Vec<(Platform, Kmd)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| [(p, Kmd::I915), (p, Kmd::Xe)])
        .filter(|&(p, k)| sim::open(p, k).is_ok())
        .collect()
}

pub fn platforms(kmd: Kmd) -> Vec<Platform> {
    combos()
        .into_iter()
        .filter(|&(_, k)| k == kmd)
        .map(|(p, _)| p)
        .collect()
}

pub fn open(p: Platform, kmd: Kmd) -> (Arc<SimDevice>, Arc<dyn DeviceFile>) {
    let dev = sim::open_device(p, kmd, SimConfig::default()).unwrap();
    let file: Arc<dyn DeviceFile> = dev.clone();
    (dev, file)
}

fn pack(p: Platform, out: &mut Vec<u32>, pk: &impl Packet) {
    let mut buf = [0u32; 16];
    let n = pk.pack(p, &mut buf).unwrap();
    out.extend_from_slice(&buf[..n]);
}

pub fn bytes(dw: &[u32]) -> Vec<u8> {
    dw.iter().flat_map(|d| d.to_le_bytes()).collect()
}

/// MI_STORE_DATA_IMM of `value` to `addr`, then MI_BATCH_BUFFER_END (gem_exec_store's batch).
pub fn store_batch(p: Platform, addr: u64, value: u32) -> Vec<u8> {
    let mut dw = Vec::new();
    pack(
        p,
        &mut dw,
        &MiStoreDataImm {
            address: addr,
            immediate_data: value.into(),
            ..Default::default()
        },
    );
    pack(p, &mut dw, &MiBatchBufferEnd::default());
    bytes(&dw)
}

/// Just MI_BATCH_BUFFER_END (gem_exec_basic's batch).
pub fn end_batch(p: Platform) -> Vec<u8> {
    let mut dw = Vec::new();
    pack(p, &mut dw, &MiBatchBufferEnd::default());
    bytes(&dw)
}

/// MI_BATCH_BUFFER_START back to itself: a batch that never ends.
pub fn self_loop(p: Platform, addr: u64) -> Vec<u8> {
    let mut dw = Vec::new();
    pack(
        p,
        &mut dw,
        &MiBatchBufferStart {
            address_space_indicator: AddressSpaceIndicator::Ppgtt,
            second_level_batch_buffer: SecondLevelBatchBuffer::FirstLevelBatch,
            batch_buffer_start_address: addr,
            ..Default::default()
        },
    );
    bytes(&dw)
}
