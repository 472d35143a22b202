//! Corpus B: proptest-generated valid instructions per platform, checked both ways against
//! iga64 in batches (one iga64 run per direction per batch):
//! - `iga64 -a` of our text gives exactly our encoding, and
//! - `iga64 -d` of our encoding gives exactly our text.

use isa_encoder::kernel::Decoded;
use isa_encoder::model::{
    Addressing, CondMod, DataType, DistPipe, ExecSize, FlagReg, Immediate, Instruction,
    MacroOperand, MathFn, MathMacroAcc, Opcode, Operand, PredCtrl, Predicate, Reg, RegOperand,
    Region, SendDesc, SendInfo, SrcMod, Subfunction, Swsb, SyncFn, TokenMode,
};
use isa_encoder::{native, text};
use oracles::{iga64, Oracle};
use platform::Platform;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const BATCH: usize = 160;

fn exec_size() -> impl Strategy<Value = ExecSize> {
    prop_oneof![
        Just(ExecSize::S1),
        Just(ExecSize::S2),
        Just(ExecSize::S4),
        Just(ExecSize::S8),
        Just(ExecSize::S16)
    ]
}

fn swsb(p: Platform) -> BoxedStrategy<Swsb> {
    if !p.has_swsb() {
        return Just(Swsb::default()).boxed();
    }
    let dist_pipes: Vec<DistPipe> = if p == Platform::Dg2 {
        vec![
            DistPipe::Any,
            DistPipe::All,
            DistPipe::Float,
            DistPipe::Int,
            DistPipe::Long,
        ]
    } else {
        vec![DistPipe::Any]
    };
    let dist = (prop::sample::select(dist_pipes), 1u8..8).prop_map(Some);
    let token = (
        0u8..16,
        prop_oneof![Just(TokenMode::Dst), Just(TokenMode::Src)],
    )
        .prop_map(Some);
    prop_oneof![
        Just(Swsb::default()),
        dist.prop_map(|d| Swsb {
            dist: d,
            token: None
        }),
        token.prop_map(|t| Swsb {
            dist: None,
            token: t
        }),
    ]
    .boxed()
}

fn grf(ty: DataType) -> impl Strategy<Value = Reg> {
    let elems = (32 / (ty.bits() / 8)) as u8;
    (0u8..127, 0..elems).prop_map(|(n, s)| Reg::grf(n, s))
}

fn src_region() -> impl Strategy<Value = Region> {
    prop::sample::select(vec![
        Region::full(0, 1, 0),
        Region::full(1, 1, 0),
        Region::full(8, 8, 1),
        Region::full(4, 4, 1),
        Region::full(2, 2, 1),
        Region::full(16, 16, 1),
        Region::full(16, 8, 2),
    ])
}

fn reg_src(ty: DataType, mods: bool) -> impl Strategy<Value = Operand> {
    let m = if mods {
        prop::sample::select(vec![SrcMod::None, SrcMod::Neg, SrcMod::Abs, SrcMod::NegAbs]).boxed()
    } else {
        Just(SrcMod::None).boxed()
    };
    (grf(ty), src_region(), m).prop_map(move |(r, region, modifier)| {
        Operand::Reg(RegOperand {
            addr: Addressing::Direct(r),
            region,
            ty,
            modifier,
        })
    })
}

fn dst(ty: DataType) -> impl Strategy<Value = Operand> {
    grf(ty).prop_map(move |r| Operand::direct(r, Region::h(1), ty))
}

fn imm(ty: DataType) -> impl Strategy<Value = Operand> {
    any::<u32>().prop_map(move |v| {
        let bits = match ty.bits() {
            16 => (v & 0xFFFF) as u64 * 0x1_0001,
            _ => v as u64,
        };
        Operand::Imm(Immediate { bits, ty })
    })
}

fn common(p: Platform, base: Instruction) -> impl Strategy<Value = Instruction> {
    (
        exec_size(),
        any::<bool>(),
        prop::option::of((any::<bool>(), prop::sample::select(vec![PredCtrl::Normal]))),
        (0u8..2, 0u8..2),
        swsb(p),
    )
        .prop_map(move |(es, w, pred, (fnum, fsub), sw)| {
            let mut i = base;
            i.exec_size = es;
            i.no_mask = w;
            i.predicate = pred.map(|(invert, ctrl)| Predicate { ctrl, invert });
            // The flag register is only encoded when something uses it.
            if i.predicate.is_some() || i.cond_mod.is_some() {
                i.flag = FlagReg {
                    num: fnum,
                    sub: fsub,
                };
            }
            i.swsb = sw;
            i
        })
}

