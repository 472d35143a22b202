//! Kernels: arguments, the kernel, work-group and sub-group queries, and
//! clEnqueueNDRangeKernel.

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use opencl_sys::*;
use umd::kernel::ArgSlot;
use umd::payload::ArgValue;

use crate::api::entry::entry;
use crate::device::Device;
use crate::handle::{ClObject, Handle, Kind};
use crate::info::{self, Info};
use crate::memory::Mem;
use crate::program::Program;
use crate::queue::{self, Queue};
use crate::sampler::Sampler;

#[derive(Clone)]
pub enum Arg {
    /// A buffer, not retained: OpenCL 3.0's clSetKernelArg says a kernel does not update the
    /// reference count of the memory objects set as its arguments (the application keeps
    /// them alive; releasing the last reference destroys the buffer and runs its destructor
    /// callbacks even while it is still set here).
    Mem(Weak<Handle<Mem>>),
    /// A NULL buffer: the kernel sees a NULL global pointer (clSetKernelArg, OpenCL 3.0).
    NullMem,
    Value(Vec<u8>),
    Local(u32),
    /// A sampler's description (a value: the sampler object may go once it is set).
    Sampler(umd::sampler::Sampler),
}

pub struct Kernel {
    pub program: Arc<Handle<Program>>,
    pub name: String,
    /// One loaded kernel per program device that built (None where it did not).
    pub per_device: Vec<Option<umd::kernel::Kernel>>,
    pub signature: Vec<ArgSlot>,
    /// Declared size of each by-value argument's type (`type;size` in the argument metadata),
    /// None where the binary carries no metadata.
    pub declared_sizes: Vec<Option<usize>>,
    /// clGetKernelArgInfo answers (the application asked for `-cl-kernel-arg-info`).
    pub arg_info: bool,
    /// Per program device: built with `-cl-uniform-work-group-size`, so an ND-range must be
    /// whole work-groups (clEnqueueNDRangeKernel, OpenCL 3.0).
    pub uniform_groups: Vec<bool>,
    pub args: Mutex<Vec<Option<Arg>>>,
    /// The arguments as an enqueue hands them to its command, made at the first enqueue
    /// after a clSetKernelArg and shared by the commands until the next one (locked after
    /// `args`), with the count of destroyed buffers (`buffers_destroyed`) when it was made.
    /// It names its buffers weakly, as a kernel does not retain them; each command holds
    /// them ([`HeldMems`]).
    pub snapshot: Mutex<Option<(u64, Arc<ArgSnapshot>)>>,
    /// Counted in the program's `kernels_alive` (a program with kernels attached cannot be
    /// rebuilt): until the application releases it, not until queued commands drop it, so a
    /// rebuild right after clReleaseKernel and clFinish does not race the queue's clean-up.
    pub attached: AtomicBool,
}

/// How many buffers have been destroyed: a kernel's cached [`ArgSnapshot`] made before the
/// count changed may hold the storage of a buffer that is gone, and is made again (which also
/// lets that storage go).
static BUFFERS_DESTROYED: AtomicU64 = AtomicU64::new(0);

/// Called when a memory object is destroyed.
pub fn buffer_destroyed() {
    BUFFERS_DESTROYED.fetch_add(1, Ordering::SeqCst);
}

fn buffers_destroyed() -> u64 {
    BUFFERS_DESTROYED.load(Ordering::SeqCst)
}

/// A kernel's arguments as they were when it was enqueued.
pub struct ArgSnapshot {
    pub values: Vec<ArgValue>,
    /// The buffers' CL objects, weakly: the command that runs the snapshot holds them.
    pub mems: Vec<Weak<Handle<Mem>>>,
}

