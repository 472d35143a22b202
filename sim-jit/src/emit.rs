//! Cranelift code for a run of translated instructions ([`Step`]s) and structured branches:
//! one host function per run ([`RunFn`]) that executes it on the thread's byte file from one
//! of its blocks until it leaves. Lanes are computed four at a time in 128-bit vectors, the
//! result row written with the execution mask (lanes outside it keep their bytes), exactly as
//! the interpreter's word form does: every source read before the destination is written,
//! f32 arithmetic IEEE with the EU's NaN rule (the first NaN source, quieted), integers
//! modulo 2^32.
//!
//! A block is a branch target, the instruction after a branch or after a barrier's wait. At
//! a structured branch the host code computes the interpreter's jumping channels
//! ([`Jumps`]); when all executing channels jump, or none, it goes where they go (a jump back
//! only while the budget allows another pass). When they part ways, a call ([`PartFn`])
//! takes the branch as the run loop does (the interpreter's waiting channels hold both
//! groups) and the run goes on in its copy with masks at the block where the thread
//! continues, with the execution mask and first waiting instruction it returns (block
//! parameters); at a block where channels wait, the same call lets them rejoin. Where a
//! kernel's channels may wait outside the blocks (a computed jump), the run leaves instead,
//! before the branch and at such a block. A run also leaves at its end.
//!
//! Register-file bytes stay in SSA values across a block's instructions (`Held`): each
//! 16-byte-aligned row of four DWords is loaded once, at its first use, and stored once, at
//! the block's end, if an instruction wrote it; the flag registers likewise. An access the
//! held values do not serve (words, bytes, unaligned rows, scalars outside a held row) goes to
//! the file, after the held values it overlaps are stored (and, for a write, dropped).

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, I16, I16X8, I32, I32X4, I64, I64X2, I8X16};
use std::collections::{BTreeMap, BTreeSet};

use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, BlockCall, ConstantData, Endianness, InstBuilder, JumpTableData,
    MemFlagsData, SigRef, StackSlot, StackSlotData, StackSlotKind, Type, Value,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Module};

mod double;
mod loops;

use crate::error::JitError;
use isa_encoder::model::CondMod;
use loops::{loop_carries, Looping};
use sim_eu::convert::{F16_INFINITY, F16_MAGNITUDE, F16_QUIET};
use sim_eu::dataport::direct::{Direct, DirectSpace, DirectTable, DirectWindow, Offset};
use sim_eu::exec::fast::{arity, half_results_packed, half_sel, packed_group_bytes};
#[cfg(target_arch = "x86_64")]
use sim_eu::exec::fast::{half_results_fixed_available, half_results_packed_fixed};
use sim_eu::program::fast::{Elem, FastOp, Sign};
use sim_eu::regfile::{acc_dword, acc_wide_at, FLAG, REG_BYTES};

use crate::mads::{self, Mad};
use crate::select::{Branch, DoubleOp, Item, Lanes, Message, Op, Own, Step, SEL_CONDS};
use sim_eu::exec::structured::Jumps;
use sim_eu::program::channels::Channels;

/// The host function of one run: the thread's byte file (the flag registers at
/// [`sim_eu::regfile::FLAG`] in it), its executing channels, for the run's interpreted
/// instructions a context and the function that runs them ([`EscapeFn`]), the most
/// instructions it may execute, the block it starts at (its number among the run's blocks)
/// and the first instruction, counted from the run's first, at which channels wait (the run
/// leaves before executing it), the classified sends' function and the parting branches'
/// ([`PartFn`]), and what the memory lets the run do without calling it
/// ([`sim_eu::Memory::direct_windows`]: the windows sends with a direct form copy through,
/// quiet fences). It runs until it leaves the run: every way out calls the escape function
/// last, which puts the thread where the run left off, but one where the parting branches'
/// function put it outside the run and one for the interpreter to run the instruction it
/// stopped at, which writes where into the context instead (`crate::run` reads it).
pub type RunFn = unsafe extern "C" fn(
    *mut u8,
    u32,
    *mut u8,
    EscapeFn,
    u64,
    u32,
    u32,
    SendFn,
    PartFn,
    *const DirectTable,
);

/// Takes the structured branch at the run's instruction `index` whose executing channels part
/// ways, those of the mask given (bit i: channel i) going to the run's instruction `to` and
/// the others on, `ran` instructions executed since the run was entered, given the context
/// the run was called with ([`sim_eu::Thread::take_branch`]: the interpreter's waiting
/// channels hold both groups). Returns the run's block where the thread goes on, with three
/// words written at the pointer given: that block's instruction, the executing channels and
/// the first instruction at which channels wait (both instructions counted from the run's
/// first); `u32::MAX` when the thread ended or goes on outside the run's blocks, where it
/// then is. Called with every register-file byte the run wrote stored in the file.
pub type PartFn = unsafe extern "C" fn(*mut u8, u32, u32, u32, u64, *mut u32) -> u32;

/// [`PartFn`]'s `to` for an instruction reached in sequence where channels wait: they rejoin
/// as the run loop lets them ([`sim_eu::Thread::resume`]), and the run goes on at the first
/// instruction any channel waits at.
pub const REJOIN: u32 = u32::MAX;

/// [`PartFn`]'s `to` from a loop of one block that parted its channels itself: the mask
/// given waits at instruction `index + 1` (after the loop's `while`, at `index`), the
/// executing channels are the first word at the pointer given ([`sim_eu::Thread::park`]);
/// returns 0. The run then leaves.
pub const PARK: u32 = u32::MAX - 1;

/// Runs the send at the run's instruction `index` (a classified one, or a load or store the
/// data port may run again) on the channels of the mask given (enabled and predicated),
/// given the context the run was called with, without counting it
/// ([`sim_eu::exec::run_send`]). Returns 0 when it ran, anything else when it did not (the
/// run then interprets it: from the start, which gives what one run gives). Called with
/// every register-file byte the run wrote stored in the file, and the run reads the file
/// afresh after it.
pub type SendFn = unsafe extern "C" fn(*mut u8, u32, u32) -> u32;

/// Puts the thread at the run's instruction `index` (counted from the run's first), having
/// executed `ran` instructions since the run was entered, then runs `count` instructions from
/// there with the interpreter (none: the run leaves there), given the context the run was
/// called with. Returns 0 to go on, anything else to stop the run there. Called with every
/// register-file byte the run wrote stored in the file, and the run reads the file afresh
/// after it.
pub type EscapeFn = unsafe extern "C" fn(*mut u8, u32, u32, u64) -> u32;

/// The EU's quiet bit of an f32 NaN.
const QUIET: i64 = sim_eu::exec::alu::F32_QUIET as i64;

/// Bytes per source in the buffer translated code passes to [`half_lanes`]: 32 lanes (four
/// groups of eight) of `:f`, or of `:hf` in the first half.
const HALF_SOURCE: usize = 4 * packed_group_bytes(false);

// The `Op::Half` operations, by the code translated code passes to `half_lanes`.
use sim_eu::exec::fast::HALF_FIXED_OPS as HALF_OPS;

/// Half results for translated code: `HALF_OPS[op]` (past those, `sel` with the condition
/// `SEL_CONDS[op - HALF_OPS.len()]`) on `groups` groups of eight lanes of the sources at
/// `src + k * HALF_SOURCE`, source k packed `:hf` where bit k of `hf` is set, else `:f`
/// ([`half_results_packed`], [`half_sel`]: the interpreter's own rounding); the results
/// packed at `out`, two bytes a lane.
///
/// # Safety
/// For each source the operation reads, `src + k * HALF_SOURCE` points to `groups * 16`
/// (`:hf`) or `groups * 32` (`:f`) initialized bytes, and `out` to `groups * 16` writable
/// ones apart from them; `groups` is 1 to 4.
unsafe extern "C" fn half_lanes(op: u32, hf: u32, groups: u32, src: *const u8, out: *mut u16) {
    let hf = [0, 1, 2].map(|k| hf >> k & 1 != 0);
    if let Some(&cond) = (op as usize)
        .checked_sub(HALF_OPS.len())
        .and_then(|c| SEL_CONDS.get(c))
    {
        // SAFETY: the caller's contract.
        let (groups, src, out) = unsafe { half_buffers(FastOp::Sel, hf, groups, src, out) };
        half_sel_packed(cond, [hf[0], hf[1]], groups, src, out);
        return;
    }
    let op = HALF_OPS[op as usize % HALF_OPS.len()];
    // SAFETY: the caller's contract.
    let (groups, src, out) = unsafe { half_buffers(op, hf, groups, src, out) };
    half_results_packed(op, hf, groups, src, out);
}

/// [`half_sel`] of `cond` on `groups` groups of eight lanes of `src[0]` and `src[1]` laid out
/// as [`half_lanes`] takes them (`:hf` where `hf[k]`, else `:f`), the results to `out`.
fn half_sel_packed(
    cond: CondMod,
    hf: [bool; 2],
    groups: usize,
    src: [&[u8]; 3],
    out: &mut [std::mem::MaybeUninit<u16>],
) {
    let lanes = (8 * groups).min(out.len()).min(32);
    let source = |k: usize| -> [u32; 32] {
        let mut v = [0u32; 32];
        if hf[k] {
            for (v, b) in v.iter_mut().zip(src[k].chunks_exact(2)).take(lanes) {
                *v = u32::from(u16::from_le_bytes([b[0], b[1]]));
            }
        } else {
            for (v, b) in v.iter_mut().zip(src[k].chunks_exact(4)).take(lanes) {
                *v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        v
    };
    let r = half_sel::<32>(Some(cond), 0, hf, [&source(0), &source(1)]);
    for (o, &v) in out.iter_mut().zip(&r).take(lanes) {
        o.write(v as u16);
    }
}

/// The sources and results [`half_lanes`] is given, as slices: `groups` (at most 4) groups of
/// eight lanes of each source `op` reads (`:hf` where `hf[k]`, else `:f`) at `src + k *
/// HALF_SOURCE`, and the results' `groups * 8` halves at `out`.
///
/// # Safety
/// [`half_lanes`]' contract, for the slices' lifetime `'a`.
#[inline(always)]
unsafe fn half_buffers<'a>(
    op: FastOp,
    hf: [bool; 3],
    groups: u32,
    src: *const u8,
    out: *mut u16,
) -> (usize, [&'a [u8]; 3], &'a mut [std::mem::MaybeUninit<u16>]) {
    let groups = (groups as usize).min(4);
    let reads = arity(op);
    let source = |k: usize| -> &'a [u8] {
        if k >= reads {
            return &[];
        }
        let len = groups * packed_group_bytes(hf[k]);
        // SAFETY: the caller's contract: these bytes are initialized and readable.
        unsafe { std::slice::from_raw_parts(src.add(k * HALF_SOURCE), len) }
    };
    // SAFETY: the caller's contract: `out` has `groups * 8` writable halves, apart from the
    // sources (maybe uninitialized: written, not read).
    let out = unsafe { std::slice::from_raw_parts_mut(out.cast(), 8 * groups) };
    (groups, [source(0), source(1), source(2)], out)
}

/// [`half_lanes`] for `HALF_OPS[OP]` with source k `:hf` where bit k of `HF` is set (its own
/// `op` and `hf` ignored), compiled for that form alone.
///
/// # Safety
/// [`half_lanes`]' contract, and the CPU has AVX2, FMA and F16C
/// ([`half_results_fixed_available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,f16c")]
unsafe extern "C" fn half_lanes_fixed<const OP: usize, const HF: u8>(
    _op: u32,
    _hf: u32,
    groups: u32,
    src: *const u8,
    out: *mut u16,
) {
    let hf = [HF & 1 != 0, HF & 2 != 0, HF & 4 != 0];
    // SAFETY: the caller's contract, as `half_lanes`'.
    let (groups, src, out) = unsafe { half_buffers(HALF_OPS[OP], hf, groups, src, out) };
    // SAFETY: the caller's contract: AVX2, FMA and F16C.
    unsafe { half_results_packed_fixed::<OP, HF>(groups, src, out) };
}

/// The function translated code calls for `HALF_OPS[op]` with source k `:hf` where bit k of
/// `hf` is set: the form's own compiled [`half_lanes_fixed`] where the CPU has what it
/// needs, else [`half_lanes`].
fn half_callee(op: usize, hf: u8) -> HalfFn {
    #[cfg(target_arch = "x86_64")]
    if half_results_fixed_available() && op < HALF_OPS.len() {
        macro_rules! by_hf {
            ($o:literal) => {
                [
                    half_lanes_fixed::<$o, 0> as HalfFn,
                    half_lanes_fixed::<$o, 1>,
                    half_lanes_fixed::<$o, 2>,
                    half_lanes_fixed::<$o, 3>,
                    half_lanes_fixed::<$o, 4>,
                    half_lanes_fixed::<$o, 5>,
                    half_lanes_fixed::<$o, 6>,
                    half_lanes_fixed::<$o, 7>,
                ]
            };
        }
        let table: [[HalfFn; 8]; 4] = [by_hf!(0), by_hf!(1), by_hf!(2), by_hf!(3)];
        return table[op % 4][usize::from(hf % 8)];
    }
    let _ = (op, hf);
    half_lanes
}

/// The comparison of two halves' keys (sign-magnitude bits as integers) for the condition
/// `c`, when it is one of `sel`'s orderings.
fn half_order(c: CondMod) -> Option<IntCC> {
    Some(match c {
        CondMod::Eq => IntCC::Equal,
        CondMod::Ne => IntCC::NotEqual,
        CondMod::Gt => IntCC::SignedGreaterThan,
        CondMod::Ge => IntCC::SignedGreaterThanOrEqual,
        CondMod::Lt => IntCC::SignedLessThan,
        CondMod::Le => IntCC::SignedLessThanOrEqual,
        _ => return None,
    })
}

/// [`half_lanes`]' type.
type HalfFn = unsafe extern "C" fn(u32, u32, u32, *const u8, *mut u16);

/// What [`crate::dump`] shows of one compiled run: its Cranelift IR, Cranelift's listing of
/// the host code, the code's size, and its bytes (only when the texts are dumped).
pub(crate) struct Listing {
    pub clif: String,
    pub host: String,
    pub size: u32,
    pub bytes: Vec<u8>,
}

/// A Cranelift JIT module and the contexts reused across the functions it compiles.
pub struct Emitter {
    module: JITModule,
    ctx: Context,
    fctx: FunctionBuilderContext,
    fma: bool,
    /// The tables of the runs of `mad`s the compiled code computes by a call ([`mads`]):
    /// they live as long as the code.
    mad_tables: Vec<Box<[Mad]>>,
    /// Per compiled run, its IR and host code listing when dumping, and its code size
    /// ([`crate::dump`]); empty otherwise.
    listings: Vec<Listing>,
}

impl Emitter {
    /// An emitter for the host CPU (its vector extensions as `cranelift-native` detects them).
    pub fn new() -> Result<Emitter, JitError> {
        let mut flags = settings::builder();
        flags
            .set("opt_level", "speed")
            .map_err(|e| JitError::Setup(e.to_string()))?;
        // Cranelift's IR verifier costs about a quarter of the translation time; it runs when
        // the translations are being checked against the interpreter anyway.
        flags
            .set(
                "enable_verifier",
                if crate::check::checking() {
                    "true"
                } else {
                    "false"
                },
            )
            .map_err(|e| JitError::Setup(e.to_string()))?;
        let isa = cranelift_native::builder()
            .map_err(|e| JitError::Setup(e.to_string()))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| JitError::Setup(e.to_string()))?;
        // Without a fused multiply-add instruction Cranelift calls libm per lane; the
        // interpreter's `mad` then stays interpreted.
        let fma = isa
            .isa_flags()
            .iter()
            .any(|f| f.name == "has_fma" && f.as_bool() == Some(true));
        let module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let ctx = module.make_context();
        Ok(Emitter {
            module,
            ctx,
            fctx: FunctionBuilderContext::new(),
            fma,
            mad_tables: Vec::new(),
            listings: Vec::new(),
        })
    }

    /// Whether `op` translates on this host.
    pub fn supports(&self, op: Op) -> bool {
        !matches!(op, Op::FMad | Op::Double(DoubleOp::Mad)) || self.fma
    }

    /// Compiles one run whose blocks start at the instructions `blocks` (counted from its
    /// first; the first is 0; every branch target inside the run and every instruction after
    /// a branch among them); its code is callable after [`Emitter::finish`].
    /// `parts`: a branch whose channels part ways goes on in the run
    /// ([`PartFn`]); else the run leaves before it.
    /// Compiles the run `items` (its blocks starting at `blocks`; `parts`: channels may
    /// part ways at its branches) for threads of which no channel outside `live` executes
    /// (all ones: any thread).
    pub fn compile(
        &mut self,
        items: &[Item],
        blocks: &[u32],
        parts: bool,
        live: u32,
    ) -> Result<FuncId, JitError> {
        let config = self.module.target_config();
        let ptr = config.pointer_type();
        let signature = |params: &[Type], returns: &[Type]| {
            let mut sig = self.module.make_signature();
            sig.params = params.iter().map(|&t| AbiParam::new(t)).collect();
            sig.returns = returns.iter().map(|&t| AbiParam::new(t)).collect();
            sig
        };
        // `RunFn`, `EscapeFn` and `half_lanes`.
        let sig = signature(&[ptr, I32, ptr, ptr, I64, I32, I32, ptr, ptr, ptr], &[]);
        let escape_sig = signature(&[ptr, I32, I32, I64], &[I32]);
        let send_sig = signature(&[ptr, I32, I32], &[I32]);
        let part_sig = signature(&[ptr, I32, I32, I32, I64, ptr], &[I32]);
        let half_sig = signature(&[I32, I32, I32, ptr, ptr], &[]);
        let mads_sig = signature(&[ptr, ptr, I32, I32], &[I32]);
        let id = self.module.declare_anonymous_function(&sig)?;
        self.ctx.func.signature = sig;
        {
            let mut b = FunctionBuilder::new(&mut self.ctx.func, &mut self.fctx);
            let escape_sig = b.import_signature(escape_sig);
            let send_sig = b.import_signature(send_sig);
            let half_sig = b.import_signature(half_sig);
            let part_sig = b.import_signature(part_sig);
            let mads_sig = b.import_signature(mads_sig);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let p = b.block_params(entry).to_vec();
            let stop = b.create_block();
            let part = parts.then(|| Parting {
                f: p[8],
                sig: part_sig,
                out: b.create_sized_stack_slot(StackSlotData::new(
                    StackSlotKind::ExplicitSlot,
                    12,
                    2,
                )),
                dispatch: Blocks::dispatch(&mut b),
            });
            let call = Call {
                active: p[1],
                ctx: p[2],
                escape: p[3],
                escape_sig,
                stop,
                budget: p[4],
                block: p[5],
                wake: p[6],
                send: p[7],
                send_sig,
                part,
                windows: p[9],
                mads_sig,
            };
            let file = p[0];
            let mut half = Half {
                sig: half_sig,
                ptr,
                slot: None,
            };
            // The execution mask does not change during a run: when every channel its masked
            // instructions use is executing (a thread that has not diverged), a copy of the
            // run without per-instruction execution masks runs. (Not for threads with only
            // some channels: their masked instructions on the others are left out instead.)
            let used = items
                .iter()
                .filter_map(|i| match i {
                    Item::Step(s) if s.op != Op::Keep && !s.ch.no_mask => {
                        Some(s.ch.lanes << s.ch.chan_off)
                    }
                    _ => None,
                })
                .fold(0u32, |a, m| a | m);
            // Channels that part ways at a branch go on in the copy with masks, at its
            // blocks, through one dispatch.
            let len = crate::select::run_len(items);
            let general = Blocks::new(&mut b, blocks, len);
            if used != 0 && live == u32::MAX {
                let (all, some) = (b.create_block(), b.create_block());
                let on = b.ins().band_imm_u(call.active, i64::from(used));
                let full = b.ins().icmp_imm_u(IntCC::Equal, on, i64::from(used));
                b.ins().brif(full, all, &[], some, &[]);
                b.switch_to_block(all);
                let own = Blocks::new(&mut b, blocks, len);
                half = body(
                    &mut b,
                    file,
                    half,
                    &call,
                    items,
                    &own,
                    (true, u32::MAX),
                    &mut self.mad_tables,
                );
                b.switch_to_block(some);
            }
            body(
                &mut b,
                file,
                half,
                &call,
                items,
                &general,
                (false, live),
                &mut self.mad_tables,
            );
            if let Some(part) = &call.part {
                general.fill(&mut b, part.dispatch, &call);
            }
            b.switch_to_block(stop);
            b.ins().return_(&[]);
            b.seal_all_blocks();
            b.finalize(config);
        }
        let texts = crate::dump::texts();
        let clif = if texts {
            self.ctx.func.display().to_string()
        } else {
            String::new()
        };
        self.ctx.set_disasm(texts);
        self.module
            .define_function(id, &mut self.ctx)
            .map_err(|e| JitError::Compile(format!("{e:?}")))?;
        if crate::dump::enabled() {
            let code = self.ctx.compiled_code();
            self.listings.push(Listing {
                clif,
                host: code.and_then(|c| c.vcode.clone()).unwrap_or_default(),
                size: code.map_or(0, |c| c.code_info().total_size),
                // Before relocation: calls out show unpatched, the rest as it runs.
                bytes: if texts {
                    code.map(|c| c.code_buffer().to_vec()).unwrap_or_default()
                } else {
                    Vec::new()
                },
            });
        }
        self.module.clear_context(&mut self.ctx);
        Ok(id)
    }

    /// The IR, host code listing and code of each run compiled so far, in order, when
    /// [`crate::dump`] asks for them (else empty).
    pub(crate) fn take_listings(&mut self) -> Vec<Listing> {
        std::mem::take(&mut self.listings)
    }

    /// Makes every compiled function callable and returns what owns their code (the module
    /// and the tables it reads) with each function's address.
    pub fn finish(mut self, ids: &[FuncId]) -> Result<(Code, Vec<RunFn>), JitError> {
        self.module.finalize_definitions()?;
        let fns = ids
            .iter()
            .map(|&id| {
                let p = self.module.get_finalized_function(id);
                // SAFETY: `p` is the finalized code of a function declared with exactly
                // `RunFn`'s signature (pointer, u32, pointer, pointer; no result) in
                // the host's default calling convention, which `extern "C"` is.
                unsafe { std::mem::transmute::<*const u8, RunFn>(p) }
            })
            .collect();
        Ok((
            Code {
                module: self.module,
                mad_tables: self.mad_tables,
            },
            fns,
        ))
    }
}

