//! The declarative packet DSL.
//!
//! `packet!` declares one packet or memory struct for every generation it exists on: its length
//! per generation, its fixed header fields, its DWord Length field and bias, and each field with
//! its Rust type, its kind and its `(dword, low bit, high bit)` per set of generations. Names are
//! genxml's, so the definitions can be checked against genxml mechanically
//! (`tests/genxml_crosscheck.rs`). `field_enum!` declares a field's named values.

/// A set of generations from `G9 | G12 ...`.
macro_rules! gens {
    ($($g:ident)|+) => {
        $crate::layout::GenSet(0 $(| $crate::layout::$g.0)+)
    };
}

/// Declares an enum for a field's named values.
macro_rules! field_enum {
    (
        $(#[$m:meta])*
        $name:ident { $( $v:ident = $val:literal $vname:literal ),+ $(,)? }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum $name { $( $v = $val ),+ }

        impl $name {
            /// Every value, in genxml's order.
            pub const VARIANTS: &'static [$name] = &[$($name::$v),+];
        }

        impl Default for $name {
            /// The value encoded as zero (what a zeroed packet holds), else genxml's first.
            fn default() -> Self {
                Self::VARIANTS
                    .iter()
                    .copied()
                    .find(|v| *v as u64 == 0)
                    .unwrap_or(Self::VARIANTS[0])
            }
        }

        impl $crate::value::FieldValue for $name {
            const VALUES: &'static [(u64, &'static str)] = &[$(($val, $vname)),+];
            fn put(
                &self,
                _: platform::Platform,
                kind: $crate::layout::Kind,
                loc: $crate::layout::Loc,
                dw: &mut [u32],
            ) -> Result<(), $crate::value::Problem> {
                $crate::value::put_u64(*self as u64, kind, loc, dw)
            }
            fn get(
                _: platform::Platform,
                kind: $crate::layout::Kind,
                loc: $crate::layout::Loc,
                dw: &[u32],
            ) -> Result<Self, $crate::value::Problem> {
                match $crate::value::get_u64(kind, loc, dw) {
                    $( $val => Ok($name::$v), )+
                    other => Err($crate::value::Problem::BadEnum(other)),
                }
            }
        }
    };
}

/// Declares a packet (or memory struct), its layout on every generation, and pack/unpack.
macro_rules! packet {
    (
        $(#[$m:meta])*
        $name:ident = $gx:literal {
            len: [$( $($lg:ident)|+ => $lv:literal ),+ $(,)?],
            header: [$( $hname:literal ($hdw:literal, $hlo:literal, $hhi:literal) [$($hg:ident)|+] = $hv:literal ),* $(,)?],
            length: [$( $lname:literal ($ldw:literal, $llo:literal, $lhi:literal) bias $bias:literal )?],
            fields: [$(
                $f:ident : $ty:ty as $kind:ident $fname:literal
                    [$( $($fg:ident)|+ => ($dw:literal, $lo:literal, $hi:literal) ),+ $(,)?]
            ),* $(,)?]
            $(, dyn_len($s:ident) => $dl:expr)?
            $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        #[allow(missing_docs)]
        pub struct $name {
            $( pub $f: $ty, )*
        }

        impl $crate::codec::Packet for $name {
            const LAYOUT: &'static $crate::layout::Layout = &$crate::layout::Layout {
                name: $gx,
                len: &[$( (gens!($($lg)|+), $lv) ),+],
                fields: &[
                    $( $crate::layout::FieldDesc {
                        name: $hname,
                        kind: $crate::layout::Kind::Const($hv),
                        locs: &[(gens!($($hg)|+), $crate::layout::Loc::new($hdw, $hlo, $hhi))],
                        values: &[],
                        nested: None,
                    }, )*
                    $( $crate::layout::FieldDesc {
                        name: $lname,
                        kind: $crate::layout::Kind::Length($bias),
                        locs: &[($crate::layout::ALL, $crate::layout::Loc::new($ldw, $llo, $lhi))],
                        values: &[],
                        nested: None,
                    }, )?
                    $( $crate::layout::FieldDesc {
                        name: $fname,
                        kind: $crate::layout::Kind::$kind,
                        locs: &[$( (gens!($($fg)|+), $crate::layout::Loc::new($dw, $lo, $hi)) ),+],
                        values: <$ty as $crate::value::FieldValue>::VALUES,
                        nested: <$ty as $crate::value::FieldValue>::NESTED,
                    }, )*
                ],
            };

            fn packed_len(&self, p: platform::Platform) -> Result<usize, $crate::error::Error> {
                let base = $crate::codec::base_len(Self::LAYOUT, p)?;
                let dynamic: Option<fn(&Self) -> usize> = None $( .or(Some(|$s: &Self| $dl)) )?;
                Ok(dynamic.map_or(base, |f| f(self)))
            }

            fn pack(&self, p: platform::Platform, out: &mut [u32]) -> Result<usize, $crate::error::Error> {
                let len = self.packed_len(p)?;
                let _out = $crate::codec::begin_pack(Self::LAYOUT, p, out, len)?;
                $(
                    $crate::codec::put_field(
                        Self::LAYOUT, p, $fname, $crate::layout::Kind::$kind,
                        &[$( (gens!($($fg)|+), $crate::layout::Loc::new($dw, $lo, $hi)) ),+],
                        &self.$f, _out,
                    )?;
                )*
                Ok(len)
            }

            fn unpack(p: platform::Platform, dw: &[u32]) -> Result<Self, $crate::error::Error> {
                let _body = $crate::codec::begin_unpack(Self::LAYOUT, p, dw)?;
                Ok(Self {
                    $( $f: $crate::codec::get_field(
                        Self::LAYOUT, p, $fname, $crate::layout::Kind::$kind,
                        &[$( (gens!($($fg)|+), $crate::layout::Loc::new($dw, $lo, $hi)) ),+],
                        _body,
                    )?, )*
                })
            }
        }

        impl $crate::value::FieldValue for $name {
            const NESTED: Option<&'static $crate::layout::Layout> =
                Some(<$name as $crate::codec::Packet>::LAYOUT);
            fn put(
                &self,
                p: platform::Platform,
                _: $crate::layout::Kind,
                loc: $crate::layout::Loc,
                dw: &mut [u32],
            ) -> Result<(), $crate::value::Problem> {
                let at = dw.get_mut(loc.dw as usize..).unwrap_or(&mut []);
                <$name as $crate::codec::Packet>::pack(self, p, at)
                    .map(|_| ())
                    .map_err($crate::value::Problem::Inner)
            }
            fn get(
                p: platform::Platform,
                _: $crate::layout::Kind,
                loc: $crate::layout::Loc,
                dw: &[u32],
            ) -> Result<Self, $crate::value::Problem> {
                let at = dw.get(loc.dw as usize..).unwrap_or(&[]);
                <$name as $crate::codec::Packet>::unpack(p, at).map_err($crate::value::Problem::Inner)
            }
        }
    };
}
