#!/usr/bin/env python3
"""OpenVINO's GPU plugin as a test suite over this project's OpenCL ICD.

Run with .venv-apps/bin/python (scripts/setup-apps) and OCL_ICD_VENDORS naming an .icd file that
names target/<profile>/libintel_gpu_opencl.so (scripts/openvino-suite does both).

Models:
  * synthetic ("ops/..."): built with OpenVINO's opset API — convolutions (plain, strided, grouped,
    depthwise, transposed = ConvolutionBackpropData), max/avg pooling, MatMul with transposes,
    softmax, element-wise ops with broadcasting, concat, transpose, MVN, reshape; batch 1 and > 1;
  * whole networks ("net/..."): a ResNet-like stack of residual blocks and a SqueezeNet-like stack
    of fire modules, random weights seeded;
  * ONNX ("onnx/<dir>/<name>"): every backend test model shipped in the onnx wheel under
    onnx/backend/test/data/{simple,pytorch-converted,pytorch-operator}, with test_data_set_0.
Each model runs on the GPU plugin at each inference precision and on the CPU plugin at f32
(always {"INFERENCE_PRECISION_HINT": "f32"}: its default may be bf16); the GPU is compared with the
CPU. ONNX models the CPU plugin cannot read, compile or run are skipped with the reason (their
reference data is not used: the CPU plugin is the reference). A GPU exception is a failure.

Tolerances (the kind OpenVINO's GPU tests use: an absolute threshold relative to the output's
magnitude plus a relative one), per element, with M = max |cpu output| (at least 1e-3) and K the
accumulation length (reduction size of the model's largest dot product; 64 when unknown):
  f32:  |gpu - cpu| <= 1e-4 * M * max(1, sqrt(K / 64)) + 1e-4 * |cpu|
  f16:  |gpu - cpu| <= 1e-2 * M * max(1, sqrt(K / 64)) + 1e-2 * |cpu|
  (f16 has an 11-bit mantissa: 2^-11 ~ 4.9e-4 per rounding, growing ~sqrt(K) along a sum and
  through several layers; 1 % of the output's range is the GPU tests' usual f16 threshold.)
  Integer / boolean outputs must match exactly.

The `ci` slice (scripts/test, opencl/tests/openvino.rs), for all four devices in a few minutes on
one core: one model of each kind of kernel the GPU plugin picks — a batch-2 conv 3x3, grouped conv,
depthwise conv, transposed conv, max pool, avg pool, MatMul with transposes, softmax, broadcast
element-wise, concat + transpose, MVN, the small ResNet-like net (residual adds, global pool,
fully connected) — and two ONNX models (pytorch-operator/test_operator_mm,
pytorch-converted/test_Softmax). About 50 s per device on one core. `all` is everything.

CLI: --devices sim:tgllp,neo:tgllp --precisions f32,f16 --filter REGEX --slice ci|all --json FILE
Prints one line per (model, device, precision) and `N passed, N failed, N skipped`.
Each device runs in its own subprocess (INTEL_GPU_DEVICES is read when the ICD is loaded).
A device `neo:<platform>` runs the same models through Intel's NEO on the simulated <platform>
(worker_env), the oracle for telling a bug of ours from one of OpenVINO or the compiler.
"""
import argparse, glob, json, math, os, re, shutil, subprocess, sys, tempfile, time, traceback

CI_SYNTH = {
    "ops/conv_grouped", "ops/conv_depthwise", "ops/conv_transposed",
    "ops/maxpool", "ops/avgpool", "ops/matmul_tt", "ops/softmax", "ops/eltwise_broadcast",
    "ops/concat_transpose", "ops/mvn", "ops/conv3x3_batch2", "ops/conv3x3_c64_28", "net/resnet_tiny",
}
CI_ONNX = {
    "onnx/pytorch-operator/test_operator_mm", "onnx/pytorch-converted/test_Softmax",
}
TOL = {"f32": 1e-4, "f16": 1e-2}


