//! What an application sets on a kernel before it enqueues it, and the rules each setting
//! follows: clSetKernelArg's per-argument rules (buffer, image, sampler, local, by-value),
//! clSetKernelArgMemPointerINTEL's pointers into unified shared memory, and clSetKernelExecInfo.
//! The C ABI reads the application's bytes as these rules ask ([`Kernel::arg_read`]) and hands
//! them over as an [`ArgInput`].

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;
use umd::kernel::ArgSlot;

use crate::core::context::Context;
use crate::core::device::LOCAL_MEM_BYTES;
use crate::core::handle::Handle;
use crate::core::kernel::{Arg, Kernel};
use crate::core::memory::Mem;
use crate::core::reason::why;
use crate::core::sampler::Sampler;

/// The size of a handle (cl_mem, cl_sampler) as clSetKernelArg's arg_size gives it.
const HANDLE_BYTES: usize = std::mem::size_of::<*mut c_void>();

/// What clSetKernelArg reads at a non-NULL arg_value, once arg_size fits the argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgRead {
    /// One handle (a cl_mem or a cl_sampler).
    Handle,
    /// The first this-many bytes (a by-value argument's type, at most arg_size).
    Bytes(usize),
    /// Nothing: a local pointer takes only its size.
    Nothing,
}

/// What clSetKernelArg's arg_value says, as the C ABI read it per [`ArgRead`].
#[derive(Clone, Copy, Debug)]
pub enum ArgInput<'a> {
    /// arg_value is NULL.
    Null,
    /// The handle arg_value points at (itself NULL when the application's handle is).
    Handle(*mut c_void),
    /// The bytes of a by-value argument.
    Bytes(&'a [u8]),
    /// arg_value is not NULL and nothing was read there.
    Unread,
}

/// Whether `arg_size` fits argument `index` of kind `slot` (a by-value type of `declared` bytes
/// when the metadata says), and what to read at arg_value then (clSetKernelArg, OpenCL 3.0:
/// CL_INVALID_ARG_SIZE when arg_size does not match the argument's type).
pub fn arg_read(
    index: cl_uint,
    slot: ArgSlot,
    declared: Option<usize>,
    arg_size: usize,
) -> Result<ArgRead, cl_int> {
    match slot {
        ArgSlot::Buffer if arg_size != HANDLE_BYTES => Err(why(CL_INVALID_ARG_SIZE, || {
            format!(
                "argument {index} is a buffer: arg_size must be sizeof(cl_mem) = 8, not {arg_size}"
            )
        })),
        ArgSlot::Sampler | ArgSlot::Image if arg_size != HANDLE_BYTES => {
            Err(why(CL_INVALID_ARG_SIZE, || {
                format!("argument {index} takes a handle (8 bytes); arg_size is {arg_size}")
            }))
        }
        ArgSlot::Buffer | ArgSlot::Sampler | ArgSlot::Image => Ok(ArgRead::Handle),
        ArgSlot::Local => Ok(ArgRead::Nothing),
        ArgSlot::Value(n) => {
            let n = n as usize;
            value_bytes_taken(arg_size, n, declared)
                .map(ArgRead::Bytes)
                .ok_or_else(|| {
                    why(CL_INVALID_ARG_SIZE, || {
                        format!(
                            "argument {index} is a {}-byte value; arg_size is {arg_size}",
                            declared.unwrap_or(n)
                        )
                    })
                })
        }
    }
}

/// What the kernel declares of an argument: its kind, a by-value type's size and an image's
/// access qualifier (CL_KERNEL_ARG_ACCESS_*), the last two when the binary's metadata says.
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    pub slot: ArgSlot,
    pub size: Option<usize>,
    pub access: Option<cl_kernel_arg_access_qualifier>,
}

impl Declared {
    /// An argument of kind `slot` the metadata says nothing more of.
    pub fn kind(slot: ArgSlot) -> Declared {
        Declared {
            slot,
            size: None,
            access: None,
        }
    }
}

