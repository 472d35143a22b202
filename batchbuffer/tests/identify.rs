//! The command-identification API the simulator's command streamer uses.

use batchbuffer::*;
use platform::Platform;

struct Writer<'a> {
    p: Platform,
    buf: &'a mut [u32],
    at: usize,
    expect: Vec<(usize, PacketId, usize)>,
}

impl Writer<'_> {
    fn put<P: Packet>(&mut self, id: PacketId, pkt: &P) {
        let n = pkt.pack(self.p, &mut self.buf[self.at..]).unwrap();
        self.expect.push((self.at, id, n));
        self.at += n;
    }
}

#[test]
fn walks_a_packed_batch() {
    for p in Platform::ALL {
        let mut buf = [0u32; 64];
        let mut w = Writer {
            p,
            buf: &mut buf,
            at: 0,
            expect: Vec::new(),
        };
        w.put(PacketId::MiNoop, &MiNoop::default());
        let lri = MiLoadRegisterImm {
            register_offset: 0x2580,
            data_dword: 7,
            ..Default::default()
        };
        w.put(PacketId::MiLoadRegisterImm, &lri);
        let pc = PipeControl {
            command_streamer_stall_enable: true,
            post_sync_operation: PostSyncOperation::WriteImmediateData,
            address: 0x10_0000,
            immediate_data: 1,
            ..Default::default()
        };
        w.put(PacketId::PipeControl, &pc);
        let sdi = MiStoreDataImm {
            store_qword: 1,
            address: 0x2000,
            immediate_data: u64::MAX,
            ..Default::default()
        };
        w.put(PacketId::MiStoreDataImm, &sdi);
        w.put(PacketId::MiArbCheck, &MiArbCheck::default());
        w.put(PacketId::MiBatchBufferEnd, &MiBatchBufferEnd::default());
        let (at, expect) = (w.at, w.expect);
        for (off, id, n) in expect {
            assert_eq!(
                identify(p, &buf[off..at]),
                Ok(Identified { packet: id, len: n }),
                "{p} at {off}"
            );
        }
        assert_eq!(PipeControl::unpack(p, &buf[4..]), Ok(pc));
        assert_eq!(MiLoadRegisterImm::unpack(p, &buf[1..]), Ok(lri));
    }
}

#[test]
fn errors_are_specific() {
    let p = Platform::Tgllp;
    assert_eq!(identify(p, &[]), Err(IdentifyError::Empty));
    // Command type 7 is not a command on any of these generations.
    assert_eq!(
        identify(p, &[0xE000_0000]),
        Err(IdentifyError::UnknownOpcode {
            header: 0xE000_0000,
            platform: p
        })
    );
    // A PIPE_CONTROL header with only three dwords behind it.
    assert_eq!(
        identify(p, &[0x7A00_0004, 0, 0]),
        Err(IdentifyError::Truncated {
            packet: "PIPE_CONTROL",
            need: 6,
            have: 3
        })
    );
    // COMPUTE_WALKER is unknown before Xe-HPG, GPGPU_WALKER unknown on it.
    assert!(matches!(
        identify(p, &[0x7208_0025]),
        Err(IdentifyError::UnknownOpcode { .. })
    ));
    let w = [0x7105_000Du32; 15];
    assert!(matches!(
        identify(Platform::Dg2, &w),
        Err(IdentifyError::UnknownOpcode { .. })
    ));
    assert_eq!(identify(p, &w).map(|i| i.packet), Ok(PacketId::GpgpuWalker));
}

#[test]
fn unpack_errors_never_panic() {
    let p = Platform::Skl;
    assert_eq!(
        PipeControl::unpack(p, &[0x7A00_0004, 0]),
        Err(Error::ShortBuffer {
            packet: "PIPE_CONTROL",
            need: 6,
            have: 2
        })
    );
    assert!(matches!(
        PipeControl::unpack(p, &[0x7B00_0004, 0, 0, 0, 0, 0]),
        Err(Error::WrongHeader { .. })
    ));
    // Compare Operation 7 is not defined.
    assert_eq!(
        MiSemaphoreWait::unpack(p, &[0x0E00_7002, 0, 0, 0]),
        Err(Error::BadEnum {
            packet: "MI_SEMAPHORE_WAIT",
            field: "Compare Operation",
            value: 7
        })
    );
}

#[test]
fn pack_errors_name_the_field() {
    let mut buf = [0u32; 8];
    let sdi = MiStoreDataImm {
        address: 0x1001,
        ..Default::default()
    };
    assert_eq!(
        sdi.pack(Platform::Skl, &mut buf),
        Err(Error::Misaligned {
            packet: "MI_STORE_DATA_IMM",
            field: "Address",
            value: 0x1001,
            align: 4
        })
    );
    let big = MiStoreDataImm {
        address: 1 << 48,
        ..Default::default()
    };
    assert!(matches!(
        big.pack(Platform::Skl, &mut buf),
        Err(Error::OutOfRange {
            field: "Address",
            ..
        })
    ));
    // A dword store may not carry a qword of data.
    let wide = MiStoreDataImm {
        immediate_data: 1 << 32,
        ..Default::default()
    };
    assert!(matches!(
        wide.pack(Platform::Skl, &mut buf),
        Err(Error::OutOfRange {
            field: "Immediate Data",
            ..
        })
    ));
    assert_eq!(
        MiNoop::default().pack(Platform::Skl, &mut []),
        Err(Error::ShortBuffer {
            packet: "MI_NOOP",
            need: 1,
            have: 0
        })
    );
    // End Context does not exist on Gen9.
    let bbe = MiBatchBufferEnd { end_context: true };
    assert!(matches!(
        bbe.pack(Platform::Skl, &mut buf),
        Err(Error::FieldNotOnPlatform { .. })
    ));
}

#[test]
fn no_two_commands_share_a_header() {
    for p in Platform::ALL {
        let cmds: Vec<_> = PacketId::commands(p).collect();
        for (i, a) in cmds.iter().enumerate() {
            for b in &cmds[i + 1..] {
                let (ma, va) = a.layout().header_match(p);
                let (mb, vb) = b.layout().header_match(p);
                let common = ma & mb;
                assert_ne!(
                    va & common,
                    vb & common,
                    "{} vs {} on {p}",
                    a.name(),
                    b.name()
                );
            }
        }
    }
}

#[test]
fn load_register_imm_with_several_pairs() {
    // MI_LOAD_REGISTER_IMM(2): 0x11000003, then two (offset, data) pairs.
    let dw = [0x1100_0003u32, 0x2580, 1, 0xE4F0, 2];
    let lri = MiLoadRegisterImm::unpack(Platform::Tgllp, &dw).unwrap();
    let got: Vec<_> = lri.pairs().collect();
    assert_eq!(got, vec![(0x2580, 1), (0xE4F0, 2)]);
    assert_eq!(identify(Platform::Tgllp, &dw).map(|i| i.len), Ok(5));
}

#[test]
fn header_fields_come_first() {
    // Packing and header checks stop at the first non-header field.
    for &id in PacketId::ALL {
        let kinds: Vec<_> = id.layout().fields.iter().map(|f| f.kind).collect();
        let headers = kinds
            .iter()
            .take_while(|k| matches!(k, Kind::Const(_) | Kind::Length(_)))
            .count();
        assert!(
            kinds[headers..]
                .iter()
                .all(|k| !matches!(k, Kind::Const(_) | Kind::Length(_))),
            "{}",
            id.name()
        );
        assert_eq!(id.is_command(), headers > 0, "{}", id.name());
    }
}