def synthetic_models():
    """[(name, build() -> (ov.Model, [inputs]), K)]"""
    import numpy as np, openvino as ov, openvino.opset13 as ops

    def rnd(seed, *shape):
        return np.random.RandomState(seed).randn(*shape).astype(np.float32)

    def unary(name, shape, f, K=1, seed=0):
        def build():
            x = ops.parameter(shape, np.float32, name="x")
            return ov.Model([f(x)], [x], name), [rnd(seed, *shape)]
        return (name, build, K)

    def conv(w, s=1, p=1, d=1):
        return lambda x: ops.convolution(x, ops.constant(w), [s, s], [p, p], [p, p], [d, d])

    def gconv(w, p=1):
        return lambda x: ops.group_convolution(x, ops.constant(w), [1, 1], [p, p], [p, p], [1, 1])

    m = []
    m.append(unary("ops/conv1x1", [1, 8, 16, 16], conv(rnd(1, 16, 8, 1, 1), p=0), K=8))
    m.append(unary("ops/conv3x3", [1, 16, 16, 16], conv(rnd(1, 16, 16, 3, 3)), K=144))
    m.append(unary("ops/conv3x3_c3", [1, 3, 20, 20], conv(rnd(2, 8, 3, 3, 3)), K=27))
    m.append(unary("ops/conv3x3_stride2", [1, 8, 17, 17], conv(rnd(3, 16, 8, 3, 3), s=2), K=72))
    m.append(unary("ops/conv3x3_dilated", [1, 8, 16, 16], conv(rnd(4, 8, 8, 3, 3), p=2, d=2), K=72))
    m.append(unary("ops/conv5x5_bias_relu", [1, 4, 16, 16],
                   lambda x: ops.relu(ops.add(conv(rnd(5, 8, 4, 5, 5), p=2)(x),
                                              ops.constant(rnd(6, 1, 8, 1, 1)))), K=100))
    m.append(unary("ops/conv3x3_batch2", [2, 8, 12, 12], conv(rnd(7, 16, 8, 3, 3)), K=72))
    # ResNet's 28x28 stage: on dg2 oneDNN's XMX convolution finds a pixel's row by dividing by
    # 28 with a signed-by-unsigned magic-number multiply (`mach`), which the narrower shapes
    # above never reach.
    m.append(unary("ops/conv3x3_c64_28", [1, 64, 28, 28], conv(rnd(40, 64, 64, 3, 3)), K=576))
    m.append(unary("ops/conv_grouped", [1, 16, 12, 12], gconv(rnd(8, 4, 4, 4, 3, 3)), K=36))
    m.append(unary("ops/conv_depthwise", [1, 16, 12, 12], gconv(rnd(9, 16, 1, 1, 3, 3)), K=9))
    m.append(unary("ops/conv_depthwise_batch3", [3, 8, 10, 10], gconv(rnd(10, 8, 1, 1, 3, 3)), K=9))
    m.append(unary("ops/conv_transposed", [1, 8, 8, 8],
                   lambda x: ops.convolution_backprop_data(x, ops.constant(rnd(11, 8, 4, 3, 3)),
                                                           [2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                                           dilations=[1, 1], output_padding=[1, 1]), K=72))
    m.append(unary("ops/conv_transposed_s1", [2, 4, 7, 7],
                   lambda x: ops.convolution_backprop_data(x, ops.constant(rnd(12, 4, 6, 3, 3)),
                                                           [1, 1], pads_begin=[0, 0], pads_end=[0, 0],
                                                           dilations=[1, 1]), K=36))
    m.append(unary("ops/maxpool", [1, 8, 16, 16],
                   lambda x: ops.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]).output(0)))
    m.append(unary("ops/maxpool3x3_s2_pad", [2, 4, 15, 15],
                   lambda x: ops.max_pool(x, [2, 2], [1, 1], [1, 1], [1, 1], [3, 3]).output(0)))
    m.append(unary("ops/avgpool", [1, 8, 16, 16],
                   lambda x: ops.avg_pool(x, [2, 2], [0, 0], [0, 0], [2, 2], True), K=4))
    m.append(unary("ops/avgpool3x3_pad_excl", [1, 4, 13, 13],
                   lambda x: ops.avg_pool(x, [1, 1], [1, 1], [1, 1], [3, 3], True), K=9))
    m.append(unary("ops/global_avgpool", [2, 16, 7, 7],
                   lambda x: ops.reduce_mean(x, ops.constant(np.array([2, 3], np.int64)), True), K=49))
    m.append(unary("ops/matmul", [4, 64],
                   lambda x: ops.matmul(x, ops.constant(rnd(13, 64, 32)), False, False), K=64))
    m.append(unary("ops/matmul_tt", [64, 8],
                   lambda x: ops.matmul(x, ops.constant(rnd(14, 24, 64)), True, True), K=64))
    m.append(unary("ops/matmul_tb", [5, 48],
                   lambda x: ops.matmul(x, ops.constant(rnd(15, 16, 48)), False, True), K=48))
    m.append(unary("ops/matmul_batched", [3, 6, 32],
                   lambda x: ops.matmul(x, ops.constant(rnd(16, 3, 32, 10)), False, False), K=32))

    def two_input_matmul():
        a = ops.parameter([2, 16, 8], np.float32, name="a")
        b = ops.parameter([2, 12, 16], np.float32, name="b")
        return ov.Model([ops.matmul(a, b, True, True)], [a, b], "mm2"), [rnd(17, 2, 16, 8), rnd(18, 2, 12, 16)]
    m.append(("ops/matmul_two_inputs_tt", two_input_matmul, 16))
    m.append(unary("ops/softmax", [4, 64], lambda x: ops.softmax(x, 1), K=64))
    m.append(unary("ops/softmax_axis1_4d", [2, 10, 4, 4], lambda x: ops.softmax(x, 1), K=10))
    m.append(unary("ops/eltwise_broadcast", [2, 8, 6, 6],
                   lambda x: ops.subtract(ops.multiply(ops.add(x, ops.constant(rnd(19, 1, 8, 1, 1))),
                                                       ops.constant(rnd(20, 6))),
                                          ops.constant(rnd(21, 2, 1, 6, 1)))))
    m.append(unary("ops/eltwise_unary_chain", [1, 4, 8, 8],
                   lambda x: ops.tanh(ops.sigmoid(ops.abs(ops.exp(ops.clamp(x, -3.0, 3.0)))))))
    m.append(unary("ops/eltwise_div_max_min_pow", [3, 17],
                   lambda x: ops.power(ops.abs(ops.minimum(ops.maximum(ops.divide(x, ops.constant(rnd(22, 17) + 3.0)),
                                                                      ops.constant(np.float32(-0.5))),
                                                         ops.constant(np.float32(0.7)))),
                                       ops.constant(np.float32(1.5)))))
    m.append(unary("ops/eltwise_activations", [2, 3, 5, 7],
                   lambda x: ops.add(ops.add(ops.elu(x, 1.0), ops.gelu(x, "erf")),
                                     ops.add(ops.swish(x), ops.prelu(x, ops.constant(np.float32(0.1)))))))

    def concat_transpose():
        a = ops.parameter([1, 4, 6, 6], np.float32, name="a")
        b = ops.parameter([1, 3, 6, 6], np.float32, name="b")
        c = ops.concat([a, b, ops.constant(rnd(23, 1, 2, 6, 6))], 1)
        t = ops.transpose(c, ops.constant(np.array([0, 2, 3, 1], np.int64)))
        return ov.Model([t], [a, b], "ct"), [rnd(24, 1, 4, 6, 6), rnd(25, 1, 3, 6, 6)]
    m.append(("ops/concat_transpose", concat_transpose, 1))
    m.append(unary("ops/transpose_3d", [4, 5, 6],
                   lambda x: ops.transpose(x, ops.constant(np.array([2, 0, 1], np.int64)))))
    m.append(unary("ops/mvn", [2, 8, 6, 6],
                   lambda x: ops.mvn(x, ops.constant(np.array([2, 3], np.int64)), True, 1e-9, "inside_sqrt"), K=36))
    m.append(unary("ops/mvn_across_channels", [1, 4, 5, 5],
                   lambda x: ops.mvn(x, ops.constant(np.array([1, 2, 3], np.int64)), False, 1e-5, "outside_sqrt"), K=100))
    m.append(unary("ops/reshape", [2, 3, 4, 5],
                   lambda x: ops.relu(ops.reshape(x, ops.constant(np.array([6, -1], np.int64)), False))))
    m.append(unary("ops/reshape_matmul", [2, 4, 4, 4],
                   lambda x: ops.matmul(ops.reshape(x, ops.constant(np.array([2, 64], np.int64)), False),
                                        ops.constant(rnd(26, 64, 10)), False, False), K=64))
    m += [("net/resnet_tiny", lambda: resnet_like(1, [8, 16], 1, 16), 144),
          ("net/resnet_small_batch2", lambda: resnet_like(2, [16, 32, 64], 2, 32), 576),
          ("net/squeezenet_tiny", lambda: squeezenet_like(1, 32), 288)]
    return m