impl ArgSnapshot {
    /// The snapshot of `set`, or CL_INVALID_KERNEL_ARGS when an argument is not set or its
    /// buffer is gone.
    fn of(set: &[Option<Arg>]) -> Result<ArgSnapshot, cl_int> {
        let mut mems = Vec::new();
        let values = set
            .iter()
            .map(|a| match a {
                None => Err(CL_INVALID_KERNEL_ARGS),
                Some(Arg::Mem(w)) => {
                    // A buffer destroyed since it was set is no argument any more.
                    let m = w.upgrade().ok_or(CL_INVALID_KERNEL_ARGS)?;
                    mems.push(w.clone());
                    Ok(match &m.obj.image {
                        Some(i) => ArgValue::Image(i.image.clone()),
                        None => ArgValue::Buffer(m.obj.buffer.clone()),
                    })
                }
                Some(Arg::NullMem) => Ok(ArgValue::NullBuffer),
                Some(Arg::Value(v)) => Ok(ArgValue::Value(v.clone())),
                Some(Arg::Local(n)) => Ok(ArgValue::Local(*n)),
                Some(Arg::Sampler(s)) => Ok(ArgValue::Sampler(*s)),
            })
            .collect::<Result<_, _>>()?;
        Ok(ArgSnapshot { values, mems })
    }

    /// The snapshot's buffers, held for a command; CL_INVALID_KERNEL_ARGS if one is gone.
    fn hold(&self) -> Result<HeldMems, cl_int> {
        let mut held = HeldMems::default();
        for w in &self.mems {
            held.push(w.upgrade().ok_or(CL_INVALID_KERNEL_ARGS)?);
        }
        Ok(held)
    }
}

/// Buffers a command holds while it runs, so they (and their destructor callbacks) outlive
/// it. Most kernels take a few: those are held in place, and only more need the heap.
#[derive(Default)]
pub struct HeldMems {
    inline: [Option<Arc<Handle<Mem>>>; 8],
    more: Vec<Arc<Handle<Mem>>>,
}

