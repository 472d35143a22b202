//! The command streamer's fetch-decode-execute loop over the ring and the batch buffers.

use batchbuffer::{
    identify, AddressSpaceIndicator, CompareOperation, ComputeWalker, DestinationAddressType,
    GpgpuWalker, IdentifyError, LriPostSyncOperation, MemoryType, MiAtomic, MiBatchBufferStart,
    MiLoadRegisterImm, MiLoadRegisterMem, MiLoadRegisterReg, MiPredicate, MiSemaphoreWait,
    MiStoreDataImm, MiStoreRegisterMem, Packet, PacketId, PipeControl, PipelineSelect,
    PostSyncOperation, SecondLevelBatchBuffer,
};
use platform::Platform;

use super::compute::{CommandLog, ComputeState, Walker, WalkerExecutor};
use super::mi_ops::{
    predicate, AtomicOp, AtomicProblem, MI_PREDICATE_RESULT, MI_PREDICATE_SRC0, MI_PREDICATE_SRC1,
};
use super::watchdog::Watchdog;
use crate::clock::Clock;
use crate::device_info::EngineDesc;
use crate::gpu_error::{GpuErrorKind, HangReason};
use crate::mem::{AddressSpace, GpuFault};
use crate::regs::resolve;
use crate::regs::RegisterFile;

/// Which address space a command's addresses go through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// The global GTT: the kernel's ring and status page.
    Ggtt,
    /// The context's per-process GTT: everything a user batch touches.
    Ppgtt,
}

/// A GPU error raised while executing, at the GPU address `head` of the offending command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsError {
    pub head: u64,
    pub kind: GpuErrorKind,
}

/// Longest command the streamer will fetch (the widest DWord Length field is 10 bits).
const MAX_COMMAND_DWORDS: usize = 1024 + 2;
/// Batch nesting the hardware supports below the ring: a first- and a second-level batch.
const MAX_BATCH_DEPTH: usize = 2;

/// Everything one run of the command streamer works on.
pub(crate) struct Cs<'a> {
    pub platform: Platform,
    pub topology: crate::device_info::Topology,
    pub engine: &'static EngineDesc,
    pub clock: &'a Clock,
    pub ggtt: &'a AddressSpace,
    pub ppgtt: &'a AddressSpace,
    pub regs: &'a mut RegisterFile,
    pub compute: &'a mut ComputeState,
    pub walker: &'a dyn WalkerExecutor,
    pub sanitizer: Option<&'a crate::sanitize::Sanitizer>,
    pub watchdog: Watchdog,
    pub timer: &'a super::watchdog::GpuTimer,
    /// The ring's GGTT range; fetches past its end wrap to its start.
    pub ring: std::ops::Range<u64>,
    /// Receives each batch command's dwords as it executes (the kernel's ring commands not)
    /// and each walker's dispatch record.
    pub log: Option<&'a mut CommandLog>,
}

/// Result of executing one command: where to go next.
enum Flow {
    Next,
    Jump(u64),
}

pub(super) fn bad(header: u32, detail: impl ToString) -> GpuErrorKind {
    GpuErrorKind::Hang(HangReason::BadCommand {
        header,
        detail: detail.to_string(),
    })
}