/// What compiled runs need while they may be called: the module owning their code, and the
/// tables of their runs of `mad`s ([`mads`]).
pub struct Code {
    pub module: JITModule,
    pub mad_tables: Vec<Box<[Mad]>>,
}

/// What a run's body needs to call out to the interpreter and to leave: the run function's
/// parameters and the block that returns when the interpreter asks the run to stop.
struct Call {
    active: Value,
    ctx: Value,
    escape: Value,
    escape_sig: SigRef,
    stop: Block,
    /// The most instructions the run may execute (I64).
    budget: Value,
    /// The block to start at (I32).
    block: Value,
    /// The first instruction at which channels wait (I32, counted from the run's first).
    wake: Value,
    /// The classified sends' function ([`SendFn`]).
    send: Value,
    send_sig: SigRef,
    /// What the memory lets the run do without calling it ([`DirectTable`]).
    windows: Value,
    /// [`mads::MadsFn`]'s signature.
    mads_sig: SigRef,
    /// Where channels that part ways at a branch, or rejoin at a block, go on; `None` when
    /// the run leaves there instead (where a kernel's channels may wait at instructions no
    /// run checks for them).
    part: Option<Parting>,
}

/// The parting branches' function ([`PartFn`]) as a run calls it.
#[derive(Clone, Copy)]
struct Parting {
    f: Value,
    sig: SigRef,
    /// The three words it writes.
    out: StackSlot,
    /// The copy with masks' [`Blocks::dispatch`], where the run goes on after the call.
    dispatch: Block,
}

/// Where a run's body is: each instruction's block number in it and the executed count.
struct Blocks<'a> {
    /// The first instruction of each block, counted from the run's first.
    starts: &'a [u32],
    /// Per block: its host block, with three parameters: the instructions executed since the
    /// run was entered (I64), the executing channels and the first instruction at which
    /// channels wait (I32 each: they change where channels part ways).
    host: Vec<Block>,
    /// Leaves the run: parameters the instruction to leave at (I32) and the executed count
    /// (I64).
    exit: Block,
    /// The run's instructions.
    len: u32,
}

impl<'a> Blocks<'a> {
    /// The host blocks of a run of `len` instructions whose blocks start at `starts`, and its
    /// exit.
    fn new(b: &mut FunctionBuilder<'_>, starts: &'a [u32], len: u32) -> Blocks<'a> {
        let host: Vec<Block> = starts
            .iter()
            .map(|_| {
                let h = b.create_block();
                b.append_block_param(h, I64);
                b.append_block_param(h, I32);
                b.append_block_param(h, I32);
                h
            })
            .collect();
        let exit = b.create_block();
        b.append_block_param(exit, I32);
        b.append_block_param(exit, I64);
        Blocks {
            starts,
            host,
            exit,
            len,
        }
    }

    /// A block that goes on at block number `block` (I32; its instruction `at`, I32) with
    /// `ran` executed (I64), the executing channels and the first waiting instruction (I32
    /// each) as [`PartFn`] returned them; it returns when the rest of the run from `at` might
    /// pass the budget (the thread is where the function put it).
    ///
    /// Made before the bodies that jump to it and emitted after them ([`Blocks::fill`]): a
    /// block switched to before the entry block has code would become the entry.
    fn dispatch(b: &mut FunctionBuilder<'_>) -> Block {
        let d = b.create_block();
        for t in [I32, I32, I64, I32, I32] {
            b.append_block_param(d, t);
        }
        d
    }

    /// Emits the dispatch block `d` ([`Blocks::dispatch`]) to these blocks.
    fn fill(&self, b: &mut FunctionBuilder<'_>, d: Block, call: &Call) {
        b.switch_to_block(d);
        let p = b.block_params(d).to_vec();
        let at = b.ins().uextend(I64, p[1]);
        let need = b.ins().isub(p[2], at);
        let need = b.ins().iadd_imm_u(need, i64::from(self.len));
        let over = b.ins().icmp(IntCC::UnsignedGreaterThan, need, call.budget);
        let go = b.create_block();
        b.ins().brif(over, call.stop, &[], go, &[]);
        b.switch_to_block(go);
        self.switch(b, p[0], [p[2], p[3], p[4]], call.stop);
    }

    /// Ends the current block with a jump to block number `block` (I32) with `args` (the
    /// executed count, the executing channels, the first waiting instruction); a number past
    /// the blocks goes to `none`.
    fn switch(&self, b: &mut FunctionBuilder<'_>, block: Value, args: [Value; 3], none: Block) {
        let args = args.map(BlockArg::Value);
        let table: Vec<BlockCall> = self
            .host
            .iter()
            .map(|&h| b.func.dfg.block_call(h, &args))
            .collect();
        let none = b.func.dfg.block_call(none, &[]);
        let jt = b.create_jump_table(JumpTableData::new(none, &table));
        b.ins().br_table(block, jt);
    }

    /// The host block that continues at instruction `to` with `ran` executed and the
    /// executing channels and first waiting instruction `now`: its block, or the exit when
    /// `to` is the run's end (or, defensively, not a block's start).
    fn goto(
        &self,
        b: &mut FunctionBuilder<'_>,
        to: u32,
        ran: Value,
        now: (Value, Value),
    ) -> (Block, Vec<BlockArg>) {
        match self.starts.binary_search(&to) {
            Ok(k) => (
                self.host[k],
                vec![
                    BlockArg::Value(ran),
                    BlockArg::Value(now.0),
                    BlockArg::Value(now.1),
                ],
            ),
            Err(_) => {
                let at = b.ins().iconst(I32, i64::from(to.min(self.len)));
                (self.exit, vec![BlockArg::Value(at), BlockArg::Value(ran)])
            }
        }
    }

    /// Leaves the run at instruction `at` with `ran` executed.
    fn leave(&self, b: &mut FunctionBuilder<'_>, at: u32, ran: Value) -> (Block, Vec<BlockArg>) {
        let at = b.ins().iconst(I32, i64::from(at));
        (self.exit, vec![BlockArg::Value(at), BlockArg::Value(ran)])
    }
}

/// Emits `items` from the current block: a jump to the block `call.block` names, the blocks
/// (each starting with nothing held, leaving at a block where channels wait), and the exit;
/// `all_enabled`: every channel of the run's masked instructions executes; `live`: no
/// channel outside it executes ([`Emitter::compile`]'s). Returns the half-precision helper's
/// state for the next body (one stack slot serves both).
#[allow(clippy::too_many_arguments)]
fn body(
    b: &mut FunctionBuilder<'_>,
    file: Value,
    half: Half,
    call: &Call,
    items: &[Item],
    blocks: &Blocks<'_>,
    (all_enabled, live): (bool, u32),
    mad_tables: &mut Vec<Box<[Mad]>>,
) -> Half {
    let (starts, len) = (blocks.starts, blocks.len);
    // Into the block asked for, nothing executed yet; a number past the blocks (never
    // given) returns at once.
    let zero = b.ins().iconst(I64, 0);
    blocks.switch(b, call.block, [zero, call.active, call.wake], call.stop);

    let written_in_part = rows_written_in_part(items);
    let reads = rows_read(items);
    let writes: Vec<_> = items
        .iter()
        .map(|item| match item {
            Item::Step(s) => s.dst_bytes(),
            _ => None,
        })
        .collect();
    // Per item: the first item from it on that tests f32 results for NaN (`items.len()` if
    // none).
    let mut test_from = vec![items.len(); items.len() + 1];
    for (i, item) in items.iter().enumerate().rev() {
        let tests = matches!(item, Item::Step(s) if tests_for_nan(s.op));
        test_from[i] = if tests { i } else { test_from[i + 1] };
    }
    let mut carries = loop_carries(items, starts, &written_in_part);
    let mut e = StepEmitter {
        b,
        file,
        held: Held::default(),
        looping: None,
        written_in_part,
        half,
        all_enabled,
        live,
        call,
        index: 0,
        ran: zero,
        active: call.active,
        wake: call.wake,
        block_start: 0,
        mad_tables,
        reads: &reads,
        writes: &writes,
        test_from: &test_from,
        item: 0,
        offsets: Vec::new(),
    };
    let mut k = 0;
    let mut next_block = 0;
    // The current host block has no terminator yet.
    let mut open = false;
    // Items already emitted with an earlier one (a run of `mad`s).
    let mut skip = 0;
    for (i, item) in items.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if starts.get(next_block) == Some(&k) {
            if open {
                e.write_back();
                let ran = e.ran_at(k);
                let (to, args) = blocks.goto(e.b, k, ran, (e.active, e.wake));
                e.b.ins().jump(to, &args);
            }
            e.start_block(blocks, next_block, k);
            if let Some(carry) = carries.get_mut(next_block).and_then(Option::take) {
                e.enter_loop(carry);
            }
            next_block += 1;
            open = true;
        }
        e.index = k;
        e.item = i;
        if let Some(table) = mad_run(&items[i..], k, starts) {
            k += table.len() as u32;
            skip = table.len().saturating_sub(1);
            e.mads(table);
            for w in writes[i..=i + skip].iter().flatten() {
                e.forget_offsets(*w);
            }
            continue;
        }
        match *item {
            Item::Step(ref step) => {
                e.step(step, e.active);
                k += 1;
            }
            Item::Interpreted(count) => {
                // The interpreter sees the file as the run has made it so far, and may change
                // any of it: nothing stays held across the call.
                e.write_back();
                let next = e.b.create_block();
                e.interpret(k, count, next);
                e.b.switch_to_block(next);
                k += count;
            }
            Item::Message(ref ch, m) => {
                e.write_back();
                e.message(ch, m, k);
                k += 1;
            }
            Item::Branch(ref br) => {
                e.branch(br, blocks);
                k += 1;
                open = false;
            }
            Item::Send(ref ch, own) => {
                e.send(ch, own);
                k += 1;
            }
            Item::End => {
                // The thread ends here: the file as the interpreter would leave it, the end
                // told through the context, and the run returns (`crate::run` ends the
                // thread).
                e.write_back();
                e.leave_at(k);
                // What follows in the run is reached only at a block of its own.
                let next = e.b.create_block();
                e.b.switch_to_block(next);
                k += 1;
            }
            Item::Wait => {
                // No barrier pending (a released thread entering its run at the wait): the
                // wait passes, counted as the interpreter counts it. Else the interpreter's,
                // where the thread stops and the run returns.
                e.write_back();
                let pending =
                    e.b.ins()
                        .load(I32, MemFlagsData::trusted(), call.ctx, BARRIER_PENDING);
                let (wait, next) = (e.b.create_block(), e.b.create_block());
                e.b.ins().brif(pending, wait, &[], next, &[]);
                // The thread stops at the wait: the run leaves (`crate::run` has the
                // interpreter run the wait).
                e.b.switch_to_block(wait);
                e.leave_at(k);
                e.b.switch_to_block(next);
                k += 1;
            }
        }
        e.forget_offsets_after(item);
    }
    if open {
        e.write_back();
        let ran = e.ran_at(len);
        let (to, args) = blocks.leave(e.b, len, ran);
        e.b.ins().jump(to, &args);
    }
    // The exit: the thread put where the run left off.
    e.b.switch_to_block(blocks.exit);
    let p = e.b.block_params(blocks.exit).to_vec();
    let nothing = e.b.ins().iconst(I32, 0);
    e.b.ins().call_indirect(
        call.escape_sig,
        call.escape,
        &[call.ctx, p[0], nothing, p[1]],
    );
    e.b.ins().return_(&[]);
    e.half
}

/// The first `items` (the first at instruction `k`) that are `mad`s [`mads`] computes, at
/// most [`mads::MAX_MADS`], none of them after the first starting a block (`starts`, in
/// order), when they are worth a call ([`mads::worth_a_call`]), their groups marked
/// ([`mads::group`]).
fn mad_run(items: &[Item], k: u32, starts: &[u32]) -> Option<Box<[Mad]>> {
    let mut table: Box<[Mad]> = items
        .iter()
        .take(mads::MAX_MADS)
        .enumerate()
        .map_while(|(j, item)| match item {
            Item::Step(s) if j == 0 || starts.binary_search(&(k + j as u32)).is_err() => Mad::of(s),
            _ => None,
        })
        .collect();
    if !mads::worth_a_call(&table) {
        return None;
    }
    mads::group(&mut table);
    Some(table)
}

/// The rows some translated instruction of `items` writes in part (a scalar, words, bytes not
/// starting or ending at a row's edge).
fn rows_written_in_part(items: &[Item]) -> BTreeSet<usize> {
    let mut rows = BTreeSet::new();
    for item in items {
        let Item::Step(s) = item else { continue };
        let Some((lo, hi)) = s.dst_bytes() else {
            continue;
        };
        if lo % ROW != 0 || hi % ROW != 0 || s.writes_in_part() {
            rows.extend((lo - lo % ROW..hi).step_by(ROW));
        }
    }
    rows
}