def resnet_like(batch, widths, blocks, size, seed=100):
    """Stem conv, then per width a strided residual stage of `blocks` basic blocks (conv-bn-relu
    x2 with a 1x1 projection shortcut), global average pool, fully connected, softmax."""
    import numpy as np, openvino as ov, openvino.opset13 as ops
    rs = np.random.RandomState(seed)

    def w(*s):
        fan = np.prod(s[1:])
        return ops.constant((rs.randn(*s) * math.sqrt(2.0 / fan)).astype(np.float32))

    def conv_bn(x, cin, cout, k, s, relu=True):
        y = ops.convolution(x, w(cout, cin, k, k), [s, s], [k // 2] * 2, [k // 2] * 2, [1, 1])
        y = ops.add(ops.multiply(y, ops.constant((1 + 0.1 * rs.randn(1, cout, 1, 1)).astype(np.float32))),
                    ops.constant((0.1 * rs.randn(1, cout, 1, 1)).astype(np.float32)))
        return ops.relu(y) if relu else y

    x = ops.parameter([batch, 3, size, size], np.float32, name="image")
    y = conv_bn(x, 3, widths[0], 3, 1)
    cin = widths[0]
    for i, cout in enumerate(widths):
        for b in range(blocks):
            s = 2 if (b == 0 and i > 0) else 1
            short = y if (s == 1 and cin == cout) else conv_bn(y, cin, cout, 1, s, relu=False)
            z = conv_bn(conv_bn(y, cin, cout, 3, s), cout, cout, 3, 1, relu=False)
            y = ops.relu(ops.add(z, short))
            cin = cout
    y = ops.reduce_mean(y, ops.constant(np.array([2, 3], np.int64)), False)
    y = ops.add(ops.matmul(y, w(cin, 10).output(0) if False else ops.constant((rs.randn(cin, 10) / math.sqrt(cin)).astype(np.float32)), False, False),
                ops.constant(rs.randn(10).astype(np.float32) * 0.1))
    y = ops.softmax(y, 1)
    img = np.random.RandomState(seed + 1).randn(batch, 3, size, size).astype(np.float32)
    return ov.Model([y], [x], "resnet_like"), [img]


def squeezenet_like(batch, size, seed=200):
    """Conv stem + max pool, three fire modules (1x1 squeeze, 1x1 and 3x3 expand, concat), a max
    pool between, 1x1 classifier conv, global average pool, softmax."""
    import numpy as np, openvino as ov, openvino.opset13 as ops
    rs = np.random.RandomState(seed)

    def conv(x, cin, cout, k, s=1):
        wt = (rs.randn(cout, cin, k, k) * math.sqrt(2.0 / (cin * k * k))).astype(np.float32)
        b = (0.05 * rs.randn(1, cout, 1, 1)).astype(np.float32)
        return ops.relu(ops.add(ops.convolution(x, ops.constant(wt), [s, s], [k // 2] * 2, [k // 2] * 2, [1, 1]),
                                ops.constant(b)))

    def fire(x, cin, sq, ex):
        s = conv(x, cin, sq, 1)
        return ops.concat([conv(s, sq, ex, 1), conv(s, sq, ex, 3)], 1), 2 * ex

    x = ops.parameter([batch, 3, size, size], np.float32, name="image")
    y = conv(x, 3, 16, 3, 2)
    y = ops.max_pool(y, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3]).output(0)
    y, c = fire(y, 16, 8, 16)
    y, c = fire(y, c, 8, 16)
    y = ops.max_pool(y, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3]).output(0)
    y, c = fire(y, c, 16, 32)
    y = conv(y, c, 10, 1)
    y = ops.softmax(ops.reduce_mean(y, ops.constant(np.array([2, 3], np.int64)), False), 1)
    img = np.random.RandomState(seed + 1).randn(batch, 3, size, size).astype(np.float32)
    return ov.Model([y], [x], "squeezenet_like"), [img]


def onnx_models():
    import onnx
    root = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")
    out = []
    for kind in ("simple", "pytorch-converted", "pytorch-operator"):
        for d in sorted(glob.glob(os.path.join(root, kind, "*"))):
            if os.path.isfile(os.path.join(d, "model.onnx")):
                out.append(("onnx/%s/%s" % (kind, os.path.basename(d)), d))
    return out


def light_models():
    """The onnx wheel's `light` networks (real architectures: AlexNet, DenseNet-121, Inception v1
    and v2, ResNet-50, ShuffleNet, SqueezeNet, VGG-19, ZFNet-512 at 224x224), whose weights are
    ConstantOfShape nodes (constant values)."""
    import onnx
    root = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    return [("onnx/light/%s" % os.path.basename(f)[len("light_"):-len(".onnx")], f)
            for f in sorted(glob.glob(os.path.join(root, "light_*.onnx")))]


def load_light(path, core, seed=300):
    """(model, inputs, K) of a light network with seeded random weights in place of its constant
    ones: He-scaled convolution and fully connected weights, batch-norm scale near 1 (0.2 where a
    residual sum follows), mean and bias near 0, variance in [0.5, 1.5), small biases; a random image as input; its output taken before
    the final softmax. K is the longest dot product (a Conv's or Gemm's fan-in)."""
    import numpy as np, onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    inits = {i.name: i for i in m.graph.initializer}
    uses = {}
    for n in m.graph.node:
        for k, t in enumerate(n.input):
            uses.setdefault(t, []).append((n, k))
    rs = np.random.RandomState(seed)
    nodes, made, shapes_used, K = [], [], set(), 64
    for n in m.graph.node:
        if n.op_type != "ConstantOfShape" or n.input[0] not in inits:
            nodes.append(n)
            continue
        shapes_used.add(n.input[0])
        shape = [int(d) for d in numpy_helper.to_array(inits[n.input[0]])]
        user, k = (uses.get(n.output[0]) or [(None, 0)])[0]
        op = user.op_type if user is not None else ""
        if op == "Conv" and k == 1:
            fan = int(np.prod(shape[1:]))
            v = rs.randn(*shape) * math.sqrt(2.0 / fan)
        elif op == "Gemm" and k == 1:
            tb = any(a.name == "transB" and a.i for a in user.attribute)
            fan = shape[1] if tb else shape[0]
            v = rs.randn(*shape) * math.sqrt(1.0 / fan)
        elif op == "BatchNormalization" and k in (1, 2, 3, 4):
            # A residual branch's last batch norm starts small (as "zero-gamma" initialization
            # does): otherwise every residual sum doubles the activations' variance, and after
            # ResNet-50's 16 blocks they exceed f16's range.
            g = 0.2 if any(u.op_type in ("Sum", "Add") for u, _ in uses.get(user.output[0], [])) else 1
            v = {1: g * (1 + 0.1 * rs.randn(*shape)), 2: 0.1 * g * rs.randn(*shape),
                 3: 0.1 * rs.randn(*shape), 4: rs.uniform(0.5, 1.5, shape)}[k]
            fan = 0
        else:
            v = 0.05 * rs.randn(*shape)
            fan = 0
        K = max(K, fan)
        made.append(numpy_helper.from_array(v.astype(np.float32), n.output[0]))
    # Compared at the logits: a softmax over 1000 random logits is nearly one-hot, and f16
    # rounding of the two largest would flip the whole output.
    last = {o: n for n in nodes for o in n.output}
    for o in m.graph.output:
        sm = last.get(o.name)
        if sm is not None and sm.op_type == "Softmax":
            nodes.remove(sm)
            o.name = sm.input[0]
            o.type.tensor_type.ClearField("shape")
    keep = [i for i in m.graph.initializer if i.name not in shapes_used]
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    del m.graph.initializer[:]
    m.graph.initializer.extend(keep + made)
    names = {i.name for i in m.graph.initializer}
    feeds = [i for i in m.graph.input if i.name not in names and i.name not in shapes_used]
    keep_inputs = [i for i in m.graph.input if i.name not in shapes_used]
    del m.graph.input[:]
    m.graph.input.extend(keep_inputs)
    try:
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "model.onnx")
            onnx.save(m, f)
            model = core.read_model(f)
    except Exception as e:
        raise SkipModel("CPU plugin / ONNX frontend cannot read it: %s" % first_line(e))
    irs = np.random.RandomState(seed + 1)
    inputs = [irs.randn(*[d.dim_value for d in f.type.tensor_type.shape.dim]).astype(np.float32)
              for f in feeds]
    return model, inputs, K


def load_onnx(d, core):
    """(model, inputs) or raises SkipModel when the CPU side cannot even read it."""
    import onnx
    from onnx import numpy_helper
    try:
        model = core.read_model(os.path.join(d, "model.onnx"))
    except Exception as e:
        raise SkipModel("CPU plugin / ONNX frontend cannot read it: %s" % first_line(e))
    inputs = []
    for f in sorted(glob.glob(os.path.join(d, "test_data_set_0", "input_*.pb")),
                    key=lambda p: int(re.findall(r"(\d+)\.pb$", p)[0])):
        t = onnx.TensorProto()
        with open(f, "rb") as fh:
            t.ParseFromString(fh.read())
        inputs.append(numpy_helper.to_array(t))
    return model, inputs


class SkipModel(Exception):
    pass


def first_line(e):
    s = str(e).strip().splitlines()
    s = [l for l in s if l.strip()]
    return (s[-1] if s else type(e).__name__)[:300]


def compare(name, prec, K, got, ref):
    import numpy as np
    if len(got) != len(ref):
        return "output count %d vs %d" % (len(got), len(ref))
    for i, (g, r) in enumerate(zip(got, ref)):
        g = np.asarray(g)
        r = np.asarray(r)
        if g.shape != r.shape:
            return "output %d shape %s vs %s" % (i, g.shape, r.shape)
        if r.dtype.kind in "biu":
            if not np.array_equal(g, r):
                return "output %d: %d integer elements differ" % (i, int((g != r).sum()))
            continue
        g = g.astype(np.float64)
        r = r.astype(np.float64)
        if not np.array_equal(np.isnan(g), np.isnan(r)):
            return "output %d: NaN positions differ" % i
        fin = ~np.isnan(r)
        g, r = g[fin], r[fin]
        if r.size == 0:
            continue
        t = TOL[prec]
        M = max(float(np.abs(r[np.isfinite(r)]).max(initial=0.0)), 1e-3)
        bound = t * M * max(1.0, math.sqrt(K / 64.0)) + t * np.abs(r)
        inf = ~np.isfinite(r)
        if not np.array_equal(g[inf], r[inf]):
            return "output %d: infinities differ" % i
        d = np.abs(g - r)[~inf]
        bad = d > bound[~inf]
        if bad.any():
            j = int(np.argmax(d - bound[~inf]))
            return "output %d: %d/%d elements out of tolerance, max |diff| %.3g (bound there %.3g, max |ref| %.3g)" % (
                i, int(bad.sum()), d.size, float(d.max()), float(bound[~inf][j]), M)
    return None


def worker_env(dev):
    """The worker's environment for one device. `sim:<p>`: this project's ICD (OCL_ICD_VENDORS as
    given) on the simulated <p>. `neo:<p>`: Intel's own runtime NEO (Debian's intel-opencl-icd,
    which drives i915 only) on the same simulated GPU, reached through the render-node shim
    (NEO_SUITE_SHIM names libintel_gpu_sim_shim.so; scripts/openvino-suite sets it): the
    side-by-side oracle for a failure, since NEO gives the hardware's answers where the simulator
    is right."""
    env = dict(os.environ, INTEL_GPU_DEVICES=dev)
    if dev.startswith("neo:"):
        shim = os.environ.get("NEO_SUITE_SHIM", "")
        if not os.path.isfile(shim):
            sys.exit("device %s: NEO_SUITE_SHIM must name the simulator's preload shim "
                     "(libintel_gpu_sim_shim.so), not %r" % (dev, shim))
        if not os.path.isfile(NEO_ICD):
            sys.exit("device %s: Intel's runtime is not installed (%s)" % (dev, NEO_ICD))
        env.update(LD_PRELOAD=shim, INTEL_GPU_SIM=dev[4:] + "@i915", OCL_ICD_VENDORS=NEO_ICD)
        env.pop("INTEL_GPU_DEVICES")
        # dg2: the GPU plugin runs oneDNN's generated kernels, and NEO 22.43 crashes in
        # clGetKernelArgInfo on their programs, and corrupts its heap setting USM pointer
        # arguments; NEO_SUITE_LAYER (scripts/openvino-suite builds it from
        # neo_arg_info_layer.c) answers that query as "not available" and hides NEO's USM.
        layer = os.environ.get("NEO_SUITE_LAYER", "")
        if dev == "neo:dg2" and os.path.isfile(layer):
            env["OPENCL_LAYERS"] = layer
    return env


# Debian's intel-opencl-icd registers NEO here.
NEO_ICD = "/etc/OpenCL/vendors/intel.icd"


def worker(args):
    """Runs in a subprocess with INTEL_GPU_DEVICES set to one device; prints JSON lines."""
    import faulthandler, resource
    # A crash of the worker says where: Python's stacks of every thread, and a core file the
    # parent reads with gdb when it has one (see crash_report).
    faulthandler.enable()
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):
        pass
    import numpy as np, openvino as ov
    core = ov.Core()
    gpu_ok = "GPU" in core.available_devices
    items = []
    for name, build, K in synthetic_models():
        items.append((name, "synth", (build, K)))
    for name, d in onnx_models():
        items.append((name, "onnx", d))
    for name, f in light_models():
        items.append((name, "light", f))
    rx = re.compile(args.filter) if args.filter else None
    for name, kind, data in items:
        if args.slice == "ci" and name not in CI_SYNTH and name not in CI_ONNX:
            continue
        if rx and not rx.search(name):
            continue
        t0 = time.time()
        recs = []
        print("@@" + json.dumps(dict(begin=name)), flush=True)
        try:
            if kind == "synth":
                model, inputs = data[0]()
                K = data[1]
            elif kind == "light":
                model, inputs, K = load_light(data, core)
            else:
                model, inputs = load_onnx(data, core)
                K = 64
            try:
                cpu = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
                res = cpu(inputs)
                ref = [res[o] for o in cpu.outputs]
            except Exception as e:
                if kind == "synth":
                    raise
                raise SkipModel("CPU plugin fails: %s" % first_line(e))
        except SkipModel as e:
            for p in args.precisions:
                recs.append(dict(model=name, precision=p, status="skip", detail=str(e)))
            emit(recs, args.device, t0)
            continue
        except Exception as e:
            for p in args.precisions:
                recs.append(dict(model=name, precision=p, status="fail",
                                 detail="building the model / CPU reference: %s" % first_line(e)))
            emit(recs, args.device, t0)
            continue
        for p in args.precisions:
            t1 = time.time()
            try:
                if not gpu_ok:
                    raise RuntimeError("no GPU device in %s" % core.available_devices)
                g = core.compile_model(model, "GPU", {"INFERENCE_PRECISION_HINT": p})
                res = g(inputs)
                got = [res[o] for o in g.outputs]
                why = compare(name, p, K, got, ref)
                recs.append(dict(model=name, precision=p, status="fail" if why else "pass",
                                 detail=why or "", seconds=round(time.time() - t1, 2)))
            except Exception as e:
                recs.append(dict(model=name, precision=p, status="fail",
                                 detail="GPU exception: %s" % first_line(e),
                                 trace=traceback.format_exc()[-2000:],
                                 seconds=round(time.time() - t1, 2)))
        emit(recs, args.device, t0)


