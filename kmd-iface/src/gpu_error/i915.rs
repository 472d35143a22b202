//! i915's GPU error state text (`/sys/class/drm/cardN/error`), as printed by
//! `drivers/gpu/drm/i915/i915_gpu_error.c` (Linux 6.12: `__err_print_to_sgl`,
//! `err_print_gt_global`, `error_print_engine`, `intel_gpu_error_print_vma`).
//!
//! The lines used: the headline (the error message), `Kernel:` (marks the text as an error
//! state), `FAULT_TLB_DATA: 0x<data1> 0x<data0>` (Gen8+), and per engine
//! `<name> command stream:` then `  ACTHD: 0x<hi> <lo>`, `  batch: [0x<hi>_<lo>, ...]`,
//! `  BBADDR: 0x<hi>_<lo>`, `  FAULT_REG: 0x<v>` and `  hung: <n>`; and the
//! `<engine> --- batch = 0x<hi> <lo>` object line. Under GuC submission the engine registers
//! come from GuC's capture (`gt/uc/intel_guc_capture.c`): `i915-Eng-Name: <name> command
//! stream`, then `<REG>:  0x<v>` per 32-bit register (`ACTHD` + `ACTHD_UDW`, ...).

use super::text::{first_line, hex, hex_digits, malformed};
use super::{AddressSpace, Capture, CaptureError, CaptureSource, Fault};

const WHAT: &str = "i915 error state";

/// `FAULT_TLB_DATA1`'s address bits 47:44 (`FAULT_VA_HIGH_BITS`, intel_gt_regs.h).
const FAULT_VA_HIGH_BITS: u32 = 0xf;
/// `FAULT_TLB_DATA1`: the fault was in the GGTT (`FAULT_GTT_SEL`).
const FAULT_GTT_SEL: u32 = 1 << 4;
/// `RING_FAULT_REG`: a fault is latched (`RING_FAULT_VALID`).
const RING_FAULT_VALID: u32 = 1 << 0;

/// One engine section of the error state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Engine {
    pub name: String,
    pub acthd: Option<u64>,
    /// Start of the batch object the engine was in (`batch: [start, end]`).
    pub batch: Option<u64>,
    pub bbaddr: Option<u64>,
    pub fault_reg: Option<u32>,
    pub hung: bool,
}

/// The parts of the error state a UMD uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ErrorState {
    pub message: Option<String>,
    /// `(data1, data0)` as printed.
    pub fault_tlb_data: Option<(u32, u32)>,
    pub engines: Vec<Engine>,
    /// The simulator's own lines.
    pub simulator: super::simulator::Extension,
}

impl ErrorState {
    /// The engine the state is about: the hung one, else the first with a batch, else the first.
    pub fn culprit(&self) -> Option<&Engine> {
        self.engines
            .iter()
            .find(|e| e.hung)
            .or_else(|| self.engines.iter().find(|e| e.batch.is_some()))
            .or_else(|| self.engines.first())
    }

    /// The page fault, when an engine's fault register has a valid fault latched. The address
    /// is rebuilt as `gen8_check_faults` (intel_gt.c) does: data0 holds VA bits 43:12, data1's
    /// low nibble bits 47:44.
    pub fn fault(&self) -> Option<Fault> {
        let (data1, data0) = self.fault_tlb_data?;
        let valid = self
            .engines
            .iter()
            .any(|e| e.fault_reg.is_some_and(|r| r & RING_FAULT_VALID != 0));
        valid.then(|| Fault {
            address: (u64::from(data1 & FAULT_VA_HIGH_BITS) << 44) | (u64::from(data0) << 12),
            space: Some(if data1 & FAULT_GTT_SEL != 0 {
                AddressSpace::Ggtt
            } else {
                AddressSpace::Ppgtt
            }),
            write: None,
        })
    }

    pub fn capture(&self) -> Capture {
        let engine = self.culprit();
        let mut c = Capture {
            source: Some(CaptureSource::I915ErrorState),
            summary: self.message.clone(),
            engine: engine.map(|e| e.name.clone()),
            fault: self.fault(),
            batch_address: engine.and_then(|e| e.batch.or(e.bbaddr)),
            acthd: engine.and_then(|e| e.acthd),
            instruction: None,
        };
        self.simulator.apply(&mut c);
        c
    }
}

/// `0x<8 hex> <8 hex>` (ACTHD, object lines) or `0x<8 hex>_<8 hex>` (BBADDR, batch range).
fn split64(v: &str, sep: char) -> Option<u64> {
    let (hi, lo) = v.split_once(sep)?;
    Some((hex(hi, 8)? << 32) | hex_digits(lo, 8)?)
}

