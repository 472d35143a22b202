#!/usr/bin/env python3
"""Inference time of whole networks on OpenVINO's GPU plugin over this project's ICD, beside
OpenVINO's CPU plugin on the same machine, and where the GPU's time goes.

Run with .venv-apps/bin/python and OCL_ICD_VENDORS naming an .icd file that names the ICD
(scripts/openvino-bench does both).

Networks (random weights, seeded; built with OpenVINO's opset API, so nothing is downloaded):
  resnet18      ResNet-18 (He et al. 2015, the torchvision layout): 7x7/2 stem conv, 3x3/2 max
                pool, four stages of two basic blocks (64, 128, 256, 512 channels), global
                average pool, 1000-way fully connected; 1.8 G multiply-adds at 224x224.
  squeezenet1_1 SqueezeNet 1.1 (Iandola et al. 2016): 3x3/2 stem conv, eight fire modules with
                max pools, 1x1 classifier conv, global average pool; 0.35 G multiply-adds.
  mobilenet_v2  MobileNetV2 (Sandler et al. 2018): inverted residual blocks (1x1 expand, 3x3
                depthwise, 1x1 project), width 1.0; 0.3 G multiply-adds.

For each network and GPU device: compile once on each plugin (the GPU at --precision, the CPU with
{"INFERENCE_PRECISION_HINT": "f32"}), --warmup inferences, then --runs timed inferences on each;
the GPU's output is checked against the CPU's (the suite's tolerance) so a fast wrong answer is
not a result. Then one more GPU inference with PERF_COUNT on gives the time per layer type and
per kernel (OpenVINO's profiling info, from the ICD's event profiling), the largest first.

CLI: --devices sim:tgllp --networks resnet18,squeezenet1_1 --size 224 --runs 3 --warmup 2
     --precision f32|f16 --json FILE
"""
import argparse, json, math, os, sys, time

import numpy as np


def _ops():
    import openvino as ov, openvino.opset13 as ops
    return ov, ops


