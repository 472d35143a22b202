/* CLBlast (Debian's libclblast 1.5.3, the tuned OpenCL BLAS) on the first device of the first
 * platform, each routine checked against a double-precision computation on the host:
 * SGEMM for both layouts and all four transpose pairs at sizes that are not multiples of any
 * tile (and with offsets and padded leading dimensions), one large square SGEMM (CLBlast's
 * direct kernel below a size threshold, its tiled indirect kernel above it), batched SGEMM,
 * HGEMM where the device has cl_khr_fp16, and the level-1/2 routines SAXPY, SDOT, SNRM2,
 * SASUM, iSAMAX, SGEMV and SGER.
 *
 * Prints one line per check, `N passed, N failed`; exits 1 on a failure. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <clblast_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IEEE binary16 by the compiler's _Float16 (round to nearest even). */
static cl_half to_half(float f) {
  _Float16 h = (_Float16)f;
  cl_half u;
  memcpy(&u, &h, 2);
  return u;
}
static float from_half(cl_half u) {
  _Float16 h;
  memcpy(&h, &u, 2);
  return (float)h;
}

static cl_context ctx;
static cl_command_queue queue;
static int passed, failed;

static unsigned rng = 12345;
static float rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xffff) / 65536.0f - 0.5f;
}

static cl_mem upload(const void *host, size_t bytes) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)host, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateBuffer: %d\n", err);
    exit(2);
  }
  return m;
}

static void download(cl_mem m, void *host, size_t bytes) {
  cl_int err = clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clEnqueueReadBuffer: %d\n", err);
    exit(2);
  }
}

/* |got - want| <= tol * (scale + |want|) for every element; reports the worst one. */
static void check(const char *what, const float *got, const double *want, size_t n, double tol,
                  double scale, CLBlastStatusCode status) {
  if (status != CLBlastSuccess) {
    printf("FAIL %s: CLBlast status %d\n", what, (int)status);
    failed++;
    return;
  }
  size_t bad = 0, worst = 0;
  double worst_excess = -1;
  for (size_t i = 0; i < n; i++) {
    double d = fabs((double)got[i] - want[i]), bound = tol * (scale + fabs(want[i]));
    if (!(d <= bound)) bad++;
    if (d - bound > worst_excess) {
      worst_excess = d - bound;
      worst = i;
    }
  }
  if (bad) {
    printf("FAIL %s: %zu of %zu elements out of tolerance; at %zu got %.7g want %.7g\n", what, bad, n,
           worst, got[worst], want[worst]);
    failed++;
  } else {
    printf("PASS %s\n", what);
    passed++;
  }
}

/* op(X)[i][j] of a matrix stored in `layout` with leading dimension ld. */
static double at(const float *x, int row_major, int trans, size_t ld, size_t i, size_t j) {
  size_t r = trans ? j : i, c = trans ? i : j;
  return row_major ? x[r * ld + c] : x[c * ld + r];
}

static void gemm_case(int row_major, int ta, int tb, size_t m, size_t n, size_t k, size_t off, size_t pad) {
  /* Stored shapes: op(A) is m x k, op(B) is k x n, C is m x n. */
  size_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  size_t a_ld = (row_major ? ac : ar) + pad, b_ld = (row_major ? bc : br) + pad, c_ld = (row_major ? n : m) + pad;
  size_t a_n = off + a_ld * (row_major ? ar : ac), b_n = off + b_ld * (row_major ? br : bc),
         c_n = off + c_ld * (row_major ? m : n);
  float *a = malloc(a_n * 4), *b = malloc(b_n * 4), *c = malloc(c_n * 4), *got = malloc(c_n * 4);
  double *want = malloc(c_n * 8);
  for (size_t i = 0; i < a_n; i++) a[i] = rnd();
  for (size_t i = 0; i < b_n; i++) b[i] = rnd();
  for (size_t i = 0; i < c_n; i++) c[i] = rnd();
  const float alpha = 1.25f, beta = -0.5f;
  for (size_t i = 0; i < c_n; i++) want[i] = c[i];
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) {
      double s = 0;
      for (size_t p = 0; p < k; p++) s += at(a + off, row_major, ta, a_ld, i, p) * at(b + off, row_major, tb, b_ld, p, j);
      size_t ci = off + (row_major ? i * c_ld + j : j * c_ld + i);
      want[ci] = alpha * s + beta * c[ci];
    }
  cl_mem ab = upload(a, a_n * 4), bb = upload(b, b_n * 4), cb = upload(c, c_n * 4);
  CLBlastStatusCode st = CLBlastSgemm(row_major ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor,
                                      ta ? CLBlastTransposeYes : CLBlastTransposeNo,
                                      tb ? CLBlastTransposeYes : CLBlastTransposeNo, m, n, k, alpha, ab, off,
                                      a_ld, bb, off, b_ld, beta, cb, off, c_ld, &queue, NULL);
  if (st == CLBlastSuccess) download(cb, got, c_n * 4);
  char what[160];
  snprintf(what, sizeof what, "SGEMM %s %c%c m=%zu n=%zu k=%zu offset=%zu ld+%zu", row_major ? "row" : "col",
           ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, off, pad);
  /* Each element is a k-term f32 sum of products of magnitude <= 1/4. */
  check(what, got, want, c_n, 1e-5 * sqrt((double)k) + 1e-6, 1.0, st);
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseMemObject(cb);
  free(a), free(b), free(c), free(got), free(want);
}

