//! The batch decoder: summary lines, Mesa-style field lines, and hostile input.

use batchbuffer::decode::{decode_to_string, Mode, Stats};
use platform::Platform;
use proptest::prelude::*;

fn bytes(dw: &[u32]) -> Vec<u8> {
    dw.iter().flat_map(|d| d.to_le_bytes()).collect()
}

#[test]
fn summary_lines() {
    // PIPELINE_SELECT GPGPU, PIPE_CONTROL (CS stall), MI_NOOP, MI_BATCH_BUFFER_END.
    let b = bytes(&[
        0x6904_0302,
        0x7A00_0004,
        0x0010_0000,
        0,
        0,
        0,
        0,
        0,
        0x0500_0000,
    ]);
    let (text, stats) = decode_to_string(Platform::Skl, &b, Mode::Summary);
    assert_eq!(
        text,
        "0x00000000: 0x69040302: PIPELINE_SELECT\n\
         0x00000004: 0x7a000004: PIPE_CONTROL\n\
         0x0000001c: 0x00000000: MI_NOOP\n\
         0x00000020: 0x05000000: MI_BATCH_BUFFER_END\n"
    );
    assert_eq!(
        stats,
        Stats {
            known: 4,
            unknown: 0,
            truncated: false
        }
    );
}

#[test]
fn full_mode_names_enum_values() {
    let b = bytes(&[0x6904_0302, 0x7A00_0004, 0x0010_4000, 0x1000, 0, 7, 0]);
    let (text, _) = decode_to_string(Platform::Tgllp, &b, Mode::Full);
    assert!(
        text.contains("    Pipeline Selection: 2 (GPGPU)\n"),
        "{text}"
    );
    assert!(text.contains("    Mask Bits: 3\n"), "{text}");
    assert!(
        text.contains("    Command Streamer Stall Enable: true\n"),
        "{text}"
    );
    assert!(
        text.contains("    Post Sync Operation: 1 (Write Immediate Data)\n"),
        "{text}"
    );
    assert!(text.contains("    Address: 0x00001000\n"), "{text}");
    assert!(text.contains("    Immediate Data: 7\n"), "{text}");
    assert!(text.contains("    DWord Length: 4\n"), "{text}");
}

#[test]
fn full_mode_nested_struct_of_igt_compute_walker() {
    // IGT's DG2 COMPUTE_WALKER start: SIMD32, hardware XYZ local IDs, inline data.
    let mut w = vec![0u32; 39];
    w[..8].copy_from_slice(&[
        0x7208_0025,
        0,
        0x40,
        0x1000,
        0xbe04_0000,
        0xFFFF_FFFF,
        0x3F,
        0x10,
    ]);
    let (text, _) = decode_to_string(Platform::Dg2, &bytes(&w), Mode::Full);
    for line in [
        "0x00000000: 0x72080025: COMPUTE_WALKER\n",
        "    body:\n",
        "        SIMD Size: 2 (SIMD32)\n",
        "        Message SIMD: 2 (SIMD32)\n",
        "        Emit Local: 7 (Emit XYZ)\n",
        "        Generate Local ID: true\n",
        "        Local X Maximum: 63\n",
        "        Thread Group ID X Dimension: 16\n",
        "        Indirect Data Start Address: 0x00001000\n",
        "        Interface Descriptor:\n",
        "            Kernel Start Pointer: 0x00000000\n",
        "        Inline Data[7]: 0x00000000\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn unknown_truncated_and_trailing() {
    // Command type 7 (one dword), an unknown render command of 3 dwords, a truncated
    // GPGPU_WALKER.
    let b = bytes(&[0xE000_0000, 0x7FFF_0001, 1, 2, 0x7105_000D, 0, 0]);
    let (text, stats) = decode_to_string(Platform::Skl, &b, Mode::Full);
    assert_eq!(
        text,
        "0x00000000: 0xe0000000: unknown command (1 dwords)\n\
         0x00000004: 0x7fff0001: unknown command (3 dwords)\n\
         0x00000010: 0x7105000d: GPGPU_WALKER truncated: 15 dwords, 3 left\n"
    );
    assert_eq!((stats.unknown, stats.truncated), (2, true));
    let (text, stats) = decode_to_string(Platform::Skl, &[0, 0, 0, 0, 1, 2], Mode::Summary);
    assert!(
        text.ends_with("(2 trailing bytes, not a whole dword)\n"),
        "{text}"
    );
    assert!(stats.truncated);
    let (text, _) = decode_to_string(Platform::Skl, &bytes(&[0x0500_0000, 1, 2]), Mode::Summary);
    assert!(
        text.ends_with("(2 dwords after MI_BATCH_BUFFER_END)\n"),
        "{text}"
    );
    // An undefined enum value is shown, not rejected.
    let (text, _) = decode_to_string(Platform::Skl, &bytes(&[0x0E00_7002, 0, 0, 0]), Mode::Full);
    assert!(text.contains("Compare Operation: 7 (undefined)"), "{text}");
}

proptest! {
    #[test]
    fn never_panics(data in proptest::collection::vec(any::<u8>(), 0..512), full in any::<bool>()) {
        for p in Platform::ALL {
            let mode = if full { Mode::Full } else { Mode::Summary };
            let (text, stats) = decode_to_string(p, &data, mode);
            prop_assert!(stats.known + stats.unknown <= data.len() / 4 + 1);
            prop_assert!(data.len() < 4 || !text.is_empty());
        }
    }
}

/// `flatten` names nested fields by their path and gives each value and the listing's text.
#[test]
fn flatten_names_nested_fields_by_path() {
    use batchbuffer::decode::flatten;
    use batchbuffer::{ComputeWalker, ComputeWalkerBody, InterfaceDescriptorData, Packet};
    let p = Platform::Dg2;
    let w = ComputeWalker {
        body: ComputeWalkerBody {
            execution_mask: 0xff,
            interface_descriptor: InterfaceDescriptorData {
                number_of_threads_in_gpgpu_thread_group: 3,
                ..Default::default()
            },
            inline_data: [7, 0, 0, 0, 0, 0, 0, 9],
            ..Default::default()
        },
        ..Default::default()
    };
    let mut dw = [0u32; 39];
    w.pack(p, &mut dw).unwrap();
    let f = flatten(p, ComputeWalker::LAYOUT, &dw);
    let get = |n: &str| {
        f.iter()
            .find(|x| x.name == n)
            .map(|x| (x.value, x.text.clone()))
    };
    assert_eq!(get("body.Execution Mask"), Some((0xff, "255".into())));
    assert_eq!(
        get("body.Interface Descriptor.Number of Threads in GPGPU Thread Group"),
        Some((3, "3".into()))
    );
    assert_eq!(get("body.Inline Data[7]"), Some((9, "0x00000009".into())));
    assert_eq!(get("body.SIMD Size"), Some((0, "0 (SIMD8)".into())));
    // Header constants are not fields to compare.
    assert!(get("Command Type").is_none());
}
