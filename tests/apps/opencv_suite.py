#!/usr/bin/python3
"""OpenCV's OpenCL paths (Debian's python3-opencv) over this project's ICD, against OpenCV's CPU paths.

Run with /usr/bin/python3, OCL_ICD_VENDORS naming an .icd file that names the ICD, and
INTEL_GPU_DEVICES naming one device. Each case runs an OpenCV function on a cv2.UMat (OpenCV's
OpenCL path: its own kernels, Intel-specific ones where `Device.isIntel()`) and on a numpy array
(its CPU path, the reference), and compares them with the tolerance OpenCV's own OpenCL tests use
for that function. A case passes only if OpenCL kernels actually ran for it: OpenCV falls back to
the CPU silently when a kernel fails to build or run, so the suite sets OPENCV_OPENCL_RAISE_ERROR
and counts clEnqueueNDRangeKernel calls in the ICD's call trace (INTEL_GPU_OPENCL_TRACE, a file).

The DNN cases run small Darknet networks (written here: cfg text and a weights file of seeded
random values) on the OpenCV DNN backend with the OpenCL and OpenCL-FP16 targets, whose
convolutions on an Intel device are ocl4dnn's kernels built on cl_intel_subgroups block reads.

CLI: opencv_suite.py [--filter REGEX]. Prints `PASS|FAIL name detail` per case and
`N passed, N failed`; exits 1 when any case failed.
"""
import argparse, atexit, os, re, shutil, struct, sys, tempfile, time, traceback

scratch = tempfile.mkdtemp(prefix="opencv-suite-")
atexit.register(shutil.rmtree, scratch, True)
TRACE = os.environ.get("INTEL_GPU_OPENCL_TRACE", "")
if not TRACE or TRACE in ("0", "1", "calls"):
    TRACE = os.path.join(scratch, "trace.log")
    os.environ["INTEL_GPU_OPENCL_TRACE"] = TRACE
os.environ["OPENCV_OPENCL_RAISE_ERROR"] = "1"
# OpenCV picks its OpenCL device by this variable; empty means the first GPU.
os.environ.setdefault("OPENCV_OPENCL_DEVICE", ":GPU:0")

import numpy as np  # noqa: E402
import cv2  # noqa: E402


class NativeStderr:
    """OpenCV logs to the process's stderr (fd 2): kept in a file so each case can read what it
    logged (ocl4dnn reports a kernel that failed its own check of the results there before
    falling back to another kernel), and copied to the real stderr as it is read."""

    def __init__(self, directory):
        self.real = os.dup(2)
        self.log = open(os.path.join(directory, "stderr.log"), "w+b")
        os.dup2(self.log.fileno(), 2)
        self.at = 0

    def new(self):
        self.log.flush()
        self.log.seek(self.at)
        text = self.log.read()
        self.at += len(text)
        os.write(self.real, text)
        return text.decode(errors="replace")


def launches():
    """clEnqueueNDRangeKernel calls in the trace so far."""
    try:
        with open(TRACE) as f:
            return sum(1 for l in f if "clEnqueueNDRangeKernel{" in l and "result=" in l)
    except FileNotFoundError:
        return 0


rs = np.random.RandomState(7)
IMG = rs.randint(0, 256, (240, 320, 3)).astype(np.uint8)
GRAY = cv2.cvtColor(IMG, cv2.COLOR_BGR2GRAY)
F32 = rs.rand(240, 320).astype(np.float32)


def near(tol):
    """Every element within tol (OpenCV's ocl tests' `Near`)."""
    def check(g, c):
        d = np.abs(g.astype(np.float64) - c.astype(np.float64))
        return None if d.max(initial=0) <= tol else "max |diff| %g > %g" % (d.max(), tol)
    return check


def mostly_near(tol, fraction):
    """At most `fraction` of the elements differ by more than tol. For warps: OpenCV's CPU path
    maps coordinates through fixed-point tables (INTER_BITS = 5), its OpenCL kernel in float, so
    a few pixels where the interpolation weights round differently differ by more (PoCL's
    OpenCL gives the same differences)."""
    def check(g, c):
        d = np.abs(g.astype(np.float64) - c.astype(np.float64))
        bad = float((d > tol).mean())
        return None if bad <= fraction else "%.3g of elements differ by more than %g (allowed %g)" % (bad, tol, fraction)
    return check


