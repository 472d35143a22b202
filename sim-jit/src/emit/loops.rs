//! Loops of one block (IGC's `while` jumping back to its own block's start): the rows,
//! DWords and flags the loop works on go around the back edge as block parameters, held in
//! host registers, instead of being stored at the branch and loaded again at the top of
//! every pass.
//!
//! Which values go around is guessed from the loop's instructions before its code is made;
//! a wrong guess costs time, never correctness: at the back edge each carried value is
//! taken from what is held (or loaded, after storing what overlaps it), and a held value
//! written in the pass that the loop's top takes as unwritten is stored first.
//!
//! When its channels part ways at the back edge (IGC's `for` with a per-channel trip count:
//! each pass some leave), a loop that never calls out of the run goes around with the
//! channels that jumped, keeping those that left in a mask of its own instead of calling the
//! parting branches' function and entering its block afresh each pass ([`Looping`]).

use std::collections::{BTreeMap, BTreeSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Type, Value};

use super::{mem, Blocks, Held, Slot, StepEmitter, Taken, HELD_DWORDS, HELD_ROWS, PARK, ROW};
use crate::select::{DoubleOp, Item, Lanes, Op};
use sim_eu::regfile::FLAG;

/// The most rows a loop carries: the rest of [`HELD_ROWS`] is left to the rows a pass uses
/// for a few instructions only.
const CARRIED_ROWS: usize = HELD_ROWS - 4;

/// The most single DWords a loop carries (of [`HELD_DWORDS`]).
const CARRIED_DWORDS: usize = HELD_DWORDS - 2;

/// What a loop's block carries around its back edge.
#[derive(Clone, Debug)]
pub(super) struct Carry {
    /// Row-aligned byte offsets of rows (I32X4 each).
    rows: Vec<usize>,
    /// Byte offsets of single DWords (I32 each), none inside a carried row.
    dwords: Vec<usize>,
    /// Whether the flag registers' 8 bytes go around too (I64).
    flags: bool,
    /// Whether the loop can part its channels itself: nothing in it calls out of the run
    /// and comes back (no send, interpreted instruction or barrier wait), so only its ways
    /// out (the budget at the back edge, an f32 NaN test's exit) tell the thread of the
    /// channels that left.
    parts: bool,
    /// The loop's `while` (counted from the run's first instruction).
    branch: u32,
    /// The byte ranges the loop's instructions write: a carried value there is held as
    /// written at the loop's top.
    written: Vec<(usize, usize)>,
}

impl Carry {
    /// Whether the loop's instructions write any of bytes `at..at + size`.
    fn writes(&self, at: usize, size: usize) -> bool {
        self.written
            .iter()
            .any(|&(lo, hi)| lo < at + size && at < hi)
    }
}

/// Per block of a run (its first instructions `starts`): what it carries around its back
/// edge when it is a loop of its own, jumping back to its start from its end.
pub(super) fn loop_carries(
    items: &[Item],
    starts: &[u32],
    written_in_part: &BTreeSet<usize>,
) -> Vec<Option<Carry>> {
    let mut out = vec![None; starts.len()];
    let mut k = 0;
    let mut block: Option<(usize, usize)> = None;
    for (i, item) in items.iter().enumerate() {
        if let Ok(b) = starts.binary_search(&k) {
            block = Some((b, i));
        }
        k += item.instructions();
        if let (Item::Branch(br), Some((b, first))) = (item, block) {
            if br.to == starts[b] && br.to < k {
                out[b] = Some(carry_of(&items[first..=i], written_in_part, k - 1));
            }
            block = None;
        }
    }
    out
}