class Weights:
    """He-initialised random constants from one seeded stream."""

    def __init__(self, seed):
        self.rs = np.random.RandomState(seed)

    def conv(self, cout, cin, k, groups=1):
        _, ops = _ops()
        fan = cin // groups * k * k
        shape = (cout, cin, k, k) if groups == 1 else (groups, cout // groups, cin // groups, k, k)
        return ops.constant((self.rs.randn(*shape) * math.sqrt(2.0 / fan)).astype(np.float32))

    def channel(self, c, scale, offset=0.0):
        _, ops = _ops()
        return ops.constant((offset + scale * self.rs.randn(1, c, 1, 1)).astype(np.float32))


def conv_bn(w, x, cin, cout, k, s, relu=True, groups=1, relu6=False):
    """Convolution (grouped when groups > 1), a folded batch norm (per-channel scale and shift),
    then ReLU or ReLU6 if asked."""
    _, ops = _ops()
    pad = [k // 2] * 2
    if groups == 1:
        y = ops.convolution(x, w.conv(cout, cin, k), [s, s], pad, pad, [1, 1])
    else:
        y = ops.group_convolution(x, w.conv(cout, cin, k, groups), [s, s], pad, pad, [1, 1])
    y = ops.add(ops.multiply(y, w.channel(cout, 0.1, 1.0)), w.channel(cout, 0.1))
    if relu6:
        return ops.clamp(y, 0.0, 6.0)
    return ops.relu(y) if relu else y


def head(w, y, cin, classes=1000):
    _, ops = _ops()
    y = ops.reduce_mean(y, ops.constant(np.array([2, 3], np.int64)), False)
    fc = ops.constant((w.rs.randn(cin, classes) / math.sqrt(cin)).astype(np.float32))
    y = ops.add(ops.matmul(y, fc, False, False),
                ops.constant((0.1 * w.rs.randn(classes)).astype(np.float32)))
    return ops.softmax(y, 1)


def resnet18(size, seed=1):
    ov, ops = _ops()
    w = Weights(seed)
    x = ops.parameter([1, 3, size, size], np.float32, name="image")
    y = conv_bn(w, x, 3, 64, 7, 2)
    y = ops.max_pool(y, [2, 2], [1, 1], [1, 1], [1, 1], [3, 3]).output(0)
    cin = 64
    for i, cout in enumerate([64, 128, 256, 512]):
        for b in range(2):
            s = 2 if (b == 0 and i > 0) else 1
            short = y if (s == 1 and cin == cout) else conv_bn(w, y, cin, cout, 1, s, relu=False)
            z = conv_bn(w, conv_bn(w, y, cin, cout, 3, s), cout, cout, 3, 1, relu=False)
            y = ops.relu(ops.add(z, short))
            cin = cout
    return ov.Model([head(w, y, cin)], [x], "resnet18")


def squeezenet1_1(size, seed=2):
    ov, ops = _ops()
    w = Weights(seed)

    def fire(y, cin, sq, ex):
        s = conv_bn(w, y, cin, sq, 1, 1)
        return ops.concat([conv_bn(w, s, sq, ex, 1, 1), conv_bn(w, s, sq, ex, 3, 1)], 1), 2 * ex

    def pool(y):
        return ops.max_pool(y, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3],
                            rounding_type="ceil").output(0)

    x = ops.parameter([1, 3, size, size], np.float32, name="image")
    y = pool(conv_bn(w, x, 3, 64, 3, 2))
    y, c = fire(y, 64, 16, 64)
    y, c = fire(y, c, 16, 64)
    y = pool(y)
    y, c = fire(y, c, 32, 128)
    y, c = fire(y, c, 32, 128)
    y = pool(y)
    for sq, ex in [(48, 192), (48, 192), (64, 256), (64, 256)]:
        y, c = fire(y, c, sq, ex)
    y = conv_bn(w, y, c, 1000, 1, 1)
    y = ops.softmax(ops.reduce_mean(y, ops.constant(np.array([2, 3], np.int64)), False), 1)
    return ov.Model([y], [x], "squeezenet1_1")


def mobilenet_v2(size, seed=3):
    ov, ops = _ops()
    w = Weights(seed)
    x = ops.parameter([1, 3, size, size], np.float32, name="image")
    y = conv_bn(w, x, 3, 32, 3, 2, relu6=True)
    cin = 32
    # (expansion t, output channels c, repeats n, first stride s): the paper's Table 2.
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                       (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            z = y if t == 1 else conv_bn(w, y, cin, hidden, 1, 1, relu6=True)
            z = conv_bn(w, z, hidden, hidden, 3, stride, groups=hidden, relu6=True)
            z = conv_bn(w, z, hidden, c, 1, 1, relu=False)
            y = ops.add(y, z) if (stride == 1 and cin == c) else z
            cin = c
    y = conv_bn(w, y, cin, 1280, 1, 1, relu6=True)
    return ov.Model([head(w, y, 1280)], [x], "mobilenet_v2")


NETWORKS = {"resnet18": resnet18, "squeezenet1_1": squeezenet1_1, "mobilenet_v2": mobilenet_v2}


def timed(req, inputs, runs, warmup):
    # Warm-up: first-run allocations and, on the simulator, kernels still being translated to
    # host code once they run hot (a run that translates is slower than the ones after it).
    for _ in range(warmup):
        req.infer(inputs)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        req.infer(inputs)
        times.append(time.perf_counter() - t)
    return times, [req.get_output_tensor(i).data.copy() for i in range(len(req.model_outputs))]


def where_time_goes(core, model, device, inputs, precision):
    """One profiled GPU inference: real time summed per layer type and per kernel."""
    compiled = core.compile_model(model, device,
                                  {"PERF_COUNT": True, "INFERENCE_PRECISION_HINT": precision})
    req = compiled.create_infer_request()
    req.infer(inputs)
    req.infer(inputs)
    by_type, by_kernel, total = {}, {}, 0.0
    for p in req.get_profiling_info():
        ms = p.real_time.total_seconds() * 1e3
        total += ms
        by_type[p.node_type] = by_type.get(p.node_type, 0.0) + ms
        by_kernel[p.exec_type] = by_kernel.get(p.exec_type, 0.0) + ms
    top = lambda d: sorted(d.items(), key=lambda kv: -kv[1])[:8]
    return total, top(by_type), top(by_kernel)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", default="sim:tgllp")
    ap.add_argument("--networks", default="resnet18,squeezenet1_1,mobilenet_v2")
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--precision", default="f32", choices=["f32", "f16"])
    ap.add_argument("--json")
    args = ap.parse_args()
    devices = [d for d in args.devices.split(",") if d]
    if len(devices) != 1:
        # INTEL_GPU_DEVICES is read when the ICD loads: one device per process.
        for d in devices:
            rc = os.spawnv(os.P_WAIT, sys.executable, [sys.executable] + [
                a if a != args.devices else d for a in sys.argv])
            if rc:
                sys.exit(rc)
        return
    os.environ["INTEL_GPU_DEVICES"] = devices[0]
    import openvino as ov
    core = ov.Core()
    if "GPU" not in core.available_devices:
        sys.exit("no GPU device: is OCL_ICD_VENDORS set to this project's ICD?")
    tol = {"f32": 1e-4, "f16": 1e-2}[args.precision]
    rows = []
    for name in [n for n in args.networks.split(",") if n]:
        model = NETWORKS[name](args.size)
        img = np.random.RandomState(7).randn(1, 3, args.size, args.size).astype(np.float32)
        cpu = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        t0 = time.perf_counter()
        gpu = core.compile_model(model, "GPU", {"INFERENCE_PRECISION_HINT": args.precision})
        compile_s = time.perf_counter() - t0
        cpu_t, cpu_out = timed(cpu.create_infer_request(), [img], max(args.runs, 5), 2)
        gpu_t, gpu_out = timed(gpu.create_infer_request(), [img], args.runs, args.warmup)
        m = max(float(np.abs(cpu_out[0]).max()), 1e-3)
        err = float(np.abs(gpu_out[0] - cpu_out[0]).max())
        ok = err <= tol * m * 8 + tol * float(np.abs(cpu_out[0]).max())
        total, types, kernels = where_time_goes(core, model, "GPU", [img], args.precision)
        row = {"network": name, "device": devices[0], "size": args.size,
               "precision": args.precision, "gpu_ms": [round(t * 1e3, 1) for t in gpu_t],
               "cpu_ms": [round(t * 1e3, 2) for t in cpu_t],
               "ratio": round(min(gpu_t) / min(cpu_t), 1), "gpu_compile_s": round(compile_s, 1),
               "max_abs_err": err, "matches_cpu": ok, "profiled_total_ms": round(total, 1),
               "by_layer_type_ms": [(k, round(v, 1)) for k, v in types],
               "by_kernel_ms": [(k, round(v, 1)) for k, v in kernels]}
        rows.append(row)
        print(f"{name} {devices[0]} {args.size}x{args.size} {args.precision}: GPU "
              f"{min(gpu_t) * 1e3:.0f} ms (runs {row['gpu_ms']}), CPU {min(cpu_t) * 1e3:.1f} ms, "
              f"ratio {row['ratio']}x; GPU compile {compile_s:.1f} s; "
              f"{'matches CPU' if ok else 'DIFFERS from CPU'} (max |err| {err:.2e})")
        print("  by layer type (ms):", ", ".join(f"{k} {v:.0f}" for k, v in types))
        print("  by kernel (ms):    ", ", ".join(f"{k} {v:.0f}" for k, v in kernels))
        sys.stdout.flush()
        if not ok:
            sys.exit(f"{name}: the GPU's output differs from the CPU's")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
