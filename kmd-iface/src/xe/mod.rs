//! The xe kernel driver's uAPI.

pub mod uapi;
