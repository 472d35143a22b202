//! Execution statistics (`stats`): per kernel instruction, how often it ran and on how many
//! lanes, and the bytes its sends moved; per kernel, the instruction mix and the bytes per send
//! type. Counted while a thread runs ([`crate::run_counted`] with [`ExecStats`], the memory
//! wrapped in [`Counting`]), summed over a walker, reported by the dispatcher as text
//! ([`Report::to_text`]) and one JSON object ([`Report::to_json`]).

use std::collections::BTreeMap;

use isa_encoder::model::{Opcode, SendDesc};
use isa_encoder::sendmsg::{hdc, lsc, Sfid};

use super::finding::json_string;
use crate::dataport::{Memory, OutOfImage, Sampler, ScratchSurface, Surface};
use crate::error::MemFault;
use crate::exec::Counter;
use crate::program::Program;
use crate::regfile::Thread;

/// How often each instruction ran and on how many lanes, by instruction index: the
/// counter of [`crate::run_counted`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// (times executed by any thread, lanes acted on summed over them).
    insts: Vec<(u64, u64)>,
}

impl Counter for Counts {
    #[inline]
    fn executed(&mut self, ip: u32, _n: u8, lanes: u32) {
        let i = ip as usize;
        if i >= self.insts.len() {
            self.insts.resize(i + 1, (0, 0));
        }
        let s = &mut self.insts[i];
        s.0 += 1;
        s.1 += u64::from(lanes.count_ones());
    }
}

/// Bytes each send moved, by instruction index: global memory read and written, shared local
/// memory read and written (an atomic's word counts as read and written).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bytes {
    insts: Vec<[u64; 4]>,
}

impl Bytes {
    fn add(&mut self, ip: u32, read: usize, written: usize, slm: bool) {
        let i = ip as usize;
        if i >= self.insts.len() {
            self.insts.resize(i + 1, [0; 4]);
        }
        let k = if slm { 2 } else { 0 };
        let s = &mut self.insts[i];
        s[k] += read as u64;
        s[k + 1] += written as u64;
    }
}

/// One instruction's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InstStats {
    /// Times executed (by any thread).
    pub executed: u64,
    /// Lanes it acted on, summed over its executions.
    pub lanes: u64,
    /// Bytes its messages read and wrote in global memory (an atomic's word counts as both).
    pub read: u64,
    pub written: u64,
    /// The same in shared local memory.
    pub slm_read: u64,
    pub slm_written: u64,
}

/// The statistics of a dispatch (or of one host thread's share of it). A thread runs with
/// `counts` as [`crate::run_counted`]'s counter and its memory wrapped in a [`Counting`] over
/// `bytes`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecStats {
    pub counts: Counts,
    pub bytes: Bytes,
}

impl ExecStats {
    pub fn is_empty(&self) -> bool {
        self.counts.insts.iter().all(|s| s.0 == 0)
    }

    /// Adds another collector's counts (host threads' shares of one dispatch).
    pub fn merge(&mut self, other: &ExecStats) {
        let c = &mut self.counts.insts;
        if other.counts.insts.len() > c.len() {
            c.resize(other.counts.insts.len(), (0, 0));
        }
        for (mine, theirs) in c.iter_mut().zip(&other.counts.insts) {
            mine.0 += theirs.0;
            mine.1 += theirs.1;
        }
        let b = &mut self.bytes.insts;
        if other.bytes.insts.len() > b.len() {
            b.resize(other.bytes.insts.len(), [0; 4]);
        }
        for (mine, theirs) in b.iter_mut().zip(&other.bytes.insts) {
            for k in 0..4 {
                mine[k] += theirs[k];
            }
        }
    }

    /// The counts of the instruction at index `ip`.
    pub fn inst(&self, ip: usize) -> InstStats {
        let (executed, lanes) = self.counts.insts.get(ip).copied().unwrap_or_default();
        let [read, written, slm_read, slm_written] =
            self.bytes.insts.get(ip).copied().unwrap_or_default();
        InstStats {
            executed,
            lanes,
            read,
            written,
            slm_read,
            slm_written,
        }
    }