def crash_report(scratch, rc):
    """The native stacks of a worker killed by a signal, from its core file (kernel.core_pattern
    `core`, the worker's working directory) when gdb is installed; empty otherwise."""
    cores = glob.glob(os.path.join(scratch, "core*"))
    if rc >= 0 or not cores:
        return ""
    gdb = shutil.which("gdb")
    if not gdb:
        return "\n(core file left by the worker; install gdb for its stacks)"
    try:
        out = subprocess.run([gdb, "-batch", "-nx", "-ex", "set print frame-arguments none",
                              "-ex", "set print frame-info short-location", "-ex", "bt 40",
                              # Which library each `??` frame's address lies in.
                              "-ex", "info sharedlibrary",
                              "-ex", "thread apply all bt 12",
                              sys.executable, cores[0]], capture_output=True, text=True, timeout=300).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return "\n(gdb on the core failed: %s)" % e
    out = "\n".join(l for l in out.splitlines() if not l.startswith(("[New LWP", "warning: ")))
    # The signalled thread's stack comes first.
    return "\nnative stacks (gdb):\n" + out[:24000]


def emit(recs, device, t0):
    for r in recs:
        r["device"] = device
        print("@@" + json.dumps(r), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devices", default="sim:tgllp")
    ap.add_argument("--precisions", default="f32,f16")
    ap.add_argument("--filter", default="")
    ap.add_argument("--slice", choices=["ci", "all"], default="ci")
    ap.add_argument("--json", default="")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--device", default="", help=argparse.SUPPRESS)
    ap.add_argument("--list", action="store_true", help="list the slice's models and exit")
    args = ap.parse_args()
    args.precisions = [p for p in args.precisions.split(",") if p]
    for p in args.precisions:
        if p not in TOL:
            ap.error("precision %s: one of %s" % (p, ",".join(TOL)))
    if args.worker:
        worker(args)
        return 0
    if args.list:
        names = [n for n, _, _ in synthetic_models()] + [n for n, _ in onnx_models()]
        for n in names:
            if args.slice == "all" or n in CI_SYNTH or n in CI_ONNX:
                if not args.filter or re.search(args.filter, n):
                    print(n)
        return 0
    results = []
    t0 = time.time()
    for dev in [d for d in args.devices.split(",") if d]:
        env = worker_env(dev)
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--device", dev,
               "--precisions", ",".join(args.precisions), "--slice", args.slice]
        if args.filter:
            cmd += ["--filter", args.filter]
        td = time.time()
        # ocloc, which the GPU plugin's kernels go through, leaves kernel.errors.txt in its
        # working directory: give the worker a scratch one. Its stderr goes to a file there (a
        # pipe read only after stdout could fill and stop the worker).
        scratch = tempfile.TemporaryDirectory(prefix="openvino-suite-")
        # glibc's fatal messages (heap corruption) to stderr even where a terminal exists.
        env["LIBC_FATAL_STDERR_"] = "1"
        with open(os.path.join(scratch.name, "stderr.txt"), "w+") as errf:
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=errf, text=True,
                                 cwd=scratch.name)
            seen, current = 0, None
            for line in p.stdout:
                if not line.startswith("@@"):
                    continue
                r = json.loads(line[2:])
                if "begin" in r:
                    current = r["begin"]
                    continue
                results.append(r)
                seen += 1
                print("%-4s %-60s %-9s %s %s%s" % (r["status"].upper(), r["model"], r["device"], r["precision"],
                                                   ("%.1fs " % r["seconds"]) if "seconds" in r else "",
                                                   r["detail"]), flush=True)
                if r["status"] == "fail" and r.get("trace") and os.environ.get("OV_SUITE_TRACE"):
                    print(r["trace"], flush=True)
            rc = p.wait()
            errf.seek(0)
            err = errf.read()
        if rc != 0:
            where = "while running %s" % current if current else "before its first model"
            report = crash_report(scratch.name, rc)
            results.append(dict(model=current or "(worker process)", device=dev, precision="-", status="fail",
                                detail="worker exited with %d %s after %d results: %s%s"
                                % (rc, where, seen, err[-3000:], report)))
            print("FAIL worker for %s exited with %d %s after %d results:\n%s%s"
                  % (dev, rc, where, seen, err[-3000:], report), flush=True)
        scratch.cleanup()
        print("-- %s: %.0f s" % (dev, time.time() - td), flush=True)
    n = {s: sum(1 for r in results if r["status"] == s) for s in ("pass", "fail", "skip")}
    summary = "%d passed, %d failed, %d skipped" % (n["pass"], n["fail"], n["skip"])
    # per device and precision
    keys = sorted({(r["device"], r["precision"]) for r in results})
    for k in keys:
        rs = [r for r in results if (r["device"], r["precision"]) == k]
        print("   %s %s: %d passed, %d failed, %d skipped" % (k[0], k[1],
              sum(r["status"] == "pass" for r in rs), sum(r["status"] == "fail" for r in rs),
              sum(r["status"] == "skip" for r in rs)))
    print("%s (%.0f s)" % (summary, time.time() - t0), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(summary=n, results=results), f, indent=1)
    return 1 if n["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
