//! MI_LOAD_REGISTER_IMM with several (register, value) pairs: genxml's open-ended trailing
//! group, `MI_LOAD_REGISTER_IMM(x) = MI_INSTR(0x22, 2*(x)-1)` from i915's
//! intel_gpu_commands.h, round trips, the decoder and malformed lengths.

use batchbuffer::decode::{decode_to_string, Mode};
use batchbuffer::*;
use platform::Platform;
use proptest::prelude::*;

/// i915's MI_LOAD_REGISTER_IMM(x) header: opcode 0x22 at bit 23, DWord Length 2x - 1.
fn lri_header(x: u32) -> u32 {
    (0x22 << 23) | (2 * x - 1)
}

#[test]
fn golden_dwords_for_one_to_max_pairs() {
    for p in Platform::ALL {
        for n in [1usize, 2, 3, 64, MiLoadRegisterImm::MAX_PAIRS] {
            let pairs: Vec<(u32, u32)> = (0..n as u32).map(|k| (0x2000 + 4 * k, !k)).collect();
            let lri = MiLoadRegisterImm::from_pairs(&pairs).unwrap();
            let mut buf = [0u32; 300];
            let len = lri.pack(p, &mut buf).unwrap();
            let mut want = vec![lri_header(n as u32)];
            want.extend(pairs.iter().flat_map(|&(r, v)| [r, v]));
            assert_eq!(&buf[..len], &want[..], "{p}, {n} pairs");
            assert_eq!(identify(p, &buf[..len]).map(|i| i.len), Ok(1 + 2 * n));
        }
    }
}

#[test]
fn cs_mmio_relative_and_byte_disables_stay_in_the_header() {
    // MI_LRI_LRM_CS_MMIO is bit 19 (Gen11+); Byte Write Disables bits 11:8 (genxml).
    let mut lri = MiLoadRegisterImm::from_pairs(&[(0x358, 1), (0x35c, 2)]).unwrap();
    lri.add_cs_mmio_start_offset = 1;
    lri.byte_write_disables = 0b1100;
    let mut buf = [0u32; 8];
    assert_eq!(lri.pack(Platform::Icllp, &mut buf), Ok(5));
    assert_eq!(
        buf[..5],
        [lri_header(2) | 1 << 19 | 0b1100 << 8, 0x358, 1, 0x35c, 2]
    );
    assert_eq!(MiLoadRegisterImm::unpack(Platform::Icllp, &buf), Ok(lri));
}

#[test]
fn limits_and_bad_pairs_are_errors() {
    let p = Platform::Tgllp;
    assert_eq!(MiLoadRegisterImm::from_pairs(&[]), None);
    let too_many = vec![(0x2000, 0); MiLoadRegisterImm::MAX_PAIRS + 1];
    assert_eq!(MiLoadRegisterImm::from_pairs(&too_many), None);
    // Register offsets are dword aligned (genxml `offset` at bit 2).
    let bad = MiLoadRegisterImm::from_pairs(&[(0x2000, 0), (0x2002, 0)]).unwrap();
    assert!(
        matches!(
            bad.pack(p, &mut [0u32; 8]),
            Err(Error::Misaligned { value: 0x2002, .. })
        ),
        "{:?}",
        bad.pack(p, &mut [0u32; 8])
    );
    // DWord Length 2 announces 4 dwords: one pair and half of another.
    let odd = [lri_header(1) + 1, 0x2000, 0, 0x2004];
    assert_eq!(
        MiLoadRegisterImm::unpack(p, &odd),
        Err(Error::PartialElement {
            packet: "MI_LOAD_REGISTER_IMM",
            field: "More Registers",
            dwords: 1,
            stride: 2
        })
    );
    // The buffer must hold every announced pair.
    let short = [lri_header(3), 0x2000, 0, 0x2004, 1];
    assert!(matches!(
        MiLoadRegisterImm::unpack(p, &short),
        Err(Error::ShortBuffer {
            need: 7,
            have: 5,
            ..
        })
    ));
    let (text, stats) = decode_to_string(p, &bytes(&odd), Mode::Full);
    assert!(
        text.contains("    More Registers: 1 trailing dwords, not a whole 2-dword element\n"),
        "{text}"
    );
    assert!(!stats.truncated);
}

