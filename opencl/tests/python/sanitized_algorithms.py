"""PyOpenCL's generated kernels (scan, reduction, bitonic sort, elementwise), run by the test
under the kernel sanitizer; each result is checked against numpy ("ok"/"FAIL" lines)."""
import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.bitonic_sort import BitonicSort
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import ExclusiveScanKernel, InclusiveScanKernel

ctx = cl.create_some_context(False)
q = cl.CommandQueue(ctx)
rng = np.random.default_rng(7)


def check(name, got, want):
    print(("ok   " if np.array_equal(got, want) else "FAIL ") + name, flush=True)


n = 10007
x = rng.integers(-1000, 1000, n).astype(np.int32)
d = cla.to_device(q, x)
check("inclusive scan", InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")(d.copy()).get(),
      np.cumsum(x, dtype=np.int32))
check("exclusive scan", ExclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")(d.copy()).get(),
      np.concatenate([[0], np.cumsum(x, dtype=np.int32)[:-1]]))
red = ReductionKernel(ctx, np.int32, neutral="0", reduce_expr="a+b", map_expr="x[i]",
                      arguments="__global const int *x")
check("reduction", red(d).get(), x.sum(dtype=np.int32))
m = 4096
s = cla.to_device(q, rng.integers(0, 1 << 20, m).astype(np.uint32))
want = np.sort(s.get())
got, _ = BitonicSort(ctx)(s, axis=0)
check("bitonic sort", got.get(), want)
axpb = ElementwiseKernel(ctx, "int a, const int *x, int *y", "y[i] = a * x[i] + 3")
y = cla.empty_like(d)
axpb(5, d, y)
check("elementwise", y.get(), 5 * x + 3)
