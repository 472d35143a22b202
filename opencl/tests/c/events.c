/* The execution model through the ocl-icd loader: asynchronous enqueues, in-order queues,
 * wait lists across queues, user events (complete and failed), event callbacks on a runtime
 * thread, markers and barriers, profiling order, out-of-order queues, and a GPU fault and a
 * GPU hang on one queue while another works, and threads enqueuing at once. Expected values are the OpenCL 3.0 API specification's.
 * A user event gates the commands whose status is checked while pending, so nothing here
 * depends on how fast the device runs. Prints one line per failed check and a summary. */
#define CL_TARGET_OPENCL_VERSION 300
/* The OpenCL 1.1 marker, barrier and wait entry points are tested too. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"

static cl_int status_of(cl_event e) {
    cl_int st = 99;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    return st;
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Spins (up to 20 s) until *v reaches want; callbacks run on another thread. */
static int await_count(atomic_int *v, int want) {
    for (int i = 0; i < 20000 && atomic_load(v) < want; i++)
        sleep_ms(1);
    return atomic_load(v);
}

/* The slow kernel's status at the moment (or just after) its dependant reached CL_SUBMITTED. */
static atomic_int submitted_seen;
static cl_int slow_when_submitted, next_when_submitted;
static void CL_CALLBACK on_submitted(cl_event ev, cl_int status, void *slow) {
    (void)status;
    slow_when_submitted = status_of((cl_event)slow);
    next_when_submitted = status_of(ev);
    atomic_fetch_add(&submitted_seen, 1);
}

static pthread_t main_thread;

/* Callback log: the statuses in the order they arrived, and whether any ran on the
 * application's thread. */
static atomic_int seen, on_main;
static cl_int order[16];
static void CL_CALLBACK record(cl_event ev, cl_int status, void *user) {
    (void)ev;
    (void)user;
    if (pthread_equal(pthread_self(), main_thread))
        atomic_fetch_add(&on_main, 1);
    int k = atomic_load(&seen);
    if (k < 16)
        order[k] = status;
    atomic_fetch_add(&seen, 1);
}

/* A callback that re-enters the runtime: queries its event and releases the reference the
 * test gave it. */
static atomic_int reentered;
static cl_int reentered_status = 99;
static void CL_CALLBACK reenter(cl_event ev, cl_int status, void *user) {
    (void)status;
    (void)user;
    reentered_status = status_of(ev);
    clReleaseEvent(ev);
    atomic_fetch_add(&reentered, 1);
}

/* A callback of an event the application released before it completed. */
static atomic_int released_fired;
static cl_int released_status = 99;
static void CL_CALLBACK after_release(cl_event ev, cl_int status, void *user) {
    (void)ev;
    (void)user;
    released_status = status;
    atomic_fetch_add(&released_fired, 1);
}

static char notified[1024];
static atomic_int notifications;
static void CL_CALLBACK notify(const char *errinfo, const void *info, size_t cb, void *user) {
    (void)info;
    (void)cb;
    (void)user;
    strncpy(notified, errinfo, sizeof notified - 1);
    atomic_fetch_add(&notifications, 1);
}

static const char *source =
    "kernel void add(global int* a, int v) { a[get_global_id(0)] += v; }\n"
    "kernel void mul(global int* a, int v) { a[get_global_id(0)] *= v; }\n"
    "kernel void spin(global volatile int* a) { while (a[get_global_id(0)] == 0) { } }\n"
    "kernel void count(global volatile int* a, int n) { while (a[get_global_id(0)] < n) a[get_global_id(0)]++; }\n"
    "kernel void wild(global int* a, ulong nowhere) {\n"
    "    ((global int*)nowhere)[get_global_id(0)] = a[0];\n"
    "}\n";

#define N 64

static cl_int run(cl_command_queue q, cl_kernel k, cl_mem buf, int v, cl_uint n, const cl_event *wait,
                  cl_event *ev) {
    size_t global = N;
    clSetKernelArg(k, 0, sizeof buf, &buf);
    clSetKernelArg(k, 1, sizeof v, &v);
    return clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, n, wait, ev);
}