fn bytes(dw: &[u32]) -> Vec<u8> {
    dw.iter().flat_map(|d| d.to_le_bytes()).collect()
}

#[test]
fn decoder_prints_every_pair() {
    let p = Platform::Dg2;
    let dw = [
        lri_header(3),
        0x2580,
        0x10001,
        0xE4F0,
        2,
        0x7010,
        0xFFFF_0000,
    ];
    let (text, stats) = decode_to_string(p, &bytes(&dw), Mode::Full);
    assert_eq!(stats.known, 1);
    let want = "0x00000000: 0x11000005: MI_LOAD_REGISTER_IMM\n\
                \x20   DWord Length: 5\n\
                \x20   Byte Write Disables: 0\n\
                \x20   Register Offset: 0x00002580\n\
                \x20   Data DWord: 65537\n\
                \x20   Add CS MMIO Start Offset: 0\n\
                \x20   More Registers[0]:\n\
                \x20       Register Offset: 0x0000e4f0\n\
                \x20       Data DWord: 2\n\
                \x20   More Registers[1]:\n\
                \x20       Register Offset: 0x00007010\n\
                \x20       Data DWord: 4294901760\n";
    assert_eq!(text, want);
}

proptest! {
    #[test]
    fn any_number_of_pairs_round_trips(
        pairs in proptest::collection::vec((0u32..1 << 21, any::<u32>()), 1..=128),
        disables in 0u32..16,
        cs_relative in any::<bool>(),
    ) {
        let pairs: Vec<(u32, u32)> = pairs.into_iter().map(|(r, v)| (r << 2, v)).collect();
        for p in Platform::ALL {
            let mut lri = MiLoadRegisterImm::from_pairs(&pairs).unwrap();
            lri.byte_write_disables = disables;
            lri.add_cs_mmio_start_offset = (cs_relative && p != Platform::Skl) as u32;
            let mut buf = [0u32; 260];
            let len = lri.pack(p, &mut buf).unwrap();
            prop_assert_eq!(len, 1 + 2 * pairs.len());
            let back = MiLoadRegisterImm::unpack(p, &buf[..len]).unwrap();
            prop_assert_eq!(back, lri);
            prop_assert_eq!(back.pairs().collect::<Vec<_>>(), pairs.clone());
            let mut again = [0u32; 260];
            prop_assert_eq!(PacketId::MiLoadRegisterImm.repack(p, &buf[..len], &mut again), Ok(len));
            prop_assert_eq!(&again[..len], &buf[..len]);
        }
    }
}

#[test]
fn builder_splits_long_register_lists() {
    use batchbuffer::builder::Batch;
    let p = Platform::Skl;
    let pairs: Vec<(u32, u32)> = (0..200u32).map(|k| (0x1_0000 + 4 * k, k * 3)).collect();
    let mut mem = [0u32; 512];
    let mut batch = Batch::new(&mut mem);
    batch.load_registers(p, &pairs).unwrap();
    let dw = batch.as_slice();
    assert_eq!(dw.len(), 2 + 2 * 200);
    // 128 pairs, then the remaining 72.
    assert_eq!(dw[0], lri_header(128));
    assert_eq!(dw[257], lri_header(72));
    let first = MiLoadRegisterImm::unpack(p, dw).unwrap();
    let second = MiLoadRegisterImm::unpack(p, &dw[257..]).unwrap();
    let got: Vec<_> = first.pairs().chain(second.pairs()).collect();
    assert_eq!(got, pairs);
    // A full batch is an error, not a partial packet.
    let mut small = [0u32; 100];
    let mut batch = Batch::new(&mut small);
    assert!(matches!(
        batch.load_registers(p, &pairs),
        Err(builder::BuildError::BatchFull {
            need: 257,
            room: 100
        })
    ));
}