impl Cs<'_> {
    fn mem(&self, space: Space) -> &AddressSpace {
        match space {
            Space::Ggtt => self.ggtt,
            Space::Ppgtt => self.ppgtt,
        }
    }

    /// Executes the ring from `head` to `tail`, following batch buffers.
    pub fn run(&mut self, head: u64, tail: u64) -> Result<(), CsError> {
        let mut pc = head;
        // Return addresses of the batch levels entered; empty while executing the ring.
        let mut stack: Vec<u64> = Vec::new();
        loop {
            let space = if stack.is_empty() {
                if pc >= self.ring.end {
                    pc = self.ring.start + (pc - self.ring.end);
                }
                if pc == tail {
                    return Ok(());
                }
                Space::Ggtt
            } else {
                Space::Ppgtt
            };
            let err = |kind| CsError { head: pc, kind };
            if let Err(commands) = self.watchdog.tick() {
                return Err(err(GpuErrorKind::Hang(HangReason::Watchdog { commands })));
            }
            let dw = self.fetch(space, pc).map_err(err)?;
            let header = dw[0];
            let id = identify(self.platform, &dw).map_err(|e| err(bad(header, e)))?;
            let cmd = &dw[..id.len];
            let step = (id.len * 4) as u64;
            if let (Space::Ppgtt, Some(log)) = (space, self.log.as_deref_mut()) {
                log.dwords.extend_from_slice(cmd);
            }
            let flow = match id.packet {
                PacketId::MiBatchBufferEnd => match stack.pop() {
                    Some(ret) => Flow::Jump(ret),
                    None => return Err(err(bad(header, "MI_BATCH_BUFFER_END in the ring"))),
                },
                PacketId::MiBatchBufferStart => {
                    let bbs = self.unpack::<MiBatchBufferStart>(cmd).map_err(err)?;
                    // A predicated start whose predicate is clear is skipped.
                    if bbs.predication_enable && !self.predicate() {
                        pc += step;
                        continue;
                    }
                    let second =
                        bbs.second_level_batch_buffer == SecondLevelBatchBuffer::SecondLevelBatch;
                    // From the ring the kernel only starts PPGTT batches; inside a user batch
                    // the hardware treats every address as PPGTT.
                    if space == Space::Ggtt
                        && bbs.address_space_indicator != AddressSpaceIndicator::Ppgtt
                    {
                        return Err(err(bad(header, "GGTT batch started from the ring")));
                    }
                    if stack.is_empty() || second {
                        if stack.len() >= MAX_BATCH_DEPTH {
                            let depth = stack.len() + 1;
                            return Err(err(GpuErrorKind::Hang(HangReason::BatchNesting {
                                depth,
                            })));
                        }
                        stack.push(pc + step);
                    }
                    Flow::Jump(bbs.batch_buffer_start_address)
                }
                PacketId::MiNoop | PacketId::MiArbCheck => Flow::Next,
                other => {
                    self.execute(space, other, cmd, pc).map_err(err)?;
                    Flow::Next
                }
            };
            pc = match flow {
                Flow::Next => pc + step,
                Flow::Jump(to) => to,
            };
        }
    }

    /// Reads the command at `pc`: its header first, then as many dwords as it announces.
    fn fetch(&self, space: Space, pc: u64) -> Result<Vec<u32>, GpuErrorKind> {
        let mem = self.mem(space);
        let header = mem.read_u32(pc)?;
        let len = match identify(self.platform, &[header]) {
            Ok(_) => return Ok(vec![header]),
            Err(IdentifyError::Truncated { need, .. }) if need <= MAX_COMMAND_DWORDS => need,
            Err(e) => return Err(bad(header, e)),
        };
        let mut bytes = vec![0u8; len * 4];
        mem.read(pc, &mut bytes)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn unpack<P: Packet>(&self, cmd: &[u32]) -> Result<P, GpuErrorKind> {
        P::unpack(self.platform, cmd).map_err(|e| bad(cmd[0], e))
    }

    /// The memory a command's address field refers to: GGTT only for the kernel's own commands
    /// in the ring that ask for it.
    pub(super) fn target(&self, space: Space, global: bool) -> &AddressSpace {
        if space == Space::Ggtt && global {
            self.ggtt
        } else {
            self.ppgtt
        }
    }

    fn reg(&self, offset: u32, cs_relative: u32) -> u32 {
        resolve(self.engine.mmio_base, offset, cs_relative != 0)
    }

    fn read_reg(&self, offset: u32) -> u32 {
        self.regs.read(self.engine.mmio_base, self.clock, offset)
    }

    fn write_reg(&mut self, offset: u32, value: u32) {
        self.regs.write(self.engine.mmio_base, offset, value);
    }

    /// Executes one command that does not change the flow of control.
    fn execute(
        &mut self,
        space: Space,
        packet: PacketId,
        cmd: &[u32],
        pc: u64,
    ) -> Result<(), GpuErrorKind> {
        if !super::engine_packets::engine_runs(self.platform, self.engine.class, packet) {
            return Err(bad(
                cmd[0],
                format!("{} is not a command of {}", packet.name(), self.engine.name),
            ));
        }
        match packet {
            PacketId::MiFlushDw
            | PacketId::XyFastColorBlt
            | PacketId::XyBlockCopyBlt
            | PacketId::XySrcCopyBlt
            | PacketId::XyColorBlt
            | PacketId::XyFastCopyBlt => self.blit(space, packet, cmd)?,
            PacketId::MiStoreDataImm => {
                let sdi = self.unpack::<MiStoreDataImm>(cmd)?;
                let data = field_tail(self.platform, packet, "Immediate Data", cmd)?;
                let bytes: Vec<u8> = data.iter().flat_map(|d| d.to_le_bytes()).collect();
                self.target(space, sdi.use_global_gtt)
                    .write(sdi.address, &bytes)?;
            }
            PacketId::MiLoadRegisterImm => self.load_register_imm(cmd)?,
            PacketId::MiLoadRegisterReg => {
                let lrr = self.unpack::<MiLoadRegisterReg>(cmd)?;
                let src = self.reg(
                    lrr.source_register_address,
                    lrr.add_cs_mmio_start_offset_source,
                );
                let dst = self.reg(
                    lrr.destination_register_address,
                    lrr.add_cs_mmio_start_offset_destination,
                );
                let v = self.read_reg(src);
                self.write_reg(dst, v);
            }
            PacketId::MiLoadRegisterMem => {
                let lrm = self.unpack::<MiLoadRegisterMem>(cmd)?;
                let v = self
                    .target(space, lrm.use_global_gtt)
                    .read_u32(lrm.memory_address)?;
                let r = self.reg(lrm.register_address, lrm.add_cs_mmio_start_offset);
                self.write_reg(r, v);
            }
            PacketId::MiStoreRegisterMem => {
                let srm = self.unpack::<MiStoreRegisterMem>(cmd)?;
                if srm.predicate_enable && !self.predicate() {
                    return Ok(());
                }
                let r = self.reg(srm.register_address, srm.add_cs_mmio_start_offset);
                let v = self.read_reg(r);
                self.target(space, srm.use_global_gtt)
                    .write_u32(srm.memory_address, v)?;
            }
            PacketId::MiSemaphoreWait => self.semaphore_wait(space, cmd)?,
            PacketId::MiAtomic => self.atomic(space, cmd)?,
            PacketId::MiPredicate => self.mi_predicate(cmd)?,
            PacketId::PipeControl => self.pipe_control(space, cmd)?,
            PacketId::PipelineSelect => {
                let ps = self.unpack::<PipelineSelect>(cmd)?;
                self.compute.pipeline = Some(ps.pipeline_selection);
                self.compute.record(packet, cmd);
            }
            PacketId::StateBaseAddress => self
                .compute
                .record_base_addresses(self.platform, cmd)
                .map_err(|e| bad(cmd[0], e))?,
            PacketId::StateComputeMode => self
                .compute
                .record_compute_mode(self.platform, cmd)
                .map_err(|e| bad(cmd[0], e))?,
            PacketId::GpgpuWalker | PacketId::ComputeWalker => {
                if self.walker_predicated(packet, cmd)? && !self.predicate() {
                    return Ok(());
                }
                let walker = Walker {
                    platform: self.platform,
                    topology: self.topology,
                    engine: self.engine,
                    packet,
                    dwords: cmd,
                    address: pc,
                    state: self.compute,
                    memory: self.ppgtt,
                    clock: self.clock,
                    timer: self.timer,
                    sanitizer: self.sanitizer,
                };
                if let Some(log) = self.log.as_deref_mut() {
                    // The walker is the last command logged.
                    let offset = 4 * log.dwords.len().saturating_sub(cmd.len());
                    let ordinal = log.dispatches.len();
                    if let Some(r) = self.walker.record(&walker, ordinal, offset) {
                        log.dispatches.push(r);
                    }
                }
                self.walker.dispatch(&walker)?;
            }
            // Every other command `identify` knows sets pipeline state: recorded for walkers.
            _ => self.compute.record(packet, cmd),
        }
        Ok(())
    }

    /// MI_LOAD_REGISTER_IMM loads one or more (register, value) pairs in order.
    fn load_register_imm(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let lri = self.unpack::<MiLoadRegisterImm>(cmd)?;
        // Byte Write Disables keeps the disabled bytes' old contents.
        let keep: u32 = (0..4)
            .filter(|b| lri.byte_write_disables & (1 << b) != 0)
            .map(|b| 0xffu32 << (8 * b))
            .sum();
        for (offset, v) in lri.pairs() {
            let r = self.reg(offset, lri.add_cs_mmio_start_offset);
            let old = self.read_reg(r);
            self.write_reg(r, (old & keep) | (v & !keep));
        }
        Ok(())
    }

    /// The command streamer's predicate (MI_PREDICATE_RESULT bit 0).
    fn predicate(&self) -> bool {
        self.read_reg(MI_PREDICATE_RESULT) & 1 != 0
    }

    /// Whether a walker has Predicate Enable set.
    fn walker_predicated(&self, packet: PacketId, cmd: &[u32]) -> Result<bool, GpuErrorKind> {
        Ok(match packet {
            PacketId::GpgpuWalker => self.unpack::<GpgpuWalker>(cmd)?.predicate_enable,
            _ => self.unpack::<ComputeWalker>(cmd)?.predicate_enable,
        })
    }

    fn read_reg64(&self, offset: u32) -> u64 {
        u64::from(self.read_reg(offset)) | u64::from(self.read_reg(offset + 4)) << 32
    }

    fn mi_predicate(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let mp = self.unpack::<MiPredicate>(cmd)?;
        let src0 = self.read_reg64(MI_PREDICATE_SRC0);
        let src1 = self.read_reg64(MI_PREDICATE_SRC1);
        let p = predicate(
            self.predicate(),
            mp.compare_operation,
            mp.load_operation,
            mp.combine_operation,
            src0,
            src1,
        )
        .ok_or_else(|| {
            GpuErrorKind::Hang(HangReason::Unsupported {
                packet: "MI_PREDICATE with DELTAS_EQUAL".into(),
            })
        })?;
        self.write_reg(MI_PREDICATE_RESULT, p.into());
        Ok(())
    }

    fn atomic(&mut self, space: Space, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let a = self.unpack::<MiAtomic>(cmd)?;
        let op = AtomicOp::of(&a).map_err(|p| match p {
            AtomicProblem::Bad(d) => bad(cmd[0], d),
            AtomicProblem::Unsupported(packet) => {
                GpuErrorKind::Hang(HangReason::Unsupported { packet })
            }
        })?;
        let mem = self.target(space, a.memory_type == MemoryType::GlobalGraphicsAddress);
        let at = a.memory_address;
        if op.bytes == 8 {
            let old = mem.read_u64(at)?;
            mem.write_u64(at, op.apply(old))?;
        } else {
            let old = mem.read_u32(at)?;
            mem.write_u32(at, op.apply(old.into()) as u32)?;
        }
        Ok(())
    }

    fn semaphore_wait(&mut self, space: Space, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let sw = self.unpack::<MiSemaphoreWait>(cmd)?;
        if sw.register_poll_mode {
            return Err(GpuErrorKind::Hang(HangReason::Unsupported {
                packet: "MI_SEMAPHORE_WAIT in register poll mode".into(),
            }));
        }
        let global = sw.memory_type == MemoryType::GlobalGraphicsAddress;
        loop {
            let sad = self.target(space, global).read_u32(sw.semaphore_address)?;
            let sdd = sw.semaphore_data_dword;
            let pass = match sw.compare_operation {
                CompareOperation::SadGreaterThanSdd => sad > sdd,
                CompareOperation::SadGreaterThanOrEqualSdd => sad >= sdd,
                CompareOperation::SadLessThanSdd => sad < sdd,
                CompareOperation::SadLessThanOrEqualSdd => sad <= sdd,
                CompareOperation::SadEqualSdd => sad == sdd,
                CompareOperation::SadNotEqualSdd => sad != sdd,
            };
            if pass {
                return Ok(());
            }
            // Another CPU thread may write the semaphore through its mapping meanwhile.
            if let Err(commands) = self.watchdog.tick() {
                return Err(GpuErrorKind::Hang(HangReason::Watchdog { commands }));
            }
            if self.watchdog.out_of_time() {
                let commands = self.watchdog.used();
                return Err(GpuErrorKind::Hang(HangReason::Watchdog { commands }));
            }
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
    }

    fn pipe_control(&mut self, space: Space, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let pc = self.unpack::<PipeControl>(cmd)?;
        let global = pc.destination_address_type == DestinationAddressType::Ggtt;
        let value = match pc.post_sync_operation {
            PostSyncOperation::NoWrite => None,
            PostSyncOperation::WriteImmediateData => Some(pc.immediate_data),
            // No 3D pipeline runs in the simulator, so no pixels were counted.
            PostSyncOperation::WritePsDepthCount => Some(0),
            PostSyncOperation::WriteTimestamp => Some(self.clock.ticks()),
        };
        if let Some(v) = value {
            self.target(space, global).write_u64(pc.address, v)?;
        }
        if pc.lri_post_sync_operation == LriPostSyncOperation::MmioWriteImmediateData {
            self.write_reg(pc.address as u32 & !3, pc.immediate_data as u32);
        }
        Ok(())
    }
}

/// The dwords from `field`'s first dword to the command's end (variable-length payloads such as
/// MI_STORE_DATA_IMM's data).
fn field_tail<'c>(
    p: Platform,
    packet: PacketId,
    field: &str,
    cmd: &'c [u32],
) -> Result<&'c [u32], GpuErrorKind> {
    let at = packet
        .layout()
        .field(field)
        .and_then(|f| f.loc(p))
        .map(|l| l.dw as usize)
        .ok_or_else(|| bad(cmd[0], format!("{} lacks {field}", packet.name())))?;
    cmd.get(at..)
        .filter(|d| !d.is_empty())
        .ok_or_else(|| bad(cmd[0], format!("{} has no data", packet.name())))
}

impl From<GpuFault> for CsError {
    fn from(f: GpuFault) -> Self {
        CsError {
            head: f.address,
            kind: GpuErrorKind::from(f),
        }
    }
}
