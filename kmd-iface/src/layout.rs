//! The uAPI struct definitions and the table the layout test checks them with.
//!
//! `uapi_structs!` both defines the `#[repr(C)]` zerocopy structs and lists each one's size and
//! field offsets in a table, so a struct cannot be added without being checked against the C
//! headers. `uapi_consts!` does the same for constants.

/// Size and offset of one field of a uAPI struct, as Rust lays it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldLayout {
    /// The Rust field name (`r#type` for C's `type`).
    pub name: &'static str,
    pub offset: usize,
    pub size: usize,
}

impl FieldLayout {
    /// The field's name in the C header.
    pub fn c_name(&self) -> &'static str {
        self.name.trim_start_matches("r#")
    }
}

/// One uAPI struct's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructLayout {
    /// Same as the C `struct` tag.
    pub name: &'static str,
    pub size: usize,
    pub fields: &'static [FieldLayout],
    /// Rust-only fields making C's implicit padding, or the unnamed rest of a C union, explicit
    /// (zerocopy requires every byte to be a field). They have no C counterpart to compare with.
    pub rust_only: &'static [&'static str],
}

/// A named constant from a header, widened to i64 for comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConstValue {
    pub name: &'static str,
    pub value: i64,
}

/// Defines plain-data uAPI structs (all fields public) and a table of their layouts.
///
/// `struct name [rust_only(a, b)] { field: Type, ... }` — `rust_only` lists fields that are not in
/// the C struct (explicit padding).
macro_rules! uapi_structs {
    ($table:ident; $(
        $(#[doc = $doc:literal])*
        struct $name:ident $([rust_only($($ro:ident),*)])? {
            $( $(#[doc = $fdoc:literal])* $field:ident : $ty:ty ),* $(,)?
        }
    )*) => {
        $(
            $(#[doc = $doc])*
            #[repr(C)]
            #[derive(
                Debug, Clone, Copy, Default, PartialEq, Eq,
                zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable,
            )]
            #[allow(non_camel_case_types, non_snake_case)]
            pub struct $name {
                $( $(#[doc = $fdoc])* pub $field: $ty, )*
            }
        )*
        /// Layouts of every struct this module defines (checked against the C headers).
        pub const $table: &[$crate::layout::StructLayout] = &[
            $( $crate::layout::StructLayout {
                name: stringify!($name),
                size: ::core::mem::size_of::<$name>(),
                fields: &[ $( $crate::layout::FieldLayout {
                    name: stringify!($field),
                    offset: ::core::mem::offset_of!($name, $field),
                    size: ::core::mem::size_of::<$ty>(),
                }, )* ],
                rust_only: &[ $($(stringify!($ro)),*)? ],
            }, )*
        ];
    };
}
pub(crate) use uapi_structs;

/// Defines `pub const NAME: Type = value;` and a table of their values.
macro_rules! uapi_consts {
    ($table:ident; $( $(#[doc = $doc:literal])* $name:ident : $ty:ty = $value:expr; )*) => {
        $( $(#[doc = $doc])* pub const $name: $ty = $value; )*
        /// Every constant this module defines (checked against the C headers).
        pub const $table: &[$crate::layout::ConstValue] = &[
            $( $crate::layout::ConstValue { name: stringify!($name), value: $name as i64 }, )*
        ];
    };
}
pub(crate) use uapi_consts;
