//! A case: one dispatch of one corpus kernel, its inputs, and the outputs the spec demands.

use crate::geometry::Geometry;
use crate::scalar::Scalar;

/// A kernel argument, in the form both runners can make (the `intel-gpu-run --arg` kinds).
#[derive(Debug, Clone)]
pub enum Arg {
    /// A buffer holding these bytes.
    Buf(Vec<u8>),
    U32(u32),
    I32(i32),
    /// A by-value argument of any type, as its little-endian bytes (OpenCL C's size; a
    /// runner zero-fills the rest of a larger slot the compiler gave it, as clSetKernelArg
    /// does for promoted `char`/`short` arguments).
    Bytes(Vec<u8>),
    /// A linear 2D image; `format` is an `intel-gpu-run` format name; rows packed.
    Image {
        width: u32,
        height: u32,
        format: &'static str,
        bytes: Vec<u8>,
    },
}

/// The image formats the corpus uses: (name, bytes per element).
pub const IMAGE_FORMATS: [(&str, u32); 4] =
    [("r8ui", 1), ("r16ui", 2), ("r32ui", 4), ("rgba8ui", 4)];

pub fn image_bpp(format: &str) -> u32 {
    IMAGE_FORMATS
        .iter()
        .find(|(n, _)| *n == format)
        .map(|(_, b)| *b)
        .unwrap_or(0)
}

/// What one argument must hold after the run: a value per element, `None` where the spec
/// leaves the result undefined.
#[derive(Debug, Clone)]
pub struct Check {
    pub arg: usize,
    pub scalar: Scalar,
    pub want: Vec<Option<u64>>,
}

#[derive(Debug, Clone)]
pub struct Case {
    /// Unique, e.g. `shuffle_int4 simd16 skl`.
    pub name: String,
    pub kernel: String,
    pub geometry: Geometry,
    pub args: Vec<Arg>,
    pub checks: Vec<Check>,
}

impl Case {
    /// Compares a run's outputs (one byte vector per check, in order) with the checks.
    pub fn verify(&self, outputs: &[Vec<u8>]) -> Result<(), String> {
        if outputs.len() != self.checks.len() {
            return Err(format!(
                "{} outputs, {} checked",
                outputs.len(),
                self.checks.len()
            ));
        }
        let mut bad = Vec::new();
        let mut count = 0;
        for (c, out) in self.checks.iter().zip(outputs) {
            let got = crate::scalar::unpack(c.scalar, out);
            if got.len() < c.want.len() {
                return Err(format!(
                    "argument {} has {} elements, expected {}",
                    c.arg,
                    got.len(),
                    c.want.len()
                ));
            }
            for (i, (w, g)) in c.want.iter().zip(&got).enumerate() {
                if let Some(w) = w {
                    if !c.scalar.same(*w, *g) {
                        count += 1;
                        if bad.len() < 6 {
                            bad.push(format!(
                                "arg {}[{i}] = {} want {}",
                                c.arg,
                                c.scalar.show(*g),
                                c.scalar.show(*w)
                            ));
                        }
                    }
                }
            }
        }
        if count == 0 {
            Ok(())
        } else {
            Err(format!("{count} wrong: {}", bad.join(", ")))
        }
    }
}