impl HeldMems {
    fn push(&mut self, m: Arc<Handle<Mem>>) {
        match self.inline.iter_mut().find(|s| s.is_none()) {
            Some(slot) => *slot = Some(m),
            None => self.more.push(m),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<Handle<Mem>>> {
        self.inline.iter().flatten().chain(&self.more)
    }
}

impl ClObject for Kernel {
    const KIND: Kind = Kind::Kernel;
    const INVALID: cl_int = CL_INVALID_KERNEL;
    fn released(&self) {
        self.detach();
    }
    fn revived(&self) {
        if !self.attached.swap(true, Ordering::SeqCst) {
            self.program
                .obj
                .kernels_alive
                .fetch_add(1, Ordering::SeqCst);
        }
    }
    /// A handle dropped without clReleaseKernel (an error path) detaches here.
    fn destroyed(&self, _raw: *mut c_void) {
        self.detach();
    }
}

impl Kernel {
    fn detach(&self) {
        if self.attached.swap(false, Ordering::SeqCst) {
            self.program
                .obj
                .kernels_alive
                .fetch_sub(1, Ordering::SeqCst);
        }
    }

    fn any(&self) -> Option<&umd::kernel::Kernel> {
        self.per_device.iter().flatten().next()
    }

    fn described(&self) -> Option<&umd::program::Kernel> {
        match self.any()?.description() {
            umd::kernel::Description::Ocloc(k, _) => Some(k),
            umd::kernel::Description::Raw => None,
        }
    }

    pub(crate) fn on(&self, d: &Arc<Handle<Device>>) -> Result<&umd::kernel::Kernel, cl_int> {
        let k = self.program.obj.device_index(d).ok_or(CL_INVALID_DEVICE)?;
        self.per_device[k]
            .as_ref()
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)
    }

    /// The device of a per-kernel query: `device`, or the only one when NULL.
    fn device_for(&self, device: cl_device_id) -> Result<Arc<Handle<Device>>, cl_int> {
        if device.is_null() {
            return match self.program.obj.devices.as_slice() {
                [one] => Ok(one.clone()),
                _ => Err(CL_INVALID_DEVICE),
            };
        }
        Handle::<Device>::get(device)
    }

    /// CL_KERNEL_WORK_GROUP_SIZE on `d`: the required size, else umd's limit for this kernel's
    /// SIMD width on the device (its topology and the walker's thread count).
    fn max_group(&self, d: &Device) -> usize {
        if let Some(r) = self.described().and_then(|k| k.required_work_group_size) {
            return r.iter().map(|&x| x as usize).product();
        }
        // SIMD8, the narrowest and so the smallest, for a kernel with no dispatch width.
        let info = d.umd.info();
        let simd = self.any().map_or(8, |k| k.simd);
        match info.kernel_work_group_size(simd) {
            0 => info.kernel_work_group_size(8) as usize,
            n => n as usize,
        }
    }

    /// CL_KERNEL_ATTRIBUTES: the source attributes as the compiler recorded them
    /// (vec_type_hint, work_group_size_hint, reqd_work_group_size, ...), plus the two the
    /// binary gives as numbers when its attribute text lacks them.
    fn attributes(&self) -> String {
        let Some(k) = self.described() else {
            return String::new();
        };
        let mut v: Vec<String> = k
            .attributes
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let has = |v: &[String], name: &str| v.iter().any(|a| a.starts_with(name));
        if let Some([x, y, z]) = k.required_work_group_size {
            if !has(&v, "reqd_work_group_size(") {
                v.push(format!("reqd_work_group_size({x},{y},{z})"));
            }
        }
        if k.required_subgroup_size != 0 && !has(&v, "intel_reqd_sub_group_size(") {
            v.push(format!(
                "intel_reqd_sub_group_size({})",
                k.required_subgroup_size
            ));
        }
        v.join(" ")
    }
}

fn create(p: &Arc<Handle<Program>>, name: &str) -> Result<cl_kernel, cl_int> {
    let builds = p.obj.builds().clone();
    if !builds.iter().any(|b| b.executable()) {
        return Err(CL_INVALID_PROGRAM_EXECUTABLE);
    }
    if !builds.iter().any(|b| b.kernels.iter().any(|k| k == name)) {
        return Err(CL_INVALID_KERNEL_NAME);
    }
    let mut per_device = Vec::new();
    for (i, (b, d)) in builds.iter().zip(&p.obj.devices).enumerate() {
        let k = match (&b.binary, b.status) {
            (Some(bin), CL_BUILD_SUCCESS) => {
                let (prog, data) = p.obj.shared_data(i, bin)?;
                Some(
                    umd::kernel::Kernel::from_shared(
                        &prog,
                        data,
                        Some(name),
                        Some(d.obj.umd.platform()),
                    )
                    .map_err(|_| CL_INVALID_KERNEL_DEFINITION)?,
                )
            }
            _ => None,
        };
        per_device.push(k);
    }
    let signature = per_device
        .iter()
        .flatten()
        .next()
        .and_then(|k| k.signature())
        .ok_or(CL_INVALID_KERNEL_DEFINITION)?;
    let n = signature.len();
    let declared_sizes = per_device
        .iter()
        .flatten()
        .next()
        .map(|k| declared_sizes(k, n))
        .unwrap_or_else(|| vec![None; n]);
    let arg_info = builds
        .iter()
        .any(|b| b.status == CL_BUILD_SUCCESS && b.arg_info);
    let uniform_groups = builds
        .iter()
        .map(|b| {
            b.options
                .split_whitespace()
                .any(|w| w == "-cl-uniform-work-group-size")
        })
        .collect();
    p.obj.kernels_alive.fetch_add(1, Ordering::SeqCst);
    Ok(Handle::create(Kernel {
        program: p.clone(),
        name: name.into(),
        per_device,
        signature,
        declared_sizes,
        arg_info,
        uniform_groups,
        args: Mutex::new(vec![None; n]),
        snapshot: Mutex::new(None),
        attached: AtomicBool::new(true),
    })
    .0)
}

/// The declared size of each of `n` arguments from the binary's argument metadata, whose type
/// strings are `type;size` (patch-token KERNEL_ARGUMENT_INFO and zebin kernels_misc_info alike).
fn declared_sizes(k: &umd::kernel::Kernel, n: usize) -> Vec<Option<usize>> {
    let mut out = vec![None; n];
    if let umd::kernel::Description::Ocloc(d, _) = k.description() {
        for a in &d.arg_info {
            let size = a
                .type_name
                .rsplit_once(';')
                .and_then(|(_, s)| s.trim().parse::<usize>().ok());
            if let Some(slot) = out.get_mut(a.index as usize) {
                *slot = size;
            }
        }
    }
    out
}

/// Whether `arg_size` bytes may be given for a by-value argument whose payload slot holds
/// `slot` bytes and whose type is `declared` bytes when the metadata says.
fn value_size_ok(arg_size: usize, slot: usize, declared: Option<usize>) -> bool {
    match declared {
        // The OpenCL type's size (a 3-component vector counts as 4): IGC may give a char or
        // short a wider slot, but the application passes sizeof(cl_char) / sizeof(cl_short).
        Some(d) => arg_size == d,
        // No metadata: anything up to the slot (a 3-component vector as its 4-component size).
        None => arg_size > 0 && arg_size <= slot.next_power_of_two().max(slot),
    }
}

entry! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char) -> cl_kernel, errcode_ret {
        let p = Handle::<Program>::get(program)?;
        if kernel_name.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: a NUL-terminated name.
        let name = unsafe { CStr::from_ptr(kernel_name) }
            .to_string_lossy()
            .into_owned();
        create(&p, &name)
    }
}

