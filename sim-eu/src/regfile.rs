//! A hardware thread's registers: the GRF and the architecture registers, laid out in one byte
//! array so that every operand (GRF or ARF) pre-decodes to byte offsets into the same file.
//!
//! Layout (bytes): GRF r0..r255 (32 bytes each; a thread outside Large GRF Mode reaches r0..r127
//! only), then a0 (16 x 16-bit subregisters), acc0..acc7
//! (32 bytes each), f0 and f1 (32 bits each), ce0, sr0, cr0, n0, tm0, ip, the math-macro
//! accumulators' extra bits (`.mme0`..`.mme7`, one byte per lane), the accumulator DWords'
//! integer values beyond 32 bits ([`ACC_WIDE`]), and a zero area that `null` sources read.

use std::ops::Range;

use isa_encoder::model::RegFile;

use super::exec::waits::Waits;

/// Bytes per register on Gen9..Xe-HPG.
pub const REG_BYTES: usize = platform::GRF_BYTES as usize;
/// GRF registers of a thread outside Large GRF Mode.
pub const GRF_REGS: usize = platform::GRF_REGS as usize;
/// The most GRF registers a thread has on any platform modelled here (Xe-HPG's Large GRF
/// Mode): the byte file always holds this many, so the architecture registers sit at fixed
/// offsets whatever a thread's mode. A thread with fewer reaches only its own (its program is
/// decoded for its count, [`crate::Program::decode_with_grf`]).
pub const MAX_GRF_REGS: usize = platform::LARGE_GRF_REGS as usize;
/// Bytes of the GRF area of the byte file.
pub const MAX_GRF_BYTES: usize = REG_BYTES * MAX_GRF_REGS;

/// Mask of the low bits of an indirect GRF byte address (a0 + immediate + element offset) the
/// EU decodes for a thread with `grf_bytes` of GRF; higher bits are dropped, so an address past
/// the last register wraps to r0. The EU has no exception for a register address (its
/// exceptions are illegal opcode, software exception, breakpoint, ...), and IGC forms shuffle
/// addresses from unmasked indices, so this wrap is what an out-of-range shuffle lane reads.
/// 12 bits for 128 registers of 32 bytes; Large GRF Mode's 256 registers take 13 (the
/// simulator assumes the decoded span follows the register count).
pub const fn grf_addr_mask(grf_bytes: usize) -> usize {
    grf_bytes.next_power_of_two() - 1
}

/// A set of GRF registers (bit r = register r), up to [`MAX_GRF_REGS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GrfSet(pub [u128; 2]);

impl GrfSet {
    pub const EMPTY: GrfSet = GrfSet([0; 2]);
    pub const ALL: GrfSet = GrfSet([u128::MAX; 2]);

    /// Registers `first..first + count`, clipped to [`MAX_GRF_REGS`].
    pub fn range(first: usize, count: usize) -> GrfSet {
        let end = first.saturating_add(count).min(MAX_GRF_REGS);
        // The bits of first..end that fall in the half starting at register `lo`.
        let half = |lo: usize| {
            let a = first.clamp(lo, lo + 128) - lo;
            let b = end.clamp(lo, lo + 128) - lo;
            if b <= a {
                0
            } else {
                (u128::MAX >> (128 - (b - a))) << a
            }
        };
        GrfSet([half(0), half(128)])
    }

    /// How many registers the set holds.
    pub fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones()
    }

    /// Whether register `r` is in the set.
    pub fn contains(self, r: usize) -> bool {
        r < MAX_GRF_REGS && self.0[r / 128] >> (r % 128) & 1 != 0
    }
}