/// What the loop `body` (a block's items, its back edge last) carries: the rows its vector
/// instructions read or write most, the single DWords its scalar ones use outside those
/// rows, and the flags when it writes them.
fn carry_of(body: &[Item], written_in_part: &BTreeSet<usize>, branch: u32) -> Carry {
    let mut rows: BTreeMap<usize, u32> = BTreeMap::new();
    let mut dwords: BTreeMap<usize, u32> = BTreeMap::new();
    let mut written = Vec::new();
    let mut flags = false;
    let mut parts = true;
    let mut row_use = |at: usize| *rows.entry(at - at % ROW).or_default() += 1;
    for item in body {
        let s = match item {
            Item::Step(s) => s,
            Item::Branch(_) => continue,
            _ => {
                parts = false;
                continue;
            }
        };
        if s.op == Op::Keep {
            continue;
        }
        flags |=
            s.flag.is_some() || matches!(s.op, Op::Cmp { .. } | Op::Double(DoubleOp::Cmp { .. }));
        let n = usize::from(s.n);
        if let Op::MulAcc { .. } | Op::Mach { .. } | Op::Carry { .. } | Op::IntToFloatAcc { .. } =
            s.op
        {
            // Lane by lane into the accumulator's DWords (and `mach`'s or `addc`'s
            // destination).
            let acc = match s.op {
                Op::Mach { acc, .. } | Op::Carry { acc, .. } => Some(acc),
                _ => s.dst,
            };
            let high = matches!(s.op, Op::Mach { .. } | Op::Carry { .. })
                .then_some(s.dst)
                .flatten();
            for at in [acc, high].into_iter().flatten() {
                let at = usize::from(at);
                for c in (0..4 * n).step_by(ROW) {
                    row_use(at + c);
                }
                written.push((at, at + 4 * n));
            }
            continue;
        }
        let vector = n > 1;
        for src in s.src.iter().take(s.op.arity()) {
            match *src {
                // A `:df` row ([`Op::Double`]): every row it spans.
                Lanes::Row {
                    base, stride: 8, ..
                } if vector && base.is_multiple_of(8) => {
                    let at = usize::from(base);
                    for row in (at - at % ROW..at + 8 * n).step_by(ROW) {
                        row_use(row);
                    }
                }
                Lanes::Row { base, stride, elem } if vector => {
                    for c in 0..n / 4 {
                        let at = usize::from(base) + usize::from(stride) * 4 * c;
                        if at.is_multiple_of(ROW) || (elem.size == 2 && stride == 2) {
                            row_use(at);
                        }
                    }
                }
                Lanes::Scalar(base, e) if e.size == 4 && base.is_multiple_of(4) => {
                    let at = usize::from(base);
                    if vector && !written_in_part.contains(&(at - at % ROW)) {
                        row_use(at);
                    } else {
                        *dwords.entry(at).or_default() += 1;
                    }
                }
                _ => {}
            }
        }
        let Some((at, end)) = s.dst_bytes() else {
            continue;
        };
        written.push((at, end));
        if vector && at.is_multiple_of(ROW) {
            for row in (at..end).step_by(ROW) {
                row_use(row);
            }
        } else if n == 1 && s.dst_size == 4 && at.is_multiple_of(4) {
            *dwords.entry(at).or_default() += 1;
        }
    }
    // The flags go around as the flags, not inside a row or DWord.
    let apart = |at: usize, size: usize| at + size <= FLAG || FLAG + 8 <= at;
    let rows = most_used(&rows, CARRIED_ROWS, |at| apart(at, ROW));
    let dwords = most_used(&dwords, CARRIED_DWORDS, |at| {
        apart(at, 4) && !rows.contains(&(at - at % ROW))
    });
    if flags {
        written.push((FLAG, FLAG + 8));
    }
    Carry {
        rows,
        dwords,
        flags,
        parts,
        branch,
        written,
    }
}

/// The `most` keys of `uses` used most (ties: lowest first) that `keep` allows, in order.
fn most_used(uses: &BTreeMap<usize, u32>, most: usize, keep: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut by_use: Vec<(usize, u32)> = uses
        .iter()
        .map(|(&k, &n)| (k, n))
        .filter(|&(k, _)| keep(k))
        .collect();
    by_use.sort_by_key(|&(k, n)| (std::cmp::Reverse(n), k));
    let mut keys: Vec<usize> = by_use.into_iter().take(most).map(|(k, _)| k).collect();
    keys.sort_unstable();
    keys
}

/// One value a loop carries.
#[derive(Clone, Copy)]
enum Carried {
    Row(usize),
    DWord(usize),
    Flags,
}

impl Carried {
    fn ty(self) -> Type {
        match self {
            Carried::Row(_) => I32X4,
            Carried::DWord(_) => I32,
            Carried::Flags => I64,
        }
    }