fn alu(p: Platform) -> BoxedStrategy<Instruction> {
    let int_ops = vec![
        Opcode::Add,
        Opcode::Mul,
        Opcode::And,
        Opcode::Or,
        Opcode::Xor,
        Opcode::Shl,
        Opcode::Shr,
        Opcode::Asr,
        Opcode::Avg,
    ];
    let binary = (
        prop::sample::select(int_ops),
        prop::sample::select(vec![DataType::D, DataType::Ud, DataType::W, DataType::Uw]),
        any::<bool>(),
        prop::option::of(prop::sample::select(vec![
            CondMod::Eq,
            CondMod::Ne,
            CondMod::Gt,
            CondMod::Lt,
        ])),
    )
        .prop_flat_map(|(op, ty, imm1, cm)| {
            let s1 = if imm1 {
                imm(ty).boxed()
            } else {
                reg_src(ty, op == Opcode::Add).boxed()
            };
            (dst(ty), reg_src(ty, op == Opcode::Add), s1).prop_map(move |(d, a, b)| {
                let mut i = Instruction::new(op);
                i.dst = Some(d);
                i.src = [Some(a), Some(b), None];
                i.cond_mod = cm;
                i
            })
        });
    let float = (
        prop::sample::select(vec![Opcode::Add, Opcode::Mul, Opcode::Sel, Opcode::Cmp]),
        any::<bool>(),
    )
        .prop_flat_map(|(op, sat)| {
            (
                dst(DataType::F),
                reg_src(DataType::F, true),
                reg_src(DataType::F, true),
            )
                .prop_map(move |(d, a, b)| {
                    let mut i = Instruction::new(op);
                    i.dst = Some(d);
                    i.src = [Some(a), Some(b), None];
                    i.saturate = sat && op != Opcode::Cmp;
                    if op == Opcode::Cmp {
                        i.cond_mod = Some(CondMod::Ge);
                    }
                    i
                })
        });
    let mov = (
        prop::sample::select(vec![DataType::D, DataType::Ud, DataType::F, DataType::Uw]),
        any::<bool>(),
    )
        .prop_flat_map(|(ty, use_imm)| {
            let s = if use_imm {
                imm(ty).boxed()
            } else {
                reg_src(ty, false).boxed()
            };
            (dst(ty), s).prop_map(|(d, s)| {
                let mut i = Instruction::new(Opcode::Mov);
                i.dst = Some(d);
                i.src[0] = Some(s);
                i
            })
        });
    let math = prop::sample::select(vec![MathFn::Inv, MathFn::Sqt, MathFn::Exp, MathFn::Log])
        .prop_flat_map(|f| {
            (dst(DataType::F), reg_src(DataType::F, false)).prop_map(move |(d, s)| {
                let mut i = Instruction::new(Opcode::Math);
                i.func = Subfunction::Math(f);
                i.dst = Some(d);
                i.src[0] = Some(s);
                i
            })
        });
    // Ternary src0/src1 regions each encoding can express (Gen9 is align16 underneath).
    let r01 = match p {
        Platform::Skl => vec![Region::vh(2, 1), Region::vh(0, 0)],
        Platform::Icllp => vec![Region::vh(0, 0), Region::vh(2, 1), Region::vh(8, 1)],
        _ => vec![Region::vh(1, 0), Region::vh(0, 0), Region::vh(8, 1)],
    };
    let ternary = (
        prop::sample::select(r01),
        prop::sample::select(vec![Region::h(1), Region::h(0)]),
    )
        .prop_flat_map(|(r01, r2)| {
            let s = move |ty: DataType, rg: Region| {
                grf(ty).prop_map(move |r| {
                    Operand::Reg(RegOperand {
                        addr: Addressing::Direct(r),
                        region: rg,
                        ty,
                        modifier: SrcMod::None,
                    })
                })
            };
            // Ternary destinations must be 8-byte aligned.
            let d =
                (0u8..127).prop_map(|n| Operand::direct(Reg::grf(n, 0), Region::h(1), DataType::F));
            (
                d,
                s(DataType::F, r01),
                s(DataType::F, r01),
                s(DataType::F, r2),
            )
                .prop_map(|(d, a, b, c)| {
                    let mut i = Instruction::new(Opcode::Mad);
                    i.dst = Some(d);
                    i.src = [Some(a), Some(b), Some(c)];
                    i
                })
        });
    prop_oneof![binary, float, mov, math, ternary]
        .prop_flat_map(move |i| common(p, i))
        .boxed()
}