impl std::ops::BitOr for GrfSet {
    type Output = GrfSet;
    fn bitor(self, o: GrfSet) -> GrfSet {
        GrfSet([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }
}

impl std::ops::BitOrAssign for GrfSet {
    fn bitor_assign(&mut self, o: GrfSet) {
        *self = *self | o;
    }
}

impl std::ops::BitAnd for GrfSet {
    type Output = GrfSet;
    fn bitand(self, o: GrfSet) -> GrfSet {
        GrfSet([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }
}

impl std::ops::Not for GrfSet {
    type Output = GrfSet;
    fn not(self) -> GrfSet {
        GrfSet([!self.0[0], !self.0[1]])
    }
}

/// One architecture register file's place in the thread's byte file.
pub struct ArfSlot {
    pub file: RegFile,
    pub name: &'static str,
    pub start: usize,
    /// Bytes one register number spans (`acc1` starts `stride` after `acc0`).
    pub stride: usize,
    pub len: usize,
}

const fn slot(
    file: RegFile,
    name: &'static str,
    start: usize,
    stride: usize,
    len: usize,
) -> ArfSlot {
    ArfSlot {
        file,
        name,
        start,
        stride,
        len,
    }
}

pub const A0: usize = MAX_GRF_BYTES;
pub const ACC: usize = A0 + 32;
pub const FLAG: usize = ACC + 8 * 32;
pub const CE: usize = FLAG + 32;
pub const SR0: usize = CE + 32;
pub const CR0: usize = SR0 + 32;
pub const N0: usize = CR0 + 32;
pub const TM0: usize = N0 + 32;
pub const IP: usize = TM0 + 32;
/// The two extra significand bits each `.mmeN` accumulator keeps per lane (byte N*32 + lane);
/// only the IEEE macro instructions reach them (see `ieee_macro`).
pub const MME: usize = IP + 32;
pub const MME_ACCS: usize = 8;
/// The accumulator's integer precision beyond the DWords it shows: per accumulator DWord
/// ([`ACC_DWORDS`]) the full value (i64, little-endian) of the last integer result written
/// there, which `mach` adds to (see `exec::alu`); valid while that DWord still holds its low
/// 32 bits. In the file, so that translated code keeps it as the interpreter does; no operand
/// names it. Zero when a thread starts.
pub const ACC_WIDE: usize = MME + MME_ACCS * 32;
/// `null` reads as zeros: a region as large as the widest operand footprint (32 lanes x 8
/// bytes x stride 4).
pub const ZERO: usize = ACC_WIDE + ACC_DWORDS * 8;
pub const ZERO_LEN: usize = 32 * 8 * 4;
/// Total bytes, with slack so an 8-byte read at any validated offset stays inside, in whole
/// 64-byte lines (what a thread's file is allocated in).
pub const FILE_BYTES: usize = (ZERO + ZERO_LEN + 8).next_multiple_of(64);

/// Pieces of [`ArfSet`]: the file from [`A0`] to [`ZERO`] (every architecture register the
/// interpreter models, the `.mme` bits and the accumulator's wide values) in 32-byte pieces.
pub const ARF_PIECES: usize = (ZERO - A0) / 32;
const _: () = assert!((ZERO - A0).is_multiple_of(32) && ARF_PIECES <= 64);

/// A set of the architecture-register file's 32-byte pieces (bit k = bytes `A0 + 32k` to
/// `A0 + 32k + 32`): those a program may write ([`crate::Program::arf_writes`]), which a
/// reused thread clears, the others staying zero from the thread's start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArfSet(pub u64);

impl ArfSet {
    pub const EMPTY: ArfSet = ArfSet(0);
    pub const ALL: ArfSet = ArfSet(u64::MAX >> (64 - ARF_PIECES));

    /// The pieces holding any of the file bytes `bytes` (those outside the ARF left out).
    pub fn bytes(bytes: Range<usize>) -> ArfSet {
        let (a, b) = (bytes.start.max(A0), bytes.end.min(ZERO));
        if a >= b {
            return ArfSet::EMPTY;
        }
        let (first, last) = ((a - A0) / 32, (b - 1 - A0) / 32);
        ArfSet((u64::MAX >> (63 - (last - first))) << first)
    }

    /// The pieces an instruction writing the file bytes `bytes` changes: those, and where
    /// they are accumulator DWords, those DWords' wide values ([`acc_wide_at`]).
    pub fn written(bytes: Range<usize>) -> ArfSet {
        let mut set = ArfSet::bytes(bytes.clone());
        let (a, b) = (bytes.start.max(ACC), bytes.end.min(FLAG));
        if a < b {
            let (k0, k1) = ((a - ACC) / 4, (b - 1 - ACC) / 4);
            set |= ArfSet::bytes(acc_wide_at(k0)..acc_wide_at(k1) + 8);
        }
        set
    }

    /// Whether piece `k` is in the set.
    pub fn contains(self, k: usize) -> bool {
        k < ARF_PIECES && self.0 >> k & 1 != 0
    }

    /// The pieces of `self` not in `other`.
    pub fn without(self, other: ArfSet) -> ArfSet {
        ArfSet(self.0 & !other.0)
    }
}

impl std::ops::BitOr for ArfSet {
    type Output = ArfSet;
    fn bitor(self, o: ArfSet) -> ArfSet {
        ArfSet(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for ArfSet {
    fn bitor_assign(&mut self, o: ArfSet) {
        self.0 |= o.0;
    }
}

/// 64 bytes at a 64-byte boundary: what a thread's byte file is allocated in.
#[derive(Clone, Copy, zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::Immutable)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// A thread's byte file ([`FILE_BYTES`] bytes, the layout above) starting at a 64-byte
/// boundary, so that a SIMD16 `:f` operand (two registers from an even one, as IGC allocates
/// them) is one cache line: host code that moves it in one 64-byte access (translated code's
/// runs of `mad`s) crosses no line. A plain allocation of bytes is 16-byte aligned, and a
/// 64-byte access crosses a line in three threads of four.
#[derive(Clone)]
pub(crate) struct File(Box<[Line; FILE_BYTES / 64]>);

impl File {
    fn zeroed() -> File {
        // (Of a fixed length, so that the compiler sees every access at a constant offset
        // inside it and checks none.)
        File(Box::new([Line([0; 64]); FILE_BYTES / 64]))
    }
}

impl std::ops::Deref for File {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        zerocopy::IntoBytes::as_bytes(&*self.0)
    }
}

impl std::ops::DerefMut for File {
    fn deref_mut(&mut self) -> &mut [u8] {
        zerocopy::IntoBytes::as_mut_bytes(&mut *self.0)
    }
}

impl PartialEq for File {
    fn eq(&self, o: &File) -> bool {
        **self == **o
    }
}

/// The GRF byte ranges of the registers in `grf`: one per run of consecutive registers (a
/// kernel's registers mostly are one run from r0 up; a run through r127 and r128 is two).
pub fn grf_runs(grf: GrfSet) -> impl Iterator<Item = Range<usize>> {
    grf.0.into_iter().enumerate().flat_map(|(half, mut m)| {
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let first = m.trailing_zeros() as usize;
            let run = (m >> first).trailing_ones() as usize;
            m &= u128::MAX.checked_shl((first + run) as u32).unwrap_or(0);
            let base = half * 128;
            Some((base + first) * REG_BYTES..(base + first + run) * REG_BYTES)
        })
    })
}

/// [`grf_runs`] with runs fewer than `gap` registers apart joined: clearing the registers
/// between (zero already, or holding values nothing reads first) costs less than a call more.
pub fn grf_runs_joined(grf: GrfSet, gap: usize) -> impl Iterator<Item = Range<usize>> {
    let mut runs = grf_runs(grf).peekable();
    std::iter::from_fn(move || {
        let mut run = runs.next()?;
        while let Some(next) = runs.next_if(|n| n.start - run.end < gap * REG_BYTES) {
            run.end = next.end;
        }
        Some(run)
    })
}

/// The architecture registers the interpreter models, and where they live.
#[rustfmt::skip]
pub const ARF_SLOTS: &[ArfSlot] = &[
    slot(RegFile::Address, "a0", A0, 32, 32),
    slot(RegFile::Acc, "acc", ACC, 32, 8 * 32),
    slot(RegFile::Flag, "f", FLAG, 4, 8),
    slot(RegFile::ChannelEnable, "ce0", CE, 4, 4),
    slot(RegFile::State, "sr0", SR0, 16, 16),
    slot(RegFile::Control, "cr0", CR0, 16, 16),
    slot(RegFile::Notification, "n0", N0, 16, 16),
    // tm0.0-1 the timestamp, tm0.2-3 the rest of IGA's tm0; tm0.4 the pause count IGC writes
    // (`mov tm0.4 0x3E0`, its thread-pause intrinsic: 0x3E0 = 31 units of 32 clocks) in the
    // back-off of the lock loops it builds, e.g. for 64-bit atomics on local memory. A
    // functional model has no clocks to wait: the write is kept and has no other effect.
    slot(RegFile::Timestamp, "tm0", TM0, 32, 20),
    slot(RegFile::Ip, "ip", IP, 4, 4),
];

/// The slot of an ARF, or `None` if the interpreter does not model it.
pub fn arf_slot(file: RegFile) -> Option<&'static ArfSlot> {
    ARF_SLOTS.iter().find(|s| s.file == file)
}

/// Per-thread state: registers, channel masks and the per-channel instruction pointers.
#[derive(Clone)]
pub struct Thread {
    pub(crate) file: File,
    /// Current instruction (index into the program).
    pub(crate) ip: u32,
    /// Channels that are still running (dispatch mask minus halted channels).
    pub(crate) live: u32,
    /// Channels executing at `ip`.
    pub(crate) active: u32,
    /// The channels not executing at `ip`, by the instruction each resumes at.
    pub(crate) waits: Waits,
    /// Per `call` still running, innermost last: the channels outside it, by the instruction
    /// each resumes at (those that returned wait at the return address). A call moves the
    /// whole thread, as the hardware's single instruction pointer does: until every channel
    /// that entered has returned, only they run (a callee placed after the caller's loop would
    /// otherwise wait behind channels spinning in it).
    pub(crate) calls: Vec<Waits>,
    /// The first instruction a channel waits at (`u32::MAX`: none).
    pub(crate) next_wake: u32,
    pub(crate) ended: bool,
    /// A gateway barrier was signalled and not yet released by the dispatcher.
    pub(crate) barrier_pending: bool,
    /// Instructions executed so far (also what `tm0` reads).
    pub(crate) executed: u64,
    /// Channels whose indirect (`r[a0...]`) operands the current instruction resolves. The
    /// others neither read nor write, so an address register pointing outside the GRF there is
    /// no error. All ones outside an ALU instruction.
    pub(crate) exec_lanes: u32,
    /// A send's payload and response buffers, kept so that messages after the first reuse
    /// their memory instead of allocating (contents are meaningless between sends).
    pub(crate) msg_payload: Vec<u8>,
    pub(crate) msg_resp: Vec<u8>,
    /// r0's DWords 3 and 5 as the thread started (its scratch slice: size code and pointer).
    /// The hardware keeps these from dispatch; a scratch message's header does not supply them.
    pub(crate) dispatched_scratch: [u32; 2],
    /// The memory of the current run wants to hear of each send (the sanitizer's).
    pub(crate) observe_sends: bool,
    /// The memory of the current run follows values through the registers (initcheck): sends
    /// leave the fast path's blocks for the general one, which tells it of each.
    pub(crate) track_regs: bool,
    /// Bytes of GRF this thread reaches: [`GRF_REGS`] registers, or the platform's Large GRF
    /// Mode count. A thread has the registers of the program it runs (the dispatcher decodes
    /// the program for the walker's mode), so [`crate::run`] takes it from the program.
    pub(crate) grf_bytes: usize,
}

/// DWords of acc0–acc7.
pub const ACC_DWORDS: usize = 8 * 32 / 4;

/// The file offset of accumulator DWord `k`'s wide value ([`ACC_WIDE`]: 8 bytes each).
pub const fn acc_wide_at(k: usize) -> usize {
    ACC_WIDE + 8 * k
}

/// The accumulator DWord at file offset `off`, if it is one.
pub fn acc_dword(off: u16) -> Option<usize> {
    let k = usize::from(off).checked_sub(ACC)? / 4;
    (k < ACC_DWORDS).then_some(k)
}

impl Thread {
    /// The instruction the thread executes next (an index into its program).
    #[inline]
    pub fn ip(&self) -> u32 {
        self.ip
    }

    /// A thread whose channels `dispatch_mask` are enabled (bit n = channel n), all registers
    /// zero, starting at the kernel's first instruction.
    pub fn new(dispatch_mask: u32) -> Thread {
        let mut t = Thread {
            file: File::zeroed(),
            ip: 0,
            live: dispatch_mask,
            active: dispatch_mask,
            waits: Waits::EMPTY,
            calls: Vec::new(),
            next_wake: u32::MAX,
            ended: dispatch_mask == 0,
            barrier_pending: false,
            executed: 0,
            exec_lanes: u32::MAX,
            msg_payload: Vec::new(),
            msg_resp: Vec::new(),
            dispatched_scratch: [0; 2],
            observe_sends: false,
            track_regs: false,
            grf_bytes: GRF_REGS * REG_BYTES,
        };
        t.restart(dispatch_mask);
        t
    }

    /// The wide value kept for accumulator DWord `k` ([`ACC_WIDE`]).
    pub(crate) fn acc_wide(&self, k: usize) -> i64 {
        let at = acc_wide_at(k);
        self.file
            .get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(0, i64::from_le_bytes)
    }

    /// Keeps `v` as accumulator DWord `k`'s wide value.
    pub(crate) fn set_acc_wide(&mut self, k: usize, v: i64) {
        let at = acc_wide_at(k);
        if let Some(b) = self.file.get_mut(at..at + 8) {
            b.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Makes this thread what [`Thread::new`] gives for `dispatch_mask` (every register zero,
    /// nothing executed) without allocating: a dispatcher reuses its thread objects.
    pub fn reset(&mut self, dispatch_mask: u32) {
        self.file.fill(0);
        self.executed = 0;
        self.restart(dispatch_mask);
    }

    /// [`Thread::reset`] when only the GRF bytes in `runs` ([`grf_runs`] of the registers a
    /// kernel and its payload may write, worked out once per group) and the architecture
    /// registers in `arf` ([`crate::Program::arf_writes`]) can be non-zero: clears those,
    /// leaving the others as they are (zero). The area `null` reads is never written
    /// (destinations of `null` store nothing), so it stays zero.
    #[inline]
    pub fn reset_runs(&mut self, dispatch_mask: u32, runs: &[Range<usize>], arf: ArfSet) {
        // (An OR of every byte, which compiles to a few vector operations: a byte-by-byte
        // test that stops at the first non-zero one was a one-item work-group's largest
        // cost in the tests' builds.)
        debug_assert!(
            self.file[ZERO..ZERO + ZERO_LEN]
                .iter()
                .fold(0, |a, &b| a | b)
                == 0,
            "the null area was written"
        );
        for r in runs {
            if let Some(b) = self.file.get_mut(r.start..r.end.min(MAX_GRF_BYTES)) {
                b.fill(0);
            }
        }
        // Piece by piece: a kernel writes a few (cr0, tm0, an accumulator), and a store of 32
        // bytes each costs less than a call to fill a run (or all 1,280 bytes).
        // (The pieces as one array, its bounds checked once.)
        if let Some(pieces) = self
            .file
            .get_mut(A0..ZERO)
            .and_then(|b| <[[u8; 32]] as zerocopy::FromBytes>::mut_from_bytes(b).ok())
        {
            let mut m = arf.0;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(p) = pieces.get_mut(k) {
                    *p = [0; 32];
                }
            }
        }
        self.executed = 0;
        self.restart_cleared(dispatch_mask);
    }

    /// The file byte of the first architecture-register piece outside `arf` that is not
    /// zero: a thread that ran a program whose [`crate::Program::arf_writes`] is `arf` has
    /// none, or a reused thread would carry it into the next one ([`Thread::reset_runs`]
    /// clears only `arf`). For debug checks (the dispatcher's, once per walker).
    pub fn stray_arf_piece(&self, arf: ArfSet) -> Option<usize> {
        let words =
            <[u64] as zerocopy::FromBytes>::ref_from_bytes(self.file.get(A0..ZERO)?).ok()?;
        let outside = !arf.0;
        words
            .chunks_exact(4)
            .enumerate()
            .find(|&(k, w)| outside >> k & 1 != 0 && (w[0] | w[1] | w[2] | w[3]) != 0)
            .map(|(k, _)| A0 + 32 * k)
    }

    /// Restarts the thread at the kernel's first instruction with `dispatch_mask`, keeping the
    /// register contents (a dispatcher reusing one thread object overwrites the payload) but
    /// not the accumulator's wide values ([`ACC_WIDE`]), which are zero when a thread starts.
    pub fn restart(&mut self, dispatch_mask: u32) {
        if let Some(wide) = self.file.get_mut(ACC_WIDE..ZERO) {
            wide.fill(0);
        }
        self.restart_cleared(dispatch_mask);
    }

    /// [`Thread::restart`] when the accumulator's wide values are already zero.
    fn restart_cleared(&mut self, dispatch_mask: u32) {
        self.ip = 0;
        // sr0.2 is the dispatch mask and sr0.3 the vector mask, which for a compute thread is
        // the same (Mesa brw_reg.h: brw_dmask_reg, brw_vmask_reg). IGC reads sr0.2 for the
        // channels a sub-group has (sub_group_ballot, sub_group_elect).
        self.file[SR0 + 8..SR0 + 12].copy_from_slice(&dispatch_mask.to_le_bytes());
        self.file[SR0 + 12..SR0 + 16].copy_from_slice(&dispatch_mask.to_le_bytes());
        self.live = dispatch_mask;
        self.active = dispatch_mask;
        self.waits.clear();
        self.calls.clear();
        self.next_wake = u32::MAX;
        self.ended = dispatch_mask == 0;
        self.barrier_pending = false;
        self.exec_lanes = u32::MAX;
    }

    /// The GRF as bytes (r0 at 0, 32 bytes per register), as many registers as the thread
    /// has.
    pub fn grf(&self) -> &[u8] {
        &self.file[..self.grf_bytes]
    }

    /// The GRF, writable (the dispatcher loads r0 and the payload here).
    #[inline]
    pub fn grf_mut(&mut self) -> &mut [u8] {
        &mut self.file[..self.grf_bytes]
    }

    /// Gives the thread `regs` GRF registers (at most [`MAX_GRF_REGS`]), as the program it is
    /// to run was decoded for ([`crate::Program::grf_regs`]; [`crate::run`] sets it too).
    #[inline]
    pub fn set_grf_regs(&mut self, regs: usize) {
        self.grf_bytes = regs.min(MAX_GRF_REGS) * REG_BYTES;
    }

    /// GRF registers the thread has (128, or 256 in Large GRF Mode).
    pub fn grf_regs(&self) -> usize {
        self.grf_bytes / REG_BYTES
    }

    /// Dword `sub` of GRF register `reg` (0 outside the GRF).
    #[inline]
    pub fn grf_u32(&self, reg: usize, sub: usize) -> u32 {
        let at = reg * REG_BYTES + sub * 4;
        self.file
            .get(at..at + 4)
            .filter(|_| at + 4 <= self.grf_bytes)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The flag registers f0.0, f0.1, f1.0, f1.1 as one 64-bit value (f0.0 in bits 15:0).
    pub fn flags(&self) -> u64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.file[FLAG..FLAG + 8]);
        u64::from_le_bytes(b)
    }

    pub(crate) fn set_flags(&mut self, v: u64) {
        self.file[FLAG..FLAG + 8].copy_from_slice(&v.to_le_bytes());
    }

    /// Writes sr0.0, the thread's slice, subslice, EU and thread identifiers (the dispatcher's
    /// choice of hardware thread slot).
    #[inline]
    pub fn set_sr0_ids(&mut self, dword0: u32) {
        self.file[SR0..SR0 + 4].copy_from_slice(&dword0.to_le_bytes());
    }

    /// sr0.0 as [`Thread::set_sr0_ids`] left it.
    pub fn sr0_ids(&self) -> u32 {
        u32::from_le_bytes([
            self.file[SR0],
            self.file[SR0 + 1],
            self.file[SR0 + 2],
            self.file[SR0 + 3],
        ])
    }

    /// True once the thread sent its end-of-thread message or all its channels halted.
    #[inline]
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// True while the thread waits at a barrier the dispatcher has not released.
    #[inline]
    pub fn barrier_pending(&self) -> bool {
        self.barrier_pending
    }

    /// Releases the thread from its gateway barrier (all threads of its group arrived).
    pub fn release_barrier(&mut self) {
        self.barrier_pending = false;
    }

    /// Instructions executed so far.
    #[inline]
    pub fn instructions_executed(&self) -> u64 {
        self.executed
    }

    /// Whether the thread is in exactly the state `other` is in (registers, instruction,
    /// channel state), the count of executed instructions aside (and `tm0`, which shows it):
    /// a thread that comes back to a state it was in repeats itself unless the memory it
    /// reads changes (or it reads `tm0`, which makes the states differ).
    pub fn same_state(&self, other: &Thread) -> bool {
        let (a, b) = (&self.file, &other.file);
        let tm0 = TM0..TM0 + 16;
        self.ip == other.ip
            && self.live == other.live
            && self.active == other.active
            && self.waits == other.waits
            && self.next_wake == other.next_wake
            && self.ended == other.ended
            && self.barrier_pending == other.barrier_pending
            && a.get(..tm0.start) == b.get(..tm0.start)
            && a.get(tm0.end..) == b.get(tm0.end..)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte file starts at a cache line and is exactly the layout's size, new and cloned.
    #[test]
    fn the_file_starts_at_a_cache_line() {
        for t in [Thread::new(0xffff), Thread::new(1).clone()] {
            assert_eq!(t.file.as_ptr() as usize % 64, 0);
            assert_eq!(t.file.len(), FILE_BYTES);
            assert!(t.grf().iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn grf_set_ranges_span_both_halves() {
        let r = GrfSet::range(126, 4);
        assert_eq!(r.count(), 4);
        assert!((126..130).all(|x| r.contains(x)) && !r.contains(125) && !r.contains(130));
        assert_eq!(GrfSet::range(0, 256), GrfSet::ALL);
        assert_eq!(GrfSet::range(250, 10).count(), 6);
        assert_eq!(GrfSet::range(300, 2), GrfSet::EMPTY);
        assert_eq!(GrfSet::range(5, 0), GrfSet::EMPTY);
    }

    /// Every range, register by register: `first..first + count` clipped to the GRF.
    #[test]
    fn grf_set_ranges_hold_exactly_their_registers() {
        for first in 0..MAX_GRF_REGS + 4 {
            for count in (0..MAX_GRF_REGS + 4).chain([usize::MAX]) {
                let r = GrfSet::range(first, count);
                let end = first.saturating_add(count).min(MAX_GRF_REGS);
                for x in 0..MAX_GRF_REGS {
                    assert_eq!(
                        r.contains(x),
                        (first..end).contains(&x),
                        "{first}+{count}: r{x}"
                    );
                }
            }
        }
    }

    /// A reused thread whose runs wrote the registers in `grf` and the architecture registers
    /// in `arf` (not the null area, which nothing writes) resets to exactly a new thread's
    /// state.
    #[test]
    fn reset_regs_gives_a_new_threads_registers() {
        let grf = GrfSet([0b1011_0110 | 1 << 127 | 0xf << 40, 1 | 1 << 100]);
        // sr0 as every thread has it (its dispatch mask), the flags and acc0.1 as written.
        let arf = ArfSet::bytes(SR0..SR0 + 16)
            | ArfSet::written(FLAG..FLAG + 4)
            | ArfSet::written(ACC + 4..ACC + 8);
        let mut t = Thread::new(0xffff);
        for r in (0..MAX_GRF_REGS).filter(|&r| grf.contains(r)) {
            t.file[r * REG_BYTES..(r + 1) * REG_BYTES].fill(0xa5);
        }
        for k in (0..ARF_PIECES).filter(|&k| arf.contains(k)) {
            t.file[A0 + 32 * k..A0 + 32 * k + 32].fill(0x5a);
        }
        t.executed = 7;
        let runs: Vec<_> = grf_runs(grf).collect();
        // r127 and r128 are two runs (one per half of the set).
        assert_eq!(runs.len(), 7);
        t.reset_runs(0xff, &runs, arf);
        let new = Thread::new(0xff);
        assert!(t.file == new.file);
        assert!(t.same_state(&new));
        assert_eq!(t.instructions_executed(), 0);
    }

    /// An architecture register outside the program's set that is not zero is found, and
    /// reset_runs leaves it alone (a dispatcher's debug check then reports it).
    #[test]
    fn a_write_outside_the_set_is_found_and_kept() {
        let mut t = Thread::new(0xffff);
        let arf = ArfSet::bytes(SR0..SR0 + 16) | ArfSet::written(FLAG..FLAG + 4);
        assert_eq!(t.stray_arf_piece(arf), None);
        t.file[CR0 + 5] = 1;
        assert_eq!(t.stray_arf_piece(arf), Some(CR0));
        t.reset_runs(0xff, &[], arf);
        assert_eq!(t.stray_arf_piece(arf), Some(CR0));
        assert_eq!(t.stray_arf_piece(arf | ArfSet::bytes(CR0..CR0 + 1)), None);
    }

    /// A write of accumulator DWords takes their wide values with it; pieces are 32 bytes
    /// from `a0`, and bytes outside the architecture registers are none of them.
    #[test]
    fn arf_pieces_of_a_write() {
        assert_eq!(ArfSet::bytes(0..A0), ArfSet::EMPTY);
        assert_eq!(ArfSet::bytes(ZERO..ZERO + 64), ArfSet::EMPTY);
        assert_eq!(ArfSet::bytes(A0..ZERO), ArfSet::ALL);
        assert_eq!(ArfSet::bytes(CR0..CR0 + 4), ArfSet(1 << ((CR0 - A0) / 32)));
        assert_eq!(ArfSet::bytes(CR0 + 31..CR0 + 33).0.count_ones(), 2);
        // acc0.1 (:d): its piece and the piece of its wide value.
        assert_eq!(
            ArfSet::written(ACC + 4..ACC + 8),
            ArfSet::bytes(ACC..ACC + 1) | ArfSet::bytes(ACC_WIDE..ACC_WIDE + 1)
        );
        // acc1's eight DWords: their wide values are the accumulator's wide bytes 64..128.
        assert_eq!(
            ArfSet::written(ACC + 32..ACC + 64),
            ArfSet::bytes(ACC + 32..ACC + 64) | ArfSet::bytes(ACC_WIDE + 64..ACC_WIDE + 128)
        );
        assert_eq!(
            ArfSet::bytes(ACC_WIDE + 64..ACC_WIDE + 128).0.count_ones(),
            2
        );
        assert_eq!(
            ArfSet::written(FLAG..FLAG + 8),
            ArfSet::bytes(FLAG..FLAG + 8)
        );
    }

    #[test]
    fn runs_closer_than_the_gap_are_joined() {
        // r1-r2, r5 (two registers after), r20 (fourteen after), r127-r128 (across the halves).
        let grf = GrfSet([0b110 | 1 << 5 | 1 << 20 | 1 << 127, 1]);
        let regs = |a: usize, b: usize| a * REG_BYTES..b * REG_BYTES;
        let joined: Vec<_> = grf_runs_joined(grf, 8).collect();
        assert_eq!(joined, [regs(1, 6), regs(20, 21), regs(127, 129)]);
        let apart: Vec<_> = grf_runs_joined(grf, 0).collect();
        assert_eq!(apart, grf_runs(grf).collect::<Vec<_>>());
    }
}