    /// Its first byte in the file and its bytes.
    fn bytes(self) -> (usize, usize) {
        match self {
            Carried::Row(at) => (at, ROW),
            Carried::DWord(at) => (at, 4),
            Carried::Flags => (FLAG, 8),
        }
    }
}

impl Carry {
    /// The carried values, in the loop top's parameter order.
    fn values(&self) -> impl Iterator<Item = Carried> + '_ {
        let rows = self.rows.iter().map(|&at| Carried::Row(at));
        let dwords = self.dwords.iter().map(|&at| Carried::DWord(at));
        rows.chain(dwords)
            .chain(self.flags.then_some(Carried::Flags))
    }
}

impl Held {
    /// Takes `c` out of what is held, if it is.
    fn take(&mut self, c: Carried) -> Option<Slot> {
        match c {
            Carried::Row(at) => self.rows.remove(&at),
            Carried::DWord(at) => self.dwords.remove(&at),
            Carried::Flags => self.flags.take(),
        }
    }

    /// Holds `slot` as `c`.
    fn put(&mut self, c: Carried, slot: Slot) {
        match c {
            Carried::Row(at) => {
                self.rows.insert(at, slot);
            }
            Carried::DWord(at) => {
                self.dwords.insert(at, slot);
            }
            Carried::Flags => self.flags = Some(slot),
        }
    }
}

/// A loop being emitted: its top (parameters: the executed count, the executing channels,
/// the first waiting instruction, the channels parked, then [`Carry::values`]) and what
/// goes around.
///
/// A loop that parts its channels itself ([`Carry::parts`]) keeps the channels that left
/// it (waiting after its branch) in the parked mask, unknown to the thread, whose executing
/// channels stay those the loop was entered with: they leave it together (all of them reach
/// the instruction after the branch), so the thread is told only when the run leaves from
/// inside the loop ([`PARK`]). Otherwise the mask stays empty.
pub(super) struct Looping {
    head: Block,
    carry: Carry,
    parked: Value,
    parts: bool,
}

impl StepEmitter<'_, '_> {
    /// Enters the loop of the current block (nothing held yet, the file up to date): the
    /// carried values loaded, then the loop's top, where they are held.
    pub(super) fn enter_loop(&mut self, carry: Carry) {
        let head = self.b.create_block();
        for t in [I64, I32, I32, I32] {
            self.b.append_block_param(head, t);
        }
        let none = self.b.ins().iconst(I32, 0);
        let mut args = vec![self.ran, self.active, self.wake, none];
        for c in carry.values() {
            self.b.append_block_param(head, c.ty());
            let (at, _) = c.bytes();
            args.push(self.b.ins().load(c.ty(), mem(), self.file, at as i32));
        }
        let args: Vec<BlockArg> = args.into_iter().map(BlockArg::Value).collect();
        self.b.ins().jump(head, &args);
        self.b.switch_to_block(head);
        let p = self.b.block_params(head).to_vec();
        (self.ran, self.active, self.wake) = (p[0], p[1], p[2]);
        let used = self.held.clock;
        let mut held = Held {
            clock: used,
            ..Held::default()
        };
        for (c, &v) in carry.values().zip(&p[4..]) {
            let (at, size) = c.bytes();
            let dirty = carry.writes(at, size);
            held.put(c, Slot { v, dirty, used });
        }
        self.held = held;
        // The copy for all channels executing leaves for the copy with masks when they part.
        let parts = carry.parts && self.call.part.is_some() && !self.all_enabled;
        self.looping = Some(Looping {
            head,
            carry,
            parked: p[3],
            parts,
        });
    }

    /// Whether a branch back to `to` is the current loop's back edge.
    pub(super) fn loops_to(&self, to: u32) -> bool {
        self.looping.is_some() && to == self.block_start
    }

