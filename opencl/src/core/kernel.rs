//! Kernels: their arguments, the snapshot of them each enqueue hands its command, and what
//! the kernel queries report.

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use opencl_sys::*;
use umd::kernel::ArgSlot;
use umd::payload::ArgValue;

use crate::core::device::Device;
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::memory::{buffers_destroyed, Mem};
use crate::core::program::Program;
use crate::core::reason::why;
use crate::core::usm_alloc::{Alloc, ExecInfo, Table, User};

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
    /// A pointer into a unified shared memory allocation (clSetKernelArgMemPointerINTEL):
    /// the allocation, and its bytes from the pointer on, which the kernel gets as a buffer.
    Usm(Arc<Alloc>, umd::memory::Buffer),
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
    /// clSetKernelExecInfo's unified shared memory settings.
    pub usm: Mutex<ExecInfo>,
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
            .enumerate()
            .map(|(i, a)| match a {
                None => Err(why(CL_INVALID_KERNEL_ARGS, || {
                    format!("argument {i} is not set (clSetKernelArg)")
                })),
                Some(Arg::Mem(w)) => {
                    // A buffer destroyed since it was set is no argument any more.
                    let m = w.upgrade().ok_or_else(|| {
                        why(CL_INVALID_KERNEL_ARGS, || {
                            format!(
                                "argument {i}'s buffer was released and destroyed since it was set"
                            )
                        })
                    })?;
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
                Some(Arg::Usm(_, b)) => Ok(ArgValue::Buffer(b.clone())),
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
    /// What argument `index` takes, or CL_INVALID_ARG_INDEX.
    pub fn slot(&self, index: cl_uint) -> Result<ArgSlot, cl_int> {
        self.signature.get(index as usize).copied().ok_or_else(|| {
            why(CL_INVALID_ARG_INDEX, || {
                format!(
                    "kernel {} has {} argument(s); there is no argument {index}",
                    self.name,
                    self.signature.len()
                )
            })
        })
    }

    /// clCloneKernel: a new kernel of the same program with this one's arguments and its
    /// execution information (clSetKernelExecInfo's settings, which clCloneKernel copies too).
    pub fn clone_kernel(&self) -> cl_kernel {
        self.program
            .obj
            .kernels_alive
            .fetch_add(1, Ordering::SeqCst);
        let args = self.args.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let usm = self.usm.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Handle::create(Kernel {
            program: self.program.clone(),
            name: self.name.clone(),
            per_device: self.per_device.clone(),
            signature: self.signature.clone(),
            declared_sizes: self.declared_sizes.clone(),
            arg_info: self.arg_info,
            uniform_groups: self.uniform_groups.clone(),
            args: Mutex::new(args),
            snapshot: Mutex::new(None),
            attached: AtomicBool::new(true),
            usm: Mutex::new(usm),
        })
        .0
    }

    /// Sets argument `index` (checked by [`Kernel::slot`]); commands already enqueued keep the
    /// snapshot they took, the next enqueue takes a new one.
    pub fn set_arg(&self, index: cl_uint, arg: Arg) {
        let mut set = self.args.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(a) = set.get_mut(index as usize) {
            *a = Some(arg);
        }
        *self.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The arguments as an enqueue hands them to its command: as set now, and unchanged since
    /// the last enqueue (and no buffer destroyed since), its snapshot; with the buffers the
    /// command holds.
    pub fn enqueued_args(&self) -> Result<(Arc<ArgSnapshot>, HeldMems), cl_int> {
        let set = self.args.lock().unwrap_or_else(|e| e.into_inner());
        let mut cached = self.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        let epoch = buffers_destroyed();
        let reuse = cached
            .as_ref()
            .filter(|(made, _)| *made == epoch)
            .and_then(|(_, s)| Some((s.clone(), s.hold().ok()?)));
        Ok(match reuse {
            Some(r) => r,
            None => {
                *cached = None;
                let s = Arc::new(ArgSnapshot::of(&set)?);
                let held = s.hold()?;
                *cached = Some((epoch, s.clone()));
                (s, held)
            }
        })
    }

    /// The unified shared memory of `table` a dispatch on `device` must have resident besides
    /// its argument buffers (clSetKernelExecInfo's), each allocation it uses noted as used by
    /// `user` (its queue); CL_INVALID_OPERATION when an argument's allocation lives on another
    /// device.
    pub fn usm_resident(
        &self,
        table: &Table,
        device: &Arc<Handle<Device>>,
        user: &User,
    ) -> Result<Vec<umd::memory::Buffer>, cl_int> {
        for a in self.args.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            if let Some(Arg::Usm(alloc, _)) = a {
                if !Arc::ptr_eq(&alloc.home, device) {
                    return Err(CL_INVALID_OPERATION);
                }
                alloc.used_by(user);
            }
        }
        let info = self.usm.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok(info.resident(table, device, user))
    }

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

    pub fn described(&self) -> Option<&umd::program::Kernel> {
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
    pub fn device_for(&self, device: cl_device_id) -> Result<Arc<Handle<Device>>, cl_int> {
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
    pub fn max_group(&self, d: &Device) -> usize {
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
    pub fn attributes(&self) -> String {
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

pub fn create(p: &Arc<Handle<Program>>, name: &str) -> Result<cl_kernel, cl_int> {
    let builds = p.obj.builds().clone();
    if !builds.iter().any(|b| b.executable()) {
        return Err(why(CL_INVALID_PROGRAM_EXECUTABLE, || {
            "the program has no successfully built executable for any device".into()
        }));
    }
    if !builds.iter().any(|b| b.kernels.iter().any(|k| k == name)) {
        return Err(why(CL_INVALID_KERNEL_NAME, || {
            let known: Vec<&str> = builds
                .iter()
                .flat_map(|b| b.kernels.iter().map(String::as_str))
                .collect();
            format!(
                "the program has no kernel named {name:?} (it has: {})",
                known.join(", ")
            )
        }));
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
        usm: Mutex::default(),
    })
    .0)
}

/// The declared size of each of `n` arguments from the binary's argument metadata, whose type
/// strings are `type;size` (patch-token KERNEL_ARGUMENT_INFO and zebin kernels_misc_info alike).
pub fn declared_sizes(k: &umd::kernel::Kernel, n: usize) -> Vec<Option<usize>> {
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
