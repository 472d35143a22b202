//! Assembling and disassembling one large kernel (120k Gen12LP instructions) with our code and
//! with iga64 (`iga64 -d` / `iga64 -a` as a process, file in and out, as a user runs it).
//!
//! `cargo bench -p isa-encoder --bench asm_disasm`; the throughput ratio is ours / iga64.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use isa_encoder::kernel::Decoded;
use isa_encoder::model::{
    CondMod, DataType, DistPipe, ExecSize, Immediate, Instruction, MathFn, Opcode, Operand, Reg,
    Region, SendDesc, SendInfo, Subfunction, Swsb, TokenMode,
};
use platform::Platform;

const N: usize = 120_000;
const P: Platform = Platform::Tgllp;

/// A small deterministic generator (xorshift) so every run benchmarks the same kernel.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn src(r: &mut Rng, ty: DataType) -> Operand {
    let regions = [
        Region::full(8, 8, 1),
        Region::full(0, 1, 0),
        Region::full(1, 1, 0),
    ];
    Operand::direct(
        Reg::grf(r.below(120) as u8, 0),
        regions[r.below(3) as usize],
        ty,
    )
}

fn inst(r: &mut Rng) -> Instruction {
    let ty = [DataType::D, DataType::Ud, DataType::F][r.below(3) as usize];
    let dst = Operand::direct(Reg::grf(r.below(120) as u8, 0), Region::h(1), ty);
    let mut i = match r.below(10) {
        0..=3 => {
            let op = [Opcode::Add, Opcode::Mul, Opcode::And, Opcode::Shl][r.below(4) as usize];
            let mut i = Instruction::new(op);
            i.src = [Some(src(r, ty)), Some(src(r, ty)), None];
            i
        }
        4 => {
            let mut i = Instruction::new(Opcode::Mov);
            i.src[0] = Some(Operand::Imm(Immediate {
                bits: r.below(1 << 20),
                ty,
            }));
            i
        }
        5 => {
            let mut i = Instruction::new(Opcode::Cmp);
            i.cond_mod = Some(CondMod::Lt);
            i.src = [Some(src(r, ty)), Some(src(r, ty)), None];
            i
        }
        6 => {
            let mut i = Instruction::new(Opcode::Math);
            i.func = Subfunction::Math(MathFn::Inv);
            i.src[0] = Some(src(r, DataType::F));
            i.dst = Some(Operand::direct(Reg::grf(1, 0), Region::h(1), DataType::F));
            i
        }
        7 => {
            let mut i = Instruction::new(Opcode::Send);
            i.dst = Some(Operand::direct(
                Reg::grf(r.below(100) as u8, 0),
                Region::h(1),
                DataType::Ud,
            ));
            i.src = [
                Some(Operand::direct(
                    Reg::grf(r.below(100) as u8, 0),
                    Region::h(1),
                    DataType::Ud,
                )),
                Some(Operand::direct(Reg::NULL, Region::h(1), DataType::Ud)),
                None,
            ];
            i.send = Some(SendInfo {
                sfid: 12,
                desc: SendDesc::Imm(0x0420_5E01),
                ex_desc: SendDesc::Imm(0),
                src1_len: None,
            });
            i.swsb.token = Some((r.below(16) as u8, TokenMode::Set));
            i.exec_size = ExecSize::S16;
            return i;
        }
        _ => {
            let mut i = Instruction::new(Opcode::Mov);
            i.src[0] = Some(src(r, ty));
            i
        }
    };
    if i.dst.is_none() {
        i.dst = Some(dst);
    }
    i.exec_size = [ExecSize::S1, ExecSize::S8, ExecSize::S16][r.below(3) as usize];
    if r.below(3) == 0 {
        i.swsb = Swsb {
            dist: Some((DistPipe::Any, 1 + r.below(7) as u8)),
            token: None,
        };
    }
    i
}

fn kernel() -> (Vec<u8>, String) {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut bytes = Vec::with_capacity(N * 16);
    let mut decoded = Vec::with_capacity(N);
    for k in 0..N {
        let i = inst(&mut r);
        bytes.extend_from_slice(&isa_encoder::native::encode(P, &i).expect("encodable"));
        decoded.push(Decoded {
            pc: (k * 16) as u32,
            inst: i,
        });
    }
    let text = isa_encoder::text::format_kernel(P, &decoded);
    (bytes, text)
}

fn iga64() -> Option<PathBuf> {
    ["/usr/bin/iga64"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn bench(c: &mut Criterion) {
    let (bytes, text) = kernel();
    assert_eq!(isa_encoder::assemble(P, &text).expect("assembles"), bytes);
    let dir = tempfile::tempdir().expect("tempdir");
    let krn = dir.path().join("k.krn");
    let asm = dir.path().join("k.asm");
    std::fs::write(&krn, &bytes).expect("write");
    std::fs::write(&asm, &text).expect("write");

    let mut g = c.benchmark_group("disasm_120k");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("ours", |b| {
        b.iter(|| isa_encoder::disassemble(P, black_box(&bytes)).expect("decodes"))
    });
    if let Some(iga) = iga64() {
        g.bench_function("iga64", |b| {
            b.iter(|| {
                let out = Command::new(&iga)
                    .args(["-d", "-p=12p1"])
                    .arg(&krn)
                    .output()
                    .expect("iga64 runs");
                assert!(out.status.success());
                out.stdout.len()
            })
        });
    } else {
        eprintln!("SKIP iga64 comparison: /usr/bin/iga64 not found");
    }
    g.finish();

    let mut g = c.benchmark_group("asm_120k");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("ours", |b| {
        b.iter(|| isa_encoder::assemble(P, black_box(&text)).expect("assembles"))
    });
    if let Some(iga) = iga64() {
        let out = dir.path().join("out.krn");
        g.bench_function("iga64", |b| {
            b.iter(|| {
                let st = Command::new(&iga)
                    .args(["-a", "-p=12p1"])
                    .arg(&asm)
                    .arg("-o")
                    .arg(&out)
                    .status()
                    .expect("iga64 runs");
                assert!(st.success());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