    /// The current loop's back edge `at` to instruction `to` (its jumping channels
    /// computed, nothing stored yet): where no channel jumps, on after the loop, the held
    /// values stored; where all jump, around the loop with the carried values; where they
    /// part ways, around the loop with the others parked when the loop parts its channels
    /// itself, else `part` after storing what is held.
    pub(super) fn loop_branch(
        &mut self,
        at: &Taken,
        to: u32,
        blocks: &Blocks<'_>,
        part: impl FnOnce(&mut Self),
    ) {
        let Some((parts, parked)) = self.looping.as_ref().map(|l| (l.parts, l.parked)) else {
            return;
        };
        let active = at.now.0;
        let held = self.held.clone();
        let none = self.b.ins().icmp_imm_u(IntCC::Equal, at.jump, 0);
        let (on, some) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(none, on, &[], some, &[]);
        self.b.switch_to_block(some);
        if parts {
            // As the thread would take it: the jumping channels go around, the others
            // wait after the branch.
            let left = self.b.ins().band_not(active, at.jump);
            let parked = self.b.ins().bor(parked, left);
            self.back_edge(at, to, blocks, (at.jump, parked));
        } else {
            let all = self.b.ins().icmp(IntCC::Equal, at.jump, active);
            let (taken, parted) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(all, taken, &[], parted, &[]);
            self.b.switch_to_block(parted);
            self.write_back();
            part(self);
            self.b.switch_to_block(taken);
            self.held = held.clone();
            self.back_edge(at, to, blocks, (active, parked));
        }
        self.b.switch_to_block(on);
        self.held = held;
        self.write_back();
        // Every channel the loop was entered with is here: those executing and those parked.
        let all = self.b.ins().bor(active, parked);
        let on = Taken {
            now: (all, at.now.1),
            ..*at
        };
        self.go(&on, at.k + 1, blocks);
    }

    /// Around the loop with the executing and parked channels `next` while the budget
    /// allows another pass to the run's end (as [`Self::go`] checks a jump back); else out
    /// of the run before the branch, the held values stored and the thread told of the
    /// channels parked so far.
    fn back_edge(&mut self, at: &Taken, to: u32, blocks: &Blocks<'_>, next: (Value, Value)) {
        let Some(looping) = self.looping.take() else {
            return;
        };
        let over = self.past_budget(at, to, blocks);
        let (out, again) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(over, out, &[], again, &[]);
        self.b.switch_to_block(out);
        let held = self.held.clone();
        self.write_back();
        self.tell_parked(&looping, at.ran);
        let (exit, exit_args) = blocks.leave(self.b, at.k, at.ran);
        self.b.ins().jump(exit, &exit_args);
        self.b.switch_to_block(again);
        self.held = held;
        let mut args = vec![at.after, next.0, at.now.1, next.1];
        args.extend(self.carried_values(&looping.carry));
        let args: Vec<BlockArg> = args.into_iter().map(BlockArg::Value).collect();
        self.b.ins().jump(looping.head, &args);
        self.looping = Some(looping);
    }

    /// Before the run leaves from inside the loop `l` with `ran` executed (the thread's
    /// state is then the interpreter's): when the loop parts its channels itself, the thread
    /// told of those that left it ([`PARK`]) and of those executing.
    fn tell_parked(&mut self, l: &Looping, ran: Value) {
        let (true, Some(part)) = (l.parts, self.call.part) else {
            return;
        };
        self.b
            .ins()
            .stack_store(self.half.ptr, self.active, part.out, 0);
        self.parting_call(part, l.carry.branch, PARK, l.parked, ran);
    }

    /// Before the run leaves from the current instruction, [`Self::tell_parked`] for the
    /// loop it is in, if any.
    pub(super) fn leaving(&mut self, ran: Value) {
        if let Some(l) = self.looping.take() {
            self.tell_parked(&l, ran);
            self.looping = Some(l);
        }
    }

    /// The carried values at the back edge, in [`Carry::values`] order: each as held (stored
    /// first when written though the loop's top takes it as unwritten), else loaded after
    /// storing what overlaps it; then everything else held is stored.
    fn carried_values(&mut self, carry: &Carry) -> Vec<Value> {
        let mut out = Vec::new();
        for c in carry.values() {
            let (at, size) = c.bytes();
            let v = match self.held.take(c) {
                Some(slot) => {
                    if slot.dirty && !carry.writes(at, size) {
                        self.b.ins().store(mem(), slot.v, self.file, at as i32);
                    }
                    slot.v
                }
                None => {
                    self.flush(at, at + size, false);
                    self.b.ins().load(c.ty(), mem(), self.file, at as i32)
                }
            };
            out.push(v);
        }
        self.write_back();
        out
    }
}