/// The argument clSetKernelArg sets at `index`, declared as `declared`, from `arg_size` and
/// `input`, for a kernel of `context`. The errors are the specification's, in the order the
/// checks run: CL_INVALID_ARG_SIZE ([`arg_read`]), CL_INVALID_ARG_VALUE for a NULL arg_value
/// where a value, buffer or image is needed and a non-NULL one for a local pointer,
/// CL_INVALID_MEM_OBJECT for a buffer argument's image, an image argument's buffer or another
/// context's memory, CL_INVALID_ARG_VALUE for an image created CL_MEM_READ_ONLY given to a
/// `write_only` argument or one created CL_MEM_WRITE_ONLY to a `read_only` one, and
/// CL_INVALID_SAMPLER where a sampler argument's arg_value is no sampler of the context (NULL
/// too: the CTS's negative_invalid_arg_sampler).
pub fn arg_from(
    index: cl_uint,
    declared: Declared,
    arg_size: usize,
    input: ArgInput,
    context: &Arc<Handle<Context>>,
) -> Result<Arg, cl_int> {
    let Declared {
        slot,
        size: declared,
        access,
    } = declared;
    let read = arg_read(index, slot, declared, arg_size)?;
    let same_context = |c: &Arc<Handle<Context>>| Arc::ptr_eq(c, context);
    let no_handle = || {
        why(CL_INVALID_ARG_VALUE, || {
            format!("argument {index} takes a handle; arg_value is NULL")
        })
    };
    let handle = || match input {
        ArgInput::Handle(h) => Ok(h),
        _ => Err(no_handle()),
    };
    Ok(match slot {
        ArgSlot::Buffer => match input {
            // A NULL arg_value, or one pointing at a NULL cl_mem, gives the kernel a NULL
            // pointer (the specification's rule for buffer arguments).
            ArgInput::Handle(m) if !m.is_null() => {
                let m = Handle::<Mem>::get(m)?;
                if m.obj.image.is_some() {
                    return Err(why(CL_INVALID_MEM_OBJECT, || {
                        format!("argument {index} is a buffer; the cl_mem given is an image")
                    }));
                }
                if !same_context(&m.obj.context) {
                    return Err(why(CL_INVALID_MEM_OBJECT, || {
                        format!(
                            "argument {index}'s buffer belongs to another context than the \
                             kernel's program"
                        )
                    }));
                }
                Arg::Mem(Arc::downgrade(&m))
            }
            ArgInput::Null | ArgInput::Handle(_) => Arg::NullMem,
            ArgInput::Bytes(_) | ArgInput::Unread => return Err(no_handle()),
        },
        ArgSlot::Local => {
            if !matches!(input, ArgInput::Null) {
                return Err(why(CL_INVALID_ARG_VALUE, || {
                    format!("argument {index} is a local pointer: arg_value must be NULL")
                }));
            }
            if arg_size == 0 || arg_size as u64 > LOCAL_MEM_BYTES {
                return Err(why(CL_INVALID_ARG_SIZE, || {
                    format!(
                        "argument {index} is a local pointer: arg_size {arg_size} is not 1 to \
                         {LOCAL_MEM_BYTES} bytes"
                    )
                }));
            }
            Arg::Local(arg_size as u32)
        }
        ArgSlot::Value(n) => {
            let (ArgInput::Bytes(bytes), ArgRead::Bytes(given)) = (input, read) else {
                return Err(why(CL_INVALID_ARG_VALUE, || {
                    format!("argument {index} is a value; arg_value is NULL")
                }));
            };
            // The type's low bytes; the rest of a wider payload slot is 0.
            let mut v = bytes[..given.min(bytes.len())].to_vec();
            v.resize(n as usize, 0);
            Arg::Value(v)
        }
        ArgSlot::Sampler => {
            let ArgInput::Handle(h) = input else {
                return Err(why(CL_INVALID_SAMPLER, || {
                    format!("argument {index} is a sampler_t; arg_value is NULL")
                }));
            };
            let s = Handle::<Sampler>::get(h)?;
            if !same_context(&s.obj.context) {
                return Err(CL_INVALID_SAMPLER);
            }
            Arg::Sampler(s.obj.sampler)
        }
        ArgSlot::Image => {
            let m = Handle::<Mem>::get(handle()?)?;
            if m.obj.image.is_none() || !same_context(&m.obj.context) {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            // The argument's qualifier, the creation flag it refuses and that flag's name.
            let refused = match access {
                Some(CL_KERNEL_ARG_ACCESS_WRITE_ONLY) => {
                    Some(("write_only", CL_MEM_READ_ONLY, "CL_MEM_READ_ONLY"))
                }
                Some(CL_KERNEL_ARG_ACCESS_READ_ONLY) => {
                    Some(("read_only", CL_MEM_WRITE_ONLY, "CL_MEM_WRITE_ONLY"))
                }
                _ => None,
            };
            if let Some((qualifier, _, flag)) = refused.filter(|r| m.obj.flags & r.1 != 0) {
                return Err(why(CL_INVALID_ARG_VALUE, || {
                    format!("argument {index} is a {qualifier} image; the image was created {flag}")
                }));
            }
            Arg::Mem(Arc::downgrade(&m))
        }
    })
}

/// How many of the `arg_size` bytes an application gives for a by-value argument the kernel
/// takes (the type's low bytes), when it may give that many; the payload slot holds `slot`
/// bytes and the type is `declared` bytes when the metadata says. The rest of a wider slot
/// is 0.
pub fn value_bytes_taken(arg_size: usize, slot: usize, declared: Option<usize>) -> Option<usize> {
    let allowed = match declared {
        // The OpenCL type's size (a 3-component vector counts as 4): IGC may give a char or
        // short a wider slot, but the application passes sizeof(cl_char) / sizeof(cl_short).
        // Fewer bytes are refused (API spec; the CTS's negative_invalid_arg_size); more are
        // taken by their low bytes, as Intel's runtime takes them, because applications written
        // for it pass them: oneDNN gives an `int` offset (its USE_INT32_OFFSET) 8 bytes.
        Some(d) => arg_size >= d,
        // No metadata: anything up to the slot (a 3-component vector as its 4-component size).
        None => arg_size > 0 && arg_size <= slot.next_power_of_two().max(slot),
    };
    allowed.then(|| arg_size.min(slot).min(declared.unwrap_or(usize::MAX)))
}

/// What clSetKernelExecInfo reads at its non-NULL param_value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecRead {
    /// One cl_bool.
    Flag,
    /// This many pointers.
    Pointers(usize),
}