static void gemm_batched(void) {
  const size_t m = 19, n = 23, k = 17, batch = 3;
  float a[3 * 19 * 17], b[3 * 17 * 23], c[3 * 19 * 23], got[3 * 19 * 23];
  double want[3 * 19 * 23];
  float alphas[3] = {1.0f, -2.0f, 0.5f}, betas[3] = {0.0f, 1.0f, -1.0f};
  size_t ao[3], bo[3], co[3];
  for (size_t i = 0; i < sizeof a / 4; i++) a[i] = rnd();
  for (size_t i = 0; i < sizeof b / 4; i++) b[i] = rnd();
  for (size_t i = 0; i < sizeof c / 4; i++) c[i] = rnd();
  for (size_t t = 0; t < batch; t++) {
    ao[t] = t * m * k, bo[t] = t * k * n, co[t] = t * m * n;
    for (size_t i = 0; i < m; i++)
      for (size_t j = 0; j < n; j++) {
        double s = 0;
        for (size_t p = 0; p < k; p++) s += (double)a[ao[t] + i * k + p] * b[bo[t] + p * n + j];
        want[co[t] + i * n + j] = alphas[t] * s + betas[t] * c[co[t] + i * n + j];
      }
  }
  cl_mem ab = upload(a, sizeof a), bb = upload(b, sizeof b), cb = upload(c, sizeof c);
  CLBlastStatusCode st = CLBlastSgemmBatched(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k,
                                             alphas, ab, ao, k, bb, bo, n, betas, cb, co, n, batch, &queue, NULL);
  if (st == CLBlastSuccess) download(cb, got, sizeof got);
  check("SGEMM batched x3 m=19 n=23 k=17", got, want, sizeof got / 4, 1e-5 * sqrt(17.0) + 1e-6, 1.0, st);
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseMemObject(cb);
}

static void hgemm(void) {
  const size_t m = 40, n = 36, k = 48;
  cl_half a[40 * 48], b[48 * 36], c[40 * 36];
  float af[40 * 48], bf[48 * 36], got[40 * 36];
  double want[40 * 36];
  for (size_t i = 0; i < m * k; i++) a[i] = to_half(rnd()), af[i] = from_half(a[i]);
  for (size_t i = 0; i < k * n; i++) b[i] = to_half(rnd()), bf[i] = from_half(b[i]);
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) {
      double s = 0;
      for (size_t p = 0; p < k; p++) s += (double)af[i * k + p] * bf[p * n + j];
      want[i * n + j] = s;
    }
  cl_mem ab = upload(a, sizeof a), bb = upload(b, sizeof b), cb = upload(c, sizeof c);
  CLBlastStatusCode st = CLBlastHgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k,
                                      to_half(1.0f), ab, 0, k, bb, 0, n, to_half(0.0f), cb, 0, n, &queue, NULL);
  if (st == CLBlastSuccess) {
    download(cb, c, sizeof c);
    for (size_t i = 0; i < m * n; i++) got[i] = from_half(c[i]);
  }
  /* fp16 accumulation over k = 48 products: a few units of 2^-11 of the sum's range. */
  check("HGEMM row NN m=40 n=36 k=48", got, want, m * n, 8e-3, 1.0, st);
  clReleaseMemObject(ab);
  clReleaseMemObject(bb);
  clReleaseMemObject(cb);
}

