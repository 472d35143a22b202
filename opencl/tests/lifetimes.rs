//! Implicit references (OpenCL 3.0, the clRelease* entry points): an object is deleted only
//! once the application's count is zero *and* every object that holds it is gone. So a parent
//! the application released stays a valid handle while a child holds it: the application may
//! get it back by a query and retain it (OpenVINO's GPU plugin does exactly this with
//! CL_KERNEL_PROGRAM after releasing its program).
//!
//! For every parent/child pair the specification names (kernel → program → context,
//! queue → context, event → queue and context, user event → context, buffer → context,
//! sub-buffer → buffer, image from a buffer → buffer, sampler → context), each scenario
//! releases the application's references in every order; after each release it uses every
//! object the application still holds, retains (and uses, and releases again) every parent it
//! reaches by query, and checks the context (and the parent buffer) are destroyed exactly
//! when the last release goes, not before, not never.

use crate::in_process;
use in_process::context;

use std::ffi::c_void;
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicU32, Ordering};

use intel_gpu_opencl::api::{
    context as ctx_api, event, image, kernel, memory, program, queue, sampler,
};
use opencl_sys::*;
use oracles::{require, Oracle};

const SRC: &str = "__kernel void k(__global int *o) { o[get_global_id(0)] = 7; }\0";

/// Every order of `0..n`.
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut all = Vec::new();
    for rest in orders(n - 1) {
        for at in 0..=rest.len() {
            let mut o = rest.clone();
            o.insert(at, n - 1);
            all.push(o);
        }
    }
    all
}

/// A handle-valued info query.
unsafe fn info_ptr(
    f: unsafe fn(*mut c_void, cl_uint, usize, *mut c_void, *mut usize) -> cl_int,
    obj: *mut c_void,
    param: cl_uint,
) -> *mut c_void {
    let mut out: *mut c_void = null_mut();
    let size = size_of::<*mut c_void>();
    // SAFETY: `out` has room for the pointer the query returns.
    assert_eq!(
        unsafe {
            f(
                obj,
                param,
                size,
                (&mut out as *mut *mut c_void).cast(),
                null_mut(),
            )
        },
        CL_SUCCESS,
        "info query {param:#x}"
    );
    out
}

/// Info queries over untyped handles, so one helper reads a handle-valued answer of any.
macro_rules! untyped_info {
    ($($name:ident = $f:path;)*) => {$(
        unsafe fn $name(o: *mut c_void, p: cl_uint, s: usize, v: *mut c_void, r: *mut usize) -> cl_int {
            // SAFETY: forwarded.
            unsafe { $f(o.cast(), p, s, v, r) }
        }
    )*};
}
untyped_info! {
    kernel_info = kernel::clGetKernelInfo;
    program_info = program::clGetProgramInfo;
    queue_info = queue::clGetCommandQueueInfo;
    event_info = event::clGetEventInfo;
    sampler_info = sampler::clGetSamplerInfo;
    mem_info = memory::clGetMemObjectInfo;
}

/// A context reached by query from a child: retain it (valid even at count zero), make a
/// buffer in it, and release what this took.
unsafe fn use_context(c: cl_context) {
    let mut err = 0;
    // SAFETY: `c` is a context handle the driver returned; out-pointers valid.
    unsafe {
        assert_eq!(
            ctx_api::clRetainContext(c),
            CL_SUCCESS,
            "retain a held context"
        );
        let b = memory::clCreateBuffer(c, CL_MEM_READ_WRITE, 16, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS, "a buffer in a held context");
        assert_eq!(memory::clReleaseMemObject(b), CL_SUCCESS);
        assert_eq!(ctx_api::clReleaseContext(c), CL_SUCCESS);
    }
}