/// A clSetKernelExecInfo value, as the C ABI read it per [`ExecRead`].
#[derive(Clone, Debug)]
pub enum ExecValue {
    Flag(bool),
    Pointers(Vec<usize>),
}

/// Whether clSetKernelExecInfo takes `param_name` with `param_value_size` bytes, and what it
/// reads then. Shared virtual memory settings are CL_INVALID_OPERATION whatever the value, as
/// CL_DEVICE_SVM_CAPABILITIES is 0 (the CTS's api consistency_svm); the only others are
/// cl_intel_unified_shared_memory's: a cl_bool, or an array of pointers.
pub fn exec_info_read(
    param_name: cl_kernel_exec_info,
    param_value_size: usize,
) -> Result<ExecRead, cl_int> {
    let pointer = std::mem::size_of::<*const c_void>();
    match param_name {
        CL_KERNEL_EXEC_INFO_SVM_PTRS | CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
            Err(CL_INVALID_OPERATION)
        }
        CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL if param_value_size.is_multiple_of(pointer) => {
            Ok(ExecRead::Pointers(param_value_size / pointer))
        }
        CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL
        | CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL
        | CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL
            if param_value_size == std::mem::size_of::<cl_bool>() =>
        {
            Ok(ExecRead::Flag)
        }
        _ => Err(CL_INVALID_VALUE),
    }
}

impl Kernel {
    /// The by-value type size argument `index` declares, when the metadata says.
    fn declared(&self, index: cl_uint) -> Option<usize> {
        self.declared_sizes.get(index as usize).copied().flatten()
    }

    /// Argument `index`'s access qualifier (CL_KERNEL_ARG_ACCESS_*), when the binary's metadata
    /// names one (builds from source and IL always carry it).
    fn access(&self, index: cl_uint) -> Option<cl_kernel_arg_access_qualifier> {
        let a = self
            .described()?
            .arg_info
            .iter()
            .find(|a| a.index == index)?;
        Some(crate::core::kernel_info::access_qualifier(
            &a.access_qualifier,
        ))
    }

    /// What clSetKernelArg reads at a non-NULL arg_value for argument `index` given
    /// `arg_size`: CL_INVALID_ARG_INDEX or CL_INVALID_ARG_SIZE when it reads nothing.
    pub fn arg_read(&self, index: cl_uint, arg_size: usize) -> Result<ArgRead, cl_int> {
        arg_read(index, self.slot(index)?, self.declared(index), arg_size)
    }

