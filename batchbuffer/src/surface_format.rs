//! SURFACE_FORMAT: the hardware's surface-format numbers (PRM "Enumerations: SURFACE_FORMAT", as
//! Mesa's `isl_format.h` lists them) with their element sizes, for the formats compute surfaces
//! use. The one place these numbers live: the batch builder, the simulator's data port and the
//! UMD's images all read them from here.

/// One surface format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SurfaceFormat {
    /// The PRM's name, e.g. `R32_UINT`.
    pub name: &'static str,
    /// The value of RENDER_SURFACE_STATE's Surface Format field.
    pub number: u32,
    /// Bytes per element (RAW: byte-addressed, so 1).
    pub bytes_per_element: u32,
}

const fn f(name: &'static str, number: u32, bytes_per_element: u32) -> SurfaceFormat {
    SurfaceFormat {
        name,
        number,
        bytes_per_element,
    }
}

pub const R32G32B32A32_UINT: SurfaceFormat = f("R32G32B32A32_UINT", 2, 16);
pub const R16G16B16A16_UINT: SurfaceFormat = f("R16G16B16A16_UINT", 131, 8);
pub const R8G8B8A8_UNORM: SurfaceFormat = f("R8G8B8A8_UNORM", 199, 4);
pub const R8G8B8A8_UINT: SurfaceFormat = f("R8G8B8A8_UINT", 203, 4);
pub const R32_SINT: SurfaceFormat = f("R32_SINT", 214, 4);
pub const R32_UINT: SurfaceFormat = f("R32_UINT", 215, 4);
pub const R32_FLOAT: SurfaceFormat = f("R32_FLOAT", 216, 4);
pub const R16_UINT: SurfaceFormat = f("R16_UINT", 269, 2);
pub const R8_UNORM: SurfaceFormat = f("R8_UNORM", 320, 1);
pub const R8_SNORM: SurfaceFormat = f("R8_SNORM", 321, 1);
pub const R8_SINT: SurfaceFormat = f("R8_SINT", 322, 1);
pub const R8_UINT: SurfaceFormat = f("R8_UINT", 323, 1);
/// Untyped, byte-addressed buffers.
pub const RAW: SurfaceFormat = f("RAW", 511, 1);

/// Every format this table knows.
pub const ALL: [SurfaceFormat; 13] = [
    R32G32B32A32_UINT,
    R16G16B16A16_UINT,
    R8G8B8A8_UNORM,
    R8G8B8A8_UINT,
    R32_SINT,
    R32_UINT,
    R32_FLOAT,
    R16_UINT,
    R8_UNORM,
    R8_SNORM,
    R8_SINT,
    R8_UINT,
    RAW,
];

/// The format whose Surface Format field value is `number`, if the table has it.
pub fn by_number(number: u32) -> Option<SurfaceFormat> {
    ALL.iter().copied().find(|f| f.number == number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_unique_and_fit_the_field() {
        for (i, a) in ALL.iter().enumerate() {
            // Surface Format is 9 bits wide on Gen12.5 (bits 26:18), 10 bits before.
            assert!(a.number < 1 << 9, "{}", a.name);
            assert!(ALL[i + 1..]
                .iter()
                .all(|b| b.number != a.number && b.name != a.name));
        }
    }

    #[test]
    fn lookup_by_number() {
        assert_eq!(by_number(323), Some(R8_UINT));
        assert_eq!(by_number(321).map(|f| f.name), Some("R8_SNORM"));
        assert_eq!(by_number(0), None);
    }
}
