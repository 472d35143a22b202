//! Accelerator objects (cl_intel_accelerator): a context, a type and the descriptor the
//! application created it with, answered back by clGetAcceleratorInfoINTEL.
//!
//! The one type is the one Intel's runtime (NEO 22.43) creates:
//! CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL with a `cl_motion_estimation_desc_intel`, whose
//! four fields NEO checks against the values cl_intel_motion_estimation defines. NEO makes one
//! on every device, also on those where it lists no cl_intel_motion_estimation (and so no
//! kernel that takes one); this runtime does the same and lists no motion-estimation
//! extension anywhere: CL_DEVICE_BUILT_IN_KERNELS is empty and OpenCL C has no accelerator
//! type, so no kernel here takes an accelerator.

use std::sync::Arc;

use opencl_sys::*;

use crate::core::context::Context;
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::reason::why;

pub struct Accelerator {
    pub context: Arc<Handle<Context>>,
    pub kind: cl_accelerator_type_intel,
    /// The descriptor's bytes as given at creation (CL_ACCELERATOR_DESCRIPTOR_INTEL), copied:
    /// the application's memory may be gone by the time it asks.
    pub descriptor: Vec<u8>,
}

impl ClObject for Accelerator {
    const KIND: Kind = Kind::Accelerator;
    const INVALID: cl_int = CL_INVALID_ACCELERATOR_INTEL;
}

/// The values each field of a `cl_motion_estimation_desc_intel` may take, in field order
/// (`mb_block_type`, `subpixel_mode`, `sad_adjust_mode`, `search_path_type`): the tokens
/// cl_intel_motion_estimation defines for it.
const MOTION_ESTIMATION_FIELDS: [(&str, &[cl_uint]); 4] = [
    (
        "mb_block_type",
        &[
            CL_ME_MB_TYPE_16x16_INTEL,
            CL_ME_MB_TYPE_8x8_INTEL,
            CL_ME_MB_TYPE_4x4_INTEL,
        ],
    ),
    (
        "subpixel_mode",
        &[
            CL_ME_SUBPIXEL_MODE_INTEGER_INTEL,
            CL_ME_SUBPIXEL_MODE_HPEL_INTEL,
            CL_ME_SUBPIXEL_MODE_QPEL_INTEL,
        ],
    ),
    (
        "sad_adjust_mode",
        &[
            CL_ME_SAD_ADJUST_MODE_NONE_INTEL,
            CL_ME_SAD_ADJUST_MODE_HAAR_INTEL,
        ],
    ),
    (
        "search_path_type",
        &[
            CL_ME_SEARCH_PATH_RADIUS_2_2_INTEL,
            CL_ME_SEARCH_PATH_RADIUS_4_4_INTEL,
            CL_ME_SEARCH_PATH_RADIUS_16_12_INTEL,
        ],
    ),
];

/// The bytes of a motion-estimation descriptor the application gave as `size` bytes, read by
/// `read` (None for a NULL pointer) only once the size is right; or
/// CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL unless they are one `cl_motion_estimation_desc_intel`
/// whose fields are each one of their defined values.
fn motion_estimation(
    size: usize,
    read: impl FnOnce() -> Option<Vec<u8>>,
) -> Result<Vec<u8>, cl_int> {
    let want = std::mem::size_of::<cl_motion_estimation_desc_intel>();
    if size != want {
        return Err(why(CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL, || {
            format!("descriptor_size is {size}, a cl_motion_estimation_desc_intel is {want} bytes")
        }));
    }
    let bytes = read().ok_or_else(|| {
        why(CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL, || {
            "the descriptor is NULL".into()
        })
    })?;
    for ((name, allowed), word) in MOTION_ESTIMATION_FIELDS.iter().zip(bytes.chunks_exact(4)) {
        let v = cl_uint::from_ne_bytes([word[0], word[1], word[2], word[3]]);
        if !allowed.contains(&v) {
            return Err(why(CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL, || {
                format!("{name} {v:#x} is none of {allowed:#x?}")
            }));
        }
    }
    Ok(bytes)
}

/// clCreateAcceleratorINTEL after the C arguments are read: the descriptor is `descriptor_size`
/// bytes that `read` copies from the application (None for a NULL pointer), called only when
/// the size is the type's. Errors in NEO's order: the context, the type, then the descriptor.
pub fn create(
    context: cl_context,
    kind: cl_accelerator_type_intel,
    descriptor_size: usize,
    read: impl FnOnce() -> Option<Vec<u8>>,
) -> Result<cl_accelerator_intel, cl_int> {
    let context = Handle::<Context>::get(context)?;
    let descriptor = match kind {
        CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL => motion_estimation(descriptor_size, read)?,
        _ => {
            return Err(why(CL_INVALID_ACCELERATOR_TYPE_INTEL, || {
                format!(
                    "accelerator type {kind:#x} is not one this platform knows \
                     (CL_ACCELERATOR_TYPE_MOTION_ESTIMATION_INTEL is)"
                )
            }))
        }
    };
    Ok(Handle::create(Accelerator {
        context,
        kind,
        descriptor,
    })
    .0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(fields: [cl_uint; 4]) -> Vec<u8> {
        fields.iter().flat_map(|f| f.to_ne_bytes()).collect()
    }

    #[test]
    fn every_combination_of_defined_values_is_a_descriptor() {
        for &a in MOTION_ESTIMATION_FIELDS[0].1 {
            for &b in MOTION_ESTIMATION_FIELDS[1].1 {
                for &c in MOTION_ESTIMATION_FIELDS[2].1 {
                    for &d in MOTION_ESTIMATION_FIELDS[3].1 {
                        let d = desc([a, b, c, d]);
                        assert_eq!(motion_estimation(16, || Some(d.clone())), Ok(d));
                    }
                }
            }
        }
    }

    #[test]
    fn an_undefined_value_in_any_field_or_a_wrong_size_is_refused() {
        // 3 is the first value past each field's list but search_path_type's, where 2..=4 lie
        // between the defined 1 and 5.
        for (field, bad) in [(0, 3), (1, 3), (2, 2), (3, 2), (3, 6)] {
            let mut f = [0; 4];
            f[field] = bad;
            assert_eq!(
                motion_estimation(16, || Some(desc(f))),
                Err(CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL),
                "field {field} = {bad}"
            );
        }
        // A wrong size is refused before the descriptor is read.
        for size in [0, 4, 15, 17, usize::MAX] {
            assert_eq!(
                motion_estimation(size, || panic!("read with size {size}")),
                Err(CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL)
            );
        }
        assert_eq!(
            motion_estimation(16, || None),
            Err(CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL)
        );
    }
}