    /// The report of kernel `kernel`'s walker: every executed instruction of `prog` with its
    /// byte offset (`entry` bytes into the kernel binary: offsets are the binary's) and its
    /// disassembly (`disassembly(pc)`, pc as `prog` numbers it).
    pub fn report(
        &self,
        prog: &Program,
        kernel: &str,
        entry: u32,
        disassembly: &dyn Fn(u32) -> String,
    ) -> Report {
        let mut mix: BTreeMap<&'static str, u64> = BTreeMap::new();
        let mut sends: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        let mut rows = Vec::new();
        for (ip, inst) in prog.insts.iter().enumerate() {
            let s = self.inst(ip);
            if s.executed == 0 {
                continue;
            }
            *mix.entry(inst.opcode.mnemonic()).or_default() += s.executed;
            let global = (s.read, s.written, false);
            let slm = (s.slm_read, s.slm_written, true);
            for (r, w, in_slm) in [global, slm] {
                if r == 0 && w == 0 {
                    continue;
                }
                let mut name = send_type(inst);
                if in_slm && !name.starts_with("slm") {
                    name += " (slm)";
                }
                let e = sends.entry(name).or_default();
                e.0 += r;
                e.1 += w;
            }
            rows.push(Row {
                offset: inst.pc.wrapping_add(entry),
                opcode: inst.opcode,
                exec_size: inst.n,
                executed: s.executed,
                lanes: s.lanes,
                bytes: [s.read, s.written, s.slm_read, s.slm_written],
                disassembly: disassembly(inst.pc),
            });
        }
        let mut mix: Vec<(&'static str, u64)> = mix.into_iter().collect();
        mix.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        Report {
            kernel: kernel.to_string(),
            executed: rows.iter().map(|r| r.executed).sum(),
            mix,
            rows,
            sends: sends
                .into_iter()
                .map(|(name, (read, written))| SendBytes {
                    name,
                    read,
                    written,
                })
                .collect(),
        }
    }
}

/// One executed instruction in a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Byte offset in the kernel binary.
    pub offset: u32,
    pub opcode: Opcode,
    /// Execution size (channels).
    pub exec_size: u8,
    pub executed: u64,
    /// Lanes acted on, summed over the executions.
    pub lanes: u64,
    /// Bytes its messages moved: global memory read, written; shared local memory read,
    /// written.
    pub bytes: [u64; 4],
    pub disassembly: String,
}

impl Row {
    /// Lanes acted on / (execution size × executions).
    pub fn active_ratio(&self) -> f64 {
        let all = u64::from(self.exec_size.max(1)) * self.executed;
        self.lanes as f64 / all.max(1) as f64
    }
}

/// Bytes moved by one send type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendBytes {
    /// The shared function and message (`dc1 untyped surface read`, `ugm load`, `dc0 hword
    /// scratch block write`; ` (slm)` after an HDC message that reached shared local memory).
    pub name: String,
    pub read: u64,
    pub written: u64,
}

/// A walker's statistics, ready to print.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub kernel: String,
    /// Instructions executed, all threads.
    pub executed: u64,
    /// Executions per opcode, most first.
    pub mix: Vec<(&'static str, u64)>,
    /// Every executed instruction, by offset.
    pub rows: Vec<Row>,
    /// Bytes per send type, by name.
    pub sends: Vec<SendBytes>,
}

