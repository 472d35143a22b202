//! The subgroup block read and write forms of the seed specs, one table for the buffer
//! (`block`) and image (`block_image`) generators: cl_intel_subgroups' plain uint forms, the
//! `_ui` aliases (cl_intel_subgroups_char and _short), `_us` (cl_intel_subgroups_short) and
//! `_uc` (cl_intel_subgroups_char). Each spec declares every one of its forms twice, on a
//! `__global S *` and on an `image2d_t` with an `int2` byte coordinate (the char spec's
//! `read_uc16` image form prints `image1d_t`, a typo beside its 2D siblings), so the two
//! generators cross the same list.

/// One family of forms: the scalar S, the suffix after `intel_sub_group_block_{read,write}`
/// and the vector widths the spec lists (the width is appended to the suffix, 1 is bare).
pub struct Form {
    pub scalar: &'static str,
    pub suffix: &'static str,
    pub widths: &'static [u32],
}

pub const FORMS: [Form; 4] = [
    Form {
        scalar: "uint",
        suffix: "",
        widths: &[1, 2, 4, 8],
    },
    Form {
        scalar: "uint",
        suffix: "_ui",
        widths: &[1, 2, 4, 8],
    },
    Form {
        scalar: "ushort",
        suffix: "_us",
        widths: &[1, 2, 4, 8],
    },
    Form {
        scalar: "uchar",
        suffix: "_uc",
        widths: &[1, 2, 4, 8, 16],
    },
];

/// `intel_sub_group_block_{dir}{suffix}{width}` (width 1 bare).
fn function(dir: &str, form: &Form, width: u32) -> String {
    match width {
        1 => format!("intel_sub_group_block_{dir}{}", form.suffix),
        w => format!("intel_sub_group_block_{dir}{}{w}", form.suffix),
    }
}

/// The function a block access of `ty` (a scalar of `FORMS` with an optional width) calls:
/// the table's first form of that scalar (the plain one for uint), or None if the specs
/// define none.
pub fn function_for(dir: &str, ty: &str) -> Option<String> {
    let scalar = ty.trim_end_matches(|c: char| c.is_ascii_digit());
    let width = match &ty[scalar.len()..] {
        "" => 1,
        w => w.parse().ok()?,
    };
    let form = FORMS.iter().find(|f| f.scalar == scalar)?;
    form.widths
        .contains(&width)
        .then(|| function(dir, form, width))
}

/// One instance line `KIND(S, V, F)` per form and width: every read under `read_kind`, then
/// every write under `write_kind`.
pub fn instances(read_kind: &str, write_kind: &str) -> String {
    let mut s = String::new();
    for (dir, kind) in [("read", read_kind), ("write", write_kind)] {
        for form in &FORMS {
            for &width in form.widths {
                let v = match width {
                    1 => form.scalar.to_string(),
                    w => format!("{}{w}", form.scalar),
                };
                let f = function(dir, form, width);
                s.push_str(&super::line(kind, &[form.scalar, &v, &f]));
                s.push('\n');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specs_forms_and_nothing_else() {
        let text = instances("R", "W");
        // 4 + 4 + 4 + 5 forms, each read and written.
        assert_eq!(text.lines().count(), 2 * 17);
        for f in [
            "R(uint, uint8, intel_sub_group_block_read8)",
            "R(uint, uint, intel_sub_group_block_read_ui)",
            "W(ushort, ushort8, intel_sub_group_block_write_us8)",
            "R(ushort, ushort2, intel_sub_group_block_read_us2)",
            "W(uchar, uchar16, intel_sub_group_block_write_uc16)",
        ] {
            assert!(text.lines().any(|l| l == f), "{f}");
        }
        // No ushort16 or uint16 form in the specs.
        assert!(!text.contains("ushort16") && !text.contains("uint16"));
        assert_eq!(
            function_for("read", "uint4").as_deref(),
            Some("intel_sub_group_block_read4")
        );
        assert_eq!(
            function_for("write", "uchar").as_deref(),
            Some("intel_sub_group_block_write_uc")
        );
        assert_eq!(function_for("read", "ushort16"), None);
        assert_eq!(function_for("read", "int"), None);
    }
}