def relative(tol):
    """|g - c| <= tol * max(1, |c|) everywhere (OpenCV's `EXPECT_MAT_NEAR_RELATIVE` kind)."""
    def check(g, c):
        g, c = np.asarray(g, np.float64), np.asarray(c, np.float64)
        d = np.abs(g - c) / np.maximum(1.0, np.abs(c))
        return None if d.max(initial=0) <= tol else "max relative diff %g > %g" % (d.max(), tol)
    return check


def exact(g, c):
    g, c = np.asarray(g), np.asarray(c)
    if g.shape != c.shape:
        return "shape %s, want %s" % (g.shape, c.shape)
    n = int(np.count_nonzero(g != c))
    return None if n == 0 else "%d of %d elements differ" % (n, c.size)


def on(f, *arrays):
    """f on UMats (OpenCL) and on arrays (CPU): (gpu result as array, cpu result)."""
    g = f(*[cv2.UMat(a) for a in arrays])
    g = g.get() if isinstance(g, cv2.UMat) else g
    return g, f(*arrays)


M = cv2.getRotationMatrix2D((160, 120), 17.0, 0.9)
A = (rs.rand(192, 160).astype(np.float32) - 0.5)
B = (rs.rand(160, 224).astype(np.float32) - 0.5)
C = (rs.rand(192, 224).astype(np.float32) - 0.5)

CASES = [
    ("imgproc/GaussianBlur_5x5", lambda: on(lambda x: cv2.GaussianBlur(x, (5, 5), 1.5), IMG), near(1)),
    ("imgproc/blur_3x3", lambda: on(lambda x: cv2.blur(x, (3, 3)), IMG), near(1)),
    ("imgproc/boxFilter_f32_7x7", lambda: on(lambda x: cv2.boxFilter(x, -1, (7, 7)), F32), relative(1e-5)),
    ("imgproc/medianBlur_5", lambda: on(lambda x: cv2.medianBlur(x, 5), GRAY), exact),
    ("imgproc/resize_linear_down", lambda: on(lambda x: cv2.resize(x, (160, 120), interpolation=cv2.INTER_LINEAR), IMG), near(1)),
    ("imgproc/resize_linear_up", lambda: on(lambda x: cv2.resize(x, (480, 360), interpolation=cv2.INTER_LINEAR), IMG), near(1)),
    ("imgproc/resize_area_down", lambda: on(lambda x: cv2.resize(x, (80, 60), interpolation=cv2.INTER_AREA), IMG), near(1)),
    ("imgproc/cvtColor_BGR2GRAY", lambda: on(lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2GRAY), IMG), near(1)),
    ("imgproc/cvtColor_BGR2YCrCb", lambda: on(lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2YCrCb), IMG), near(1)),
    ("imgproc/cvtColor_BGR2HSV_FULL", lambda: on(lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2HSV_FULL), IMG), near(1)),
    ("imgproc/threshold_binary", lambda: on(lambda x: cv2.threshold(x, 100, 255, cv2.THRESH_BINARY)[1], GRAY), exact),
    ("imgproc/Sobel_f32", lambda: on(lambda x: cv2.Sobel(x, cv2.CV_32F, 1, 0, ksize=3), GRAY), relative(1e-5)),
    ("imgproc/filter2D_f32", lambda: on(lambda x: cv2.filter2D(x, -1, np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)), F32), relative(1e-5)),
    ("imgproc/erode_3x3", lambda: on(lambda x: cv2.erode(x, np.ones((3, 3), np.uint8)), IMG), exact),
    ("imgproc/dilate_5x5", lambda: on(lambda x: cv2.dilate(x, np.ones((5, 5), np.uint8)), GRAY), exact),
    ("imgproc/warpAffine_linear", lambda: on(lambda x: cv2.warpAffine(x, M, (320, 240)), IMG), mostly_near(1, 1e-3)),
    ("imgproc/integral", lambda: on(lambda x: cv2.integral(x), GRAY), exact),
    ("imgproc/equalizeHist", lambda: on(lambda x: cv2.equalizeHist(x), GRAY), near(1)),
    ("imgproc/matchTemplate_CCORR_NORMED", lambda: on(lambda x, t: cv2.matchTemplate(x, t, cv2.TM_CCORR_NORMED), F32, F32[40:56, 60:76].copy()), relative(1e-4)),
    ("core/add_saturate", lambda: on(lambda x, y: cv2.add(x, y), IMG, IMG[::-1].copy()), exact),
    ("core/absdiff", lambda: on(lambda x, y: cv2.absdiff(x, y), IMG, IMG[:, ::-1].copy()), exact),
    ("core/addWeighted", lambda: on(lambda x, y: cv2.addWeighted(x, 0.3, y, 0.7, 2.0), IMG, IMG[::-1].copy()), near(1)),
    ("core/multiply_f32", lambda: on(lambda x, y: cv2.multiply(x, y, scale=1.5), F32, F32[::-1].copy()), relative(1e-6)),
    ("core/transpose", lambda: on(lambda x: cv2.transpose(x), F32), exact),
    ("core/flip_both", lambda: on(lambda x: cv2.flip(x, -1), IMG), exact),
    ("core/split_merge", lambda: on(lambda x: cv2.merge(cv2.split(x)[::-1]), IMG), exact),
    ("core/convertTo_f32", lambda: on(lambda x: cv2.normalize(x, None, 0, 1, cv2.NORM_MINMAX, cv2.CV_32F), GRAY), relative(1e-6)),
    ("core/countNonZero", lambda: on(lambda x: cv2.countNonZero(x), cv2.threshold(GRAY, 128, 255, cv2.THRESH_BINARY)[1]), exact),
    ("core/sum_f32", lambda: on(lambda x: cv2.sumElems(x)[0], F32), relative(1e-5)),
    ("core/norm_INF", lambda: on(lambda x: cv2.norm(x, cv2.NORM_INF), F32), exact),
    ("core/minMaxLoc", lambda: on(lambda x: cv2.minMaxLoc(x)[:2], F32), exact),
    ("core/gemm_f32", lambda: on(lambda a, b, c: cv2.gemm(a, b, 1.5, c, 0.5), A, B, C), relative(1e-4)),
    ("core/gemm_f32_transposed", lambda: on(lambda a, b, c: cv2.gemm(a, b, 1.0, c, 1.0, flags=cv2.GEMM_1_T), B, B[:, :192].copy(), np.zeros((224, 192), np.float32)), relative(1e-4)),
    ("core/dft_f32", lambda: on(lambda x: cv2.dft(x, flags=cv2.DFT_COMPLEX_OUTPUT), F32[:128, :128].copy()), relative(1e-3)),
]