/// The rows (16-byte-aligned byte offsets) each of `items` reads from the file, for choosing
/// which held row to let go ([`StepEmitter::next_read`]); `None` for what is not a step (a
/// branch, a send, a call out: held rows go back to the file there or the block ends).
fn rows_read(items: &[Item]) -> Vec<Option<Vec<usize>>> {
    items
        .iter()
        .map(|item| {
            let Item::Step(s) = item else {
                return None;
            };
            Some(
                s.source_bytes()
                    .flat_map(|(lo, hi)| (lo - lo % ROW..hi).step_by(ROW))
                    .collect(),
            )
        })
        .collect()
}

/// The most items ahead [`StepEmitter::next_read`] looks for a held row's next read.
const LOOK_AHEAD: usize = 32;

/// The offset of the least recently used of `slots`.
fn least_used(slots: &BTreeMap<usize, Slot>) -> Option<usize> {
    slots.iter().min_by_key(|(_, s)| s.used).map(|(&k, _)| k)
}

/// Stores the written values of `slots` (each `size` bytes at its byte offset) that overlap
/// bytes `lo..hi`; with `drop`, forgets them, else keeps them as stored.
fn flush_slots(
    b: &mut FunctionBuilder<'_>,
    file: Value,
    slots: &mut BTreeMap<usize, Slot>,
    size: usize,
    (lo, hi): (usize, usize),
    drop: bool,
) {
    let from = lo.saturating_sub(size - 1);
    let keys: Vec<usize> = slots.range(from..hi).map(|(&k, _)| k).collect();
    for k in keys {
        if k + size <= lo {
            continue;
        }
        let slot = slots[&k];
        if slot.dirty {
            b.ins().store(mem(), slot.v, file, k as i32);
        }
        if drop {
            slots.remove(&k);
        } else {
            slots.insert(
                k,
                Slot {
                    dirty: false,
                    ..slot
                },
            );
        }
    }
}

/// The host comparison of a float `cmp` by `cond`, as `sim_eu::exec::alu::cmp_f` compares:
/// ordered but for `ne` and `un`; `None` for `ov` and `eo`, which are never true.
fn float_cc(cond: CondMod) -> Option<FloatCC> {
    match cond {
        CondMod::Eq => Some(FloatCC::Equal),
        CondMod::Ne => Some(FloatCC::NotEqual),
        CondMod::Gt => Some(FloatCC::GreaterThan),
        CondMod::Ge => Some(FloatCC::GreaterThanOrEqual),
        CondMod::Lt => Some(FloatCC::LessThan),
        CondMod::Le => Some(FloatCC::LessThanOrEqual),
        CondMod::Un => Some(FloatCC::Unordered),
        CondMod::Ov | CondMod::Eo => None,
    }
}

/// Whether the translated code tests the results of `op` for NaN ([`StepEmitter::nan_branch`]).
fn tests_for_nan(op: Op) -> bool {
    matches!(op, Op::FAdd | Op::FMul | Op::FMad)
}

/// An instruction's channel masks (bit i for lane i) and where the flags are.
struct Masks {
    enabled: Value,
    /// `enabled` is every channel of the instruction, known when it is emitted.
    enabled_all: bool,
    pred: Option<Value>,
    /// Enabled and predicated: the lanes an operation writes.
    both: Value,
}

impl Masks {
    /// Whether `s` writes every lane of its destination, known when it is emitted: all its
    /// channels are enabled and it writes them whatever the predicate says (or has none).
    fn writes_all(&self, s: &Step) -> bool {
        self.enabled_all && (self.pred.is_none() || s.op.writes_enabled_lanes())
    }
}

/// A register-file value held in an SSA value.
#[derive(Clone, Copy)]
struct Slot {
    v: Value,
    /// Written since it was loaded: stored when it stops being held.
    dirty: bool,
    /// When it was last asked for ([`Held::clock`]).
    used: u64,
}

/// The register-file bytes a run holds in SSA values so far.
#[derive(Default, Clone)]
struct Held {
    /// Rows of four DWords (I32X4) by their 16-byte-aligned byte offset; at most
    /// [`HELD_ROWS`].
    rows: BTreeMap<usize, Slot>,
    /// The 8 flag bytes at [`FLAG`] (I64).
    flags: Option<Slot>,
    /// Single DWords (I32) by their 4-byte-aligned byte offset, outside every held row (a
    /// row taken into `rows` takes its DWords' values with it); at most [`HELD_DWORDS`].
    /// IGC's scalar counters and masks: read and written by consecutive instructions, which
    /// would otherwise each load what the one before stored.
    dwords: BTreeMap<usize, Slot>,
    /// Counts the rows and DWords asked for, to find the one least recently used.
    clock: u64,
}

/// Bytes per held row.
const ROW: usize = 16;

/// The most single DWords a run holds at once (in general registers; x86-64 has 16, some of
/// them the run's context and addresses).
const HELD_DWORDS: usize = 8;

/// The most rows a run holds at once; past it, the one read furthest ahead goes back to the
/// file (stored if written; [`StepEmitter::read_last`]). SSA values beyond the host's vector registers (16 on x86-64)
/// are spilled by the register allocator to stack slots anyway, and every held row that was
/// written costs a store at each call out of the run and on each f32 NaN exit: a convolution
/// run of ~500 instructions holding every row it touched was ~1 MB of host code, nearly all
/// spills and write-backs.
const HELD_ROWS: usize = 16;

/// A structured branch being emitted: its instruction `k`, its jumping channels (I32), the
/// executed count before it and with it (I64), and the executing channels and first waiting
/// instruction where it is (I32 each).
#[derive(Clone, Copy)]
struct Taken {
    k: u32,
    jump: Value,
    ran: Value,
    after: Value,
    now: (Value, Value),
}

/// Emits one instruction into the function being built.
struct StepEmitter<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    file: Value,
    held: Held,
    /// The loop of the current block, when it is one ([`loops`]).
    looping: Option<Looping>,
    half: Half,
    /// Every channel the run's masked instructions use executes ([`body`]).
    all_enabled: bool,
    /// No channel outside these executes ([`body`]): masked instructions on none of them
    /// change nothing, and rows of lanes past them are neither computed nor written.
    live: u32,
    /// The interpreter's entry, for the rest of the run after an f32 NaN ([`nan_branch`]).
    call: &'a Call,
    /// The instruction being emitted, counted from the run's first.
    index: u32,
    /// The instructions executed since the run was entered when its current block started
    /// (I64), and that block's first instruction.
    ran: Value,
    /// The executing channels and the first instruction at which channels wait (I32 each):
    /// the current block's.
    active: Value,
    wake: Value,
    block_start: u32,
    /// [`rows_written_in_part`] of the run.
    written_in_part: BTreeSet<usize>,
    /// Where the tables of the runs of `mad`s go ([`Emitter::mad_tables`]).
    mad_tables: &'a mut Vec<Box<[Mad]>>,
    /// [`rows_read`] of the run's items, and the item being emitted.
    reads: &'a [Option<Vec<usize>>],
    /// Per item, the bytes its destination spans (`None` for what is not a step), and the
    /// first item from it on with an f32 NaN test ([`nan_branch`]; past the items if none).
    writes: &'a [Option<(usize, usize)>],
    test_from: &'a [usize],
    item: usize,
    /// Address registers whose lane offsets a send through a window has checked in the
    /// current block, with nothing written to them since ([`StepEmitter::lane_offsets`]).
    offsets: Vec<LaneOffsets>,
}

/// The lane offsets at GRF byte `at` as checked for a send through a window: lane 0's (I32)
/// and, for more than one lane, whether lane `i`'s is lane 0's plus `step i` with none past
/// 2^32 (I8). Emitted before the send's first branch, so the values serve every later send
/// reading the same bytes until an item writes them or the block ends (IGC reads one
/// address register for several surfaces, and for the store after the loads).
#[derive(Clone, Copy)]
struct LaneOffsets {
    at: u16,
    lanes: u8,
    step: u32,
    first: Value,
    consecutive: Option<Value>,
}

/// What calls to [`half_lanes`] need in the function being built.
struct Half {
    sig: SigRef,
    ptr: Type,
    /// The three sources' [`HALF_SOURCE`] bytes each and the results' 64, made at the first
    /// call.
    slot: Option<StackSlot>,
}

/// Register-file bytes: unaligned, in bounds (checked before a run is entered), little-endian.
/// Where a run's context (the `ctx` its calls out take) holds the thread's barrier-pending
/// flag, a u32 that is 1 while the barrier is signalled and not yet released: the context's
/// first field (`crate::run` builds the context and checks the offset).
pub(crate) const BARRIER_PENDING: i32 = 0;

/// Where a run that leaves for the interpreter to run one instruction without a call out (an
/// [`Item::End`], or an [`Item::Wait`] whose barrier is pending) writes that instruction's
/// index (u32, counted from the run's first; the context holds `u32::MAX` until then) and
/// the instructions executed before it since the run was entered (u64, at [`LEFT_RAN`]).
pub(crate) const LEFT_AT: i32 = 4;
pub(crate) const LEFT_RAN: i32 = 8;

/// Where the context holds whether the memory hears of sends (u32, 1 if so): an
/// [`Item::Message`] without channels is skipped only when it does not.
pub(crate) const HEARS_SENDS: i32 = 16;

fn mem() -> MemFlagsData {
    MemFlagsData::new()
        .with_notrap()
        .with_endianness(Endianness::Little)
}