/// Math macros: `math.rsqtm`, `math.invm`, `madm` on `.mmeN` / `.nomme`
/// operands of one float type, with source modifiers, `(sat)` on madm and the implicit `(eo)`.
fn math_macro(p: Platform) -> BoxedStrategy<Instruction> {
    let operand = |ty: DataType| {
        (
            0u8..128,
            prop::sample::select(MathMacroAcc::ALL.to_vec()),
            prop::sample::select(vec![SrcMod::None, SrcMod::Neg, SrcMod::Abs, SrcMod::NegAbs]),
        )
            .prop_map(move |(grf, acc, modifier)| MacroOperand {
                grf,
                acc,
                ty,
                modifier,
            })
    };
    // madm is not on Gen12LP.
    let kinds = if Opcode::Madm.number(p).is_some() {
        vec![0usize, 1, 2]
    } else {
        vec![0, 1]
    };
    (
        prop::sample::select(kinds),
        prop::sample::select(vec![DataType::Df, DataType::F]),
        any::<bool>(),
        prop::sample::select(vec![ExecSize::S2, ExecSize::S4, ExecSize::S8]),
        0u8..8,
    )
        .prop_flat_map(move |(kind, ty, sat, es, off)| {
            (operand(ty), operand(ty), operand(ty), operand(ty)).prop_flat_map(
                move |(d, a, b, c)| {
                    let mut i = match kind {
                        0 | 1 => {
                            let mut i = Instruction::new(Opcode::Math);
                            let f = [MathFn::Rsqtm, MathFn::Invm][kind];
                            i.func = Subfunction::Math(f);
                            i.cond_mod = Some(CondMod::Eo);
                            i
                        }
                        _ => {
                            let mut i = Instruction::new(Opcode::Madm);
                            // iga64 keeps no `(sat)` on an Xe-HPG madm.
                            i.saturate = sat && !p.has_swsb();
                            i
                        }
                    };
                    i.dst = Some(Operand::Macro(MacroOperand {
                        modifier: SrcMod::None,
                        ..d
                    }));
                    let n = kind + 1;
                    for (k, s) in [a, b, c].into_iter().enumerate().take(n) {
                        i.src[k] = Some(Operand::Macro(s));
                    }
                    common(p, i).prop_map(move |mut i| {
                        i.exec_size = es;
                        i.chan_offset = off * 4;
                        i
                    })
                },
            )
        })
        .boxed()
}

/// Gen9/Gen11 sends: the SFID sits in ex_desc[3:0]; `sends` adds src1 with its length in
/// ex_desc[9:6].
fn send_gen9(p: Platform) -> BoxedStrategy<Instruction> {
    // hdc.dc0, hdc.dc1, gateway.
    let sfids = vec![0xAu8, 0xC, 0x3];
    (
        prop::sample::select(sfids),
        any::<u32>(),
        0u32..0x10,
        0u8..120,
        0u8..120,
        prop::option::of((0u8..120, 1u32..4)),
        prop_oneof![Just(ExecSize::S8), Just(ExecSize::S16), Just(ExecSize::S1)],
    )
        .prop_map(move |(sfid, desc, ex, d, s0, s1, es)| {
            let split = s1.is_some();
            let mut i = Instruction::new(if split { Opcode::Sends } else { Opcode::Send });
            i.exec_size = es;
            i.dst = Some(Operand::direct(Reg::grf(d, 0), Region::h(1), DataType::Ud));
            i.src[0] = Some(Operand::direct(Reg::grf(s0, 0), Region::h(1), DataType::Ud));
            let mut ex_desc = (ex << 28) | sfid as u32;
            if let Some((r, len)) = s1 {
                i.src[1] = Some(Operand::direct(Reg::grf(r, 0), Region::h(1), DataType::Ud));
                ex_desc |= len << 6;
            }
            i.send = Some(SendInfo {
                sfid,
                desc: SendDesc::Imm(desc & 0x7FFF_FFFF),
                ex_desc: SendDesc::Imm(ex_desc),
                src1_len: None,
            });
            let _ = p;
            i
        })
        .boxed()
}