/* One of several threads enqueuing on a shared queue and on their own. */
struct worker {
    cl_context ctx;
    cl_device_id device;
    cl_program prog;
    cl_command_queue shared;
    cl_mem shared_buf;
    int ok;
};

static void *enqueue_from_thread(void *arg) {
    struct worker *w = arg;
    cl_int err;
    /* Kernel objects are not shared between threads setting arguments (the spec's rule). */
    cl_kernel k = clCreateKernel(w->prog, "add", &err);
    cl_command_queue own = clCreateCommandQueueWithProperties(w->ctx, w->device, NULL, &err);
    int zero[N] = {0}, got[N], one = 1;
    cl_mem mine = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &err);
    size_t global = N;
    w->ok = err == CL_SUCCESS;
    clSetKernelArg(k, 1, sizeof one, &one);
    for (int i = 0; i < 10; i++) {
        clSetKernelArg(k, 0, sizeof w->shared_buf, &w->shared_buf);
        w->ok &= clEnqueueNDRangeKernel(w->shared, k, 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS;
        clSetKernelArg(k, 0, sizeof mine, &mine);
        w->ok &= clEnqueueNDRangeKernel(own, k, 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS;
    }
    w->ok &= clEnqueueReadBuffer(own, mine, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) == CL_SUCCESS;
    for (int i = 0; i < N; i++)
        w->ok &= got[i] == 10;
    clReleaseMemObject(mine);
    clReleaseCommandQueue(own);
    clReleaseKernel(k);
    return NULL;
}

static int all_equal(const int *a, int want) {
    for (int i = 0; i < N; i++)
        if (a[i] != want)
            return 0;
    return 1;
}

int main(void) {
    main_thread = pthread_self();
    cl_int err;
    cl_platform_id platform;
    cl_device_id device;
    clGetPlatformIDs(1, &platform, NULL);
    EXPECT("device", clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL), CL_SUCCESS);
    cl_context ctx = clCreateContext(NULL, 1, &device, notify, NULL, &err);
    EXPECT("context", err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(
        ctx, device, (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}, &err);
    EXPECT("queue", err, CL_SUCCESS);
    cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    EXPECT("second queue", err, CL_SUCCESS);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    EXPECT("build", clBuildProgram(prog, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel add = clCreateKernel(prog, "add", &err);
    cl_kernel mul = clCreateKernel(prog, "mul", &err);
    int zero[N] = {0}, got[N];
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &err);
    EXPECT("buffer", err, CL_SUCCESS);

    /* A user event: CL_SUBMITTED until set, no queue, command type CL_COMMAND_USER. */
    cl_event gate = clCreateUserEvent(ctx, &err);
    EXPECT("user event", err, CL_SUCCESS);
    EXPECT("user event starts CL_SUBMITTED", status_of(gate), CL_SUBMITTED);
    cl_command_type type = 0;
    clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    EXPECT("user event type", type, CL_COMMAND_USER);
    cl_command_queue none = (cl_command_queue)1;
    clGetEventInfo(gate, CL_EVENT_COMMAND_QUEUE, sizeof none, &none, NULL);
    EXPECT("user event has no queue", none == NULL, 1);
    cl_ulong t = 0;
    EXPECT("user event has no profiling",
           clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL),
           CL_PROFILING_INFO_NOT_AVAILABLE);
    EXPECT("status must be complete or negative", clSetUserEventStatus(gate, CL_RUNNING), CL_INVALID_VALUE);

    /* Gated in-order work: add 1 (waits for the gate), then mul 3 with no wait list (waits
     * for the add because the queue is in order), then a non-blocking read. Each enqueue
     * returns with its command still CL_QUEUED. */
    cl_event e_add, e_mul, e_read;
    EXPECT("gated add", run(q, add, buf, 1, 1, &gate, &e_add), CL_SUCCESS);
    EXPECT("mul", run(q, mul, buf, 3, 0, NULL, &e_mul), CL_SUCCESS);
    memset(got, 0xff, sizeof got);
    EXPECT("non-blocking read", clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof got, got, 0, NULL, &e_read),
           CL_SUCCESS);
    sleep_ms(50);
    EXPECT("gated add queued", status_of(e_add), CL_QUEUED);
    EXPECT("mul queued behind it", status_of(e_mul), CL_QUEUED);
    EXPECT("read queued behind it", status_of(e_read), CL_QUEUED);
    EXPECT("read has not written", got[0], -1);
    cl_uint refs = 0;
    clGetEventInfo(e_add, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    EXPECT("event reference count", refs, 1);

    /* Callbacks for each status, on a runtime thread. */
    EXPECT("callback COMPLETE", clSetEventCallback(e_add, CL_COMPLETE, record, NULL), CL_SUCCESS);
    EXPECT("callback RUNNING", clSetEventCallback(e_add, CL_RUNNING, record, NULL), CL_SUCCESS);
    EXPECT("callback SUBMITTED", clSetEventCallback(e_add, CL_SUBMITTED, record, NULL), CL_SUCCESS);
    EXPECT("callback QUEUED refused", clSetEventCallback(e_add, CL_QUEUED, record, NULL), CL_INVALID_VALUE);
    EXPECT("callback NULL refused", clSetEventCallback(e_add, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    clRetainEvent(e_mul);
    EXPECT("re-entering callback", clSetEventCallback(e_mul, CL_COMPLETE, reenter, NULL), CL_SUCCESS);
    EXPECT("no callback before the gate", atomic_load(&seen), 0);

    /* A command whose event the application releases while it is pending. */
    cl_event e_released;
    cl_mem side = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof zero, NULL, &err);
    EXPECT("released add", run(q2, add, side, 0, 1, &gate, &e_released), CL_SUCCESS);
    clReleaseMemObject(side);
    clSetEventCallback(e_released, CL_COMPLETE, after_release, NULL);
    EXPECT("release pending event", clReleaseEvent(e_released), CL_SUCCESS);

    EXPECT("open the gate", clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    EXPECT("set twice", clSetUserEventStatus(gate, CL_COMPLETE), CL_INVALID_OPERATION);
    EXPECT("wait", clWaitForEvents(1, &e_read), CL_SUCCESS);
    EXPECT("add complete", status_of(e_add), CL_COMPLETE);
    EXPECT("mul complete", status_of(e_mul), CL_COMPLETE);
    EXPECT("in order: (0 + 1) * 3", all_equal(got, 3), 1);
    EXPECT("three callbacks", await_count(&seen, 3), 3);
    EXPECT("SUBMITTED first", order[0], CL_SUBMITTED);
    EXPECT("RUNNING second", order[1], CL_RUNNING);
    EXPECT("COMPLETE last", order[2], CL_COMPLETE);
    EXPECT("callbacks on a runtime thread", atomic_load(&on_main), 0);
    EXPECT("re-entering callback ran", await_count(&reentered, 1), 1);
    EXPECT("it saw its event complete", reentered_status, CL_COMPLETE);
    EXPECT("released event's callback ran", await_count(&released_fired, 1), 1);
    EXPECT("with CL_COMPLETE", released_status, CL_COMPLETE);
    EXPECT("callback on a complete event", clSetEventCallback(e_add, CL_COMPLETE, record, NULL), CL_SUCCESS);
    EXPECT("runs at once", await_count(&seen, 4), 4);

    /* Profiling: queued <= submit <= start <= end <= complete, and the in-order queue's
     * commands do not overlap. */
    cl_ulong p[3][5];
    cl_event chain[3] = {e_add, e_mul, e_read};
    int ordered = 1;
    for (int i = 0; i < 3; i++) {
        const cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                            CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                            CL_PROFILING_COMMAND_COMPLETE};
        for (int j = 0; j < 5; j++) {
            EXPECT("profiling info",
                   clGetEventProfilingInfo(chain[i], names[j], sizeof p[i][j], &p[i][j], NULL), CL_SUCCESS);
            if (j > 0 && p[i][j] < p[i][j - 1])
                ordered = 0;
        }
        if (i > 0 && p[i][2] < p[i - 1][3])
            ordered = 0;
    }
    EXPECT("profiling times ordered", ordered, 1);
    /* Kernels' START/END come from the GPU's timestamp counter: the resolution is its tick. */
    size_t resolution = 0;
    clGetDeviceInfo(device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof resolution, &resolution, NULL);
    const char *want_res = getenv("EXPECT_TIMER_RESOLUTION_NS");
    EXPECT("timer resolution is the GPU tick", resolution, want_res ? atol(want_res) : -1);
    EXPECT("start after the gate opened: not at enqueue", p[0][2] > p[0][0], 1);

    /* Device and host timers (OpenCL 3.0, 5.x clGetDeviceAndHostTimer): the platform reports a
     * host timer resolution, the pair is read together, and a kernel's profiling START/END (the
     * device timer) fall between device timestamps read before and after it. */
    cl_ulong host_res = 0;
    EXPECT("host timer resolution",
           clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof host_res, &host_res, NULL),
           CL_SUCCESS);
    EXPECT("host timer resolution is set", host_res > 0 && host_res <= 1000, 1);
    cl_ulong t_d0 = 0, t_h0 = 0, t_d1 = 0, t_h1 = 0, hmid = 0, h_before0 = 0, h_before1 = 0, h_after1 = 0;
    EXPECT("host timer before", clGetHostTimer(device, &h_before0), CL_SUCCESS);
    EXPECT("device and host timer", clGetDeviceAndHostTimer(device, &t_d0, &t_h0), CL_SUCCESS);
    EXPECT("host timer", clGetHostTimer(device, &hmid), CL_SUCCESS);
    cl_event timed;
    EXPECT("a timed kernel", run(q, add, buf, 0, 0, NULL, &timed), CL_SUCCESS);
    EXPECT("it completes", clWaitForEvents(1, &timed), CL_SUCCESS);
    sleep_ms(20);
    clGetHostTimer(device, &h_before1);
    EXPECT("device and host timer after", clGetDeviceAndHostTimer(device, &t_d1, &t_h1), CL_SUCCESS);
    clGetHostTimer(device, &h_after1);
    cl_ulong ks = 0, ke = 0;
    clGetEventProfilingInfo(timed, CL_PROFILING_COMMAND_START, sizeof ks, &ks, NULL);
    clGetEventProfilingInfo(timed, CL_PROFILING_COMMAND_END, sizeof ke, &ke, NULL);
    EXPECT("host timer moves forward",
           h_before0 <= t_h0 && t_h0 <= hmid && hmid <= h_before1 && h_before1 <= t_h1 && t_h1 <= h_after1, 1);
    EXPECT("kernel START/END between the device timestamps", t_d0 <= ks && ks <= ke && ke <= t_d1, 1);
    /* Each device timestamp was read between the host reads around its call (hmid is the one
     * after the first), so however long the machine's load stalls a call, the device interval
     * lies between the inner and the outer host interval: two ticks and 0.1 % either way. */
    long long dd = (long long)(t_d1 - t_d0);
    long long inner = (long long)(h_before1 - hmid), outer = (long long)(h_after1 - h_before0);
    long long slack = 2 * (long long)resolution + outer / 1000;
    EXPECT("device and host timers advance together", dd >= inner - slack && dd <= outer + slack, 1);
    if (!(dd >= inner - slack && dd <= outer + slack))
        printf("device %lld ns, host between %lld and %lld ns\n", dd, inner, outer);
    EXPECT("device timer needs both pointers", clGetDeviceAndHostTimer(device, &t_d0, NULL), CL_INVALID_VALUE);
    EXPECT("host timer needs its pointer", clGetHostTimer(device, NULL), CL_INVALID_VALUE);
    EXPECT("device timer of no device", clGetDeviceAndHostTimer(NULL, &t_d0, &t_h0), CL_INVALID_DEVICE);
    clReleaseEvent(timed);
    clReleaseEvent(e_add);
    clReleaseEvent(e_mul);
    clReleaseEvent(e_read);
    clReleaseEvent(gate);

    /* Wait lists across queues: q2 adds 10 after q's gated add 5 completes. */
    cl_event gate2 = clCreateUserEvent(ctx, &err);
    cl_event e_first, e_second;
    clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
    EXPECT("add on q", run(q, add, buf, 5, 1, &gate2, &e_first), CL_SUCCESS);
    EXPECT("mul on q2 after q's add", run(q2, mul, buf, 10, 1, &e_first, &e_second), CL_SUCCESS);
    sleep_ms(20);
    EXPECT("cross-queue dependant queued", status_of(e_second), CL_QUEUED);
    clSetUserEventStatus(gate2, CL_COMPLETE);
    EXPECT("clFinish q2", clFinish(q2), CL_SUCCESS);
    EXPECT("dependant complete after finish", status_of(e_second), CL_COMPLETE);
    EXPECT("blocking read", clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("(0 + 5) * 10", all_equal(got, 50), 1);
    clReleaseEvent(e_first);
    clReleaseEvent(e_second);
    clReleaseEvent(gate2);

    /* A kernel waiting for a running kernel of another queue is handed to the GPU at once: the
     * GPU, not the host, waits (it is submitted while the other still runs), and runs after. */
    cl_kernel count = clCreateKernel(prog, "count", &err);
    cl_event slow, next;
    /* "Still running" depends on how fast the simulator is: the count doubles until the slow
     * kernel is seen running when its dependant reached CL_SUBMITTED (seen by a callback on
     * that status, so the machine's load cannot make the check early or late), and every round
     * checks that the dependant ran after it. */
    int n = 5000;
    cl_int s_next = CL_COMPLETE, s_slow = CL_COMPLETE;
    for (int round = 0; round < 10; round++, n *= 2) {
        clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
        EXPECT("slow kernel", run(q, count, buf, n, 0, NULL, &slow), CL_SUCCESS);
        EXPECT("its dependant on q2", run(q2, add, buf, 1, 1, &slow, &next), CL_SUCCESS);
        atomic_store(&submitted_seen, 0);
        slow_when_submitted = CL_COMPLETE;
        EXPECT("callback on the dependant's submission",
               clSetEventCallback(next, CL_SUBMITTED, on_submitted, slow), CL_SUCCESS);
        EXPECT("the callback ran", await_count(&submitted_seen, 1), 1);
        s_slow = slow_when_submitted;
        s_next = next_when_submitted;
        EXPECT("dependant completes", clWaitForEvents(1, &next), CL_SUCCESS);
        clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        EXPECT("it ran after: n + 1", all_equal(got, n + 1), 1);
        if (!all_equal(got, n + 1))
            printf("got %d %d %d, n %d, slow %d\n", got[0], got[1], got[63], n, status_of(slow));
        if (s_slow > CL_COMPLETE || round == 9)
            break;
        clReleaseEvent(slow);
        clReleaseEvent(next);
    }
    EXPECT("slow kernel still running when the dependant was submitted", s_slow > CL_COMPLETE, 1);
    EXPECT("dependant handed to the GPU before it ran", s_next >= CL_RUNNING && s_next <= CL_SUBMITTED, 1);
    clReleaseEvent(slow);
    clReleaseEvent(next);
    clReleaseKernel(count);

    /* An event of another context is refused in a wait list. */
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    EXPECT("foreign wait list", run(q, add, buf, 1, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    cl_event mine = clCreateUserEvent(ctx, &err);
    EXPECT("clWaitForEvents across contexts", clWaitForEvents(2, (cl_event[]){foreign, mine}), CL_INVALID_CONTEXT);
    clSetUserEventStatus(mine, CL_COMPLETE);
    clReleaseEvent(mine);
    clSetUserEventStatus(foreign, CL_COMPLETE);
    clReleaseEvent(foreign);
    clReleaseContext(other);
    EXPECT("bad wait list", run(q, add, buf, 1, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);

    /* A failed user event fails its dependants, and theirs, without running them. */
    cl_event bad = clCreateUserEvent(ctx, &err);
    cl_event d1, d2, m1;
    clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
    EXPECT("dependant of a user event", run(q, add, buf, 7, 1, &bad, &d1), CL_SUCCESS);
    EXPECT("its dependant on q2", run(q2, add, buf, 9, 1, &d1, &d2), CL_SUCCESS);
    EXPECT("marker on the user event", clEnqueueMarkerWithWaitList(q2, 1, &bad, &m1), CL_SUCCESS);
    clSetEventCallback(d1, CL_COMPLETE, record, NULL);
    EXPECT("fail the user event", clSetUserEventStatus(bad, -1234), CL_SUCCESS);
    EXPECT("wait reports the failure", clWaitForEvents(2, (cl_event[]){d2, m1}),
           CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("user event status", status_of(bad), -1234);
    EXPECT("dependant failed", status_of(d1), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("its dependant failed", status_of(d2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("marker failed", status_of(m1), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("callback got the error", await_count(&seen, 5), 5);
    EXPECT("callback status", order[4], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("blocking read on a failed event",
           clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 1, &d1, NULL),
           CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("queue still works", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
           CL_SUCCESS);
    EXPECT("nothing ran", all_equal(got, 0), 1);
    cl_ulong tq = 0;
    EXPECT("no profiling for a failed command",
           clGetEventProfilingInfo(d1, CL_PROFILING_COMMAND_END, sizeof tq, &tq, NULL),
           CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(d1);
    clReleaseEvent(d2);
    clReleaseEvent(m1);
    clReleaseEvent(bad);

    /* Markers and barriers, both API generations. */
    cl_event gate3 = clCreateUserEvent(ctx, &err);
    cl_event mk, br, mk11, after;
    EXPECT("marker with wait list", clEnqueueMarkerWithWaitList(q, 1, &gate3, &mk), CL_SUCCESS);
    EXPECT("barrier", clEnqueueBarrierWithWaitList(q, 0, NULL, &br), CL_SUCCESS);
    EXPECT("1.1 marker", clEnqueueMarker(q, &mk11), CL_SUCCESS);
    EXPECT("1.1 marker needs an event", clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
    EXPECT("1.1 barrier", clEnqueueBarrier(q), CL_SUCCESS);
    EXPECT("1.1 wait for events", clEnqueueWaitForEvents(q, 1, &gate3), CL_SUCCESS);
    EXPECT("1.1 wait for no events", clEnqueueWaitForEvents(q, 0, NULL), CL_INVALID_VALUE);
    EXPECT("add after them", run(q, add, buf, 2, 0, NULL, &after), CL_SUCCESS);
    sleep_ms(20);
    EXPECT("marker waits", status_of(mk), CL_QUEUED);
    EXPECT("barrier waits", status_of(br), CL_QUEUED);
    EXPECT("kernel behind the barrier waits", status_of(after), CL_QUEUED);
    clGetEventInfo(mk, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    EXPECT("marker type", type, CL_COMMAND_MARKER);
    clGetEventInfo(br, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    EXPECT("barrier type", type, CL_COMMAND_BARRIER);
    clSetUserEventStatus(gate3, CL_COMPLETE);
    EXPECT("finish", clFinish(q), CL_SUCCESS);
    EXPECT("marker complete", status_of(mk), CL_COMPLETE);
    EXPECT("1.1 marker complete", status_of(mk11), CL_COMPLETE);
    EXPECT("kernel complete", status_of(after), CL_COMPLETE);
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    EXPECT("kernel after the barrier ran", all_equal(got, 2), 1);
    clReleaseEvent(mk);
    clReleaseEvent(br);
    clReleaseEvent(mk11);
    clReleaseEvent(after);
    clReleaseEvent(gate3);

    /* Out-of-order queues are accepted, advertised, and honour wait lists. */
    cl_command_queue_properties host_props = 0;
    clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host_props, &host_props, NULL);
    EXPECT("out-of-order advertised", (host_props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0, 1);
    cl_command_queue ooo = clCreateCommandQueueWithProperties(
        ctx, device, (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
        &err);
    EXPECT("out-of-order queue", err, CL_SUCCESS);
    cl_event o1, o2;
    clEnqueueWriteBuffer(ooo, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
    EXPECT("ooo add", run(ooo, add, buf, 4, 0, NULL, &o1), CL_SUCCESS);
    EXPECT("ooo mul after it", run(ooo, mul, buf, 5, 1, &o1, &o2), CL_SUCCESS);
    EXPECT("ooo read", clEnqueueReadBuffer(ooo, buf, CL_TRUE, 0, sizeof got, got, 1, &o2, NULL), CL_SUCCESS);
    EXPECT("(0 + 4) * 5", all_equal(got, 20), 1);
    clReleaseEvent(o1);
    clReleaseEvent(o2);
    clReleaseCommandQueue(ooo);

    /* A store to an address no buffer backs, on q2. Under xe (EXPECT_PAGE_FAULTS=1) the GPU
     * faults: that kernel and its dependant fail, the context's callback hears of it, and q keeps
     * working meanwhile. Under i915 the PPGTT sends unbound addresses to its scratch page: the
     * kernel and its dependant complete and nobody is told (Linux gen8_init_scratch). */
    const char *faults_env = getenv("EXPECT_PAGE_FAULTS");
    int page_faults = faults_env != NULL && strcmp(faults_env, "1") == 0;
    cl_kernel wild = clCreateKernel(prog, "wild", &err);
    cl_ulong nowhere = 0x7f0000000000ull; /* no buffer is mapped up there */
    clSetKernelArg(wild, 0, sizeof buf, &buf);
    clSetKernelArg(wild, 1, sizeof nowhere, &nowhere);
    size_t global = 16;
    if (page_faults) {
        cl_event fault, dep;
        EXPECT("faulting kernel enqueued", clEnqueueNDRangeKernel(q2, wild, 1, NULL, &global, NULL, 0, NULL, &fault),
               CL_SUCCESS);
        EXPECT("dependant enqueued", run(q2, add, buf, 1, 1, &fault, &dep), CL_SUCCESS);
        clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
        EXPECT("other queue runs", run(q, add, buf, 6, 0, NULL, NULL), CL_SUCCESS);
        EXPECT("other queue reads", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
               CL_SUCCESS);
        EXPECT("wait on the fault", clWaitForEvents(1, &dep), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        EXPECT("faulted kernel's status is negative", status_of(fault) < 0, 1);
        EXPECT("its dependant", status_of(dep), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        EXPECT("dependant did not run: other queue's result stands", all_equal(got, 6), 1);
        EXPECT("notified", atomic_load(&notifications) >= 1, 1);
        EXPECT("report names the fault and the kernel",
               strstr(notified, "page fault") != NULL && strstr(notified, "wild") != NULL, 1);
        EXPECT("report gives the access", strstr(notified, "(write)") != NULL, 1);
        EXPECT("report gives the address", strstr(notified, "0x7f0000000") != NULL, 1);
        EXPECT("report gives the instruction offset", strstr(notified, "kernel offset 0x") != NULL, 1);
        EXPECT("faulted queue works again", run(q2, add, buf, 1, 0, NULL, NULL), CL_SUCCESS);
        EXPECT("finish after the fault", clFinish(q2), CL_SUCCESS);
        clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        EXPECT("6 + 1", all_equal(got, 7), 1);

        /* In order, the commands behind a failed one fail with it until the application is told
         * (here by the blocking read's error); then the queue works again. */
        cl_event behind;
        EXPECT("faulting kernel without an event", clEnqueueNDRangeKernel(q2, wild, 1, NULL, &global, NULL, 0, NULL, NULL),
               CL_SUCCESS);
        EXPECT("a kernel behind it", run(q2, add, buf, 100, 0, NULL, &behind), CL_SUCCESS);
        EXPECT("a blocking read behind it fails",
               clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
               CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        EXPECT("the kernel behind it shares the failure", status_of(behind), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        EXPECT("told: the queue works again", run(q2, add, buf, 2, 0, NULL, NULL), CL_SUCCESS);
        EXPECT("finish after it was told", clFinish(q2), CL_SUCCESS);
        EXPECT("read after it was told", clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
               CL_SUCCESS);
        EXPECT("7 + 2 (the kernel behind the fault did not run)", all_equal(got, 9), 1);
        clReleaseEvent(behind);
        /* clFinish reports a failure nobody was told of, once. */
        EXPECT("faulting kernel again", clEnqueueNDRangeKernel(q2, wild, 1, NULL, &global, NULL, 0, NULL, NULL),
               CL_SUCCESS);
        EXPECT("clFinish reports it", clFinish(q2), CL_OUT_OF_RESOURCES);
        EXPECT("then the queue works", run(q2, add, buf, 1, 0, NULL, NULL), CL_SUCCESS);
        EXPECT("and clFinish succeeds", clFinish(q2), CL_SUCCESS);
        clReleaseEvent(fault);
        clReleaseEvent(dep);
    } else {
        cl_event stray, after;
        atomic_store(&notifications, 0);
        clEnqueueWriteBuffer(q2, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
        EXPECT("wild kernel enqueued", clEnqueueNDRangeKernel(q2, wild, 1, NULL, &global, NULL, 0, NULL, &stray),
               CL_SUCCESS);
        EXPECT("its dependant enqueued", run(q2, add, buf, 5, 1, &stray, &after), CL_SUCCESS);
        EXPECT("wait on the dependant", clWaitForEvents(1, &after), CL_SUCCESS);
        EXPECT("wild store lands on the scratch page", status_of(stray), CL_COMPLETE);
        EXPECT("dependant completes", status_of(after), CL_COMPLETE);
        EXPECT("dependant's read", clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
               CL_SUCCESS);
        EXPECT("0 + 5", all_equal(got, 5), 1);
        EXPECT("nobody is told", atomic_load(&notifications), 0);
        clReleaseEvent(stray);
        clReleaseEvent(after);
    }
    clReleaseKernel(wild);

    /* A GPU hang on q2 (a kernel spinning on memory nobody writes) fails that kernel and its
     * dependant, reaches the context's callback; q works meanwhile and q2 afterwards. */
    cl_kernel spin = clCreateKernel(prog, "spin", &err);
    cl_mem flags = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &err);
    clSetKernelArg(spin, 0, sizeof flags, &flags);
    cl_event hang, after_hang;
    atomic_store(&notifications, 0);
    global = 8;
    EXPECT("hanging kernel enqueued", clEnqueueNDRangeKernel(q2, spin, 1, NULL, &global, NULL, 0, NULL, &hang),
           CL_SUCCESS);
    EXPECT("its dependant", run(q2, add, buf, 1, 1, &hang, &after_hang), CL_SUCCESS);
    clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
    EXPECT("q runs beside the hang", run(q, add, buf, 3, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("q reads", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL), CL_SUCCESS);
    EXPECT("q's result", all_equal(got, 3), 1);
    EXPECT("wait on the hang", clWaitForEvents(1, &after_hang), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("hung kernel's status is negative", status_of(hang) < 0, 1);
    EXPECT("hang's dependant", status_of(after_hang), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT("hang notified", atomic_load(&notifications) >= 1, 1);
    EXPECT("report names the hang and the kernel", strstr(notified, "GPU hang") != NULL && strstr(notified, "spin") != NULL,
           1);
    EXPECT("report gives the instruction offset", strstr(notified, "kernel offset 0x") != NULL, 1);
    EXPECT("q2 works after the hang", run(q2, add, buf, 4, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    EXPECT("3 + 4", all_equal(got, 7), 1);
    clReleaseEvent(hang);
    clReleaseEvent(after_hang);
    clReleaseKernel(spin);
    clReleaseMemObject(flags);

    /* Four threads enqueue at once on q (in order: every add lands) and on queues of their own. */
    clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
    struct worker workers[4];
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        workers[i] = (struct worker){ctx, device, prog, q, buf, 0};
        pthread_create(&threads[i], NULL, enqueue_from_thread, &workers[i]);
    }
    int threads_ok = 1;
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        threads_ok &= workers[i].ok;
    }
    EXPECT("each thread's own queue", threads_ok, 1);
    EXPECT("finish the shared queue", clFinish(q), CL_SUCCESS);
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    EXPECT("40 adds on the shared queue", all_equal(got, 40), 1);

    /* Release order: the queue and buffer go while a command on them is pending; it still
     * runs and completes. */
    cl_event gate4 = clCreateUserEvent(ctx, &err);
    cl_command_queue q3 = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_mem tmp = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &err);
    cl_event last;
    EXPECT("pending on a released queue", run(q3, add, tmp, 8, 1, &gate4, &last), CL_SUCCESS);
    clReleaseMemObject(tmp);
    clReleaseCommandQueue(q3);
    clSetUserEventStatus(gate4, CL_COMPLETE);
    EXPECT("it completes", clWaitForEvents(1, &last), CL_SUCCESS);
    EXPECT("complete", status_of(last), CL_COMPLETE);
    clReleaseEvent(last);
    clReleaseEvent(gate4);

    clReleaseKernel(add);
    clReleaseKernel(mul);
    clReleaseProgram(prog);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(q2);
    clReleaseContext(ctx);
    if (failures)
        printf("fault report: %s\n", notified);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
