//! Lines only the functional simulator adds to its captures, after the kernel's own lines.
//! No kernel prints them: the hardware keeps no EU instruction pointer in its error state and
//! reports a fault's page, not its byte, nor (on i915) its direction. A capture from real
//! hardware simply has none of them, and every field they fill stays `None`.
//!
//! ```text
//! Simulator EU instruction: kernel 0x<16 hex> offset 0x<hex>
//! Simulator fault: read|write 0x<16 hex>
//! Simulator error: <the simulator's one-line description of the error>
//! ```

use super::text::{hex, malformed};
use super::{CaptureError, EuInstruction};

pub const EU_INSTRUCTION: &str = "Simulator EU instruction: ";
pub const FAULT: &str = "Simulator fault: ";
pub const ERROR: &str = "Simulator error: ";

/// What the extension lines said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extension {
    pub instruction: Option<EuInstruction>,
    /// (write, exact address)
    pub fault: Option<(bool, u64)>,
    pub error: Option<String>,
}

/// The `EU instruction` line's text for `at`.
pub fn eu_instruction_line(at: EuInstruction) -> String {
    format!(
        "{EU_INSTRUCTION}kernel {:#018x} offset {:#x}",
        at.kernel, at.offset
    )
}

/// The `fault` line's text.
pub fn fault_line(write: bool, address: u64) -> String {
    let dir = if write { "write" } else { "read" };
    format!("{FAULT}{dir} {address:#018x}")
}

impl Extension {
    /// Feeds one line (leading whitespace ignored); `Ok(true)` when it was an extension line.
    pub fn feed(
        &mut self,
        what: &'static str,
        no: usize,
        line: &str,
    ) -> Result<bool, CaptureError> {
        let t = line.trim();
        if let Some(v) = t.strip_prefix(EU_INSTRUCTION) {
            let bad = || malformed(what, no, EU_INSTRUCTION.trim_end(), v);
            let rest = v.strip_prefix("kernel ").ok_or_else(bad)?;
            let (k, off) = rest.split_once(" offset ").ok_or_else(bad)?;
            let kernel = hex(k, 16).ok_or_else(bad)?;
            let offset = off
                .strip_prefix("0x")
                .and_then(|o| u32::from_str_radix(o, 16).ok())
                .ok_or_else(bad)?;
            self.instruction = Some(EuInstruction { kernel, offset });
            return Ok(true);
        }
        if let Some(v) = t.strip_prefix(ERROR) {
            self.error = Some(v.to_owned());
            return Ok(true);
        }
        if let Some(v) = t.strip_prefix(FAULT) {
            let bad = || malformed(what, no, FAULT.trim_end(), v);
            let (dir, a) = v.split_once(' ').ok_or_else(bad)?;
            let write = match dir {
                "write" => true,
                "read" => false,
                _ => return Err(bad()),
            };
            self.fault = Some((write, hex(a, 16).ok_or_else(bad)?));
            return Ok(true);
        }
        Ok(false)
    }

    /// Fills what the kernel's lines left open.
    pub fn apply(&self, c: &mut super::Capture) {
        c.instruction = c.instruction.or(self.instruction);
        if let Some(e) = &self.error {
            c.summary = Some(match c.summary.take() {
                Some(s) => format!("{s}; {e}"),
                None => e.clone(),
            });
        }
        if let (Some(f), Some((write, address))) = (c.fault.as_mut(), self.fault) {
            // The same page: the simulator's byte address refines the kernel's page address.
            if address >> 12 == f.address >> 12 {
                f.address = address;
            }
            f.write = f.write.or(Some(write));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_ones_are_errors() {
        let at = EuInstruction {
            kernel: 0x40_0000,
            offset: 0x118,
        };
        let mut e = Extension::default();
        assert!(e.feed("t", 1, &eu_instruction_line(at)).unwrap());
        assert!(e.feed("t", 2, &fault_line(true, 0x1234_5678)).unwrap());
        assert_eq!(e.instruction, Some(at));
        assert_eq!(e.fault, Some((true, 0x1234_5678)));
        assert!(!e.feed("t", 3, "  ACTHD: 0x0").unwrap());
        assert!(e.feed("t", 4, "Simulator fault: sideways 0x0").is_err());
        assert!(e
            .feed("t", 5, "Simulator EU instruction: kernel 0x12")
            .is_err());
    }
}