    /// clSetKernelArg: sets argument `index` from `arg_size` and what arg_value says
    /// ([`arg_from`]).
    pub fn set_arg_from(
        &self,
        index: cl_uint,
        arg_size: usize,
        input: ArgInput,
    ) -> Result<(), cl_int> {
        let declared = Declared {
            slot: self.slot(index)?,
            size: self.declared(index),
            access: self.access(index),
        };
        let arg = arg_from(index, declared, arg_size, input, &self.program.obj.context)?;
        self.set_arg(index, arg);
        Ok(())
    }

    /// clSetKernelArgMemPointerINTEL: argument `index`, a global pointer, points at `ptr` (0 for
    /// NULL), which must lie in an allocation of the kernel's context: the kernel gets the
    /// bytes from the pointer to the allocation's end. Set after an enqueue, it reaches the next
    /// one, as clSetKernelArg's buffers do.
    pub fn set_usm_arg(&self, index: cl_uint, ptr: usize) -> Result<(), cl_int> {
        if self.slot(index)? != ArgSlot::Buffer {
            return Err(CL_INVALID_ARG_VALUE);
        }
        let arg = if ptr == 0 {
            Arg::NullMem
        } else {
            let (a, at) = self
                .program
                .obj
                .context
                .obj
                .usm
                .find(ptr)
                .ok_or(CL_INVALID_ARG_VALUE)?;
            let b = a
                .buffer
                .sub_buffer(at as u64, (a.size - at) as u64, None)
                .map_err(|_| CL_INVALID_ARG_VALUE)?;
            Arg::Usm(a, b)
        };
        self.set_arg(index, arg);
        Ok(())
    }