/// Parses the error state text.
pub fn parse_error_state(text: &str) -> Result<ErrorState, CaptureError> {
    let Some((first_no, first)) = first_line(text) else {
        return Err(CaptureError::Empty { what: WHAT });
    };
    // i915_sysfs.c answers this when nothing was captured (or it was cleared).
    if first
        .trim()
        .eq_ignore_ascii_case("no error state collected")
    {
        return Err(CaptureError::Empty { what: WHAT });
    }
    let mut st = ErrorState::default();
    let mut seen_kernel = false;
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        last = no;
        let line = raw.trim_end();
        if line.starts_with("Kernel: ") {
            seen_kernel = true;
            if no != first_no {
                st.message = Some(first.trim().to_owned());
            }
            continue;
        }
        if !seen_kernel {
            continue;
        }
        if st.simulator.feed(WHAT, no, line)? {
            continue;
        }
        let bad = |k: &str, v: &str| malformed(WHAT, no, k, v);
        // Execlists print `<name> command stream:`; GuC capture nodes
        // (intel_guc_capture.c) `    i915-Eng-Name: <name> command stream`.
        let guc_name = line
            .trim_start()
            .strip_prefix("i915-Eng-Name: ")
            .and_then(|l| l.strip_suffix(" command stream"));
        if let Some(name) = line.strip_suffix(" command stream:").or(guc_name) {
            st.engines.push(Engine {
                name: name.trim().to_owned(),
                ..Default::default()
            });
            continue;
        }
        if let Some(v) = line.strip_prefix("FAULT_TLB_DATA: ") {
            let (d1, d0) = v.split_once(' ').ok_or_else(|| bad("FAULT_TLB_DATA", v))?;
            let d1 = hex(d1, 8).ok_or_else(|| bad("FAULT_TLB_DATA", v))? as u32;
            let d0 = hex(d0, 8).ok_or_else(|| bad("FAULT_TLB_DATA", v))? as u32;
            st.fault_tlb_data = Some((d1, d0));
            continue;
        }
        // `<engine> --- batch = 0x<hi> <lo>`: the batch object, if the engine block lacked it.
        if let Some((eng, rest)) = line.split_once(" --- batch = ") {
            let addr = split64(rest, ' ').ok_or_else(|| bad("batch object", rest))?;
            if let Some(e) = st.engines.iter_mut().rev().find(|e| e.name == eng) {
                e.batch.get_or_insert(addr);
            }
            continue;
        }
        let Some(e) = st.engines.last_mut() else {
            continue;
        };
        let Some(body) = line.strip_prefix("  ") else {
            continue;
        };
        // Steered GuC registers (`<REG>[g][i]`) match no key below.
        let Some((key, v)) = body.split_once(':') else {
            continue;
        };
        let v = v.trim();
        // GuC capture nodes print each 32-bit half as `      <REG>:  0x%08x`.
        let low = |slot: Option<u64>| slot.unwrap_or(0) & 0xffff_ffff;
        let high = |slot: Option<u64>| slot.unwrap_or(0) & !0xffff_ffff;
        match key.trim() {
            "ACTHD" => {
                e.acthd = Some(match split64(v, ' ') {
                    Some(a) => a,
                    None => high(e.acthd) | hex(v, 8).ok_or_else(|| bad("ACTHD", v))?,
                })
            }
            "BBADDR" | "RING_BBADDR" => {
                e.bbaddr = Some(match split64(v, '_') {
                    Some(a) => a,
                    None => high(e.bbaddr) | hex(v, 8).ok_or_else(|| bad("BBADDR", v))?,
                })
            }
            "ACTHD_UDW" => {
                let hi = hex(v, 8).ok_or_else(|| bad("ACTHD_UDW", v))?;
                e.acthd = Some(hi << 32 | low(e.acthd));
            }
            "BBADDR_UDW" | "RING_BBADDR_UDW" => {
                let hi = hex(v, 8).ok_or_else(|| bad("BBADDR_UDW", v))?;
                e.bbaddr = Some(hi << 32 | low(e.bbaddr));
            }
            "batch" => {
                let start = v
                    .strip_prefix('[')
                    .and_then(|r| r.split_once(", "))
                    .and_then(|(s, _)| split64(s, '_'))
                    .ok_or_else(|| bad("batch", v))?;
                e.batch = Some(start);
            }
            "FAULT_REG" => e.fault_reg = Some(hex(v, 8).ok_or_else(|| bad("FAULT_REG", v))? as u32),
            "hung" => e.hung = v.parse::<u32>().map_err(|_| bad("hung", v))? != 0,
            _ => {}
        }
    }
    if !seen_kernel {
        return Err(CaptureError::NotACapture {
            what: WHAT,
            line: first_no,
            found: first.chars().take(80).collect(),
        });
    }
    if st.engines.is_empty() && st.fault_tlb_data.is_none() {
        return Err(CaptureError::Truncated {
            what: WHAT,
            line: last,
            detail: "no engine section and no fault registers".into(),
        });
    }
    Ok(st)
}

/// Parses the error state text into what a UMD reports.
pub fn parse(text: &str) -> Result<Capture, CaptureError> {
    parse_error_state(text).map(|s| s.capture())
}