/// Reinterpreting a vector's lanes keeps their order.
fn lanes() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl StepEmitter<'_, '_> {
    fn step(&mut self, s: &Step, active: Value) {
        if s.op == Op::Keep || self.may_execute(&s.ch) == 0 {
            return;
        }
        let (enabled, pred) = self.masks(s, active);
        let m = Masks {
            enabled,
            enabled_all: self.all_channels(s),
            pred,
            both: match pred {
                Some(p) => self.b.ins().band(enabled, p),
                None => enabled,
            },
        };
        if matches!(s.op, Op::MulAcc { .. } | Op::Mach { .. }) {
            self.wide(s, &m);
        } else if let Op::IntToFloatAcc { unsigned, signed } = s.op {
            self.converted_to_acc(s, &m, unsigned, signed);
        } else if let Op::Carry { sub, acc } = s.op {
            self.carry(s, &m, sub, acc);
        } else if let Op::Spread { dst_stride } = s.op {
            self.spread(s, &m, dst_stride);
        } else if let Op::Double(op) = s.op {
            self.double(s, &m, op);
        } else if s.n == 1 {
            self.scalar(s, &m);
        } else {
            self.vector(s, &m);
        }
    }

    /// IGC's multiply-high pair ([`Op::MulAcc`], [`Op::Mach`]) lane by lane in 64-bit host
    /// integers, as `sim_eu::exec::alu` computes it in 128 bits: every value it stores (the
    /// destination's bits 32..63, the accumulator's low 32 and its wide value's low 64) is
    /// a function of the sum's low 64 bits, and src0 times src1's high word fits in 64.
    fn wide(&mut self, s: &Step, m: &Masks) {
        let Some(dst) = s.dst else {
            return;
        };
        // The accumulator DWords: `mul`'s destination, `mach`'s implicit source.
        let (signed, high, acc) = match s.op {
            Op::MulAcc { signed } => ([signed[0], signed[1], false], false, dst),
            Op::Mach { signed, acc } => (signed, true, acc),
            _ => return,
        };
        // Lane i's wide value: `select::wide` takes only lanes that are accumulator DWords.
        let Some(k0) = acc_dword(acc) else {
            return;
        };
        if s.n >= 4 && s.n.is_multiple_of(4) {
            self.wide_rows(s, m, dst, signed, high, acc, k0);
            return;
        }
        let wide_slot = |i: usize| acc_wide_at(k0 + i) as i32;
        let n = usize::from(s.n);
        // Every lane's sources before any store: a destination may be a source.
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let x = self.lane64(s.src[0], i, signed[0]);
            let y = self.lane64(s.src[1], i, signed[1]);
            if !high {
                out.push((self.b.ins().imul(x, y), None));
                continue;
            }
            let at = usize::from(acc) + 4 * i;
            let low = self.first(Lanes::Scalar(
                at as u16,
                Elem {
                    size: 4,
                    signed: signed[2],
                },
            ));
            let wide = self.b.ins().load(I64, mem(), self.file, wide_slot(i));
            // The wide value while the DWord still holds its low 32 bits, else the DWord.
            let wide_low = self.b.ins().ireduce(I32, wide);
            let same = self.b.ins().icmp(IntCC::Equal, wide_low, low);
            let dword = if signed[2] {
                self.b.ins().sextend(I64, low)
            } else {
                self.b.ins().uextend(I64, low)
            };
            let a = self.b.ins().select(same, wide, dword);
            let y_high = if signed[1] {
                self.b.ins().sshr_imm_u(y, 16)
            } else {
                self.b.ins().ushr_imm_u(y, 16)
            };
            let p = self.b.ins().imul(x, y_high);
            let p = self.b.ins().ishl_imm_u(p, 16);
            let p = self.b.ins().iadd(a, p);
            let hi = self.b.ins().ushr_imm_u(p, 32);
            out.push((p, Some(self.b.ins().ireduce(I32, hi))));
        }
        for (i, (v, hi)) in out.into_iter().enumerate() {
            let on = self.lane_writes(s, m, i);
            let at = usize::from(acc) + 4 * i;
            let low = self.b.ins().ireduce(I32, v);
            self.store_dword(at, on, low);
            let slot = wide_slot(i);
            let old = self.b.ins().load(I64, mem(), self.file, slot);
            let new = self.b.ins().select(on, v, old);
            self.b.ins().store(mem(), new, self.file, slot);
            if let Some(h) = hi {
                self.store_dword(usize::from(dst) + 4 * i, on, h);
            }
        }
    }

    /// [`Op::Spread`] lane by lane: every lane's DWord read before any store (the destination
    /// may overlap the source), then each stored `dst_stride` bytes after the one before, in
    /// the lanes that write.
    fn spread(&mut self, s: &Step, m: &Masks, dst_stride: u8) {
        let Some(dst) = s.dst else {
            return;
        };
        let values: Vec<Value> = (0..usize::from(s.n))
            .map(|i| {
                let x = self.lane32(s.src[0], i);
                self.signed(x, s.sign[0], I32)
            })
            .collect();
        for (i, v) in values.into_iter().enumerate() {
            let on = self.lane_writes(s, m, i);
            self.store_dword(usize::from(dst) + usize::from(dst_stride) * i, on, v);
        }
    }

    /// [`wide`](Self::wide) on rows of four lanes, each pair of lanes in 64-bit vector lanes:
    /// every row's products (`high`: `mach`'s sums) before any store, then their low DWords
    /// to the accumulator's rows from `acc` (accumulator DWord `k0` on), their low 64 bits to
    /// the wide values and, for `mach`, their bits 32..63 to the destination `dst`.
    #[allow(clippy::too_many_arguments)]
    fn wide_rows(
        &mut self,
        s: &Step,
        m: &Masks,
        dst: u16,
        signed: [bool; 3],
        high: bool,
        acc: u16,
        k0: usize,
    ) {
        let chunks = usize::from(s.n) / 4;
        // Per row, its two pairs of lanes' 64-bit values.
        let mut sums: Vec<[Value; 2]> = Vec::with_capacity(chunks);
        let acc_lanes = Lanes::Row {
            base: acc,
            stride: 4,
            elem: Elem {
                size: 4,
                signed: signed[2],
            },
        };
        for c in 0..chunks {
            let x = self.source_row(s.src[0], c);
            let y = self.source_row(s.src[1], c);
            // `mach` multiplies by src1's high word.
            let y = match (high, signed[1]) {
                (false, _) => y,
                (true, true) => self.b.ins().sshr_imm_u(y, 16),
                (true, false) => self.b.ins().ushr_imm_u(y, 16),
            };
            let low = high.then(|| self.source_row(acc_lanes, c));
            let mut pair = [x; 2];
            for (h, v) in pair.iter_mut().enumerate() {
                let x = self.widen(x, signed[0], h == 1);
                let y = self.widen(y, signed[1], h == 1);
                let p = self.b.ins().imul(x, y);
                let Some(low) = low else {
                    *v = p;
                    continue;
                };
                let p = self.b.ins().ishl_imm_u(p, 16);
                // The wide value while the DWord still holds its low 32 bits, else the DWord.
                let slot = acc_wide_at(k0 + 4 * c + 2 * h) as i32;
                let wide = self.b.ins().load(I64X2, mem(), self.file, slot);
                let dword = self.widen(low, signed[2], h == 1);
                let a = self.b.ins().ishl_imm_u(wide, 32);
                let b = self.b.ins().ishl_imm_u(dword, 32);
                let same = self.b.ins().icmp(IntCC::Equal, a, b);
                let base = self.b.ins().bitselect(same, wide, dword);
                *v = self.b.ins().iadd(base, p);
            }
            sums.push(pair);
        }
        let halves = |em: &mut Self, pick: [u8; 4]| -> Vec<Value> {
            sums.iter()
                .map(|&[a, b]| {
                    let a = em.b.ins().bitcast(I32X4, lanes(), a);
                    let b = em.b.ins().bitcast(I32X4, lanes(), b);
                    em.dwords(a, b, pick)
                })
                .collect()
        };
        let lows = halves(self, [0, 2, 4, 6]);
        let highs = high.then(|| halves(self, [1, 3, 5, 7]));
        let to_acc = Step {
            dst: Some(acc),
            ..*s
        };
        self.write_rows(&to_acc, m, lows, false);
        for (c, pair) in sums.iter().enumerate() {
            let on = if m.writes_all(s) {
                None
            } else {
                Some(self.row_mask(m.both, c, false))
            };
            for (h, &v) in pair.iter().enumerate() {
                let slot = acc_wide_at(k0 + 4 * c + 2 * h) as i32;
                let new = match on {
                    None => v,
                    Some(on) => {
                        let on = if h == 0 {
                            self.b.ins().swiden_low(on)
                        } else {
                            self.b.ins().swiden_high(on)
                        };
                        let old = self.b.ins().load(I64X2, mem(), self.file, slot);
                        self.b.ins().bitselect(on, v, old)
                    }
                };
                self.b.ins().store(mem(), new, self.file, slot);
            }
        }
        if let Some(highs) = highs {
            let to_dst = Step {
                dst: Some(dst),
                ..*s
            };
            self.write_rows(&to_dst, m, highs, false);
        }
    }

    /// Lanes 0 and 1 (`upper`: 2 and 3) of the four 32-bit lanes `v`, extended to 64 bits as
    /// they are `signed`.
    fn widen(&mut self, v: Value, signed: bool, upper: bool) -> Value {
        match (signed, upper) {
            (true, false) => self.b.ins().swiden_low(v),
            (true, true) => self.b.ins().swiden_high(v),
            (false, false) => self.b.ins().uwiden_low(v),
            (false, true) => self.b.ins().uwiden_high(v),
        }
    }

    /// [`Op::IntToFloatAcc`] lane by lane: each lane's float to its accumulator DWord and its
    /// integer to the DWord's wide value, in the lanes that write.
    fn converted_to_acc(&mut self, s: &Step, m: &Masks, unsigned: bool, signed: bool) {
        let Some(dst) = s.dst else {
            return;
        };
        let Some(k0) = acc_dword(dst) else {
            return;
        };
        // Every lane's source before any store: the source may be the accumulator.
        let lanes: Vec<_> = (0..usize::from(s.n))
            .map(|i| {
                let x = self.lane32(s.src[0], i);
                let wide = if signed {
                    self.b.ins().sextend(I64, x)
                } else {
                    self.b.ins().uextend(I64, x)
                };
                let f = self.conversion(Op::IntToFloat { unsigned }, x, false);
                (f, wide)
            })
            .collect();
        for (i, (f, wide)) in lanes.into_iter().enumerate() {
            let on = self.lane_writes(s, m, i);
            self.store_dword(usize::from(dst) + 4 * i, on, f);
            let slot = acc_wide_at(k0 + i) as i32;
            let old = self.b.ins().load(I64, mem(), self.file, slot);
            let new = self.b.ins().select(on, wide, old);
            self.b.ins().store(mem(), new, self.file, slot);
        }
    }

    /// `addc`/`subb` ([`Op::Carry`]) lane by lane: every lane's result and carry (borrow)
    /// before any store (a destination may be a source), then the carries to the accumulator
    /// DWords from `acc` and the results to the destination, in the lanes that write.
    fn carry(&mut self, s: &Step, m: &Masks, sub: bool, acc: u16) {
        let Some(dst) = s.dst else {
            return;
        };
        if s.n >= 4 && s.n.is_multiple_of(4) {
            self.carry_rows(s, m, sub, acc);
            return;
        }
        let mut out = Vec::with_capacity(usize::from(s.n));
        for i in 0..usize::from(s.n) {
            let x = self.lane32(s.src[0], i);
            let y = self.lane32(s.src[1], i);
            let (v, c) = if sub {
                (
                    self.b.ins().isub(x, y),
                    self.b.ins().icmp(IntCC::UnsignedLessThan, x, y),
                )
            } else {
                let v = self.b.ins().iadd(x, y);
                (v, self.b.ins().icmp(IntCC::UnsignedLessThan, v, x))
            };
            out.push((v, self.b.ins().uextend(I32, c)));
        }
        for (i, (v, c)) in out.into_iter().enumerate() {
            let on = self.lane_writes(s, m, i);
            self.store_dword(usize::from(acc) + 4 * i, on, c);
            self.store_dword(usize::from(dst) + 4 * i, on, v);
        }
    }

    /// [`Op::Carry`] on rows of four lanes: every row's results and carries (borrows) before
    /// any store, then the carries to the accumulator's rows and the results to the
    /// destination's, with the instruction's masks.
    fn carry_rows(&mut self, s: &Step, m: &Masks, sub: bool, acc: u16) {
        let chunks = usize::from(s.n) / 4;
        let mut values = Vec::with_capacity(chunks);
        let mut carries = Vec::with_capacity(chunks);
        for c in 0..chunks {
            let x = self.source_row(s.src[0], c);
            let y = self.source_row(s.src[1], c);
            let (v, out) = if sub {
                (
                    self.b.ins().isub(x, y),
                    self.b.ins().icmp(IntCC::UnsignedLessThan, x, y),
                )
            } else {
                let v = self.b.ins().iadd(x, y);
                (v, self.b.ins().icmp(IntCC::UnsignedLessThan, v, x))
            };
            values.push(v);
            // All ones where it carries: 1 there.
            carries.push(self.b.ins().ushr_imm_u(out, 31));
        }
        let to_acc = Step {
            dst: Some(acc),
            ..*s
        };
        self.write_rows(&to_acc, m, carries, false);
        self.write_rows(s, m, values, false);
    }

    /// Row `c` (lanes `4c..4c + 4`) of a source as four 32-bit lanes: its row, or its one
    /// value in every lane.
    fn source_row(&mut self, l: Lanes, c: usize) -> Value {
        match l {
            Lanes::Row { base, stride, elem } => self.row(base, stride, elem, c),
            other => {
                let x = self.first(other);
                self.b.ins().splat(I32X4, x)
            }
        }
    }

    /// [`Op::IntToFloat`] or [`Op::FloatToInt`] on `a`: four lanes (I32X4) where `vector`,
    /// else one (I32); any other `op` leaves `a` as it is.
    fn conversion(&mut self, op: Op, a: Value, vector: bool) -> Value {
        let (int, float, flags) = if vector {
            (I32X4, F32X4, lanes())
        } else {
            (I32, F32, MemFlagsData::new())
        };
        match op {
            Op::IntToFloat { unsigned } => {
                let f = if unsigned {
                    self.b.ins().fcvt_from_uint(float, a)
                } else {
                    self.b.ins().fcvt_from_sint(float, a)
                };
                self.b.ins().bitcast(int, flags, f)
            }
            Op::FloatToInt { unsigned } => {
                let f = self.b.ins().bitcast(float, flags, a);
                if unsigned {
                    self.b.ins().fcvt_to_uint_sat(int, f)
                } else {
                    self.b.ins().fcvt_to_sint_sat(int, f)
                }
            }
            _ => a,
        }
    }

    /// 1 when lane `i` of `s` writes its destination (enabled and predicated), else 0.
    fn lane_writes(&mut self, s: &Step, m: &Masks, i: usize) -> Value {
        if m.writes_all(s) {
            self.b.ins().iconst(I32, 1)
        } else {
            let bit = self.b.ins().ushr_imm_u(m.both, i as i64);
            self.b.ins().band_imm_u(bit, 1)
        }
    }

    /// Lane `i` of a source as 32 bits (narrower elements extended as their type is signed).
    fn lane32(&mut self, l: Lanes, i: usize) -> Value {
        let l = match l {
            Lanes::Row { base, stride, elem } => {
                Lanes::Scalar(base + u16::from(stride) * i as u16, elem)
            }
            other => other,
        };
        self.first(l)
    }

    /// Lane `i` of a source, extended to 64 bits as its type is `signed`.
    fn lane64(&mut self, l: Lanes, i: usize, signed: bool) -> Value {
        let v = self.lane32(l, i);
        if signed {
            self.b.ins().sextend(I64, v)
        } else {
            self.b.ins().uextend(I64, v)
        }
    }

    /// Whether every channel of `s` is enabled, known when it is emitted: `NoMask`, or the
    /// run's copy for threads that have not diverged.
    fn all_channels(&self, s: &Step) -> bool {
        s.ch.no_mask || self.all_enabled
    }

    /// The channels of `c` that may execute in this copy of the run (bit i for lane i), known
    /// when it is emitted: none leaves a masked instruction without effect.
    fn may_execute(&self, c: &Channels) -> u32 {
        if c.no_mask {
            c.lanes
        } else {
            self.live.checked_shr(u32::from(c.chan_off)).unwrap_or(0) & c.lanes
        }
    }

    /// The enabled channels and the predicate (`None`: none), bit i for lane i.
    fn masks(&mut self, s: &Step, active: Value) -> (Value, Option<Value>) {
        let enabled = self.enabled(&s.ch, active, self.all_channels(s));
        (enabled, self.predicate(&s.ch))
    }

    /// The enabled channels of `c` (bit i for lane i): all of them when `all` is known, else
    /// the executing ones from its first channel on.
    fn enabled(&mut self, c: &Channels, active: Value, all: bool) -> Value {
        let lanes = i64::from(c.lanes);
        if all {
            return self.b.ins().iconst(I32, lanes);
        }
        let a = self.b.ins().ushr_imm_u(active, i64::from(c.chan_off));
        self.b.ins().band_imm_u(a, lanes)
    }

    /// The predicate of the channels `c` (`None`: none), bit i for lane i.
    fn predicate(&mut self, c: &Channels) -> Option<Value> {
        let p = c.pred?;
        let flags = self.flags();
        let rot = self.b.ins().rotr_imm_u(flags, i64::from(c.flag_rot()));
        // Vertical predicates never reach here (`select` refuses them).
        let mut pred = match p.ctrl.horizontal_group() {
            None => self.b.ins().ireduce(I32, rot),
            Some((g, all)) => self.group_predicate(rot, g, all, c.n),
        };
        if p.invert {
            pred = self.b.ins().bnot(pred);
        }
        Some(pred)
    }

    /// A classified send, called directly on its enabled and predicated channels; when it
    /// declines, the interpreter runs it (and the run stops if the interpreter asks). With a
    /// copy through a window, the host code first tries it itself ([`StepEmitter::direct`]);
    /// a fence is skipped when the memory's fences are quiet.
    fn send(&mut self, ch: &Channels, own: Own) {
        // From the execution mask even in the copy for threads that have not diverged: that
        // copy knows only the translated instructions' channels to be executing.
        let enabled = self.enabled(ch, self.active, ch.no_mask);
        let mask = match self.predicate(ch) {
            Some(p) => self.b.ins().band(enabled, p),
            None => enabled,
        };
        // The send reads and writes the file.
        self.write_back();
        let done = self.b.create_block();
        match own {
            Own::Copy(d) => {
                let call = self.b.create_block();
                self.direct(d, mask, call, done);
                self.b.switch_to_block(call);
            }
            Own::Fence => {
                let call = self.b.create_block();
                let quiet = self.b.ins().load(
                    I64,
                    MemFlagsData::trusted(),
                    self.call.windows,
                    DirectTable::QUIET_FENCES,
                );
                self.b.ins().brif(quiet, done, &[], call, &[]);
                self.b.switch_to_block(call);
            }
            Own::Call => {}
        }
        self.call_send(self.index, mask, done);
        self.b.switch_to_block(done);
    }

    /// Calls the send function ([`SendFn`]) for the run's instruction `k` on the channels
    /// `mask`, then goes on at `next`; when it declines, the interpreter runs the send first.
    fn call_send(&mut self, k: u32, mask: Value, next: Block) {
        let index = self.b.ins().iconst(I32, i64::from(k));
        let c = self.b.ins().call_indirect(
            self.call.send_sig,
            self.call.send,
            &[self.call.ctx, index, mask],
        );
        let declined = self.b.inst_results(c)[0];
        let slow = self.b.create_block();
        self.b.ins().brif(declined, slow, &[], next, &[]);
        self.b.switch_to_block(slow);
        self.interpret(k, 1, next);
    }

    /// Calls the interpreter for the `count` instructions from the run's instruction `k`
    /// (nothing held: the caller wrote it back), then goes on at `next`, or stops the run
    /// when the interpreter asks.
    fn interpret(&mut self, k: u32, count: u32, next: Block) {
        let ran = self.ran_at(k);
        let index = self.b.ins().iconst(I32, i64::from(k));
        let count = self.b.ins().iconst(I32, i64::from(count));
        let c = self.b.ins().call_indirect(
            self.call.escape_sig,
            self.call.escape,
            &[self.call.ctx, index, count, ran],
        );
        let asks_stop = self.b.inst_results(c)[0];
        self.b.ins().brif(asks_stop, self.call.stop, &[], next, &[]);
    }

    /// The send at the run's instruction `k` without a classified form, on the channels `ch`
    /// (nothing held: the caller wrote it back). One that does nothing without channels
    /// (`m.idle`) is skipped when none is enabled and predicated and the memory does not hear
    /// of sends (the interpreter would return at once: no frame, no surface, registers
    /// unchanged); one that loads or stores only (`m.direct`) is run by the classified
    /// sends' function on those channels; the rest, and what that declines, the interpreter
    /// runs.
    fn message(&mut self, ch: &Channels, m: Message, k: u32) {
        // In a copy where none of its channels may execute, the mask is known empty.
        let mask = if self.may_execute(ch) == 0 {
            None
        } else {
            let enabled = self.enabled(ch, self.active, ch.no_mask);
            Some(match self.predicate(ch) {
                Some(p) => self.b.ins().band(enabled, p),
                None => enabled,
            })
        };
        let next = self.b.create_block();
        if m.idle {
            let hears = self
                .b
                .ins()
                .load(I32, MemFlagsData::trusted(), self.call.ctx, HEARS_SENDS);
            let acts = match mask {
                Some(mask) => self.b.ins().bor(mask, hears),
                None => hears,
            };
            let call = self.b.create_block();
            self.b.ins().brif(acts, call, &[], next, &[]);
            self.b.switch_to_block(call);
        }
        if m.direct {
            let mask = mask.unwrap_or_else(|| self.b.ins().iconst(I32, 0));
            self.call_send(k, mask, next);
        } else {
            self.interpret(k, 1, next);
        }
        self.b.switch_to_block(next);
    }

    /// The send `d` through its surface's window, everything it reads already in the file:
    /// when every channel is in `mask`, the offset is what the classified send would take,
    /// and the window holds the access at the alignment rule, the bytes are copied and the
    /// code goes on at `done`; otherwise at `call` (the classified send's own checks, then
    /// the general path's), having changed nothing.
    fn direct(&mut self, d: Direct, mask: Value, call: Block, done: Block) {
        let f = self.file;
        // The offsets' checks come before the first branch, for later sends to share.
        let (off, consecutive) = match d.offset {
            Offset::Lanes {
                at, chan_off, vec, ..
            } => {
                let (first, consecutive) = self.lane_offsets(at, d.lanes, 4 * u32::from(vec));
                let wide = self.b.ins().uextend(I64, first);
                let off = self.b.ins().iadd_imm_u(wide, i64::from(chan_off));
                (off, consecutive)
            }
            Offset::Header { at, shift } => {
                let raw = self.b.ins().load(I32, mem(), f, i32::from(at));
                let wide = self.b.ins().uextend(I64, raw);
                (self.b.ins().ishl_imm_u(wide, i64::from(shift)), None)
            }
        };
        let every = self
            .b
            .ins()
            .icmp_imm_u(IntCC::Equal, mask, i64::from(d.all()));
        let ok = match consecutive {
            Some(c) => self.b.ins().band(every, c),
            None => every,
        };
        self.or_else(ok, call);
        // The window (offsets stay below 2^37: no wrap).
        let (off, at) = match d.space {
            DirectSpace::Bti(bti) => (off, i64::from(bti) * DirectWindow::SIZE as i64),
            DirectSpace::Slm { mask } => {
                // The run's bytes are consecutive SLM bytes when its last one has a 32-bit
                // offset and the masked offset's run lies in the SLM (smaller than the mask).
                let past = self.b.ins().iadd_imm_u(off, i64::from(d.len));
                let fits =
                    self.b
                        .ins()
                        .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, past, 1i64 << 32);
                self.or_else(fits, call);
                let masked = self.b.ins().band_imm_u(off, i64::from(mask));
                (masked, i64::from(DirectTable::SLM))
            }
        };
        let w = self.b.ins().iadd_imm_u(self.call.windows, at);
        let flags = MemFlagsData::trusted();
        let start = self.b.ins().load(I64, flags, w, DirectWindow::START);
        let end_at = if d.write {
            DirectWindow::WRITE_END
        } else {
            DirectWindow::END
        };
        let end = self.b.ins().load(I64, flags, w, end_at);
        let base = self.b.ins().load(I64, flags, w, DirectWindow::BASE);
        let past = self.b.ins().iadd_imm_u(off, i64::from(d.len));
        let from = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, off, start);
        let to = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, past, end);
        let addr = self.b.ins().iadd(base, off);
        let rem = self.b.ins().band_imm_u(addr, i64::from(d.align) - 1);
        let aligned = self.b.ins().icmp_imm_u(IntCC::Equal, rem, 0);
        let inside = self.b.ins().band(from, to);
        let ok = self.b.ins().band(inside, aligned);
        self.or_else(ok, call);
        let host = self.b.ins().load(I64, flags, w, DirectWindow::HOST);
        let p = self.b.ins().iadd(host, off);
        match d.offset {
            Offset::Lanes { vec, component, .. } if vec > 1 => {
                self.copy_vectors(d, p, vec, i32::from(component))
            }
            _ => self.copy_run(d, p),
        }
        self.b.ins().jump(done, &[]);
    }

    /// Lane 0's offset of the `lanes` at GRF byte `at` and, for more than one lane, whether
    /// every lane's is lane 0's plus `step` times its number without passing 2^32
    /// (`quick`'s rule): [`LaneOffsets`], checked here unless the block has checked them
    /// since they were last written. The file holds the current values (written back).
    fn lane_offsets(&mut self, at: u16, lanes: u8, step: u32) -> (Value, Option<Value>) {
        let known = self
            .offsets
            .iter()
            .find(|o| (o.at, o.lanes, o.step) == (at, lanes, step));
        if let Some(o) = known {
            return (o.first, o.consecutive);
        }
        let f = self.file;
        let first = self.b.ins().load(I32, mem(), f, i32::from(at));
        let consecutive = (lanes > 1).then(|| {
            let last = i64::from(u32::MAX - step * (u32::from(lanes) - 1));
            let fits = self
                .b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, first, last);
            let firsts = self.b.ins().splat(I32X4, first);
            let mut differ = None;
            for k in 0..u32::from(lanes) / 4 {
                let row = self
                    .b
                    .ins()
                    .load(I32X4, mem(), f, i32::from(at) + 16 * k as i32);
                let steps = self.i32x4_const([0, 1, 2, 3].map(|l| (4 * k + l) * step));
                let want = self.b.ins().iadd(firsts, steps);
                let x = self.b.ins().bxor(row, want);
                differ = Some(match differ {
                    Some(acc) => self.b.ins().bor(acc, x),
                    None => x,
                });
            }
            match differ {
                Some(x) => {
                    let any = self.b.ins().vany_true(x);
                    let same = self.b.ins().icmp_imm_u(IntCC::Equal, any, 0);
                    self.b.ins().band(fits, same)
                }
                None => fits,
            }
        });
        self.offsets.push(LaneOffsets {
            at,
            lanes,
            step,
            first,
            consecutive,
        });
        (first, consecutive)
    }

    /// Forgets the checked lane offsets ([`LaneOffsets`]) overlapping the file bytes
    /// `lo..hi`.
    fn forget_offsets(&mut self, (lo, hi): (usize, usize)) {
        self.offsets.retain(|o| {
            let at = usize::from(o.at);
            at + 4 * usize::from(o.lanes) <= lo || hi <= at
        });
    }

    /// Forgets the checked lane offsets `item` (the one being emitted) may have changed: a
    /// step's or a send's destination bytes, everything for what the interpreter or a call
    /// out runs (whole registers: a declined send's response is).
    fn forget_offsets_after(&mut self, item: &Item) {
        match *item {
            Item::Step(_) => {
                if let Some(&Some(w)) = self.writes.get(self.item) {
                    self.forget_offsets(w);
                }
            }
            Item::Send(_, Own::Copy(d)) if d.write => {}
            Item::Send(_, Own::Copy(d)) => {
                let (lo, hi) = d.data_bytes();
                self.forget_offsets((lo - lo % REG_BYTES, hi.next_multiple_of(REG_BYTES)));
            }
            Item::Send(..)
            | Item::Interpreted(_)
            | Item::Message(..)
            | Item::Branch(_)
            | Item::Wait
            | Item::End => self.offsets.clear(),
        }
    }

    /// [`StepEmitter::direct`]'s copy when the bytes are in the same order in memory (at
    /// `p`) and in the registers.
    fn copy_run(&mut self, d: Direct, p: Value) {
        let f = self.file;
        let (src, dst, reg_src) = if d.write { (f, p, true) } else { (p, f, false) };
        let data = i32::from(d.data_at);
        let (src_off, dst_off) = if reg_src { (data, 0) } else { (0, data) };
        let mut k = 0i32;
        let len = i32::from(d.len);
        for (ty, size) in [(I32X4, 16), (I64, 8), (I32, 4)] {
            while k + size <= len {
                let v = self.b.ins().load(ty, mem(), src, src_off + k);
                self.b.ins().store(mem(), v, dst, dst_off + k);
                k += size;
            }
        }
    }

    /// [`StepEmitter::direct`]'s copy of `vec` (2 or 4) DWords per lane, four lanes at a
    /// time: lane-major in memory (at `p`), component-major in the registers (component `k`
    /// at `component` bytes times `k` from the data); the 4x4 (or 4x2) transposition is its
    /// own inverse, so reads and writes share it.
    fn copy_vectors(&mut self, d: Direct, p: Value, vec: u8, component: i32) {
        let f = self.file;
        let data = i32::from(d.data_at);
        let vec = usize::from(vec);
        for j in 0..i32::from(d.lanes) / 4 {
            // Memory: four lanes' vectors, 16 * vec bytes from lane 4j's.
            let mem_at = |r: usize| 16 * vec as i32 * j + 16 * r as i32;
            // Registers: component k of lanes 4j..4j+3.
            let reg_at = |k: usize| data + component * k as i32 + 16 * j;
            let rows: Vec<Value> = (0..vec)
                .map(|r| {
                    if d.write {
                        self.b.ins().load(I32X4, mem(), f, reg_at(r))
                    } else {
                        self.b.ins().load(I32X4, mem(), p, mem_at(r))
                    }
                })
                .collect();
            let out = match (vec, d.write) {
                // [x0 y0 x1 y1] [x2 y2 x3 y3] <-> [x0 x1 x2 x3] [y0 y1 y2 y3]
                (2, false) => vec![
                    self.dwords(rows[0], rows[1], [0, 2, 4, 6]),
                    self.dwords(rows[0], rows[1], [1, 3, 5, 7]),
                ],
                (2, true) => vec![
                    self.dwords(rows[0], rows[1], [0, 4, 1, 5]),
                    self.dwords(rows[0], rows[1], [2, 6, 3, 7]),
                ],
                _ => {
                    let t0 = self.dwords(rows[0], rows[1], [0, 4, 1, 5]);
                    let t1 = self.dwords(rows[0], rows[1], [2, 6, 3, 7]);
                    let t2 = self.dwords(rows[2], rows[3], [0, 4, 1, 5]);
                    let t3 = self.dwords(rows[2], rows[3], [2, 6, 3, 7]);
                    vec![
                        self.dwords(t0, t2, [0, 1, 4, 5]),
                        self.dwords(t0, t2, [2, 3, 6, 7]),
                        self.dwords(t1, t3, [0, 1, 4, 5]),
                        self.dwords(t1, t3, [2, 3, 6, 7]),
                    ]
                }
            };
            for (r, v) in out.into_iter().enumerate() {
                if d.write {
                    self.b.ins().store(mem(), v, p, mem_at(r));
                } else {
                    self.b.ins().store(mem(), v, f, reg_at(r));
                }
            }
        }
    }

    /// The DWords `pick` of `a` (0..4) and `b` (4..8), as a four-DWord vector.
    fn dwords(&mut self, a: Value, b: Value, pick: [u8; 4]) -> Value {
        let bytes: Vec<u8> = pick
            .iter()
            .flat_map(|&d| (0..4).map(move |i| 4 * d + i))
            .collect();
        let mask = self.b.func.dfg.immediates.push(ConstantData::from(bytes));
        let a = self.b.ins().bitcast(I8X16, lanes(), a);
        let b = self.b.ins().bitcast(I8X16, lanes(), b);
        let v = self.b.ins().shuffle(a, b, mask);
        self.b.ins().bitcast(I32X4, lanes(), v)
    }

    /// Goes on in a new block when `ok` (an I8 condition) holds, else jumps to `other`.
    fn or_else(&mut self, ok: Value, other: Block) {
        let next = self.b.create_block();
        self.b.ins().brif(ok, next, &[], other, &[]);
        self.b.switch_to_block(next);
    }

    /// Leaves the run at its instruction `k` for the interpreter to run that instruction
    /// (`crate::run`): writes where, and after how many instructions ([`LEFT_AT`],
    /// [`LEFT_RAN`]), then returns. Called with the file written back.
    fn leave_at(&mut self, k: u32) {
        let ran = self.ran_at(k);
        let index = self.b.ins().iconst(I32, i64::from(k));
        let flags = MemFlagsData::trusted();
        self.b.ins().store(flags, index, self.call.ctx, LEFT_AT);
        self.b.ins().store(flags, ran, self.call.ctx, LEFT_RAN);
        self.b.ins().jump(self.call.stop, &[]);
    }

    /// The executed count at the current block's instruction `k` (I64).
    fn ran_at(&mut self, k: u32) -> Value {
        match k - self.block_start {
            0 => self.ran,
            d => self.b.ins().iadd_imm_u(self.ran, i64::from(d)),
        }
    }

    /// Starts block number `block` (instruction `k`), holding nothing: the run leaves there
    /// when channels wait at it or before it.
    fn start_block(&mut self, blocks: &Blocks<'_>, block: usize, k: u32) {
        let h = blocks.host[block];
        self.b.switch_to_block(h);
        self.held = Held {
            clock: self.held.clock,
            ..Held::default()
        };
        self.looping = None;
        self.offsets.clear();
        let p = self.b.block_params(h).to_vec();
        (self.ran, self.active, self.wake) = (p[0], p[1], p[2]);
        self.block_start = k;
        let waits =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, self.wake, i64::from(k));
        let go_on = self.b.create_block();
        if let Some(part) = self.call.part {
            // Channels join here: the run goes on where the run loop would.
            let rejoin = self.b.create_block();
            self.b.ins().brif(waits, rejoin, &[], go_on, &[]);
            self.b.switch_to_block(rejoin);
            let none = self.b.ins().iconst(I32, 0);
            self.call_part(part, k, REJOIN, none, self.ran, self.ran);
        } else {
            let (out, args) = blocks.leave(self.b, k, self.ran);
            self.b.ins().brif(waits, out, &args, go_on, &[]);
        }
        self.b.switch_to_block(go_on);
    }

    /// A structured branch, ending the current block: where every executing channel goes,
    /// the host code goes (a jump back only while the budget allows another pass to the
    /// run's end); when they part ways, [`Self::part`].
    fn branch(&mut self, br: &Branch, blocks: &Blocks<'_>) {
        let k = self.index;
        let active = self.active;
        let now = (active, self.wake);
        // The interpreter's acting channels: enabled (`NoMask` or executing) and executing.
        let c = &br.ch;
        let acting = (u64::from(c.lanes) << c.chan_off) as u32;
        let a = self.b.ins().band_imm_u(active, i64::from(acting));
        let p = match self.predicate(c) {
            None => a,
            Some(pred) => {
                let at = self.b.ins().ishl_imm_u(pred, i64::from(c.chan_off));
                self.b.ins().band(at, a)
            }
        };
        let jump = match br.jumps {
            Jumps::Unpredicated => self.b.ins().band_not(a, p),
            Jumps::All => a,
            Jumps::Predicated => p,
            Jumps::Nothing => self.b.ins().iconst(I32, 0),
        };
        let looped = br.jumps != Jumps::Nothing && self.loops_to(br.to);
        if !looped {
            self.write_back();
        }
        let ran = self.ran_at(k);
        let after = self.b.ins().iadd_imm_u(ran, 1);
        let at = Taken {
            k,
            jump,
            ran,
            after,
            now,
        };
        if looped {
            self.loop_branch(&at, br.to, blocks, |e| e.part(br, &at, blocks));
            return;
        }
        if br.jumps == Jumps::Nothing {
            self.go(&at, k + 1, blocks);
            return;
        }
        let none = self.b.ins().icmp_imm_u(IntCC::Equal, jump, 0);
        let (on, some) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(none, on, &[], some, &[]);
        self.b.switch_to_block(some);
        let all = self.b.ins().icmp(IntCC::Equal, jump, active);
        let (taken, parted) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(all, taken, &[], parted, &[]);
        self.b.switch_to_block(parted);
        self.part(br, &at, blocks);
        self.b.switch_to_block(taken);
        self.go(&at, br.to, blocks);
        self.b.switch_to_block(on);
        self.go(&at, k + 1, blocks);
    }

    /// Ends the current block going where every executing channel of the branch `at` goes,
    /// instruction `dest`: a jump to its block (back only while the budget allows another
    /// pass to the run's end), whose start lets channels waiting there or before rejoin.
    fn go(&mut self, at: &Taken, dest: u32, blocks: &Blocks<'_>) {
        let (to, to_args) = blocks.goto(self.b, dest, at.after, at.now);
        if dest > at.k {
            self.b.ins().jump(to, &to_args);
            return;
        }
        let over = self.past_budget(at, dest, blocks);
        let (out, out_args) = blocks.leave(self.b, at.k, at.ran);
        self.b.ins().brif(over, out, &out_args, to, &to_args);
    }

    /// Whether going back from the branch `at` to the run's instruction `dest` could pass the
    /// budget (I8): from `dest` the run executes at most `len - dest` instructions before its
    /// next jump back or its end.
    fn past_budget(&mut self, at: &Taken, dest: u32, blocks: &Blocks<'_>) -> Value {
        let need = self
            .b
            .ins()
            .iadd_imm_u(at.after, i64::from(blocks.len - dest));
        self.b
            .ins()
            .icmp(IntCC::UnsignedGreaterThan, need, self.call.budget)
    }

    /// The branch `at` whose channels part ways, taken by the parting branches' function,
    /// which puts them where the run loop would; the run goes on where the thread does
    /// ([`Blocks::dispatch`]). Without the function the run leaves before the branch, for
    /// the interpreter.
    fn part(&mut self, br: &Branch, at: &Taken, blocks: &Blocks<'_>) {
        match self.call.part {
            Some(part) => self.call_part(part, at.k, br.to, at.jump, at.ran, at.after),
            None => {
                let (out, out_args) = blocks.leave(self.b, at.k, at.ran);
                self.b.ins().jump(out, &out_args);
            }
        }
    }

    /// Ends the current block with a call of the parting branches' function `part` for the
    /// instruction `k` (`to`, `jump`, `ran` its arguments; `to` [`REJOIN`]: reached in
    /// sequence) and a jump to its dispatch with `after` executed.
    fn call_part(&mut self, part: Parting, k: u32, to: u32, jump: Value, ran: Value, after: Value) {
        let Parting { out, dispatch, .. } = part;
        let ptr = self.half.ptr;
        let block = self.parting_call(part, k, to, jump, ran);
        let gone = self
            .b
            .ins()
            .icmp_imm_u(IntCC::Equal, block, i64::from(u32::MAX));
        let go = self.b.create_block();
        self.b.ins().brif(gone, self.call.stop, &[], go, &[]);
        self.b.switch_to_block(go);
        let word = |e: &mut Self, at: i32| e.b.ins().stack_load(ptr, I32, out, at);
        let (at, active, wake) = (word(self, 0), word(self, 4), word(self, 8));
        let args = [block, at].map(BlockArg::Value);
        let rest = [after, active, wake].map(BlockArg::Value);
        let all: Vec<BlockArg> = args.into_iter().chain(rest).collect();
        self.b.ins().jump(dispatch, &all);
    }

    /// The call of the parting branches' function `part` with the instruction `k`, `to`,
    /// `jump` and `ran` (its out words at `part.out`); returns its answer.
    fn parting_call(&mut self, part: Parting, k: u32, to: u32, jump: Value, ran: Value) -> Value {
        let index = self.b.ins().iconst(I32, i64::from(k));
        let to = self.b.ins().iconst(I32, i64::from(to));
        let words = self.b.ins().stack_addr(self.half.ptr, part.out, 0);
        let c = self.b.ins().call_indirect(
            part.sig,
            part.f,
            &[self.call.ctx, index, to, jump, ran, words],
        );
        self.b.inst_results(c)[0]
    }

    /// A horizontal group predicate (`.any16h`, `.all8h`, ...) on the flags `f` rotated to
    /// the instruction's first channel, as the interpreter's `predicate_bits`: each group of
    /// `g` lanes from lane 0, for the groups that start below `n`, is all ones when any (or,
    /// with `all`, all) of its `g` flag bits are set, else zero.
    fn group_predicate(&mut self, f: Value, g: u32, all: bool, n: u8) -> Value {
        let gm = if g == 32 {
            u64::from(u32::MAX)
        } else {
            (1u64 << g) - 1
        };
        let mut out = self.b.ins().iconst(I32, 0);
        for start in (0..u32::from(n.max(1))).step_by(g as usize) {
            let m = (gm << start) as i64;
            let bits = self.b.ins().band_imm_u(f, m);
            let on = if all {
                self.b.ins().icmp_imm_u(IntCC::Equal, bits, m)
            } else {
                self.b.ins().icmp_imm_u(IntCC::NotEqual, bits, 0)
            };
            let lanes = self.b.ins().iconst(I32, i64::from((gm << start) as u32));
            let zero = self.b.ins().iconst(I32, 0);
            let v = self.b.ins().select(on, lanes, zero);
            out = self.b.ins().bor(out, v);
        }
        out
    }

    /// Sets the flag bits `bits` of the lanes in `mask` in the instruction's flag register.
    fn set_flags(&mut self, s: &Step, m: &Masks, bits: Value) {
        let old = self.flags();
        let rot = i64::from(s.ch.flag_rot());
        let mask = self.b.ins().uextend(I64, m.both);
        let mask = self.b.ins().rotl_imm_u(mask, rot);
        let v = self.b.ins().uextend(I64, bits);
        let v = self.b.ins().rotl_imm_u(v, rot);
        let keep = self.b.ins().band_not(old, mask);
        let set = self.b.ins().band(v, mask);
        let new = self.b.ins().bor(keep, set);
        self.set_held_flags(new);
    }

    /// The vector of four DWords `v`.
    fn i32x4_const(&mut self, v: [u32; 4]) -> Value {
        let bits: Vec<u8> = v.iter().flat_map(|d| d.to_le_bytes()).collect();
        let k = self.b.func.dfg.constants.insert(ConstantData::from(bits));
        self.b.ins().vconst(I32X4, k)
    }

    /// All ones in the lanes `4c..4c + 4` whose bit is set in the splatted mask `m`.
    fn lane_mask(&mut self, m: Value, c: usize) -> Value {
        let kv = self.i32x4_const([0, 1, 2, 3].map(|l| 1u32 << (4 * c + l)));
        let sel = self.b.ins().band(m, kv);
        self.b.ins().icmp(IntCC::Equal, sel, kv)
    }

    /// All ones in the bytes of row `c` of a destination whose element's bit is set in the
    /// store mask `store` (DWords: lanes `4c..4c + 4`; words: lanes `8c..8c + 8`).
    fn row_mask(&mut self, store: Value, c: usize, words: bool) -> Value {
        if !words {
            let m = self.b.ins().splat(I32X4, store);
            return self.lane_mask(m, c);
        }
        let m = self.b.ins().ushr_imm_u(store, 8 * c as i64);
        let m = self.b.ins().ireduce(I16, m);
        let m = self.b.ins().splat(I16X8, m);
        let bits: Vec<u8> = (0..8).flat_map(|l| (1u16 << l).to_le_bytes()).collect();
        let k = self.b.func.dfg.constants.insert(ConstantData::from(bits));
        let kv = self.b.ins().vconst(I16X8, k);
        let sel = self.b.ins().band(m, kv);
        let on = self.b.ins().icmp(IntCC::Equal, sel, kv);
        self.b.ins().bitcast(I32X4, lanes(), on)
    }

    /// Four-lane results (each lane's low 16 bits kept) packed two by two into rows of
    /// eight words.
    fn pack_words(&mut self, results: &[Value]) -> Vec<Value> {
        let low = self.b.ins().iconst(I32, 0xffff);
        let low = self.b.ins().splat(I32X4, low);
        results
            .chunks(2)
            .map(|pair| {
                let a = self.b.ins().band(pair[0], low);
                let b = pair.get(1).map_or(a, |&b| self.b.ins().band(b, low));
                // Every lane is in 0..=0xffff: the saturating narrow is exact.
                let w = self.b.ins().unarrow(a, b);
                self.b.ins().bitcast(I32X4, lanes(), w)
            })
            .collect()
    }

    /// A conditional `sel`'s choice: all ones where src0 is picked. `lt` and `ge` on floats
    /// (`min`, `max`) pick the number where one source is NaN (the interpreter's `sel_f`).
    fn sel_pick(&mut self, op: Op, a: Value, b: Value, ty: Type, fty: Type) -> Value {
        let Op::SelCmp {
            cond,
            float,
            signed,
        } = op
        else {
            return a;
        };
        let cmp = Op::Cmp {
            cond,
            float,
            signed,
            nan_true: false,
        };
        let r = self.compare(cmp, a, b, ty, fty);
        if !(float && matches!(cond, CondMod::Lt | CondMod::Ge)) {
            return r;
        }
        let fa = self.b.ins().bitcast(fty, lanes(), a);
        let fb = self.b.ins().bitcast(fty, lanes(), b);
        let mut only_b = self.only_src1_nan(fa, fb);
        if ty == I32 {
            let w = self.b.ins().uextend(I32, only_b);
            only_b = self.b.ins().ineg(w);
        }
        self.b.ins().bor(r, only_b)
    }

    /// Where `b` is a NaN and `a` is not (`fcmp` lanes): where `sel.l` and `sel.ge` (`min`,
    /// `max`) pick `a` although no comparison holds (the interpreter's `sel_f`).
    pub(super) fn only_src1_nan(&mut self, a: Value, b: Value) -> Value {
        let b_nan = self.b.ins().fcmp(FloatCC::Unordered, b, b);
        let a_number = self.b.ins().fcmp(FloatCC::Ordered, a, a);
        self.b.ins().band(b_nan, a_number)
    }

    /// An integer operation's condition ([`Step::flag`]) on its result lanes `r`: all ones
    /// where the result compares with zero by it (as [`Self::compare`]); `None` without one.
    fn tests_result(&mut self, s: &Step, r: Value, ty: Type) -> Option<Value> {
        let (cond, signed) = s.flag?;
        let test = Op::Cmp {
            cond,
            float: false,
            signed,
            nan_true: false,
        };
        let zero = self.b.ins().iconst(I32, 0);
        let zero = if ty == I32 {
            zero
        } else {
            self.b.ins().splat(ty, zero)
        };
        let fty = if ty == I32 { F32 } else { F32X4 };
        Some(self.compare(test, r, zero, ty, fty))
    }

    /// A comparison's lanes: all ones where it holds (four lanes in a vector, or one as I8
    /// widened to all ones or zero in an I32).
    fn compare(&mut self, op: Op, a: Value, b: Value, ty: Type, fty: Type) -> Value {
        let Op::Cmp {
            cond,
            float,
            signed,
            nan_true,
        } = op
        else {
            return a;
        };
        let zero = |e: &mut Self| {
            let z = e.b.ins().iconst(I32, 0);
            if ty == I32 {
                z
            } else {
                e.b.ins().splat(ty, z)
            }
        };
        let widen = |e: &mut Self, v: Value| {
            if ty == I32 {
                let w = e.b.ins().uextend(I32, v);
                e.b.ins().ineg(w)
            } else {
                v
            }
        };
        if float {
            let fa = self.b.ins().bitcast(fty, lanes(), a);
            let fb = self.b.ins().bitcast(fty, lanes(), b);
            let mut r = match float_cc(cond) {
                Some(cc) => {
                    let v = self.b.ins().fcmp(cc, fa, fb);
                    widen(self, v)
                }
                None => zero(self),
            };
            if nan_true {
                let n = self.b.ins().fcmp(FloatCC::Unordered, fb, fb);
                let n = widen(self, n);
                r = self.b.ins().bor(r, n);
            }
            r
        } else {
            let (gt, ge, lt, le) = if signed {
                (
                    IntCC::SignedGreaterThan,
                    IntCC::SignedGreaterThanOrEqual,
                    IntCC::SignedLessThan,
                    IntCC::SignedLessThanOrEqual,
                )
            } else {
                (
                    IntCC::UnsignedGreaterThan,
                    IntCC::UnsignedGreaterThanOrEqual,
                    IntCC::UnsignedLessThan,
                    IntCC::UnsignedLessThanOrEqual,
                )
            };
            let cc = match cond {
                CondMod::Eq => Some(IntCC::Equal),
                CondMod::Ne => Some(IntCC::NotEqual),
                CondMod::Gt => Some(gt),
                CondMod::Ge => Some(ge),
                CondMod::Lt => Some(lt),
                CondMod::Le => Some(le),
                CondMod::Ov | CondMod::Un | CondMod::Eo => None,
            };
            // x86 has no unsigned vector `>`: with the sign bits flipped the signed compare
            // gives the unsigned order (two XORs and `pcmpgtd` instead of `pminud`, `pcmpeqd`
            // and a NOT; a uniform source's XOR is made once for all its chunks).
            let vector_unsigned = !signed && ty != I32;
            let biased = match cond {
                CondMod::Gt if vector_unsigned => Some(IntCC::SignedGreaterThan),
                CondMod::Lt if vector_unsigned => Some(IntCC::SignedLessThan),
                _ => None,
            };
            if let Some(cc) = biased {
                let bias = self.lanes_of(0x8000_0000, ty);
                let a = self.b.ins().bxor(a, bias);
                let b = self.b.ins().bxor(b, bias);
                let v = self.b.ins().icmp(cc, a, b);
                return widen(self, v);
            }
            match cc {
                Some(cc) => {
                    let v = self.b.ins().icmp(cc, a, b);
                    widen(self, v)
                }
                None => zero(self),
            }
        }
    }

    /// Stores the held values that overlap bytes `lo..hi` and were written; with `drop`,
    /// forgets them too (the file is about to be written there).
    fn flush(&mut self, lo: usize, hi: usize, drop: bool) {
        let (b, file) = (&mut *self.b, self.file);
        flush_slots(b, file, &mut self.held.rows, ROW, (lo, hi), drop);
        flush_slots(b, file, &mut self.held.dwords, 4, (lo, hi), drop);
        if let Some(slot) = self.held.flags {
            if FLAG < hi && lo < FLAG + 8 {
                if slot.dirty {
                    self.b.ins().store(mem(), slot.v, self.file, FLAG as i32);
                }
                self.held.flags = (!drop).then_some(Slot {
                    dirty: false,
                    ..slot
                });
            }
        }
    }

    /// The row of four DWords at the 16-byte-aligned offset `off`, loaded at its first use.
    fn held_row(&mut self, off: usize) -> Value {
        self.held.clock += 1;
        let now = self.held.clock;
        if let Some(slot) = self.held.rows.get_mut(&off) {
            slot.used = now;
            return slot.v;
        }
        self.flush(off, off + ROW, false);
        let v = self.b.ins().load(I32X4, mem(), self.file, off as i32);
        self.hold(off, v, false);
        v
    }

    /// Writes the row at the 16-byte-aligned offset `off` (stored when it stops being held).
    fn set_held_row(&mut self, off: usize, v: Value) {
        // The row it replaces needs no store; other held bytes there (the flags) do.
        self.held.rows.remove(&off);
        self.flush(off, off + ROW, true);
        self.held.clock += 1;
        self.hold(off, v, true);
    }

    /// Holds `v` as the row at `off` (not held now), making room for it first.
    fn hold(&mut self, off: usize, v: Value, dirty: bool) {
        // The callers stored the row's written DWords (a load) or dropped them (a write):
        // from here the row holds their values.
        debug_assert!(self
            .held
            .dwords
            .range(off..off + ROW)
            .all(|(_, d)| !d.dirty));
        self.held
            .dwords
            .retain(|&k, _| !(off..off + ROW).contains(&k));
        while self.held.rows.len() >= HELD_ROWS {
            // A result is held once the instruction has read its sources: what only it
            // reads may go then.
            let Some(far) = self.read_last(usize::from(dirty)) else {
                break;
            };
            self.flush(far, far + ROW, true);
        }
        let used = self.held.clock;
        // Before an f32 instruction's NaN test, a written row is stored at once: each test's
        // exit to the interpreter would otherwise store it again (code, not time: the exits
        // are rare, but a run's code grew by a store per written row per f32 instruction).
        // Not when a step before that test writes the row again (IGC's address arithmetic
        // writes one register three times before its sends): that write's value is the one
        // the test's exit would store.
        let tests_ahead = self.test_from.get(self.item) < Some(&self.writes.len());
        let through = dirty && tests_ahead && !self.rewritten_before_a_test(off);
        if through {
            self.b.ins().store(mem(), v, self.file, off as i32);
        }
        let dirty = dirty && !through;
        self.held.rows.insert(off, Slot { v, dirty, used });
    }

    /// The flag registers' 8 bytes, loaded at their first use.
    fn flags(&mut self) -> Value {
        if let Some(slot) = self.held.flags {
            return slot.v;
        }
        self.flush(FLAG, FLAG + 8, false);
        let v = self.b.ins().load(I64, mem(), self.file, FLAG as i32);
        self.held.flags = Some(Slot {
            v,
            dirty: false,
            used: 0,
        });
        v
    }

    /// Writes the flag registers' 8 bytes (stored at the run's end).
    fn set_held_flags(&mut self, v: Value) {
        self.held.flags = None;
        self.flush(FLAG, FLAG + 8, true);
        self.held.flags = Some(Slot {
            v,
            dirty: true,
            used: 0,
        });
    }

    /// Whether a step after the current item, before the next item that tests for NaN and
    /// within [`LOOK_AHEAD`] items, writes bytes of the row at `off`.
    fn rewritten_before_a_test(&self, off: usize) -> bool {
        let from = self.item + 1;
        let to = self
            .test_from
            .get(from)
            .map_or(from, |&t| t.min(from + LOOK_AHEAD));
        self.writes.get(from..to.max(from)).is_some_and(|w| {
            w.iter()
                .flatten()
                .any(|&(lo, hi)| lo < off + ROW && off < hi)
        })
    }

    /// Of the held rows, the one read furthest ahead from `ahead` items past the current one
    /// ([`next_read`]; the least recently used among equals): letting it go costs the fewest
    /// loads again. Two SIMD16 chains of dependent `mad`s (clpeak's, IGC's M0 and M16
    /// halves) need exactly the sixteen rows held; the least recently used one was the row
    /// the other chain read next.
    fn read_last(&self, ahead: usize) -> Option<usize> {
        self.held
            .rows
            .iter()
            .max_by_key(|&(&at, s)| (self.next_read(at, ahead), std::cmp::Reverse(s.used)))
            .map(|(&k, _)| k)
    }

    /// How many items from `ahead` past the current one the row at `at` is read next, up to
    /// [`LOOK_AHEAD`] and not past the first item that is not a step (`usize::MAX` if not).
    fn next_read(&self, at: usize, ahead: usize) -> usize {
        self.reads
            .iter()
            .skip(self.item + ahead)
            .take(LOOK_AHEAD)
            .map_while(Option::as_ref)
            .position(|r| r.contains(&at))
            .unwrap_or(usize::MAX)
    }

    /// Stores every held value that was written: the run ends.
    fn write_back(&mut self) {
        self.flush(0, usize::MAX, true);
    }

    /// The element of `size` bytes (4 or 2) at `off` when a held row has it (its row and lane
    /// in the row viewed as elements of that size), else `None`.
    fn held_lane(&self, off: usize, size: usize) -> Option<(usize, u8)> {
        let row = off - off % ROW;
        (off.is_multiple_of(size) && self.held.rows.contains_key(&row))
            .then_some((row, ((off % ROW) / size) as u8))
    }

    fn addr(&self, off: u16) -> i32 {
        i32::from(off)
    }

    /// Lane 0 of a source, extended to 32 bits: its one value unless it is a row.
    fn first(&mut self, l: Lanes) -> Value {
        let f = self.file;
        match l {
            Lanes::Imm(v) => self.b.ins().iconst(I32, i64::from(v as i32)),
            Lanes::Scalar(base, e) | Lanes::Row { base, elem: e, .. } => {
                let at = usize::from(base);
                if e.size == 4 {
                    if let Some((row, lane)) = self.held_lane(at, 4) {
                        let v = self.held_row(row);
                        return self.b.ins().extractlane(v, lane);
                    }
                    if at.is_multiple_of(4) {
                        return self.held_dword(at);
                    }
                }
                if e.size == 2 {
                    if let Some((row, lane)) = self.held_lane(at, 2) {
                        let v = self.held_row(row);
                        let w = self.b.ins().bitcast(I16X8, lanes(), v);
                        let x = self.b.ins().extractlane(w, lane);
                        return if e.signed {
                            self.b.ins().sextend(I32, x)
                        } else {
                            self.b.ins().uextend(I32, x)
                        };
                    }
                }
                self.flush(at, at + usize::from(e.size), false);
                let off = self.addr(base);
                match (e.size, e.signed) {
                    (1, true) => self.b.ins().sload8(I32, mem(), f, off),
                    (1, false) => self.b.ins().uload8(I32, mem(), f, off),
                    (2, true) => self.b.ins().sload16(I32, mem(), f, off),
                    (2, false) => self.b.ins().uload16(I32, mem(), f, off),
                    _ => self.b.ins().load(I32, mem(), f, off),
                }
            }
        }
    }

    /// Source `k` of `s` in every lane, when it is one aligned DWord of the file: taken from
    /// its row, held (one load for the scalars of a row, as IGC's weights and coefficients
    /// are read one after another), by a lane shuffle (`pshufd`) instead of a load, a move to
    /// a vector register and a broadcast each time. `None` for other sources, for a shift's
    /// count (its one value serves the shift) and for a row the run also writes in part and
    /// does not hold now: holding it would make those scalar writes lane inserts, and loading
    /// it right after one of them stalls the host's store forwarding (IGC's loop counters
    /// and masks sit in such rows).
    fn dword_splat(&mut self, s: &Step, k: usize) -> Option<Value> {
        let Lanes::Scalar(base, e) = s.src[k] else {
            return None;
        };
        let shift = matches!(s.op, Op::Shl | Op::Shr | Op::Asr);
        if e.size != 4 || !base.is_multiple_of(4) || (k == 1 && shift) {
            return None;
        }
        let at = usize::from(base);
        let row = at - at % ROW;
        if self.written_in_part.contains(&row) && !self.held.rows.contains_key(&row) {
            return None;
        }
        let lane = ((at % ROW) / 4) as u8;
        let v = self.held_row(row);
        let x = self.dwords(v, v, [lane; 4]);
        Some(self.signed(x, s.sign[k], I32X4))
    }

    /// One instruction on four-lane vectors: all results computed, then stored.
    fn vector(&mut self, s: &Step, m: &Masks) {
        if let Op::Half { op, hf, cond } = s.op {
            let rows = self.half_rows(s, op, hf, cond);
            self.write_rows(s, m, rows, true);
            return;
        }
        let arity = s.op.arity();
        let mut ones = [None; 3];
        let mut splats = [None; 3];
        for k in 0..arity {
            if let Some(x) = self.dword_splat(s, k) {
                splats[k] = Some(x);
                continue;
            }
            if !matches!(s.src[k], Lanes::Row { .. }) {
                let v = self.first(s.src[k]);
                let v = self.signed(v, s.sign[k], I32);
                ones[k] = Some(v);
                splats[k] = Some(self.b.ins().splat(I32X4, v));
            }
        }
        let pred = m.pred.map(|p| self.b.ins().splat(I32X4, p));
        let words = s.dst_size == 2;
        // Rows of lanes that may execute in this copy, the first ones: those past them are
        // left as they are (DWord results; word results pack two rows into one).
        let may = self.may_execute(&s.ch);
        let chunks = match words {
            false => (32 - may.leading_zeros()).div_ceil(4) as usize,
            true => usize::from(s.n) / 4,
        }
        .min(usize::from(s.n) / 4);
        let mut results = Vec::with_capacity(chunks);
        let mut bits = None;
        for c in 0..chunks {
            let mut v = Vec::with_capacity(arity);
            for ((&src, &splat), &sign) in s.src.iter().zip(&splats).zip(&s.sign).take(arity) {
                v.push(match (src, splat) {
                    (_, Some(x)) => x,
                    (Lanes::Row { base, stride, elem }, None) => {
                        let r = self.row(base, stride, elem, c);
                        self.signed(r, sign, I32X4)
                    }
                    (l, None) => {
                        let x = self.first(l);
                        let x = self.signed(x, sign, I32);
                        self.b.ins().splat(I32X4, x)
                    }
                });
            }
            // The result, and the lanes whose flag bit is set (all ones where it is), if the
            // instruction writes flags.
            let (r, flagged) = match s.op {
                Op::Cmp { .. } => {
                    let r = self.compare(s.op, v[0], v[1], I32X4, F32X4);
                    (r, Some(r))
                }
                Op::Sel => match pred {
                    Some(p) => {
                        let on = self.lane_mask(p, c);
                        (self.b.ins().bitselect(on, v[0], v[1]), None)
                    }
                    None => (v[0], None),
                },
                Op::SelCmp { .. } => {
                    let on = self.sel_pick(s.op, v[0], v[1], I32X4, F32X4);
                    (self.b.ins().bitselect(on, v[0], v[1]), None)
                }
                op => {
                    let r = self.op_vec(op, &v, ones[1]);
                    (r, self.tests_result(s, r, I32X4))
                }
            };
            if let Some(t) = flagged {
                let hi = self.b.ins().vhigh_bits(I32, t);
                let hi = self.b.ins().ishl_imm_u(hi, 4 * c as i64);
                bits = Some(match bits {
                    Some(b) => self.b.ins().bor(b, hi),
                    None => hi,
                });
            }
            results.push(r);
        }
        if tests_for_nan(s.op) {
            results = self.nan_branch(results);
        }
        if let Some(bits) = bits {
            self.set_flags(s, m, bits);
        }
        if words {
            results = self.pack_words(&results);
        }
        if 4 * chunks < usize::from(s.n) {
            // Written as the instruction on its first rows' lanes (no other may execute).
            let n = 4 * chunks as u8;
            let ch = Channels {
                n,
                lanes: sim_eu::lane_mask::lane_bits(n),
                ..s.ch
            };
            self.write_rows(&Step { n, ch, ..*s }, m, results, false);
            return;
        }
        self.write_rows(s, m, results, words);
    }

    /// Writes an instruction's result rows (each 16 bytes of its destination: four DWords, or
    /// eight words when `words`) to its destination with its masks.
    fn write_rows(&mut self, s: &Step, m: &Masks, results: Vec<Value>, words: bool) {
        let Some(dst) = s.dst else {
            return;
        };
        let at = usize::from(dst);
        if m.writes_all(s) {
            // Every lane written, known here: the results as they are.
            if at % ROW != 0 {
                self.flush(at, at + ROW * results.len(), true);
                self.store_rows(dst, &results);
            } else {
                self.hold_rows(at, &results);
            }
            return;
        }
        let store = if s.op.writes_enabled_lanes() {
            m.enabled
        } else {
            m.both
        };
        // Every lane written (straight-line code mostly is): the results as they are;
        // otherwise each row blended with the bytes it replaces.
        let full = self
            .b
            .ins()
            .icmp_imm_u(IntCC::Equal, store, i64::from(s.ch.lanes));
        let (whole, part, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        if at % ROW != 0 {
            // Not row-aligned: written to the file.
            self.flush(at, at + ROW * results.len(), true);
            self.b.ins().brif(full, whole, &[], part, &[]);
            self.b.switch_to_block(whole);
            self.store_rows(dst, &results);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(part);
            for (c, &r) in results.iter().enumerate() {
                let on = self.row_mask(store, c, words);
                let off = self.addr(dst) + 16 * c as i32;
                let old = self.b.ins().load(I32X4, mem(), self.file, off);
                let new = self.b.ins().bitselect(on, r, old);
                self.b.ins().store(mem(), new, self.file, off);
            }
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(done);
            return;
        }
        // Row-aligned: the new rows are held. The rows it replaces, when not held, are loaded
        // on the partial branch only (a value there does not reach later instructions).
        for _ in &results {
            self.b.append_block_param(done, I32X4);
        }
        let plain: Vec<BlockArg> = results.iter().map(|&x| BlockArg::Value(x)).collect();
        for c in 0..results.len() {
            let off = at + ROW * c;
            if !self.held.rows.contains_key(&off) {
                // Other held bytes there (the flags) reach the file before it is read.
                self.flush(off, off + ROW, false);
            }
        }
        self.b.ins().brif(full, whole, &[], part, &[]);
        self.b.switch_to_block(whole);
        self.b.ins().jump(done, &plain);
        self.b.switch_to_block(part);
        let mut blended = Vec::with_capacity(results.len());
        for (c, &r) in results.iter().enumerate() {
            let off = at + ROW * c;
            let on = self.row_mask(store, c, words);
            let old = match self.held.rows.get(&off) {
                Some(slot) => slot.v,
                None => self.b.ins().load(I32X4, mem(), self.file, off as i32),
            };
            blended.push(BlockArg::Value(self.b.ins().bitselect(on, r, old)));
        }
        self.b.ins().jump(done, &blended);
        self.b.switch_to_block(done);
        let rows = self.b.block_params(done).to_vec();
        self.hold_rows(at, &rows);
    }

    /// Stores whole result rows to the file from byte `dst` (not row-aligned: not held).
    fn store_rows(&mut self, dst: u16, rows: &[Value]) {
        for (c, &r) in rows.iter().enumerate() {
            let off = self.addr(dst) + 16 * c as i32;
            self.b.ins().store(mem(), r, self.file, off);
        }
    }

    /// Holds whole result rows as the file's rows from the row-aligned byte `at`.
    fn hold_rows(&mut self, at: usize, rows: &[Value]) {
        for (c, &v) in rows.iter().enumerate() {
            self.set_held_row(at + ROW * c, v);
        }
    }

    /// The f32 results `r` (one vector per chunk of lanes) when none is NaN. A NaN source
    /// gives a NaN IEEE result, so results without NaN need none of the EU's NaN rule (the
    /// first NaN source, quieted); where one is NaN the interpreter, which has the rule, runs
    /// the instruction and the rest of the run.
    fn nan_branch(&mut self, r: Vec<Value>) -> Vec<Value> {
        let mut any = None;
        // `unordered(x, y)` is true where either lane is NaN: one compare per two vectors.
        for pair in r.chunks(2) {
            let fx = self.b.ins().bitcast(F32X4, lanes(), pair[0]);
            let fy = match pair.get(1) {
                Some(&y) => self.b.ins().bitcast(F32X4, lanes(), y),
                None => fx,
            };
            let nan = self.b.ins().fcmp(FloatCC::Unordered, fx, fy);
            any = Some(match any {
                Some(a) => self.b.ins().bor(a, nan),
                None => nan,
            });
        }
        let Some(any) = any else {
            return r;
        };
        let any = self.b.ins().vany_true(any);
        let (cold, hot) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(any, cold, &[], hot, &[]);
        // A NaN result (rare): the interpreter runs this instruction, from the file as it
        // stood before it, and the run returns (the run loop goes on after it). No values join back into
        // the code after the test, so the rows held across it stay in registers.
        self.b.switch_to_block(cold);
        let held = self.held.clone();
        self.write_back();
        let index = self.b.ins().iconst(I32, i64::from(self.index));
        let ran = self.ran_at(self.index);
        self.interpret_one_and_return(index, ran);
        self.held = held;
        self.b.switch_to_block(hot);
        r
    }

    /// The run of `mad`s `table` (the current instruction and the next ones: [`mad_run`]) by
    /// one call to [`mads::call`] (or its AVX-512 form), given the execution mask with every
    /// channel they do not use set (all ones, its fast way, where every channel they use
    /// executes). When it stops at an f32 NaN result, the interpreter runs that instruction,
    /// from the file as it stood before it, and the run returns, as at an inline NaN test
    /// ([`nan_branch`]).
    fn mads(&mut self, table: Box<[Mad]>) {
        let count = table.len() as i64;
        let may_stop = mads::may_stop(&table);
        let used = table.iter().fold(0, |u, m| u | m.channels());
        let active = if self.all_enabled {
            self.b.ins().iconst(I32, -1)
        } else {
            self.b.ins().bor_imm_u(self.active, i64::from(!used))
        };
        // The call reads and writes the file.
        self.write_back();
        let ptr = self.half.ptr;
        let callee = self.b.ins().iconst(ptr, mads::callee() as usize as i64);
        let at = self.b.ins().iconst(ptr, table.as_ptr() as usize as i64);
        self.mad_tables.push(table);
        let n = self.b.ins().iconst(I32, count);
        let c = self
            .b
            .ins()
            .call_indirect(self.call.mads_sig, callee, &[self.file, at, n, active]);
        let done = self.b.inst_results(c)[0];
        if !may_stop {
            return;
        }
        let all = self.b.ins().icmp_imm_u(IntCC::Equal, done, count);
        let (cold, hot) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(all, hot, &[], cold, &[]);
        self.b.switch_to_block(cold);
        let index = self.b.ins().iadd_imm_u(done, i64::from(self.index));
        let before = self.ran_at(self.index);
        let done = self.b.ins().uextend(I64, done);
        let ran = self.b.ins().iadd(before, done);
        self.interpret_one_and_return(index, ran);
        self.b.switch_to_block(hot);
    }

    /// The way out of a run at an f32 NaN result: instruction `index` (I32, counted from the
    /// run's first), with `ran` executed before it (I64) and the file as it stood before it,
    /// run by the interpreter, and the run returns (the run loop goes on after it).
    fn interpret_one_and_return(&mut self, index: Value, ran: Value) {
        self.leaving(ran);
        let one = self.b.ins().iconst(I32, 1);
        self.b.ins().call_indirect(
            self.call.escape_sig,
            self.call.escape,
            &[self.call.ctx, index, one, ran],
        );
        self.b.ins().return_(&[]);
    }

    /// `v` (I32, or I32X4 lanes) with the source modifier `sign` applied, as the fast path's
    /// [`Sign::apply`].
    fn signed(&mut self, v: Value, sign: Sign, ty: Type) -> Value {
        if sign == Sign::NONE {
            return v;
        }
        if sign == Sign::INT_NEG {
            return self.b.ins().ineg(v);
        }
        let mut v = v;
        if sign.and != u32::MAX {
            let c = self.lanes_of(sign.and, ty);
            v = self.b.ins().band(v, c);
        }
        if sign.xor != 0 {
            let c = self.lanes_of(sign.xor, ty);
            v = self.b.ins().bxor(v, c);
        }
        if sign.add != 0 {
            let c = self.lanes_of(sign.add, ty);
            v = self.b.ins().iadd(v, c);
        }
        v
    }

    /// [`Op::Words`]: the low word of `a` as the low word (`high`: the high word) of each
    /// result, beside the other word of `b` (I32, or I32X4 lanes).
    fn words(&mut self, a: Value, b: Value, high: bool, ty: Type) -> Value {
        let low = self.lanes_of(0xffff, ty);
        let (a, keep) = if high {
            (self.b.ins().ishl_imm_u(a, 16), low)
        } else {
            (self.b.ins().band(a, low), self.lanes_of(0xffff_0000, ty))
        };
        let b = self.b.ins().band(b, keep);
        self.b.ins().bor(a, b)
    }

    /// [`Op::IntDiv`] of two I32s: the interpreter's rule (`sim_eu`'s `int_div32`), the
    /// divisor made 1 where Cranelift's division would trap (by zero, `i32::MIN / -1`).
    fn int_div(&mut self, x: Value, y: Value, rem: bool, unsigned: bool) -> Value {
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
        let one = self.b.ins().iconst(I32, 1);
        let r = if unsigned {
            let y = self.b.ins().select(zero, one, y);
            if rem {
                self.b.ins().urem(x, y)
            } else {
                self.b.ins().udiv(x, y)
            }
        } else {
            let min = self
                .b
                .ins()
                .icmp_imm_s(IntCC::Equal, x, i64::from(i32::MIN));
            let minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, y, -1);
            let overflow = self.b.ins().band(min, minus_one);
            let trap = self.b.ins().bor(zero, overflow);
            let y = self.b.ins().select(trap, one, y);
            if rem {
                self.b.ins().srem(x, y)
            } else {
                self.b.ins().sdiv(x, y)
            }
        };
        let by_zero = if rem { x } else { self.b.ins().iconst(I32, -1) };
        self.b.ins().select(zero, by_zero, r)
    }

    /// `x` as an I32, or in every lane of an I32X4.
    fn lanes_of(&mut self, x: u32, ty: Type) -> Value {
        let c = self.b.ins().iconst(I32, i64::from(x as i32));
        if ty == I32 {
            c
        } else {
            self.b.ins().splat(ty, c)
        }
    }

    /// Lanes `4c..4c + 4` of a row source.
    fn row(&mut self, base: u16, stride: u8, e: Elem, c: usize) -> Value {
        let f = self.file;
        let at = usize::from(base) + usize::from(stride) * 4 * c;
        let off = at as i32;
        match (e.size, stride) {
            // Half a row: from the row held (a row of words an instruction just wrote).
            (2, 2) if at.is_multiple_of(8) => {
                let v = self.held_row(at - at % ROW);
                let w = self.b.ins().bitcast(I16X8, lanes(), v);
                match (at.is_multiple_of(ROW), e.signed) {
                    (true, true) => self.b.ins().swiden_low(w),
                    (true, false) => self.b.ins().uwiden_low(w),
                    (false, true) => self.b.ins().swiden_high(w),
                    (false, false) => self.b.ins().uwiden_high(w),
                }
            }
            (2, 2) => {
                self.flush(at, at + 8, false);
                if e.signed {
                    self.b.ins().sload16x4(mem(), f, off)
                } else {
                    self.b.ins().uload16x4(mem(), f, off)
                }
            }
            _ => {
                let v = if at.is_multiple_of(ROW) {
                    self.held_row(at)
                } else {
                    self.flush(at, at + ROW, false);
                    self.b.ins().load(I32X4, mem(), f, off)
                };
                // The element is the low bytes of each DWord: shift it up and back down.
                let drop = 32 - 8 * i64::from(e.size);
                if drop == 0 {
                    return v;
                }
                let up = self.b.ins().ishl_imm_u(v, drop);
                if e.signed {
                    self.b.ins().sshr_imm_u(up, drop)
                } else {
                    self.b.ins().ushr_imm_u(up, drop)
                }
            }
        }
    }

    /// `op` on four lanes: `v` its sources ([`Op::arity`] of them), `uniform_b` src1's one
    /// value when every lane has the same.
    fn op_vec(&mut self, op: Op, v: &[Value], uniform_b: Option<Value>) -> Value {
        let a = v[0];
        let bv = v.get(1).copied();
        let cv = v.get(2).copied();
        match op {
            // The callers compute these from the masks; `vector` takes half results apart;
            // `step` emits nothing for `Keep` and the lane-by-lane operations itself (`wide`,
            // `carry`, `converted_to_acc`, `spread`, `double`).
            Op::Mov
            | Op::Cmp { .. }
            | Op::Sel
            | Op::SelCmp { .. }
            | Op::Half { .. }
            | Op::Keep
            | Op::IntToFloatAcc { .. }
            | Op::MulAcc { .. }
            | Op::Mach { .. }
            | Op::Carry { .. }
            | Op::Spread { .. }
            | Op::Double(_) => a,
            Op::Not => self.b.ins().bnot(a),
            Op::IntToFloat { .. } | Op::FloatToInt { .. } => self.conversion(op, a, true),
            Op::Add => self.b.ins().iadd(a, bv.unwrap_or(a)),
            Op::Mul => self.b.ins().imul(a, bv.unwrap_or(a)),
            Op::Mad => {
                let p = self.b.ins().imul(bv.unwrap_or(a), cv.unwrap_or(a));
                self.b.ins().iadd(a, p)
            }
            Op::Add3 => {
                let s = self.b.ins().iadd(a, bv.unwrap_or(a));
                self.b.ins().iadd(s, cv.unwrap_or(a))
            }
            Op::And => self.b.ins().band(a, bv.unwrap_or(a)),
            Op::Or => self.b.ins().bor(a, bv.unwrap_or(a)),
            Op::Words { high } => self.words(a, bv.unwrap_or(a), high, I32X4),
            Op::Xor => self.b.ins().bxor(a, bv.unwrap_or(a)),
            // No vector division: lane by lane.
            Op::IntDiv { rem, unsigned } => {
                let b = bv.unwrap_or(a);
                let mut r = a;
                for l in 0..4u8 {
                    let x = self.b.ins().extractlane(a, l);
                    let y = self.b.ins().extractlane(b, l);
                    let z = self.int_div(x, y, rem, unsigned);
                    r = self.b.ins().insertlane(r, z, l);
                }
                r
            }
            Op::Shl | Op::Shr | Op::Asr => match uniform_b {
                // One shift count for every lane: a vector shift.
                Some(n) => {
                    let n = self.b.ins().band_imm_u(n, 31);
                    self.shift(op, a, n)
                }
                // Per-lane counts: lane by lane.
                None => {
                    let b = bv.unwrap_or(a);
                    let mut r = a;
                    for l in 0..4u8 {
                        let x = self.b.ins().extractlane(a, l);
                        let y = self.b.ins().extractlane(b, l);
                        let y = self.b.ins().band_imm_u(y, 31);
                        let z = self.shift(op, x, y);
                        r = self.b.ins().insertlane(r, z, l);
                    }
                    r
                }
            },
            Op::FAdd | Op::FMul | Op::FMad => {
                let b = bv.unwrap_or(a);
                let c = cv.unwrap_or(a);
                let fa = self.b.ins().bitcast(F32X4, lanes(), a);
                let fb = self.b.ins().bitcast(F32X4, lanes(), b);
                let r = match op {
                    Op::FAdd => self.b.ins().fadd(fa, fb),
                    Op::FMul => self.b.ins().fmul(fa, fb),
                    _ => {
                        let fc = self.b.ins().bitcast(F32X4, lanes(), c);
                        self.b.ins().fma(fb, fc, fa)
                    }
                };
                // The EU's NaN rule: where a result is NaN, `vector` leaves the rest of the
                // run to the interpreter.
                self.b.ins().bitcast(I32X4, lanes(), r)
            }
        }
    }

    /// The stack buffer of the calls to [`half_lanes`]: three sources of [`HALF_SOURCE`]
    /// bytes, then the results.
    fn half_slot(&mut self) -> StackSlot {
        *self.half.slot.get_or_insert_with(|| {
            self.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                (3 * HALF_SOURCE + 64) as u32,
                4,
            ))
        })
    }

    /// Calls [`half_lanes`] on `groups` groups of eight lanes of the sources stored in the
    /// buffer; its results are at `3 * HALF_SOURCE` in it.
    fn half_call(&mut self, op: FastOp, hf: [bool; 3], cond: Option<CondMod>, groups: usize) {
        let slot = self.half_slot();
        let ptr = self.half.ptr;
        let code = match cond {
            Some(c) => HALF_OPS.len() + SEL_CONDS.iter().position(|&k| k == c).unwrap_or(0),
            None => HALF_OPS.iter().position(|&o| o == op).unwrap_or(0),
        };
        let hf = hf.iter().rev().fold(0, |m, &h| m << 1 | i64::from(h));
        let args = [
            self.b.ins().iconst(I32, code as i64),
            self.b.ins().iconst(I32, hf),
            self.b.ins().iconst(I32, groups as i64),
            self.b.ins().stack_addr(ptr, slot, 0),
            self.b.ins().stack_addr(ptr, slot, 3 * HALF_SOURCE as i32),
        ];
        let callee = half_callee(code, hf as u8);
        let callee = self
            .b
            .ins()
            .iconst(ptr, callee as *const () as usize as i64);
        self.b.ins().call_indirect(self.half.sig, callee, &args);
    }

    /// The half results of a vector instruction as rows of eight packed halves: each source
    /// stored in the buffer in [`half_lanes`]' layout (a packed `:hf` row as its 16-byte
    /// pieces of the file, held or loaded, other `:hf` lanes narrowed to words, `:f` lanes as
    /// DWords), the call, the result rows loaded.
    fn half_rows(
        &mut self,
        s: &Step,
        op: FastOp,
        hf: [bool; 3],
        cond: Option<CondMod>,
    ) -> Vec<Value> {
        let n = usize::from(s.n);
        let groups = n.div_ceil(8);
        let mut sources = Vec::with_capacity(3);
        for (k, &src) in s.src.iter().enumerate().take(s.op.arity()) {
            let pieces: Vec<Value> = match src {
                // Packed halves: the file's bytes as they are.
                Lanes::Row {
                    base: at,
                    stride: 2,
                    elem,
                } if elem.size == 2 => (0..groups)
                    .map(|g| self.bytes16(usize::from(at) + 16 * g))
                    .collect(),
                Lanes::Row {
                    base: at,
                    stride,
                    elem,
                } => {
                    let chunks: Vec<Value> =
                        (0..n / 4).map(|c| self.row(at, stride, elem, c)).collect();
                    if hf[k] {
                        self.pack_words(&chunks)
                    } else {
                        chunks
                    }
                }
                Lanes::Scalar(..) | Lanes::Imm(_) => {
                    let v = self.first(src);
                    self.half_splat(v, hf[k], n)
                }
            };
            sources.push(pieces);
        }
        if let Some(rows) = self.half_inline(op, hf, cond, &sources) {
            return rows;
        }
        let slot = self.half_slot();
        let ptr = self.half.ptr;
        for (k, pieces) in sources.iter().enumerate() {
            let base = (k * HALF_SOURCE) as i32;
            for (j, &p) in pieces.iter().enumerate() {
                self.b.ins().stack_store(ptr, p, slot, base + 16 * j as i32);
            }
        }
        self.half_call(op, hf, cond, groups);
        let out = 3 * HALF_SOURCE as i32;
        (0..groups)
            .map(|g| {
                self.b
                    .ins()
                    .stack_load(ptr, I32X4, slot, out + 16 * g as i32)
            })
            .collect()
    }

    /// The rows of a conditional half `sel` whose sources are both `:hf` (`sources`: rows of
    /// eight halves), computed inline on the halves' bits: no rounding happens there, so the
    /// result is the picked half itself, but for a NaN, which comes out quiet (bit 9 set, as
    /// the interpreter's widening and rounding gives it). The comparison is [`half_sel`]'s
    /// for two halves: their sign-magnitude bits ordered as integers (both zeros alike), and
    /// where one is NaN the interpreter's rule. `None` for the rest (their arithmetic rounds:
    /// [`half_lanes`] computes it).
    fn half_inline(
        &mut self,
        op: FastOp,
        hf: [bool; 3],
        cond: Option<CondMod>,
        sources: &[Vec<Value>],
    ) -> Option<Vec<Value>> {
        match (op, cond) {
            (FastOp::Sel, Some(c)) if hf[0] && hf[1] && half_order(c).is_some() => {
                let (a, b) = (sources.first()?, sources.get(1)?);
                Some(
                    a.iter()
                        .zip(b)
                        .map(|(&x, &y)| {
                            let x = self.b.ins().bitcast(I16X8, lanes(), x);
                            let y = self.b.ins().bitcast(I16X8, lanes(), y);
                            let pick = self.half_pick(c, x, y);
                            let r = self.b.ins().bitselect(pick, x, y);
                            let r = self.b.ins().bitcast(I32X4, lanes(), r);
                            self.half_quiet(r)
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// All ones in the words of `x` (eight halves) that are NaN.
    fn half_nan(&mut self, x: Value) -> Value {
        let magnitude = self.i16x8_splat(F16_MAGNITUDE);
        let inf = self.i16x8_splat(F16_INFINITY);
        let m = self.b.ins().band(x, magnitude);
        self.b.ins().icmp(IntCC::SignedGreaterThan, m, inf)
    }

    /// The row `x` (eight halves) with the quiet bit set in its NaNs.
    fn half_quiet(&mut self, x: Value) -> Value {
        let x = self.b.ins().bitcast(I16X8, lanes(), x);
        let nan = self.half_nan(x);
        let quiet = self.i16x8_splat(F16_QUIET);
        let q = self.b.ins().band(nan, quiet);
        let r = self.b.ins().bor(x, q);
        self.b.ins().bitcast(I32X4, lanes(), r)
    }

    /// All ones in the words where `sel` with condition `c` picks `a` over `b` (eight
    /// halves each): [`half_sel`]'s choice.
    fn half_pick(&mut self, c: CondMod, a: Value, b: Value) -> Value {
        let key = |e: &mut Self, x: Value| {
            let magnitude = e.i16x8_splat(F16_MAGNITUDE);
            let m = e.b.ins().band(x, magnitude);
            let sign = e.b.ins().sshr_imm_u(x, 15);
            let flipped = e.b.ins().bxor(m, sign);
            e.b.ins().isub(flipped, sign)
        };
        let (ka, kb) = (key(self, a), key(self, b));
        let cc = half_order(c).unwrap_or(IntCC::Equal);
        let ordered = self.b.ins().icmp(cc, ka, kb);
        let (na, nb) = (self.half_nan(a), self.half_nan(b));
        let either = self.b.ins().bor(na, nb);
        // Where one is NaN: `lt` and `ge` (`min`, `max`) pick the number, `ne` holds, the
        // others do not (the interpreter's `sel_f`).
        let unordered = match c {
            CondMod::Lt | CondMod::Ge => self.b.ins().band_not(nb, na),
            CondMod::Ne => either,
            _ => self.i16x8_splat(0),
        };
        self.b.ins().bitselect(either, unordered, ordered)
    }

    /// Eight words of `v`.
    fn i16x8_splat(&mut self, v: u16) -> Value {
        let w = self.b.ins().iconst(I16, i64::from(v as i16));
        self.b.ins().splat(I16X8, w)
    }

    /// The half result of a one-channel instruction (`v` its sources' one values), in the low
    /// 16 bits: each source splat to one group of eight lanes for [`half_lanes`].
    fn half_scalar(
        &mut self,
        op: FastOp,
        hf: [bool; 3],
        cond: Option<CondMod>,
        v: &[Value],
    ) -> Value {
        let slot = self.half_slot();
        let ptr = self.half.ptr;
        for (k, &x) in v.iter().enumerate() {
            let base = (k * HALF_SOURCE) as i32;
            for (j, row) in self.half_splat(x, hf[k], 8).into_iter().enumerate() {
                self.b
                    .ins()
                    .stack_store(ptr, row, slot, base + 16 * j as i32);
            }
        }
        self.half_call(op, hf, cond, 1);
        let r = self
            .b
            .ins()
            .stack_load(ptr, I16, slot, 3 * HALF_SOURCE as i32);
        self.b.ins().uextend(I32, r)
    }

    /// One value (in the low 16 bits when `hf`) for `n` lanes in [`half_lanes`]' layout: 16-byte
    /// rows of eight halves, or of four DWords.
    fn half_splat(&mut self, v: Value, hf: bool, n: usize) -> Vec<Value> {
        if hf {
            let w = self.b.ins().ireduce(I16, v);
            let w = self.b.ins().splat(I16X8, w);
            vec![self.b.ins().bitcast(I32X4, lanes(), w); n.div_ceil(8)]
        } else {
            vec![self.b.ins().splat(I32X4, v); n.div_ceil(4)]
        }
    }

    /// The 16 bytes of the file at `at`: from a held row when `at` starts one, else loaded.
    fn bytes16(&mut self, at: usize) -> Value {
        if at.is_multiple_of(ROW) {
            return self.held_row(at);
        }
        self.flush(at, at + ROW, false);
        self.b.ins().load(I32X4, mem(), self.file, at as i32)
    }

    fn shift(&mut self, op: Op, x: Value, n: Value) -> Value {
        match op {
            Op::Shl => self.b.ins().ishl(x, n),
            Op::Shr => self.b.ins().ushr(x, n),
            _ => self.b.ins().sshr(x, n),
        }
    }

    /// A one-channel instruction on 32-bit scalars.
    fn scalar(&mut self, s: &Step, m: &Masks) {
        let mut v = Vec::with_capacity(3);
        for k in 0..s.op.arity() {
            let x = self.first(s.src[k]);
            v.push(self.signed(x, s.sign[k], I32));
        }
        // The result, and all ones if the instruction sets its flag bit.
        let (r, flagged) = match s.op {
            Op::Cmp { .. } => {
                let r = self.compare(s.op, v[0], v[1], I32, F32);
                (r, Some(r))
            }
            Op::Sel => match m.pred {
                Some(p) => {
                    let on = self.b.ins().band_imm_u(p, 1);
                    (self.b.ins().select(on, v[0], v[1]), None)
                }
                None => (v[0], None),
            },
            Op::SelCmp { .. } => {
                let on = self.sel_pick(s.op, v[0], v[1], I32, F32);
                (self.b.ins().select(on, v[0], v[1]), None)
            }
            Op::Half { op, hf, cond } => (self.half_scalar(op, hf, cond, &v), None),
            op => {
                let r = self.op_scalar(op, &v);
                (r, self.tests_result(s, r, I32))
            }
        };
        if let Some(t) = flagged {
            let bits = self.b.ins().band_imm_u(t, 1);
            self.set_flags(s, m, bits);
        }
        let Some(dst) = s.dst else {
            return;
        };
        let store = if s.op.writes_enabled_lanes() {
            m.enabled
        } else {
            m.both
        };
        let on = if m.writes_all(s) {
            self.b.ins().iconst(I32, 1)
        } else {
            self.b.ins().band_imm_u(store, 1)
        };
        let at = usize::from(dst);
        if s.dst_size == 2 {
            self.scalar_word(at, on, r);
            return;
        }
        self.store_dword(at, on, r);
    }

    /// Writes the DWord `r` at `at` where `on` is 1.
    fn store_dword(&mut self, at: usize, on: Value, r: Value) {
        if let Some((row, lane)) = self.held_lane(at, 4) {
            // In a held row: the row with that lane replaced.
            let v = self.held_row(row);
            let old = self.b.ins().extractlane(v, lane);
            let new = self.b.ins().select(on, r, old);
            let v = self.b.ins().insertlane(v, new, lane);
            self.set_held_row(row, v);
            return;
        }
        if !at.is_multiple_of(4) {
            self.flush(at, at + 4, true);
            let off = at as i32;
            let old = self.b.ins().load(I32, mem(), self.file, off);
            let new = self.b.ins().select(on, r, old);
            self.b.ins().store(mem(), new, self.file, off);
            return;
        }
        // Held (stored when it stops being held), as the rows are.
        let old = self.held_dword(at);
        let new = self.b.ins().select(on, r, old);
        self.held.dwords.remove(&at);
        self.flush(at, at + 4, true);
        self.hold_dword(at, new, true);
    }

    /// The aligned DWord at `at` (outside every held row), loaded at its first use.
    fn held_dword(&mut self, at: usize) -> Value {
        self.held.clock += 1;
        let now = self.held.clock;
        if let Some(slot) = self.held.dwords.get_mut(&at) {
            slot.used = now;
            return slot.v;
        }
        self.flush(at, at + 4, false);
        let v = self.b.ins().load(I32, mem(), self.file, at as i32);
        self.hold_dword(at, v, false);
        v
    }

    /// Holds `v` as the DWord at `at` (not held now), making room for it first.
    fn hold_dword(&mut self, at: usize, v: Value, dirty: bool) {
        while self.held.dwords.len() >= HELD_DWORDS {
            let Some(lru) = least_used(&self.held.dwords) else {
                break;
            };
            self.flush(lru, lru + 4, true);
        }
        let used = self.held.clock;
        self.held.dwords.insert(at, Slot { v, dirty, used });
    }

    /// Writes the low 16 bits of `r` to the word at `at` where `on` is 1.
    fn scalar_word(&mut self, at: usize, on: Value, r: Value) {
        let r = self.b.ins().ireduce(I16, r);
        if let Some((row, lane)) = self.held_lane(at, 2) {
            let v = self.held_row(row);
            let w = self.b.ins().bitcast(I16X8, lanes(), v);
            let old = self.b.ins().extractlane(w, lane);
            let new = self.b.ins().select(on, r, old);
            let w = self.b.ins().insertlane(w, new, lane);
            let v = self.b.ins().bitcast(I32X4, lanes(), w);
            self.set_held_row(row, v);
            return;
        }
        self.flush(at, at + 2, true);
        let off = at as i32;
        let old = self.b.ins().load(I16, mem(), self.file, off);
        let new = self.b.ins().select(on, r, old);
        self.b.ins().store(mem(), new, self.file, off);
    }

    fn op_scalar(&mut self, op: Op, v: &[Value]) -> Value {
        let a = v[0];
        let b = v.get(1).copied().unwrap_or(a);
        let c = v.get(2).copied().unwrap_or(a);
        match op {
            // The callers compute these from the masks, or call `half_lanes`; `step` emits
            // nothing for `Keep`, the multiply-high pair through `wide`, a conversion to the
            // accumulator through `converted_to_acc` and DWords 8 bytes apart through `spread`.
            Op::Mov
            | Op::Cmp { .. }
            | Op::Sel
            | Op::SelCmp { .. }
            | Op::Half { .. }
            | Op::Keep
            | Op::IntToFloatAcc { .. }
            | Op::MulAcc { .. }
            | Op::Mach { .. }
            | Op::Carry { .. }
            | Op::Spread { .. }
            | Op::Double(_) => a,
            Op::Not => self.b.ins().bnot(a),
            Op::IntToFloat { .. } | Op::FloatToInt { .. } => self.conversion(op, a, false),
            Op::Add => self.b.ins().iadd(a, b),
            Op::Mul => self.b.ins().imul(a, b),
            Op::Mad => {
                let p = self.b.ins().imul(b, c);
                self.b.ins().iadd(a, p)
            }
            Op::Add3 => {
                let s = self.b.ins().iadd(a, b);
                self.b.ins().iadd(s, c)
            }
            Op::And => self.b.ins().band(a, b),
            Op::Or => self.b.ins().bor(a, b),
            Op::Words { high } => self.words(a, b, high, I32),
            Op::Xor => self.b.ins().bxor(a, b),
            Op::IntDiv { rem, unsigned } => self.int_div(a, b, rem, unsigned),
            Op::Shl | Op::Shr | Op::Asr => {
                let n = self.b.ins().band_imm_u(b, 31);
                self.shift(op, a, n)
            }
            Op::FAdd | Op::FMul | Op::FMad => {
                let fa = self.b.ins().bitcast(F32, MemFlagsData::new(), a);
                let fb = self.b.ins().bitcast(F32, MemFlagsData::new(), b);
                let r = match op {
                    Op::FAdd => self.b.ins().fadd(fa, fb),
                    Op::FMul => self.b.ins().fmul(fa, fb),
                    _ => {
                        let fc = self.b.ins().bitcast(F32, MemFlagsData::new(), c);
                        self.b.ins().fma(fb, fc, fa)
                    }
                };
                let mut r = self.b.ins().bitcast(I32, MemFlagsData::new(), r);
                let nans: &[Value] = match op {
                    Op::FMad => &[c, b, a],
                    _ => &[b, a],
                };
                for &x in nans {
                    let fx = self.b.ins().bitcast(F32, MemFlagsData::new(), x);
                    let nan = self.b.ins().fcmp(FloatCC::Unordered, fx, fx);
                    let quiet = self.b.ins().bor_imm_u(x, QUIET);
                    r = self.b.ins().select(nan, quiet, r);
                }
                r
            }
        }
    }
}