static void level12(void) {
  enum { N = 1000, M = 45, NC = 37 };
  static float x[N], y[N], got[N], a[M * NC], ga[M * NC];
  static double want[N], wa[M * NC];
  for (int i = 0; i < N; i++) x[i] = rnd(), y[i] = rnd();
  cl_mem xb = upload(x, sizeof x), yb = upload(y, sizeof y), rb = upload(y, 16);
  CLBlastStatusCode st;
  double dot = 0, nrm = 0, asum = 0;
  int imax = 0;
  for (int i = 0; i < N; i++) {
    want[i] = 0.75 * x[i] + y[i];
    dot += (double)x[i] * y[i];
    nrm += (double)x[i] * x[i];
    asum += fabs(x[i]);
    if (fabs(x[i]) > fabs(x[imax])) imax = i;
  }
  st = CLBlastSaxpy(N, 0.75f, xb, 0, 1, yb, 0, 1, &queue, NULL);
  if (st == CLBlastSuccess) download(yb, got, sizeof got);
  check("SAXPY n=1000", got, want, N, 1e-6, 1.0, st);
  clReleaseMemObject(yb);
  yb = upload(y, sizeof y);
  double scalar_want;
  st = CLBlastSdot(N, rb, 0, xb, 0, 1, yb, 0, 1, &queue, NULL);
  if (st == CLBlastSuccess) download(rb, got, 4);
  scalar_want = dot;
  check("SDOT n=1000", got, &scalar_want, 1, 1e-5, 1.0, st);
  st = CLBlastSnrm2(N, rb, 0, xb, 0, 1, &queue, NULL);
  if (st == CLBlastSuccess) download(rb, got, 4);
  scalar_want = sqrt(nrm);
  check("SNRM2 n=1000", got, &scalar_want, 1, 1e-5, 1.0, st);
  st = CLBlastSasum(N, rb, 0, xb, 0, 1, &queue, NULL);
  if (st == CLBlastSuccess) download(rb, got, 4);
  scalar_want = asum;
  check("SASUM n=1000", got, &scalar_want, 1, 1e-5, 1.0, st);
  st = CLBlastiSamax(N, rb, 0, xb, 0, 1, &queue, NULL);
  unsigned idx = 0;
  if (st == CLBlastSuccess) clEnqueueReadBuffer(queue, rb, CL_TRUE, 0, 4, &idx, 0, NULL, NULL);
  float fidx = (float)idx;
  scalar_want = imax;
  check("iSAMAX n=1000", &fidx, &scalar_want, 1, 0.0, 0.0, st);
  /* SGEMV: y = 1.5 A x - 2 y with A row-major 45 x 37, and its transpose. */
  for (int i = 0; i < M * NC; i++) a[i] = rnd();
  cl_mem abuf = upload(a, sizeof a);
  for (int t = 0; t < 2; t++) {
    int rows = t ? NC : M, cols = t ? M : NC;
    for (int i = 0; i < rows; i++) {
      double s = 0;
      for (int j = 0; j < cols; j++) s += (double)(t ? a[j * NC + i] : a[i * NC + j]) * x[j];
      want[i] = 1.5 * s - 2.0 * y[i];
    }
    clReleaseMemObject(yb);
    yb = upload(y, sizeof y);
    st = CLBlastSgemv(CLBlastLayoutRowMajor, t ? CLBlastTransposeYes : CLBlastTransposeNo, M, NC, 1.5f, abuf, 0,
                      NC, xb, 0, 1, -2.0f, yb, 0, 1, &queue, NULL);
    if (st == CLBlastSuccess) download(yb, got, sizeof got);
    check(t ? "SGEMV row T 45x37" : "SGEMV row N 45x37", got, want, rows, 1e-5 * sqrt(cols), 1.0, st);
  }
  /* SGER: A += 0.5 x y^T, col-major 45 x 37 with ld 45. */
  for (int j = 0; j < NC; j++)
    for (int i = 0; i < M; i++) wa[j * M + i] = a[j * M + i] + 0.5 * x[i] * y[j];
  clReleaseMemObject(yb);
  yb = upload(y, sizeof y);
  st = CLBlastSger(CLBlastLayoutColMajor, M, NC, 0.5f, xb, 0, 1, yb, 0, 1, abuf, 0, M, &queue, NULL);
  if (st == CLBlastSuccess) download(abuf, ga, sizeof ga);
  check("SGER col 45x37", ga, wa, M * NC, 1e-6, 1.0, st);
  clReleaseMemObject(abuf);
  clReleaseMemObject(xb);
  clReleaseMemObject(yb);
  clReleaseMemObject(rb);
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device\n");
    return 2;
  }
  char name[256] = "", ext[8192] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
  printf("device: %s\n", name);
  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "queue: %d\n", err);
    return 2;
  }
  for (int row = 0; row < 2; row++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++) gemm_case(row, ta, tb, 37, 29, 43, 0, 0);
  gemm_case(1, 0, 0, 33, 65, 21, 7, 3);
  gemm_case(0, 1, 0, 50, 31, 70, 5, 1);
  gemm_case(1, 0, 1, 256, 256, 256, 0, 0);
  gemm_batched();
  if (strstr(ext, "cl_khr_fp16"))
    hgemm();
  else
    printf("SKIP HGEMM: no cl_khr_fp16\n");
  level12();
  printf("%d passed, %d failed\n", passed, failed);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  return failed ? 1 : 0;
}