entry! {
    fn clCreateKernelsInProgram(
        program: cl_program,
        num_kernels: cl_uint,
        kernels: *mut cl_kernel,
        num_kernels_ret: *mut cl_uint,
    ) -> cl_int {
        info::status(|| {
            let p = Handle::<Program>::get(program)?;
            let names = p
                .obj
                .builds()
                .iter()
                .find(|b| b.executable())
                .map(|b| b.kernels.clone())
                .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
            if !kernels.is_null() && (num_kernels as usize) < names.len() {
                return Err(CL_INVALID_VALUE);
            }
            if !kernels.is_null() {
                for (k, n) in names.iter().enumerate() {
                    let h = create(&p, n)?;
                    // SAFETY: the application's array of num_kernels >= names.len() handles.
                    unsafe { *kernels.add(k) = h };
                }
            }
            if !num_kernels_ret.is_null() {
                // SAFETY: the application's pointer.
                unsafe { *num_kernels_ret = names.len() as cl_uint };
            }
            Ok(())
        })
    }
}

entry! {
    fn clCloneKernel(source_kernel: cl_kernel) -> cl_kernel, errcode_ret {
        let k = Handle::<Kernel>::get(source_kernel)?;
        k.obj
            .program
            .obj
            .kernels_alive
            .fetch_add(1, Ordering::SeqCst);
        let args = k.obj.args.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok(Handle::create(Kernel {
            program: k.obj.program.clone(),
            name: k.obj.name.clone(),
            per_device: k.obj.per_device.clone(),
            signature: k.obj.signature.clone(),
            declared_sizes: k.obj.declared_sizes.clone(),
            arg_info: k.obj.arg_info,
            uniform_groups: k.obj.uniform_groups.clone(),
            args: Mutex::new(args),
            snapshot: Mutex::new(None),
            attached: AtomicBool::new(true),
        })
        .0)
    }
}

entry! {
    fn clRetainKernel(k: cl_kernel) -> cl_int {
        Handle::<Kernel>::retain(k)
    }
}

entry! {
    fn clReleaseKernel(k: cl_kernel) -> cl_int {
        Handle::<Kernel>::release(k)
    }
}

