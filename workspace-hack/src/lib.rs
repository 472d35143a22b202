//! No code: the dependency features every workspace member builds with (see Cargo.toml).
//! Start reading: `Cargo.toml`.
