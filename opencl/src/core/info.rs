//! A clGet*Info answer as a typed value, the form every object's queries return.

use std::ffi::c_void;

use opencl_sys::{cl_name_version, CL_NAME_VERSION_MAX_NAME_SIZE};

/// One query's answer.
pub enum Info {
    Uint(u32),
    Int(i32),
    Ulong(u64),
    Size(usize),
    Bool(bool),
    /// Written NUL-terminated.
    Str(String),
    Sizes(Vec<usize>),
    Uints(Vec<u32>),
    Ulongs(Vec<u64>),
    Ptr(*mut c_void),
    Ptrs(Vec<*mut c_void>),
    Bytes(Vec<u8>),
    NameVersions(Vec<(String, u32)>),
}

impl Info {
    /// The answer as the bytes the application receives.
    pub fn bytes(self) -> Vec<u8> {
        match self {
            Info::Uint(v) => v.to_ne_bytes().to_vec(),
            Info::Int(v) => v.to_ne_bytes().to_vec(),
            Info::Ulong(v) => v.to_ne_bytes().to_vec(),
            Info::Size(v) => v.to_ne_bytes().to_vec(),
            Info::Bool(b) => (b as u32).to_ne_bytes().to_vec(),
            Info::Str(s) => {
                let mut v = s.into_bytes();
                v.push(0);
                v
            }
            Info::Sizes(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Info::Uints(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Info::Ulongs(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Info::Ptr(p) => (p as usize).to_ne_bytes().to_vec(),
            Info::Ptrs(v) => v.iter().flat_map(|p| (*p as usize).to_ne_bytes()).collect(),
            Info::Bytes(v) => v,
            Info::NameVersions(v) => v
                .iter()
                .flat_map(|(name, version)| {
                    let mut rec = vec![0u8; std::mem::size_of::<cl_name_version>()];
                    rec[..4].copy_from_slice(&version.to_ne_bytes());
                    let n = name.len().min(CL_NAME_VERSION_MAX_NAME_SIZE - 1);
                    rec[4..4 + n].copy_from_slice(&name.as_bytes()[..n]);
                    rec
                })
                .collect(),
        }
    }
}