impl Report {
    /// The human-readable report (no trailing newline).
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "sanitizer stats: kernel {}: {} instructions executed\n  instruction mix:\n",
            self.kernel, self.executed
        );
        for (op, n) in &self.mix {
            s += &format!("  {n:>12}  {op}\n");
        }
        s += "  per instruction (offset, executed, active lanes, instruction):\n";
        for r in &self.rows {
            s += &format!(
                "  {:#06x} {:>10} {:>6.1}%  {}\n",
                r.offset,
                r.executed,
                100.0 * r.active_ratio(),
                r.disassembly
            );
        }
        s += "  bytes moved per send type (read, written):";
        if self.sends.is_empty() {
            s += "\n  none";
        }
        for b in &self.sends {
            s += &format!("\n  {:>12} {:>12}  {}", b.read, b.written, b.name);
        }
        s
    }

    /// One JSON object (one line): `check` ("stats"), `kernel`, `executed`, `mix` (`opcode`,
    /// `count`), `instructions` (`offset`, `opcode`, `exec_size`, `executed`, `lanes`,
    /// `active_ratio`, `disassembly`; a send's also `read`, `written`, `slm_read`,
    /// `slm_written`), `sends` (`type`, `read`, `written`).
    pub fn to_json(&self) -> String {
        let mix: Vec<String> = self
            .mix
            .iter()
            .map(|(op, n)| format!("{{\"opcode\":{},\"count\":{n}}}", json_string(op)))
            .collect();
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|r| {
                let bytes = if r.opcode.shape() == isa_encoder::model::Shape::Send {
                    let [rd, wr, srd, swr] = r.bytes;
                    format!(
                        ",\"read\":{rd},\"written\":{wr},\"slm_read\":{srd},\"slm_written\":{swr}"
                    )
                } else {
                    String::new()
                };
                format!(
                    "{{\"offset\":{},\"opcode\":{},\"exec_size\":{},\"executed\":{},\
                     \"lanes\":{},\"active_ratio\":{}{bytes},\"disassembly\":{}}}",
                    r.offset,
                    json_string(r.opcode.mnemonic()),
                    r.exec_size,
                    r.executed,
                    r.lanes,
                    r.active_ratio(),
                    json_string(&r.disassembly)
                )
            })
            .collect();
        let sends: Vec<String> = self
            .sends
            .iter()
            .map(|b| {
                format!(
                    "{{\"type\":{},\"read\":{},\"written\":{}}}",
                    json_string(&b.name),
                    b.read,
                    b.written
                )
            })
            .collect();
        format!(
            "{{\"check\":\"stats\",\"kernel\":{},\"executed\":{},\"mix\":[{}],\
             \"instructions\":[{}],\"sends\":[{}]}}",
            json_string(&self.kernel),
            self.executed,
            mix.join(","),
            rows.join(","),
            sends.join(",")
        )
    }
}

/// A send's type: its shared function and message kind, from its descriptor's message type
/// (HDC: the message types' table; LSC: the opcode's mnemonic); the shared function alone
/// for the others, or when the descriptor is in a register.
fn send_type(inst: &crate::program::Inst) -> String {
    let Some(plan) = inst.send.as_ref() else {
        return "send".into();
    };
    let Some(sfid) = plan.shared else {
        return format!("sfid {}", plan.sfid);
    };
    let name = sfid.mnemonic();
    let SendDesc::Imm(desc) = plan.desc else {
        return format!("{name} (descriptor in a register)");
    };
    let message = match sfid {
        Sfid::Dc0 | Sfid::Dc1 | Sfid::Dc2 | Sfid::Dcro => hdc_message(sfid, desc),
        Sfid::Ugm | Sfid::Ugml | Sfid::Slm | Sfid::Tgm => {
            lsc::find_op(desc & 0x3f).map(|o| o.mnemonic.to_string())
        }
        _ => None,
    };
    match message {
        Some(m) => format!("{name} {m}"),
        None => name.into(),
    }
}

/// An HDC message's kind, as the message-type table names it (without its per-descriptor
/// details: channels, widths, block sizes).
fn hdc_message(sfid: Sfid, desc: u32) -> Option<String> {
    let msg_type = (desc >> hdc::MSG_TYPE.0) & ((1 << hdc::MSG_TYPE.1) - 1);
    let Some(row) = hdc::MESSAGES
        .iter()
        .find(|r| r.sfid == sfid && r.msg_type == msg_type)
    else {
        // DC0 types with bit 18 set are HWord scratch block messages; bit 17 picks write.
        return (sfid == Sfid::Dc0 && desc & 1 << 18 != 0).then(|| {
            if desc & 1 << 17 != 0 {
                "hword scratch block write".into()
            } else {
                "hword scratch block read".into()
            }
        });
    };
    use hdc::Kind as K;
    let rw = |read: bool| if read { "read" } else { "write" };
    Some(match row.kind {
        K::OwBlock(n)
        | K::NameOnly(n)
        | K::ByteScattered(n)
        | K::DwordScattered(n)
        | K::Untyped(n)
        | K::IntAtomic(n)
        | K::TypedCounter(n) => n.into(),
        K::FloatAtomic { name, .. } | K::Typed { name, .. } | K::TypedAtomic { name, .. } => {
            name.into()
        }
        K::AlignedBlockRead => "aligned block read".into(),
        K::Fence => "fence".into(),
        K::A64Scattered { read } => format!("a64 scattered {}", rw(read)),
        K::A64Block { read } => format!("a64 block {}", rw(read)),
        K::A64IntAtomic => "a64 atomic int".into(),
        K::MediaBlock { read } => format!("media block {}", rw(read)),
    })
}