/// A program reached by query: retain it, make a kernel of it, release both.
unsafe fn use_program(p: cl_program) {
    let mut err = 0;
    // SAFETY: `p` is a program handle the driver returned.
    unsafe {
        assert_eq!(
            program::clRetainProgram(p),
            CL_SUCCESS,
            "retain a held program"
        );
        let k = kernel::clCreateKernel(p, c"k".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS, "a kernel of a held program");
        assert_eq!(kernel::clReleaseKernel(k), CL_SUCCESS);
        assert_eq!(program::clReleaseProgram(p), CL_SUCCESS);
        use_context(info_ptr(program_info, p, CL_PROGRAM_CONTEXT));
    }
}

/// A queue reached by query: retain it, finish it, release it.
unsafe fn use_queue(q: cl_command_queue) {
    // SAFETY: `q` is a queue handle the driver returned.
    unsafe {
        assert_eq!(
            queue::clRetainCommandQueue(q),
            CL_SUCCESS,
            "retain a held queue"
        );
        assert_eq!(queue::clFinish(q), CL_SUCCESS);
        assert_eq!(queue::clReleaseCommandQueue(q), CL_SUCCESS);
        use_context(info_ptr(queue_info, q, CL_QUEUE_CONTEXT));
    }
}

/// A buffer reached by query: retain it, read its size, release it.
unsafe fn use_buffer(b: cl_mem, size: usize) {
    let mut got = 0usize;
    // SAFETY: `b` is a buffer handle the driver returned; `got` holds a size_t.
    unsafe {
        assert_eq!(
            memory::clRetainMemObject(b),
            CL_SUCCESS,
            "retain a held buffer"
        );
        assert_eq!(
            memory::clGetMemObjectInfo(
                b,
                CL_MEM_SIZE,
                size_of::<usize>(),
                (&mut got as *mut usize).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(got, size);
        assert_eq!(memory::clReleaseMemObject(b), CL_SUCCESS);
        use_context(info_ptr(mem_info, b, CL_MEM_CONTEXT));
    }
}

static CONTEXTS_DESTROYED: AtomicU32 = AtomicU32::new(0);
static BUFFERS_DESTROYED: AtomicU32 = AtomicU32::new(0);

extern "C" fn context_destroyed(_c: cl_context, count: *mut c_void) {
    // SAFETY: the user data is a pointer to one of this file's counters.
    unsafe { &*(count as *const AtomicU32) }.fetch_add(1, Ordering::SeqCst);
}
extern "C" fn buffer_destroyed(_m: cl_mem, count: *mut c_void) {
    // SAFETY: as above.
    unsafe { &*(count as *const AtomicU32) }.fetch_add(1, Ordering::SeqCst);
}

/// One object the application holds in a scenario: its handle, how to release it, and what
/// to do with it (and the parents it reaches) while the application still holds it.
struct Held {
    name: &'static str,
    handle: *mut c_void,
    release: unsafe fn(*mut c_void) -> cl_int,
    use_it: unsafe fn(*mut c_void),
}

/// Releases over untyped handles, one per kind.
macro_rules! untyped_release {
    ($($name:ident = $f:path;)*) => {$(
        unsafe fn $name(h: *mut c_void) -> cl_int {
            // SAFETY: forwarded.
            unsafe { $f(h.cast()) }
        }
    )*};
}
untyped_release! {
    release_context = ctx_api::clReleaseContext;
    release_program = program::clReleaseProgram;
    release_kernel = kernel::clReleaseKernel;
    release_queue = queue::clReleaseCommandQueue;
    release_event = event::clReleaseEvent;
    release_mem = memory::clReleaseMemObject;
    release_sampler = sampler::clReleaseSampler;
}

unsafe fn use_own_context(c: *mut c_void) {
    // SAFETY: a context the application holds.
    unsafe { use_context(c.cast()) }
}
unsafe fn use_own_program(p: *mut c_void) {
    // SAFETY: a program the application holds.
    unsafe { use_program(p.cast()) }
}
unsafe fn use_own_kernel(k: *mut c_void) {
    // SAFETY: a kernel the application holds; its program and context by query.
    unsafe {
        use_program(info_ptr(kernel_info, k, CL_KERNEL_PROGRAM));
        use_context(info_ptr(kernel_info, k, CL_KERNEL_CONTEXT));
    }
}
unsafe fn use_own_queue(q: *mut c_void) {
    // SAFETY: a queue the application holds.
    unsafe { use_queue(q.cast()) }
}
unsafe fn use_own_event(e: *mut c_void) {
    // SAFETY: an event the application holds; its queue (none for a user event) and context.
    unsafe {
        let q = info_ptr(event_info, e, CL_EVENT_COMMAND_QUEUE);
        if !q.is_null() {
            let ev = e as cl_event;
            assert_eq!(event::clWaitForEvents(1, &ev), CL_SUCCESS);
            use_queue(q.cast());
        }
        use_context(info_ptr(event_info, e, CL_EVENT_CONTEXT));
    }
}
unsafe fn use_own_buffer(b: *mut c_void) {
    // SAFETY: a buffer the application holds.
    unsafe { use_buffer(b.cast(), BUFFER) }
}
unsafe fn use_own_child_mem(m: *mut c_void) {
    // SAFETY: a sub-buffer or image the application holds; its buffer by query.
    unsafe {
        let parent = info_ptr(mem_info, m, CL_MEM_ASSOCIATED_MEMOBJECT);
        assert!(!parent.is_null(), "CL_MEM_ASSOCIATED_MEMOBJECT");
        use_buffer(parent.cast(), BUFFER);
        use_context(info_ptr(mem_info, m, CL_MEM_CONTEXT));
    }
}
unsafe fn use_own_sampler(s: *mut c_void) {
    // SAFETY: a sampler the application holds.
    unsafe { use_context(info_ptr(sampler_info, s, CL_SAMPLER_CONTEXT)) }
}

const BUFFER: usize = 4096;

/// Runs one scenario of `n` objects in every release order: `make` creates the context (index
/// 0 of what it returns) and the other objects, and names the buffer whose destruction is
/// counted, if any.
fn every_order(n: usize, mut make: impl FnMut() -> (Vec<Held>, Option<cl_mem>)) {
    for order in orders(n) {
        let (held, watched) = make();
        assert_eq!(held.len(), n);
        let ctx = held[0].handle;
        let contexts = CONTEXTS_DESTROYED.load(Ordering::SeqCst);
        let buffers = BUFFERS_DESTROYED.load(Ordering::SeqCst);
        // SAFETY: `ctx` and `watched` are live handles; the counters are statics.
        unsafe {
            assert_eq!(
                ctx_api::clSetContextDestructorCallback(
                    ctx.cast(),
                    Some(context_destroyed),
                    (&CONTEXTS_DESTROYED as *const AtomicU32).cast_mut().cast()
                ),
                CL_SUCCESS
            );
            if let Some(b) = watched {
                assert_eq!(
                    memory::clSetMemObjectDestructorCallback(
                        b,
                        Some(buffer_destroyed),
                        (&BUFFERS_DESTROYED as *const AtomicU32).cast_mut().cast()
                    ),
                    CL_SUCCESS
                );
            }
        }
        let names: Vec<_> = order.iter().map(|&i| held[i].name).collect();
        for (step, &i) in order.iter().enumerate() {
            // SAFETY: the application still holds `held[i]`.
            assert_eq!(
                unsafe { (held[i].release)(held[i].handle) },
                CL_SUCCESS,
                "{names:?}"
            );
            let last = step + 1 == n;
            for &j in &order[step + 1..] {
                // SAFETY: the application still holds `held[j]`.
                unsafe { (held[j].use_it)(held[j].handle) };
            }
            if !last {
                assert_eq!(
                    CONTEXTS_DESTROYED.load(Ordering::SeqCst),
                    contexts,
                    "context destroyed early (releases {names:?}, after {})",
                    step + 1
                );
            }
        }
        // The last release lets the objects go; a queue's thread may drop its references to
        // the context just after (destruction is not synchronous with the release), so wait
        // for it, bounded.
        eventually(
            || CONTEXTS_DESTROYED.load(Ordering::SeqCst) == contexts + 1,
            || format!("context never destroyed (releases {names:?})"),
        );
        if watched.is_some() {
            eventually(
                || BUFFERS_DESTROYED.load(Ordering::SeqCst) == buffers + 1,
                || format!("buffer never destroyed (releases {names:?})"),
            );
        }
    }
}

/// Waits until `done` holds; fails after a minute (a liveness bound, not a timing check).
fn eventually(done: impl Fn() -> bool, what: impl Fn() -> String) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed().as_secs() < 60, "{}", what());
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

fn held_context(c: cl_context) -> Held {
    Held {
        name: "context",
        handle: c.cast(),
        release: release_context,
        use_it: use_own_context,
    }
}

/// These scenarios count destructions with process-wide counters, so they run one after
/// another in one test.
#[test]
fn handles_stay_valid_while_another_object_holds_them_in_every_release_order() {
    let _ocloc = require!(Oracle::Ocloc);
    let mut err = 0;

    // kernel → program → context.
    every_order(3, || {
        let (_dev, c) = context();
        let mut text = SRC.as_ptr().cast::<std::ffi::c_char>();
        // SAFETY: valid handles and out-pointers.
        unsafe {
            let p = program::clCreateProgramWithSource(c, 1, &mut text, null(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            assert_eq!(
                program::clBuildProgram(p, 0, null(), null(), None, null_mut()),
                CL_SUCCESS
            );
            let k = kernel::clCreateKernel(p, c"k".as_ptr(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            let held = vec![
                held_context(c),
                Held {
                    name: "program",
                    handle: p.cast(),
                    release: release_program,
                    use_it: use_own_program,
                },
                Held {
                    name: "kernel",
                    handle: k.cast(),
                    release: release_kernel,
                    use_it: use_own_kernel,
                },
            ];
            (held, None)
        }
    });

    // event → queue → context, and a user event → context.
    every_order(4, || {
        let (dev, c) = context();
        // SAFETY: valid handles and out-pointers.
        unsafe {
            let q = queue::clCreateCommandQueue(c, dev, 0, &mut err);
            assert_eq!(err, CL_SUCCESS);
            let mut e = null_mut();
            assert_eq!(
                queue::clEnqueueMarkerWithWaitList(q, 0, null(), &mut e),
                CL_SUCCESS
            );
            let u = event::clCreateUserEvent(c, &mut err);
            assert_eq!(err, CL_SUCCESS);
            let held = vec![
                held_context(c),
                Held {
                    name: "queue",
                    handle: q.cast(),
                    release: release_queue,
                    use_it: use_own_queue,
                },
                Held {
                    name: "event",
                    handle: e.cast(),
                    release: release_event,
                    use_it: use_own_event,
                },
                Held {
                    name: "user event",
                    handle: u.cast(),
                    release: release_event,
                    use_it: use_own_event,
                },
            ];
            (held, None)
        }
    });

    // sub-buffer and image from a buffer → buffer → context; sampler → context.
    every_order(5, || {
        let (_dev, c) = context();
        // SAFETY: valid handles, descriptors and out-pointers.
        unsafe {
            let b = memory::clCreateBuffer(c, CL_MEM_READ_WRITE, BUFFER, null_mut(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            let region = cl_buffer_region {
                origin: 0,
                size: 256,
            };
            let sub = memory::clCreateSubBuffer(
                b,
                CL_MEM_READ_WRITE,
                CL_BUFFER_CREATE_TYPE_REGION,
                (&region as *const cl_buffer_region).cast(),
                &mut err,
            );
            assert_eq!(err, CL_SUCCESS);
            let format = cl_image_format {
                image_channel_order: CL_RGBA,
                image_channel_data_type: CL_UNSIGNED_INT8,
            };
            let mut desc: cl_image_desc = std::mem::zeroed();
            desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
            desc.image_width = BUFFER / 4;
            desc.buffer = b;
            let img =
                image::clCreateImage(c, CL_MEM_READ_WRITE, &format, &desc, null_mut(), &mut err);
            assert_eq!(err, CL_SUCCESS);
            let s =
                sampler::clCreateSampler(c, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &mut err);
            assert_eq!(err, CL_SUCCESS);
            let held = vec![
                held_context(c),
                Held {
                    name: "buffer",
                    handle: b.cast(),
                    release: release_mem,
                    use_it: use_own_buffer,
                },
                Held {
                    name: "sub-buffer",
                    handle: sub.cast(),
                    release: release_mem,
                    use_it: use_own_child_mem,
                },
                Held {
                    name: "image",
                    handle: img.cast(),
                    release: release_mem,
                    use_it: use_own_child_mem,
                },
                Held {
                    name: "sampler",
                    handle: s.cast(),
                    release: release_sampler,
                    use_it: use_own_sampler,
                },
            ];
            (held, Some(b))
        }
    });
}

/// What OpenVINO's GPU plugin does: build a program, make its kernel, release the program,
/// then get it back from the kernel and retain it; the kernel still runs, and the program
/// still makes kernels.
#[test]
fn a_kernel_runs_and_gives_back_its_program_after_the_application_released_both_parents() {
    let _ocloc = require!(Oracle::Ocloc);
    let (dev, c) = context();
    let mut err = 0;
    let mut text = SRC.as_ptr().cast::<std::ffi::c_char>();
    // SAFETY: valid handles and out-pointers; `out` outlives the blocking read.
    unsafe {
        let q = queue::clCreateCommandQueue(c, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        let p = program::clCreateProgramWithSource(c, 1, &mut text, null(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            program::clBuildProgram(p, 0, null(), null(), None, null_mut()),
            CL_SUCCESS
        );
        let k = kernel::clCreateKernel(p, c"k".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(program::clReleaseProgram(p), CL_SUCCESS);
        // Released to zero by the application: a second release is refused, nothing lost.
        assert_eq!(program::clReleaseProgram(p), CL_INVALID_PROGRAM);
        assert_eq!(ctx_api::clReleaseContext(c), CL_SUCCESS);

        let got = info_ptr(kernel_info, k.cast(), CL_KERNEL_PROGRAM) as cl_program;
        assert_eq!(got, p);
        assert_eq!(program::clRetainProgram(got), CL_SUCCESS);
        let mut count: cl_uint = 0;
        assert_eq!(
            program::clGetProgramInfo(
                got,
                CL_PROGRAM_REFERENCE_COUNT,
                4,
                (&mut count as *mut cl_uint).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            count, 1,
            "the application's count after retaining from zero"
        );

        // The context, released by the application, is held by the queue, program and kernel.
        let held = info_ptr(kernel_info, k.cast(), CL_KERNEL_CONTEXT) as cl_context;
        assert_eq!(held, c);
        assert_eq!(ctx_api::clRetainContext(held), CL_SUCCESS);
        let b = memory::clCreateBuffer(held, CL_MEM_READ_WRITE, 64 * 4, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            kernel::clSetKernelArg(k, 0, size_of::<cl_mem>(), (&b as *const cl_mem).cast()),
            CL_SUCCESS
        );
        let global = 64usize;
        assert_eq!(
            kernel::clEnqueueNDRangeKernel(q, k, 1, null(), &global, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        let mut out = [0i32; 64];
        assert_eq!(
            memory::clEnqueueReadBuffer(
                q,
                b,
                CL_TRUE,
                0,
                64 * 4,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(out, [7; 64]);
        // The program retained again makes kernels, and builds are refused while they exist.
        let k2 = kernel::clCreateKernel(got, c"k".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            program::clBuildProgram(got, 0, null(), null(), None, null_mut()),
            CL_INVALID_OPERATION
        );
        for k in [k, k2] {
            assert_eq!(kernel::clReleaseKernel(k), CL_SUCCESS);
        }
        assert_eq!(program::clReleaseProgram(got), CL_SUCCESS);
        assert_eq!(memory::clReleaseMemObject(b), CL_SUCCESS);
        assert_eq!(queue::clReleaseCommandQueue(q), CL_SUCCESS);
        assert_eq!(ctx_api::clReleaseContext(held), CL_SUCCESS);
    }
}