def darknet(dirname, name, layers, size, channels=3):
    """A Darknet cfg and weights file for `layers`, random weights seeded by the name."""
    r = np.random.RandomState(sum(map(ord, name)))
    cfg = ["[net]", "width=%d" % size, "height=%d" % size, "channels=%d" % channels, ""]
    weights = [struct.pack("<iiiQ", 0, 2, 0, 0)]
    c = channels
    for layer in layers:
        kind = layer[0]
        if kind == "conv":
            _, n, k, stride, bn, act = layer
            cfg += ["[convolutional]", "batch_normalize=%d" % bn, "filters=%d" % n, "size=%d" % k,
                    "stride=%d" % stride, "pad=1", "activation=%s" % act, ""]
            weights.append((0.1 * r.randn(n)).astype(np.float32).tobytes())
            if bn:
                weights.append((1 + 0.1 * r.randn(n)).astype(np.float32).tobytes())
                weights.append((0.1 * r.randn(n)).astype(np.float32).tobytes())
                weights.append((1 + 0.1 * np.abs(r.randn(n))).astype(np.float32).tobytes())
            weights.append((r.randn(n * c * k * k) * np.sqrt(2.0 / (c * k * k))).astype(np.float32).tobytes())
            c = n
        elif kind == "maxpool":
            cfg += ["[maxpool]", "size=2", "stride=2", ""]
        elif kind == "shortcut":
            cfg += ["[shortcut]", "from=%d" % layer[1], "activation=linear", ""]
        elif kind == "avgpool":
            cfg += ["[avgpool]", ""]
        elif kind == "softmax":
            cfg += ["[softmax]", "groups=1", ""]
    cfgp, wp = os.path.join(dirname, name + ".cfg"), os.path.join(dirname, name + ".weights")
    with open(cfgp, "w") as f:
        f.write("\n".join(cfg))
    with open(wp, "wb") as f:
        f.write(b"".join(weights))
    return cfgp, wp