    /// clSetKernelExecInfo: `param_name` (checked by [`exec_info_read`]) set to `value`.
    pub fn set_exec_info(
        &self,
        param_name: cl_kernel_exec_info,
        value: ExecValue,
    ) -> Result<(), cl_int> {
        let mut e = self.usm.lock().unwrap_or_else(|e| e.into_inner());
        match (param_name, value) {
            (CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, ExecValue::Pointers(p)) => e.ptrs = p,
            (CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, ExecValue::Flag(f)) => {
                e.indirect_host = f
            }
            (CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL, ExecValue::Flag(f)) => {
                e.indirect_device = f
            }
            (CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL, ExecValue::Flag(f)) => {
                e.indirect_shared = f
            }
            _ => return Err(CL_INVALID_VALUE),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A context of no devices: enough for the rules, which only compare contexts.
    fn context() -> Arc<Handle<Context>> {
        let c = crate::core::context::create(Vec::new(), Vec::new(), None, std::ptr::null_mut());
        Handle::<Context>::get(c).expect("the context just made")
    }

    /// A pointer no object of this ICD has.
    const STRANGER: *mut c_void = 0x10 as *mut c_void;

    #[test]
    fn handles_take_a_pointer_sized_arg_size() {
        for slot in [ArgSlot::Buffer, ArgSlot::Image, ArgSlot::Sampler] {
            assert_eq!(
                arg_read(0, slot, None, 4),
                Err(CL_INVALID_ARG_SIZE),
                "{slot:?}"
            );
            assert_eq!(arg_read(0, slot, None, HANDLE_BYTES), Ok(ArgRead::Handle));
        }
    }

    #[test]
    fn a_value_takes_at_least_its_declared_type_and_keeps_its_low_bytes() {
        // A short for an int: refused; a long for an int: its low four bytes.
        assert_eq!(
            arg_read(1, ArgSlot::Value(4), Some(4), 2),
            Err(CL_INVALID_ARG_SIZE)
        );
        assert_eq!(
            arg_read(1, ArgSlot::Value(4), Some(4), 8),
            Ok(ArgRead::Bytes(4))
        );
        // A char IGC gives a 4-byte slot: sizeof(cl_char) suffices.
        assert_eq!(
            arg_read(1, ArgSlot::Value(4), Some(1), 1),
            Ok(ArgRead::Bytes(1))
        );
        // No metadata: 1 byte up to the slot, a 3-component vector's 12 as its 16.
        assert_eq!(
            arg_read(1, ArgSlot::Value(12), None, 16),
            Ok(ArgRead::Bytes(12))
        );
        assert_eq!(
            arg_read(1, ArgSlot::Value(4), None, 0),
            Err(CL_INVALID_ARG_SIZE)
        );
        assert_eq!(
            arg_read(1, ArgSlot::Value(4), None, 8),
            Err(CL_INVALID_ARG_SIZE)
        );
    }

    #[test]
    fn a_value_needs_its_bytes_and_fills_the_rest_of_its_slot_with_zeros() {
        let c = context();
        let slot = Declared {
            size: Some(4),
            ..Declared::kind(ArgSlot::Value(8))
        };
        let err = arg_from(0, slot, 4, ArgInput::Null, &c).err();
        assert_eq!(err, Some(CL_INVALID_ARG_VALUE));
        let arg = arg_from(0, slot, 8, ArgInput::Bytes(&[1, 2, 3, 4, 5, 6, 7, 8]), &c);
        assert!(matches!(arg, Ok(Arg::Value(v)) if v == [1, 2, 3, 4, 0, 0, 0, 0]));
    }

    #[test]
    fn a_local_pointer_takes_a_size_and_no_value() {
        let c = context();
        let local = |size, input| arg_from(2, Declared::kind(ArgSlot::Local), size, input, &c);
        assert_eq!(
            local(16, ArgInput::Unread).err(),
            Some(CL_INVALID_ARG_VALUE)
        );
        assert_eq!(local(0, ArgInput::Null).err(), Some(CL_INVALID_ARG_SIZE));
        let over = LOCAL_MEM_BYTES as usize + 1;
        assert_eq!(local(over, ArgInput::Null).err(), Some(CL_INVALID_ARG_SIZE));
        assert!(matches!(local(16, ArgInput::Null), Ok(Arg::Local(16))));
    }

    #[test]
    fn a_null_buffer_is_a_null_pointer_and_a_stranger_is_no_memory_object() {
        let c = context();
        let buffer = |input| arg_from(0, Declared::kind(ArgSlot::Buffer), HANDLE_BYTES, input, &c);
        assert!(matches!(buffer(ArgInput::Null), Ok(Arg::NullMem)));
        let null = ArgInput::Handle(std::ptr::null_mut());
        assert!(matches!(buffer(null), Ok(Arg::NullMem)));
        let stranger = buffer(ArgInput::Handle(STRANGER)).err();
        assert_eq!(stranger, Some(CL_INVALID_MEM_OBJECT));
    }

    #[test]
    fn images_and_samplers_need_a_valid_handle() {
        let c = context();
        let arg = |slot, input| arg_from(0, Declared::kind(slot), HANDLE_BYTES, input, &c).err();
        assert_eq!(
            arg(ArgSlot::Image, ArgInput::Null),
            Some(CL_INVALID_ARG_VALUE)
        );
        // A sampler argument's NULL arg_value is no valid sampler object (the CTS's
        // negative_invalid_arg_sampler asks for CL_INVALID_SAMPLER).
        assert_eq!(
            arg(ArgSlot::Sampler, ArgInput::Null),
            Some(CL_INVALID_SAMPLER)
        );
        assert_eq!(
            arg(ArgSlot::Sampler, ArgInput::Handle(std::ptr::null_mut())),
            Some(CL_INVALID_SAMPLER)
        );
        let stranger = ArgInput::Handle(STRANGER);
        assert_eq!(arg(ArgSlot::Image, stranger), Some(CL_INVALID_MEM_OBJECT));
        assert_eq!(arg(ArgSlot::Sampler, stranger), Some(CL_INVALID_SAMPLER));
        // The context's own handle is no image.
        let context = ArgInput::Handle(c.raw());
        assert_eq!(arg(ArgSlot::Image, context), Some(CL_INVALID_MEM_OBJECT));
    }

    #[test]
    fn exec_info_refuses_svm_and_checks_each_value_size() {
        let bool_size = std::mem::size_of::<cl_bool>();
        let svm = exec_info_read(CL_KERNEL_EXEC_INFO_SVM_PTRS, 8);
        assert_eq!(svm, Err(CL_INVALID_OPERATION));
        let host = CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL;
        assert_eq!(exec_info_read(host, bool_size), Ok(ExecRead::Flag));
        assert_eq!(exec_info_read(host, 1), Err(CL_INVALID_VALUE));
        let ptrs = CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL;
        assert_eq!(exec_info_read(ptrs, 24), Ok(ExecRead::Pointers(3)));
        assert_eq!(exec_info_read(ptrs, 12), Err(CL_INVALID_VALUE));
        assert_eq!(exec_info_read(0x1234, bool_size), Err(CL_INVALID_VALUE));
    }
}