fn send(p: Platform) -> BoxedStrategy<Instruction> {
    if !p.has_swsb() {
        return send_gen9(p);
    }
    // The shared functions this stack emits or meets (data ports, LSC, gateway, spawner).
    let names = [
        "dc0", "dc1", "dc2", "dcro", "gtwy", "ugm", "slm", "tgm", "ts",
    ];
    let sfids: Vec<u8> = names
        .iter()
        .filter_map(|n| isa_encoder::model::sfid::sfid_from_name(p, n))
        .collect();
    let dg2 = p == Platform::Dg2;
    (
        prop::sample::select(sfids),
        any::<u32>(),
        0u32..0x8000,
        0u8..120,
        0u8..120,
        prop::option::of(0u8..120),
        0u8..4,
        swsb(p),
        prop_oneof![Just(ExecSize::S8), Just(ExecSize::S16), Just(ExecSize::S1)],
    )
        .prop_map(move |(sfid, desc, ex, d, s0, s1, len, sw, es)| {
            let mut i = Instruction::new(Opcode::Send);
            i.exec_size = es;
            i.dst = Some(Operand::direct(Reg::grf(d, 0), Region::h(1), DataType::Ud));
            i.src[0] = Some(Operand::direct(Reg::grf(s0, 0), Region::h(1), DataType::Ud));
            let s1reg = s1.map_or(Reg::NULL, |r| Reg::grf(r, 0));
            i.src[1] = Some(Operand::direct(s1reg, Region::h(1), DataType::Ud));
            let ex_desc = if dg2 {
                ex << 16
            } else {
                (ex << 16) | (len as u32) << 6
            };
            i.send = Some(SendInfo {
                sfid,
                desc: SendDesc::Imm(desc),
                ex_desc: SendDesc::Imm(ex_desc),
                // iga64 reads a null src1 as length 0.
                src1_len: dg2.then_some(if s1.is_some() { len } else { 0 }),
            });
            i.swsb = sw;
            i
        })
        .boxed()
}

fn sync(p: Platform) -> BoxedStrategy<Instruction> {
    (
        prop::sample::select(vec![SyncFn::Nop, SyncFn::Allrd, SyncFn::Allwr]),
        1u64..0xFFFF,
        swsb(p),
    )
        .prop_map(|(f, mask, sw)| {
            let mut i = Instruction::new(Opcode::Sync);
            i.func = Subfunction::Sync(f);
            i.src[0] = Some(if f == SyncFn::Nop {
                Operand::direct(Reg::NULL, Region::full(0, 1, 0), DataType::Ub)
            } else {
                Operand::Imm(Immediate {
                    bits: mask,
                    ty: DataType::Ud,
                })
            });
            i.swsb = sw;
            i
        })
        .boxed()
}

/// Branches with targets `jip`/`uip` given in instructions relative to this one (resolved to
/// bytes by the batch builder, all instructions being 16 bytes).
fn branch() -> BoxedStrategy<(Instruction, i32, i32)> {
    let ops = vec![
        Opcode::If,
        Opcode::Else,
        Opcode::Endif,
        Opcode::While,
        Opcode::Goto,
        Opcode::Join,
        Opcode::Break,
        Opcode::Jmpi,
    ];
    (prop::sample::select(ops), -20i32..20, -20i32..20)
        .prop_map(|(op, a, b)| {
            let mut i = Instruction::new(op);
            i.exec_size = if op == Opcode::Jmpi {
                ExecSize::S1
            } else {
                ExecSize::S16
            };
            i.no_mask = op == Opcode::Jmpi;
            (i, a, b)
        })
        .boxed()
}

fn two_targets(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::If | Opcode::Else | Opcode::Goto | Opcode::Break | Opcode::Cont | Opcode::Halt
    )
}