NETS = {
    # 3x3 and 1x1 convolutions with batch norm and leaky ReLU, max pooling.
    "dnn/darknet_tiny": ([("conv", 16, 3, 1, 1, "leaky"), ("maxpool",), ("conv", 32, 3, 1, 1, "leaky"),
                          ("maxpool",), ("conv", 64, 3, 1, 0, "leaky"), ("conv", 32, 1, 1, 1, "linear")], 64),
    # A residual block, a strided convolution, global average pooling and softmax.
    "dnn/darknet_residual": ([("conv", 32, 3, 1, 1, "leaky"), ("conv", 64, 3, 2, 1, "leaky"),
                              ("conv", 32, 1, 1, 1, "leaky"), ("conv", 64, 3, 1, 1, "leaky"),
                              ("shortcut", -3), ("conv", 10, 1, 1, 0, "linear"), ("avgpool",),
                              ("softmax",)], 48),
}


def dnn_case(name, layers, size, target, tol):
    def run():
        with tempfile.TemporaryDirectory() as d:
            cfg, weights = darknet(d, name.split("/")[1], layers, size)
            x = np.random.RandomState(3).rand(1, 3, size, size).astype(np.float32)

            def forward(t):
                net = cv2.dnn.readNetFromDarknet(cfg, weights)
                net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
                net.setPreferableTarget(t)
                net.setInput(x)
                return net.forward()
            return forward(target), forward(cv2.dnn.DNN_TARGET_CPU)

    def check(g, c):
        scale = max(float(np.abs(c).max()), 1e-3)
        d = float(np.abs(g - c).max(initial=0))
        return None if d <= tol * scale else "max |diff| %g > %g x max |ref| %g" % (d, tol, scale)
    return run, check


for net, (layers, size) in NETS.items():
    # OpenCV's DNN OpenCL tests: 1e-5-ish for f32 (here relative to the output's range, through
    # several layers), a few 1e-3 of the range for FP16.
    CASES.append((net + "_ocl", *dnn_case(net, layers, size, cv2.dnn.DNN_TARGET_OPENCL, 1e-4)))
    CASES.append((net + "_ocl_fp16", *dnn_case(net, layers, size, cv2.dnn.DNN_TARGET_OPENCL_FP16, 2e-2)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--filter", default="")
    args = ap.parse_args()
    if not cv2.ocl.haveOpenCL():
        print("FAIL setup OpenCV sees no OpenCL platform")
        return 1
    cv2.ocl.setUseOpenCL(True)
    dev = cv2.ocl.Device.getDefault()
    print("device: %s / %s, isIntel %s" % (dev.name(), dev.vendorName(), dev.isIntel()), flush=True)
    failed = passed = 0
    if not dev.isIntel():
        print("FAIL setup OpenCV does not take the device for Intel's: its Intel paths would not run")
        failed += 1
    rx = re.compile(args.filter) if args.filter else None
    err = NativeStderr(scratch)
    for name, run, check in CASES:
        if rx and not rx.search(name):
            continue
        before, t0 = launches(), time.time()
        try:
            g, c = run()
            why = check(g, c)
        except Exception as e:  # an OpenCV exception is a failure of the case, not of the suite
            why = "exception: %s" % str(e).strip().splitlines()[-1] if str(e).strip() else repr(e)
            traceback.print_exc(file=sys.stderr)
        ran = launches() - before
        logged = [l for l in err.new().splitlines() if "verification failed" in l or "verifyResult Kernel" in l]
        if why is None and logged:
            why = "ocl4dnn's check of its own kernels failed %d times (it fell back to others): %s" % (
                sum("verification failed" in l for l in logged), logged[0].split("verifyResult")[-1].strip())
        if why is None and ran == 0:
            why = "no OpenCL kernel ran (OpenCV took its CPU path)"
        if why is None:
            passed += 1
            print("PASS %-40s %d kernels, %.1f s" % (name, ran, time.time() - t0), flush=True)
        else:
            failed += 1
            print("FAIL %-40s %s" % (name, why), flush=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
