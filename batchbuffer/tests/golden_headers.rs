//! Header dwords from public facts (i915/IGT command macros and Intel's PRMs): a packet packed
//! with default fields must start with exactly these dwords.

use batchbuffer::*;
use platform::Platform;
use Platform::*;

fn header<P: Packet + Default>(p: Platform) -> u32 {
    let mut buf = [0u32; 64];
    P::default().pack(p, &mut buf).unwrap();
    buf[0]
}

#[test]
fn mi_commands() {
    for p in Platform::ALL {
        assert_eq!(header::<MiNoop>(p), 0x0000_0000);
        assert_eq!(header::<MiBatchBufferEnd>(p), 0x0500_0000); // MI_INSTR(0x0a, 0)
        assert_eq!(header::<MiArbCheck>(p), 0x0280_0000); // MI_INSTR(0x05, 0)
        assert_eq!(header::<MiBatchBufferStart>(p), 0x1880_0001); // MI_INSTR(0x31, 1), gen8+
        assert_eq!(header::<MiLoadRegisterImm>(p), 0x1100_0001); // MI_LOAD_REGISTER_IMM(1)
        assert_eq!(header::<MiLoadRegisterReg>(p), 0x1500_0001); // MI_INSTR(0x2a, 1)
        assert_eq!(header::<MiLoadRegisterMem>(p), 0x1480_0002); // MI_INSTR(0x29, 2), gen8+
        assert_eq!(header::<MiStoreRegisterMem>(p), 0x1200_0002); // MI_INSTR(0x24, 2), gen8+
        assert_eq!(header::<MiStoreDataImm>(p), 0x1000_0002); // MI_INSTR(0x20, 2), gen8+
        assert_eq!(header::<MiSemaphoreWait>(p), 0x0E00_0002); // MI_INSTR(0x1c, 2)
    }
}

#[test]
fn store_data_imm_qword_is_five_dwords() {
    let sdi = MiStoreDataImm {
        store_qword: 1,
        address: 0x1000,
        immediate_data: 0x1_0000_0002,
        ..Default::default()
    };
    let mut buf = [0u32; 8];
    assert_eq!(sdi.pack(Tgllp, &mut buf), Ok(5));
    // MI_STORE_DWORD_IMM_GEN4 | 1<<21 with length 3.
    assert_eq!(&buf[..5], &[0x1020_0003, 0x1000, 0, 2, 1]);
}

#[test]
fn pipe_control() {
    for p in Platform::ALL {
        // GFX_OP_PIPE_CONTROL(6) = 3<<29 | 3<<27 | 2<<24 | (6 - 2)
        assert_eq!(header::<PipeControl>(p), 0x7A00_0004);
    }
}

#[test]
fn state_commands() {
    for p in Platform::ALL {
        assert_eq!(header::<PipelineSelect>(p), 0x6904_0000);
        assert_eq!(header::<StateSip>(p), 0x6102_0001);
        assert_eq!(header::<BindingTablePoolAlloc>(p), 0x7919_0002);
    }
    // STATE_BASE_ADDRESS is 19 dwords on Gen9 and 22 from Gen11 on.
    assert_eq!(header::<StateBaseAddress>(Skl), 0x6101_0011);
    for p in [Icllp, Tgllp, Dg2] {
        assert_eq!(header::<StateBaseAddress>(p), 0x6101_0014);
    }
    for p in [Skl, Icllp, Tgllp] {
        assert_eq!(header::<MediaVfeState>(p), 0x7000_0007);
        assert_eq!(header::<MediaCurbeLoad>(p), 0x7001_0002);
        assert_eq!(header::<MediaInterfaceDescriptorLoad>(p), 0x7002_0002);
        assert_eq!(header::<MediaStateFlush>(p), 0x7004_0000);
        assert_eq!(header::<GpgpuWalker>(p), 0x7105_0000 | 13);
    }
    assert_eq!(header::<ComputeWalker>(Dg2), 0x7208_0000 | 0x25);
    assert_eq!(header::<CfeState>(Dg2), 0x7200_0004);
    assert_eq!(header::<StateComputeMode>(Dg2), 0x6105_0000);
}

#[test]
fn pipeline_select_gpgpu_with_mask() {
    // IGT: PIPELINE_SELECT | PIPELINE_SELECT_GPGPU with the Gen9+ mask bits (0x3 << 8).
    let ps = PipelineSelect {
        pipeline_selection: PipelineSelection::Gpgpu,
        mask_bits: 0x3,
        ..Default::default()
    };
    let mut buf = [0u32; 1];
    ps.pack(Skl, &mut buf).unwrap();
    assert_eq!(buf[0], 0x6904_0302);
}

#[test]
fn packets_absent_on_a_generation_refuse() {
    let mut buf = [0u32; 64];
    assert_eq!(
        ComputeWalker::default().pack(Tgllp, &mut buf),
        Err(Error::NotOnPlatform {
            packet: "COMPUTE_WALKER",
            platform: Tgllp
        })
    );
    assert!(matches!(
        GpgpuWalker::default().pack(Dg2, &mut buf),
        Err(Error::NotOnPlatform { .. })
    ));
}