fn batch(p: Platform) -> BoxedStrategy<Vec<Instruction>> {
    let one = if p.has_swsb() {
        prop_oneof![
            6 => alu(p).prop_map(|i| (i, 0, 0)),
            2 => send(p).prop_map(|i| (i, 0, 0)),
            1 => sync(p).prop_map(|i| (i, 0, 0)),
            1 => branch(),
            1 => math_macro(p).prop_map(|i| (i, 0, 0)),
        ]
        .boxed()
    } else {
        prop_oneof![
            6 => alu(p).prop_map(|i| (i, 0, 0)),
            2 => send(p).prop_map(|i| (i, 0, 0)),
            1 => branch(),
            1 => math_macro(p).prop_map(|i| (i, 0, 0)),
        ]
        .boxed()
    };
    prop::collection::vec(one, BATCH)
        .prop_map(|v| {
            let n = v.len() as i32;
            v.into_iter()
                .enumerate()
                .map(|(k, (mut i, a, b))| {
                    if i.opcode.is_branch() {
                        let clamp = |d: i32| ((k as i32 + d).clamp(0, n - 1) - k as i32) * 16;
                        i.branch.jip = Some(clamp(a));
                        if two_targets(i.opcode) {
                            i.branch.uip = Some(clamp(b));
                        }
                    }
                    i
                })
                .collect()
        })
        .boxed()
}

fn check_platform(p: Platform, cases: u32) {
    let iga = oracles::require!(Oracle::Iga64);
    let mut runner = TestRunner::new(Config {
        cases,
        max_shrink_iters: 64,
        ..Config::default()
    });
    let result = runner.run(&batch(p), |insts| {
        let mut bytes = Vec::with_capacity(insts.len() * 16);
        let mut decoded = Vec::with_capacity(insts.len());
        for (k, i) in insts.iter().enumerate() {
            let b = native::encode(p, i).map_err(|e| TestCaseError::fail(format!("{i:?}: {e}")))?;
            bytes.extend_from_slice(&b);
            decoded.push(Decoded {
                pc: (k * 16) as u32,
                inst: *i,
            });
        }
        let ours = text::format_kernel(p, &decoded);
        let iga_bytes = iga64::asm(&iga, p, &ours, &[])
            .map_err(|e| TestCaseError::fail(format!("iga64 -a rejected our text: {e}")))?;
        if iga_bytes != bytes {
            let k = iga_bytes
                .chunks(16)
                .zip(bytes.chunks(16))
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            return Err(TestCaseError::fail(format!(
                "iga64 -a differs at instruction {k}: {:?}\n  iga64: {:02x?}\n  ours : {:02x?}",
                ours.lines().filter(|l| !l.ends_with(':')).nth(k),
                iga_bytes.chunks(16).nth(k),
                bytes.chunks(16).nth(k)
            )));
        }
        let iga_text = iga64::disasm(&iga, p, &bytes, &[])
            .map_err(|e| TestCaseError::fail(format!("iga64 -d: {e}")))?;
        if iga_text != ours {
            let (il, ol): (Vec<_>, Vec<_>) = (iga_text.lines().collect(), ours.lines().collect());
            let d = (0..il.len().max(ol.len()))
                .find(|&k| il.get(k) != ol.get(k))
                .map(|k| format!("\n  iga64: {:?}\n  ours : {:?}", il.get(k), ol.get(k)));
            return Err(TestCaseError::fail(format!("iga64 -d differs:{d:?}")));
        }
        // Our own parser reads our text back to the same bytes.
        let ours_bytes = isa_encoder::assemble(p, &ours)
            .map_err(|e| TestCaseError::fail(format!("our assembler: {e}")))?;
        prop_assert_eq!(ours_bytes, bytes);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{p}: {e}");
    }
}

#[test]
fn tgllp_generated_instructions_match_iga64() {
    check_platform(Platform::Tgllp, 24);
}

#[test]
fn dg2_generated_instructions_match_iga64() {
    check_platform(Platform::Dg2, 24);
}

#[test]
fn skl_generated_instructions_match_iga64() {
    check_platform(Platform::Skl, 24);
}

#[test]
fn icllp_generated_instructions_match_iga64() {
    check_platform(Platform::Icllp, 24);
}