/// A thread's memory counted: each access adds its bytes to the send being executed, then
/// goes on unchanged to the memory it wraps (which hears of the sends too, when it asks).
pub struct Counting<'a> {
    inner: &'a mut dyn Memory,
    bytes: &'a mut Bytes,
    /// Index of the send being executed (none before the first).
    send: Option<u32>,
    /// Whether `inner` wants to hear of sends.
    forward: bool,
}

impl<'a> Counting<'a> {
    pub fn new(inner: &'a mut dyn Memory, bytes: &'a mut Bytes) -> Self {
        let forward = inner.observes_sends();
        Counting {
            inner,
            bytes,
            send: None,
            forward,
        }
    }

    /// The memory it wraps (the sanitizer's, to report a stopped thread).
    pub fn inner(&mut self) -> &mut dyn Memory {
        &mut *self.inner
    }

    fn moved(&mut self, read: usize, written: usize, slm: bool) {
        if let Some(ip) = self.send {
            self.bytes.add(ip, read, written, slm);
        }
    }
}

impl Memory for Counting<'_> {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.moved(buf.len(), 0, false);
        self.inner.read(addr, buf)
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.moved(0, data.len(), false);
        self.inner.write(addr, data)
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        self.moved(buf.len(), 0, true);
        self.inner.slm_read(offset, buf)
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        self.moved(0, data.len(), true);
        self.inner.slm_write(offset, data)
    }
    crate::sanitize::forward_state_lookups!(inner);
    fn atomic(
        &mut self,
        addr: u64,
        width: usize,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<u64, MemFault> {
        self.moved(width, width, false);
        self.inner.atomic(addr, width, update)
    }
    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        // Counted only when it happened: otherwise the one-by-one accesses follow.
        let done = self.inner.read_all(addr, buf);
        if done {
            self.moved(buf.len(), 0, false);
        }
        done
    }
    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        let done = self.inner.write_all(addr, data);
        if done {
            self.moved(0, data.len(), false);
        }
        done
    }
    fn surface_read_all(&mut self, bti: u32, offset: u64, align: u64, buf: &mut [u8]) -> bool {
        let done = self.inner.surface_read_all(bti, offset, align, buf);
        if done {
            self.moved(buf.len(), 0, false);
        }
        done
    }
    fn surface_write_all(&mut self, bti: u32, offset: u64, align: u64, data: &[u8]) -> bool {
        let done = self.inner.surface_write_all(bti, offset, align, data);
        if done {
            self.moved(0, data.len(), false);
        }
        done
    }
    fn slm_read_all(&mut self, offset: u32, buf: &mut [u8]) -> bool {
        let done = self.inner.slm_read_all(offset, buf);
        if done {
            self.moved(buf.len(), 0, true);
        }
        done
    }
    fn slm_write_all(&mut self, offset: u32, data: &[u8]) -> bool {
        let done = self.inner.slm_write_all(offset, data);
        if done {
            self.moved(0, data.len(), true);
        }
        done
    }
    fn barrier_signal(&mut self) {
        self.inner.barrier_signal()
    }
    fn fence(&mut self, global: bool) {
        self.inner.fence(global)
    }
    fn slm_atomic(&mut self, offset: u32) {
        // The SLM atomic's read and write follow through slm_read and slm_write.
        self.inner.slm_atomic(offset)
    }
    fn out_of_surface(&mut self, base: u64, limit: u64, offset: u64, len: usize, w: bool) -> u8 {
        self.inner.out_of_surface(base, limit, offset, len, w)
    }
    fn out_of_image(&mut self, texel: &OutOfImage) {
        self.inner.out_of_image(texel)
    }
    fn observes_sends(&self) -> bool {
        true
    }
    fn on_send(&mut self, t: &Thread, ip: u32, mask: u32) {
        self.send = Some(ip);
        if self.forward {
            self.inner.on_send(t, ip, mask);
        }
    }
    fn on_indirect(&mut self, t: &Thread, ip: u32, mask: u32) {
        if self.forward {
            self.inner.on_indirect(t, ip, mask);
        }
    }
    fn tracks_registers(&self) -> bool {
        self.inner.tracks_registers()
    }
    fn registers_clean(&self) -> bool {
        self.inner.registers_clean()
    }
    fn on_inst(&mut self, t: &Thread, ip: u32, enabled: u32, pred: u32) {
        self.inner.on_inst(t, ip, enabled, pred);
    }
    fn after_send(&mut self, t: &Thread, ip: u32, mask: u32) {
        self.inner.after_send(t, ip, mask);
    }
}