entry! {
    fn clSetKernelArg(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_size: usize,
        arg_value: *const c_void,
    ) -> cl_int {
        info::status(|| {
            let k = Handle::<Kernel>::get(kernel)?;
            let slot = *k
                .obj
                .signature
                .get(arg_index as usize)
                .ok_or(CL_INVALID_ARG_INDEX)?;
            let arg = match slot {
                ArgSlot::Buffer => {
                    if arg_size != std::mem::size_of::<cl_mem>() {
                        return Err(CL_INVALID_ARG_SIZE);
                    }
                    // A NULL arg_value, or one pointing at a NULL cl_mem, gives the kernel a
                    // NULL pointer (the specification's rule for buffer arguments).
                    let m = if arg_value.is_null() {
                        std::ptr::null_mut()
                    } else {
                        // SAFETY: arg_value points at a cl_mem (arg_size checked).
                        unsafe { *(arg_value as *const cl_mem) }
                    };
                    if m.is_null() {
                        Arg::NullMem
                    } else {
                        let m = Handle::<Mem>::get(m)?;
                        if m.obj.image.is_some()
                            || !Arc::ptr_eq(&m.obj.context, &k.obj.program.obj.context)
                        {
                            return Err(CL_INVALID_MEM_OBJECT);
                        }
                        Arg::Mem(Arc::downgrade(&m))
                    }
                }
                ArgSlot::Local => {
                    if !arg_value.is_null() {
                        return Err(CL_INVALID_ARG_VALUE);
                    }
                    if arg_size == 0 || arg_size as u64 > crate::device::LOCAL_MEM_BYTES {
                        return Err(CL_INVALID_ARG_SIZE);
                    }
                    Arg::Local(arg_size as u32)
                }
                ArgSlot::Value(n) => {
                    let n = n as usize;
                    let declared = k.obj.declared_sizes.get(arg_index as usize).copied();
                    if !value_size_ok(arg_size, n, declared.flatten()) {
                        return Err(CL_INVALID_ARG_SIZE);
                    }
                    if arg_value.is_null() {
                        return Err(CL_INVALID_ARG_VALUE);
                    }
                    // The slot's bytes the application gave; the rest of a widened slot is 0.
                    let given = arg_size.min(n);
                    // SAFETY: `arg_size` >= `given` readable bytes at arg_value.
                    let bytes = unsafe { std::slice::from_raw_parts(arg_value as *const u8, given) };
                    let mut v = bytes.to_vec();
                    v.resize(n, 0);
                    Arg::Value(v)
                }
                ArgSlot::Sampler => {
                    if arg_size != std::mem::size_of::<cl_sampler>() {
                        return Err(CL_INVALID_ARG_SIZE);
                    }
                    if arg_value.is_null() {
                        return Err(CL_INVALID_ARG_VALUE);
                    }
                    // SAFETY: arg_value points at a cl_sampler (arg_size checked).
                    let s = Handle::<Sampler>::get(unsafe { *(arg_value as *const cl_sampler) })?;
                    if !Arc::ptr_eq(&s.obj.context, &k.obj.program.obj.context) {
                        return Err(CL_INVALID_SAMPLER);
                    }
                    Arg::Sampler(s.obj.sampler)
                }
                ArgSlot::Image => {
                    if arg_size != std::mem::size_of::<cl_mem>() {
                        return Err(CL_INVALID_ARG_SIZE);
                    }
                    if arg_value.is_null() {
                        return Err(CL_INVALID_ARG_VALUE);
                    }
                    // SAFETY: arg_value points at a cl_mem (arg_size checked).
                    let m = Handle::<Mem>::get(unsafe { *(arg_value as *const cl_mem) })?;
                    if m.obj.image.is_none() || !Arc::ptr_eq(&m.obj.context, &k.obj.program.obj.context)
                    {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
                    Arg::Mem(Arc::downgrade(&m))
                }
            };
            let mut set = k.obj.args.lock().unwrap_or_else(|e| e.into_inner());
            set[arg_index as usize] = Some(arg);
            // Commands already enqueued keep the snapshot they took.
            *k.obj.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = None;
            Ok(())
        })
    }
}

entry! {
    fn clGetKernelInfo(
        kernel: cl_kernel,
        param_name: cl_kernel_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Kernel>::get(kernel).and_then(|k| {
            Ok(match param_name {
                CL_KERNEL_FUNCTION_NAME => Info::Str(k.obj.name.clone()),
                CL_KERNEL_NUM_ARGS => Info::Uint(k.obj.signature.len() as u32),
                CL_KERNEL_REFERENCE_COUNT => Info::Uint(k.ref_count()),
                CL_KERNEL_CONTEXT => Info::Ptr(k.obj.program.obj.context.raw()),
                CL_KERNEL_PROGRAM => Info::Ptr(k.obj.program.raw()),
                CL_KERNEL_ATTRIBUTES => Info::Str(k.obj.attributes()),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

entry! {
    fn clGetKernelArgInfo(
        kernel: cl_kernel,
        arg_index: cl_uint,
        param_name: cl_kernel_arg_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Kernel>::get(kernel).and_then(|k| {
            if arg_index as usize >= k.obj.signature.len() {
                return Err(CL_INVALID_ARG_INDEX);
            }
            if !k.obj.arg_info {
                return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
            }
            let a = k
                .obj
                .described()
                .and_then(|d| d.arg_info.iter().find(|a| a.index == arg_index))
                .ok_or(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)?;
            Ok(match param_name {
                CL_KERNEL_ARG_ADDRESS_QUALIFIER => Info::Uint(match a.address_qualifier.as_str() {
                    "__global" | "global" => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                    "__local" | "local" => CL_KERNEL_ARG_ADDRESS_LOCAL,
                    "__constant" | "constant" => CL_KERNEL_ARG_ADDRESS_CONSTANT,
                    _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
                }),
                CL_KERNEL_ARG_ACCESS_QUALIFIER => Info::Uint(match a.access_qualifier.as_str() {
                    "__read_only" | "read_only" => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                    "__write_only" | "write_only" => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                    "__read_write" | "read_write" => CL_KERNEL_ARG_ACCESS_READ_WRITE,
                    _ => CL_KERNEL_ARG_ACCESS_NONE,
                }),
                // Patch tokens store "type;size".
                CL_KERNEL_ARG_TYPE_NAME => Info::Str(
                    a.type_name
                        .split(';')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                ),
                CL_KERNEL_ARG_TYPE_QUALIFIER => {
                    let q = &a.type_qualifiers;
                    let mut v: u64 = 0;
                    for (word, bit) in [
                        ("const", CL_KERNEL_ARG_TYPE_CONST),
                        ("restrict", CL_KERNEL_ARG_TYPE_RESTRICT),
                        ("volatile", CL_KERNEL_ARG_TYPE_VOLATILE),
                        ("pipe", CL_KERNEL_ARG_TYPE_PIPE),
                    ] {
                        if q.split_whitespace().any(|w| w == word) {
                            v |= bit as u64;
                        }
                    }
                    Info::Ulong(v)
                }
                CL_KERNEL_ARG_NAME => Info::Str(a.name.clone()),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

entry! {
    fn clGetKernelWorkGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_work_group_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Kernel>::get(kernel).and_then(|k| {
            let d = k.obj.device_for(device)?;
            let uk = k.obj.on(&d)?;
            let described = k.obj.described();
            Ok(match param_name {
                CL_KERNEL_WORK_GROUP_SIZE => Info::Size(k.obj.max_group(&d.obj)),
                CL_KERNEL_COMPILE_WORK_GROUP_SIZE => Info::Sizes(
                    described
                        .and_then(|x| x.required_work_group_size)
                        .map_or([0; 3], |r| r.map(|v| v as usize))
                        .to_vec(),
                ),
                CL_KERNEL_LOCAL_MEM_SIZE => {
                    let args: u64 = k
                        .obj
                        .args
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .iter()
                        .map(|a| match a {
                            Some(Arg::Local(n)) => *n as u64,
                            _ => 0,
                        })
                        .sum();
                    Info::Ulong(described.map_or(0, |x| x.slm_size as u64) + args)
                }
                CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Info::Size(uk.simd as usize),
                CL_KERNEL_PRIVATE_MEM_SIZE => Info::Ulong(described.map_or(0, |x| {
                    let m = x.memory;
                    let per_item = if m.private_is_simt {
                        m.private
                    } else {
                        m.private / x.simd_size.max(1)
                    };
                    (per_item + m.scratch / x.simd_size.max(1)) as u64
                })),
                CL_KERNEL_SPILL_MEM_SIZE_INTEL => Info::Ulong(uk.spill_mem_size()),
                // Only for custom devices and built-in kernels.
                CL_KERNEL_GLOBAL_WORK_SIZE => return Err(CL_INVALID_VALUE),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

entry! {
    fn clGetKernelSubGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_sub_group_info,
        input_value_size: usize,
        input_value: *const c_void,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Kernel>::get(kernel).and_then(|k| {
            let d = k.obj.device_for(device)?;
            let uk = k.obj.on(&d)?;
            let size = std::mem::size_of::<usize>();
            // SAFETY: `input_value_size` bytes at input_value (checked non-NULL and sized).
            let sizes = |input: *const c_void| -> Result<Vec<usize>, cl_int> {
                if input.is_null()
                    || input_value_size == 0
                    || !input_value_size.is_multiple_of(size)
                    || input_value_size / size > 3
                {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: the application passes input_value_size bytes at `input` (checked
                // non-null above); a whole number of size_t values, at most three.
                Ok(unsafe {
                    std::slice::from_raw_parts(input as *const usize, input_value_size / size)
                }
                .to_vec())
            };
            let simd = uk.simd as usize;
            Ok(match param_name {
                CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => Info::Size(
                    uk.max_sub_group_size_for_ndrange(&sizes(input_value)?)
                        .map_err(|_| CL_INVALID_VALUE)?,
                ),
                CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => Info::Size(
                    uk.sub_group_count_for_ndrange(&sizes(input_value)?)
                        .map_err(|_| CL_INVALID_VALUE)?,
                ),
                CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
                    if input_value.is_null() || input_value_size != size {
                        return Err(CL_INVALID_VALUE);
                    }
                    // SAFETY: one size_t (checked).
                    let count = unsafe { *(input_value as *const usize) };
                    let dims = (param_value_size / size).clamp(1, 3);
                    let mut out = vec![0usize; dims];
                    let local = count
                        .checked_mul(simd)
                        .filter(|&l| count > 0 && l <= k.obj.max_group(&d.obj));
                    if let Some(l) = local {
                        out[0] = l;
                        out[1..].fill(1);
                    }
                    Info::Sizes(out)
                }
                CL_KERNEL_MAX_NUM_SUB_GROUPS => Info::Size(k.obj.max_group(&d.obj).div_ceil(simd)),
                // No attribute requires a number of sub-groups in OpenCL C for this compiler.
                CL_KERNEL_COMPILE_NUM_SUB_GROUPS => Info::Size(0),
                CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL => Info::Size(uk.compile_sub_group_size()),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

/// `n` (1 to 3) size_t values at `p`, then zeros: None for NULL; `err` when one does not fit
/// in a u32.
///
/// # Safety
/// `p` NULL or `n` valid elements.
unsafe fn sizes(p: *const usize, n: usize, err: cl_int) -> Result<Option<[usize; 3]>, cl_int> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded.
    let given = unsafe { std::slice::from_raw_parts(p, n) };
    if given.iter().any(|&x| x > u32::MAX as usize) {
        return Err(err);
    }
    let mut v = [0; 3];
    v[..n].copy_from_slice(given);
    Ok(Some(v))
}

entry! {
    fn clEnqueueNDRangeKernel(
        queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        local_work_size: *const usize,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let q = Handle::<Queue>::get(queue)?;
            let k = Handle::<Kernel>::get(kernel)?;
            if !Arc::ptr_eq(&q.obj.context, &k.obj.program.obj.context) {
                return Err(CL_INVALID_CONTEXT);
            }
            let uk = k.obj.on(&q.obj.device)?;
            if !(1..=3).contains(&work_dim) {
                return Err(CL_INVALID_WORK_DIMENSION);
            }
            let dims = work_dim as usize;
            // SAFETY: the application's arrays of work_dim elements.
            let global = unsafe { sizes(global_work_size, dims, CL_INVALID_GLOBAL_WORK_SIZE) }?
                // OpenCL 2.1+: a NULL global size, like a zero one, runs nothing (the
                // command still completes its event).
                .unwrap_or([0; 3]);
            let global = &global[..dims];
            // SAFETY: as above, the application's work_dim-element arrays (or NULL).
            let offset = unsafe { sizes(global_work_offset, dims, CL_INVALID_GLOBAL_OFFSET) }?;
            // SAFETY: as above.
            let local = unsafe { sizes(local_work_size, dims, CL_INVALID_WORK_ITEM_SIZE) }?;
            let local = local.as_ref().map(|l| &l[..dims]);
            let offset = offset.as_ref().map(|o| &o[..dims]);
            if let Some(o) = offset {
                if o.iter()
                    .zip(global)
                    .any(|(o, g)| o.checked_add(*g).is_none_or(|e| e > u32::MAX as usize))
                {
                    return Err(CL_INVALID_GLOBAL_OFFSET);
                }
            }
            let required = k.obj.described().and_then(|d| d.required_work_group_size);
            if let Some(l) = local {
                if l.contains(&0) || l.iter().any(|&x| x > q.obj.device.obj.max_work_group()) {
                    return Err(CL_INVALID_WORK_ITEM_SIZE);
                }
                let total: usize = l.iter().product();
                if total > k.obj.max_group(&q.obj.device.obj) {
                    return Err(CL_INVALID_WORK_GROUP_SIZE);
                }
                let uniform = k
                    .obj
                    .program
                    .obj
                    .device_index(&q.obj.device)
                    .and_then(|d| k.obj.uniform_groups.get(d))
                    .is_some_and(|&u| u);
                if uniform && global.iter().zip(l).any(|(g, l)| g % l != 0) {
                    return Err(CL_INVALID_WORK_GROUP_SIZE);
                }
                if let Some(r) = required {
                    let mut padded = [1u32; 3];
                    for (d, v) in l.iter().enumerate() {
                        padded[d] = *v as u32;
                    }
                    if padded != r {
                        return Err(CL_INVALID_WORK_GROUP_SIZE);
                    }
                }
            }
            // The arguments as set now; unchanged since the last enqueue (and no buffer
            // destroyed since), its snapshot.
            let (args, mems) = {
                let set = k.obj.args.lock().unwrap_or_else(|e| e.into_inner());
                let mut cached = k.obj.snapshot.lock().unwrap_or_else(|e| e.into_inner());
                let epoch = buffers_destroyed();
                let reuse = cached
                    .as_ref()
                    .filter(|(made, _)| *made == epoch)
                    .and_then(|(_, s)| Some((s.clone(), s.hold().ok()?)));
                match reuse {
                    Some(r) => r,
                    None => {
                        *cached = None;
                        let s = Arc::new(ArgSnapshot::of(&set)?);
                        let held = s.hold()?;
                        *cached = Some((epoch, s.clone()));
                        (s, held)
                    }
                }
            };
            if mems
                .iter()
                .any(|m| !Arc::ptr_eq(&m.obj.device, &q.obj.device))
            {
                return Err(CL_INVALID_OPERATION);
            }
            // OpenCL 2.1+: a zero global size runs nothing.
            let empty = global.contains(&0);
            let u32s = |v: &[usize]| {
                let mut out = [0u32; 3];
                for (o, &x) in out.iter_mut().zip(v) {
                    *o = x as u32;
                }
                out
            };
            let (g32, o32) = (u32s(global), offset.map_or([0; 3], u32s));
            let l32 = local.map(u32s);
            let work = if empty {
                queue::Work::Nothing
            } else {
                let r = umd::ndrange::NdRange::new(
                    &g32[..dims],
                    l32.as_ref().map(|l| &l[..dims]),
                    uk.simd,
                    required,
                )
                .map_err(|_| CL_INVALID_WORK_GROUP_SIZE)?;
                queue::Work::Kernel(queue::KernelRun {
                    kernel: k.clone(),
                    range: r
                        .with_offset(&o32[..dims])
                        .map_err(|_| CL_INVALID_GLOBAL_OFFSET)?,
                    args,
                    mems,
                })
            };
            // A GPU fault or hang fails the event and reaches the context's callback.
            // SAFETY: the application's wait list and event pointer.
            unsafe { queue::enqueue(&q, CL_COMMAND_NDRANGE_KERNEL, n, wait, event, false, work) }
        })
    }
}

entry! {
    /// OpenCL 1.x task: one work-item.
    fn clEnqueueTask(
        queue: cl_command_queue,
        kernel: cl_kernel,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let one = [1usize];
        // SAFETY: forwarded, with a one-item range.
        unsafe {
            clEnqueueNDRangeKernel(
                queue,
                kernel,
                1,
                std::ptr::null(),
                one.as_ptr(),
                one.as_ptr(),
                n,
                wait,
                event,
            )
        }
    }
}
