/* A C program driving the render node through the C library only, as a driver would:
 * directory listing, stat, open, DRM_IOCTL_VERSION, the primary node and DRM master, and on
 * i915 a GEM buffer written through mmap by the CPU and by the GPU (MI_STORE_DATA_IMM), global
 * GEM names between two files (FLINK/GEM_OPEN), PRIME dma-bufs and syncobj fds (opaque and
 * sync files) between files and into a forked child, dup, poll, fork and the sysfs-free
 * parts of /dev. Usage: node_client i915|xe. Prints "ok" lines; exits non-zero at the first
 * failure. Struct layouts and ioctl numbers come from the kernel's uAPI headers. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <drm/drm.h>
#include <drm/i915_drm.h>
#include <drm/xe_drm.h>

#define CHECK(c)                                                                    \
    do {                                                                            \
        if (!(c)) {                                                                 \
            fprintf(stderr, "FAIL %s:%d: %s (errno %d)\n", __FILE__, __LINE__, #c, \
                    errno);                                                         \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static const char *node = "/dev/dri/renderD128";

static void check_dev_dri(void) {
    DIR *d = opendir("/dev/dri");
    CHECK(d);
    int render = 0, card = 0, by_path = 0, other = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (!strcmp(e->d_name, "renderD128"))
            render++;
        else if (!strcmp(e->d_name, "card0"))
            card++;
        else if (!strcmp(e->d_name, "by-path"))
            by_path++;
        else
            other++;
    }
    closedir(d);
    CHECK(render == 1 && card == 1 && by_path == 1 && other == 0);

    struct stat st;
    CHECK(stat(node, &st) == 0);
    CHECK(S_ISCHR(st.st_mode) && major(st.st_rdev) == 226 && minor(st.st_rdev) == 128);
    const char *link = "/dev/dri/by-path/pci-0000:00:02.0-render";
    CHECK(stat(link, &st) == 0 && S_ISCHR(st.st_mode));
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    char buf[PATH_MAX];
    ssize_t n = readlink(link, buf, sizeof buf - 1);
    CHECK(n > 0);
    buf[n] = 0;
    CHECK(!strcmp(buf, "../renderD128"));
    CHECK(realpath(link, buf) && !strcmp(buf, node));
    CHECK(access(node, R_OK | W_OK) == 0);
    printf("ok /dev/dri\n");
}

static void read_line(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "r");
    CHECK(f);
    CHECK(fgets(buf, (int)size, f));
    fclose(f);
}

/* The node's sysfs as the kernel lays it out: the char-device link, the class and bus links,
 * the PCI attributes. Prints the PCI device id for the caller to check. */
static void check_sysfs(const char *kmd) {
    char buf[PATH_MAX];
    ssize_t n = readlink("/sys/dev/char/226:128", buf, sizeof buf - 1);
    CHECK(n > 0);
    buf[n] = 0;
    CHECK(!strcmp(buf, "../../devices/pci0000:00/0000:00:02.0/drm/renderD128"));
    CHECK(realpath("/sys/dev/char/226:128", buf));
    CHECK(!strcmp(buf, "/sys/devices/pci0000:00/0000:00:02.0/drm/renderD128"));
    CHECK(realpath("/sys/class/drm/renderD128/device", buf));
    CHECK(!strcmp(buf, "/sys/devices/pci0000:00/0000:00:02.0"));
    CHECK(realpath("/sys/bus/pci/devices/0000:00:02.0", buf));
    CHECK(!strcmp(buf, "/sys/devices/pci0000:00/0000:00:02.0"));
    struct stat st;
    CHECK(stat("/sys/dev/char/226:128/device/drm", &st) == 0 && S_ISDIR(st.st_mode));

    DIR *d = opendir("/sys/class/drm");
    CHECK(d);
    int card = 0, render = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        card += !strcmp(e->d_name, "card0");
        render += !strcmp(e->d_name, "renderD128");
    }
    closedir(d);
    CHECK(card == 1 && render == 1);

    read_line("/sys/class/drm/renderD128/device/vendor", buf, sizeof buf);
    CHECK(!strcmp(buf, "0x8086\n"));
    char dev[32];
    read_line("/sys/bus/pci/devices/0000:00:02.0/device", dev, sizeof dev);
    read_line("/sys/dev/char/226:128/device/device", buf, sizeof buf);
    CHECK(!strcmp(buf, dev));
    read_line("/sys/dev/char/226:128/dev", buf, sizeof buf);
    CHECK(!strcmp(buf, "226:128\n"));
    if (!strcmp(kmd, "i915")) {
        read_line("/sys/class/drm/card0/error", buf, sizeof buf);
        CHECK(!strcmp(buf, "No error state collected\n"));
    } else {
        CHECK(access("/sys/class/drm/card0/device/devcoredump/data", F_OK) != 0);
    }
    printf("sysfs device %s", dev);
}

static int open_node(void) {
    int fd = open(node, O_RDWR | O_CLOEXEC);
    CHECK(fd >= 0);
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    CHECK(S_ISCHR(st.st_mode) && st.st_rdev == makedev(226, 128));
    char path[64], buf[PATH_MAX];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    CHECK(n > 0);
    buf[n] = 0;
    CHECK(!strcmp(buf, node));
    return fd;
}

static void check_version(int fd, const char *want) {
    char name[32] = {0};
    struct drm_version v = {0};
    v.name = name;
    v.name_len = sizeof name - 1;
    CHECK(ioctl(fd, DRM_IOCTL_VERSION, &v) == 0);
    CHECK(!strcmp(name, want));
    printf("ok version %s\n", name);
}

/* A BO the CPU fills with a batch and the GPU writes a value into. */
static void check_i915_bo(int fd) {
    struct drm_i915_gem_create create = {.size = 8192};
    CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create) == 0);
    struct drm_i915_gem_mmap_offset mo = {.handle = create.handle,
                                          .flags = I915_MMAP_OFFSET_WB};
    if (ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) != 0) {
        /* Discrete parts take only FIXED (ENODEV for the others). */
        CHECK(errno == ENODEV);
        mo.flags = I915_MMAP_OFFSET_FIXED;
        CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) == 0);
    }
    uint32_t *cpu = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mo.offset);
    CHECK(cpu != MAP_FAILED);
    uint32_t *again = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, mo.offset);
    CHECK(again != MAP_FAILED);
    cpu[7] = 0x1234;
    CHECK(again[7] == 0x1234);
    CHECK(munmap(again, 4096) == 0);
    /* A bad offset is refused as the kernel refuses it. */
    CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, mo.offset + (1u << 30)) == MAP_FAILED);

    /* Batch at 0x10000 (page 0 of the BO), target dword at 0x11000 (page 1). */
    const uint64_t gpu = 0x10000, target = gpu + 4096;
    uint32_t *b = cpu;
    *b++ = (0x20u << 23) | 2; /* MI_STORE_DATA_IMM, qword address, one dword */
    *b++ = (uint32_t)target;
    *b++ = (uint32_t)(target >> 32);
    *b++ = 0xc0ffee;
    *b++ = 0x0Au << 23; /* MI_BATCH_BUFFER_END */
    struct drm_i915_gem_exec_object2 obj = {
        .handle = create.handle,
        .offset = gpu,
        .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE | EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
    };
    struct drm_i915_gem_execbuffer2 eb = {
        .buffers_ptr = (uintptr_t)&obj,
        .buffer_count = 1,
        .batch_len = 4096,
        .flags = I915_EXEC_RENDER | I915_EXEC_NO_RELOC,
    };
    CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) == 0);
    struct drm_i915_gem_wait w = {.bo_handle = create.handle, .timeout_ns = 10000000000};
    CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w) == 0);
    CHECK(cpu[1024] == 0xc0ffee);
    printf("ok bo cpu+gpu\n");

    /* A mapping outlives the handle, as on the kernel. */
    struct drm_gem_close gc = {.handle = create.handle};
    CHECK(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc) == 0);
    CHECK(cpu[1024] == 0xc0ffee);
    CHECK(munmap(cpu, 8192) == 0);
}

/* The primary node: character device 226:0, the same driver behind it, and DRM master as
 * drm_auth.c gives it: the first opener of a primary node is master (SET_MASTER is then a
 * no-op), DROP_MASTER drops it once (EINVAL after), SET_MASTER retakes it (its own process,
 * was_master); a render-node file gets EACCES for both (not DRM_RENDER_ALLOW). */
static void check_card(int render_fd, const char *kmd) {
    struct stat st;
    CHECK(stat("/dev/dri/card0", &st) == 0);
    CHECK(S_ISCHR(st.st_mode) && major(st.st_rdev) == 226 && minor(st.st_rdev) == 0);
    char buf[PATH_MAX];
    CHECK(realpath("/dev/dri/by-path/pci-0000:00:02.0-card", buf));
    CHECK(!strcmp(buf, "/dev/dri/card0"));
    ssize_t n = readlink("/sys/dev/char/226:0", buf, sizeof buf - 1);
    CHECK(n > 0);
    buf[n] = 0;
    CHECK(!strcmp(buf, "../../devices/pci0000:00/0000:00:02.0/drm/card0"));
    char line[64];
    read_line("/sys/dev/char/226:0/dev", line, sizeof line);
    CHECK(!strcmp(line, "226:0\n"));
    read_line(!strcmp(kmd, "xe") ? "/sys/module/xe/initstate" : "/sys/module/i915/initstate",
              line, sizeof line);
    CHECK(!strcmp(line, "live\n"));

    int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    CHECK(fd >= 0);
    CHECK(fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && minor(st.st_rdev) == 0);
    check_version(fd, kmd);
    CHECK(ioctl(fd, DRM_IOCTL_SET_MASTER, 0) == 0);
    CHECK(ioctl(fd, DRM_IOCTL_DROP_MASTER, 0) == 0);
    errno = 0;
    CHECK(ioctl(fd, DRM_IOCTL_DROP_MASTER, 0) == -1 && errno == EINVAL);
    CHECK(ioctl(fd, DRM_IOCTL_SET_MASTER, 0) == 0);
    CHECK(close(fd) == 0);
    errno = 0;
    CHECK(ioctl(render_fd, DRM_IOCTL_SET_MASTER, 0) == -1 && errno == EACCES);
    errno = 0;
    CHECK(ioctl(render_fd, DRM_IOCTL_DROP_MASTER, 0) == -1 && errno == EACCES);
    printf("ok card0\n");
}

/* Global GEM names between two files of the one GPU (drm_gem.c): FLINK and GEM_OPEN are
 * DRM_AUTH without DRM_RENDER_ALLOW, so EACCES on the render node; on card0 the first file is
 * master (authenticated), a second one is authenticated only with CAP_SYS_ADMIN (root). */
static void check_flink(int render_fd) {
    struct drm_i915_gem_create create = {.size = 4096};
    CHECK(ioctl(render_fd, DRM_IOCTL_I915_GEM_CREATE, &create) == 0);
    struct drm_gem_flink fl = {.handle = create.handle};
    errno = 0;
    CHECK(ioctl(render_fd, DRM_IOCTL_GEM_FLINK, &fl) == -1 && errno == EACCES);

    int a = open("/dev/dri/card0", O_RDWR), b = open("/dev/dri/card0", O_RDWR);
    CHECK(a >= 0 && b >= 0);
    struct drm_i915_gem_create ca = {.size = 8192};
    CHECK(ioctl(a, DRM_IOCTL_I915_GEM_CREATE, &ca) == 0);
    fl.handle = ca.handle;
    CHECK(ioctl(a, DRM_IOCTL_GEM_FLINK, &fl) == 0 && fl.name > 0);
    struct drm_gem_flink again = {.handle = ca.handle};
    CHECK(ioctl(a, DRM_IOCTL_GEM_FLINK, &again) == 0 && again.name == fl.name);
    struct drm_gem_open go = {.name = fl.name};
    if (ioctl(b, DRM_IOCTL_GEM_OPEN, &go) != 0) {
        CHECK(errno == EACCES && geteuid() != 0);
        printf("ok flink (GEM_OPEN on a second card0 file needs CAP_SYS_ADMIN)\n");
        CHECK(close(a) == 0 && close(b) == 0);
        return;
    }
    CHECK(go.size == 8192 && go.handle != 0);
    /* The same pages through both files. */
    uint32_t *pa = NULL, *pb = NULL;
    for (int i = 0; i < 2; i++) {
        int f = i ? b : a;
        struct drm_i915_gem_mmap_offset mo = {.handle = i ? go.handle : ca.handle,
                                              .flags = I915_MMAP_OFFSET_WB};
        if (ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) != 0) {
            CHECK(errno == ENODEV);
            mo.flags = I915_MMAP_OFFSET_FIXED;
            CHECK(ioctl(f, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) == 0);
        }
        uint32_t *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, f, mo.offset);
        CHECK(p != MAP_FAILED);
        *(i ? &pb : &pa) = p;
    }
    pa[1500] = 0xf1a6;
    CHECK(pb[1500] == 0xf1a6);
    CHECK(munmap(pa, 8192) == 0 && munmap(pb, 8192) == 0);
    /* The name lasts while any handle does. */
    struct drm_gem_close gc = {.handle = ca.handle};
    CHECK(ioctl(a, DRM_IOCTL_GEM_CLOSE, &gc) == 0);
    struct drm_gem_open go2 = {.name = fl.name};
    CHECK(ioctl(a, DRM_IOCTL_GEM_OPEN, &go2) == 0);
    gc.handle = go2.handle;
    CHECK(ioctl(a, DRM_IOCTL_GEM_CLOSE, &gc) == 0);
    CHECK(close(b) == 0); /* its handle goes with the file */
    errno = 0;
    CHECK(ioctl(a, DRM_IOCTL_GEM_OPEN, &go2) == -1 && errno == ENOENT);
    CHECK(close(a) == 0);
    printf("ok flink\n");
}

/* An empty batch on `fd` with sync-file fences (i915_drm.h: FENCE_IN fd in rsvd2's low half,
 * FENCE_OUT fd returned in its high half by the _WR ioctl). Returns the ioctl's errno (0 on
 * success) and the out-fence in *out. */
static int fenced_exec(int fd, uint32_t handle, uint64_t flags, int in, int *out) {
    struct drm_i915_gem_exec_object2 obj = {
        .handle = handle,
        .offset = 0x10000,
        .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS,
    };
    struct drm_i915_gem_execbuffer2 eb = {
        .buffers_ptr = (uintptr_t)&obj,
        .buffer_count = 1,
        .batch_len = 4096,
        .flags = I915_EXEC_RENDER | I915_EXEC_NO_RELOC | flags,
        .rsvd2 = (uint32_t)in,
    };
    if (ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb) != 0)
        return errno;
    if (out)
        *out = (int)(eb.rsvd2 >> 32);
    return 0;
}

/* Execbuf fences on `fd`, the same in the process that opened it and in a forked child: an
 * out-fence is a pollable fd that becomes readable when the batch is done, it is accepted
 * back as an in-fence (FENCE_IN, FENCE_SUBMIT), and an fd that is not a sync file is EINVAL.
 * (A dup of an out-fence is not accepted: the simulator knows it by the fd number.) */
static void check_fences(int fd) {
    struct drm_i915_gem_create create = {.size = 4096};
    CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create) == 0);
    struct drm_i915_gem_mmap_offset mo = {.handle = create.handle,
                                          .flags = I915_MMAP_OFFSET_WB};
    if (ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) != 0) {
        CHECK(errno == ENODEV);
        mo.flags = I915_MMAP_OFFSET_FIXED;
        CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) == 0);
    }
    uint32_t *cpu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mo.offset);
    CHECK(cpu != MAP_FAILED);
    cpu[0] = 0x0Au << 23; /* MI_BATCH_BUFFER_END */
    CHECK(munmap(cpu, 4096) == 0);

    int out = -1;
    CHECK(fenced_exec(fd, create.handle, I915_EXEC_FENCE_OUT, 0, &out) == 0 && out >= 0);
    struct pollfd p = {.fd = out, .events = POLLIN};
    CHECK(poll(&p, 1, 10000) == 1);
    int again = -1;
    CHECK(fenced_exec(fd, create.handle, I915_EXEC_FENCE_IN | I915_EXEC_FENCE_OUT, out, &again) == 0);
    CHECK(again >= 0 && again != out);
    CHECK(fenced_exec(fd, create.handle, I915_EXEC_FENCE_SUBMIT, out, NULL) == 0);
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    CHECK(fenced_exec(fd, create.handle, I915_EXEC_FENCE_IN, pipefd[0], NULL) == EINVAL);
    p.fd = again;
    CHECK(poll(&p, 1, 10000) == 1);
    CHECK(close(pipefd[0]) == 0 && close(pipefd[1]) == 0);
    CHECK(close(again) == 0 && close(out) == 0);
    struct drm_gem_close gc = {.handle = create.handle};
    CHECK(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc) == 0);
}

/* A BO in system memory on either driver, and a CPU mapping of it through the node. */
static uint32_t create_bo(int fd, const char *kmd, uint64_t size) {
    if (!strcmp(kmd, "xe")) {
        struct drm_xe_gem_create c = {
            .size = size, .placement = 1, .cpu_caching = DRM_XE_GEM_CPU_CACHING_WB};
        CHECK(ioctl(fd, DRM_IOCTL_XE_GEM_CREATE, &c) == 0);
        return c.handle;
    }
    struct drm_i915_gem_create c = {.size = size};
    CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c) == 0);
    return c.handle;
}

static uint32_t *map_bo(int fd, const char *kmd, uint32_t handle, size_t size) {
    uint64_t offset;
    if (!strcmp(kmd, "xe")) {
        struct drm_xe_gem_mmap_offset mo = {.handle = handle};
        CHECK(ioctl(fd, DRM_IOCTL_XE_GEM_MMAP_OFFSET, &mo) == 0);
        offset = mo.offset;
    } else {
        struct drm_i915_gem_mmap_offset mo = {.handle = handle, .flags = I915_MMAP_OFFSET_WB};
        if (ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) != 0) {
            CHECK(errno == ENODEV);
            mo.flags = I915_MMAP_OFFSET_FIXED;
            CHECK(ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo) == 0);
        }
        offset = mo.offset;
    }
    uint32_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    CHECK(p != MAP_FAILED);
    return p;
}

static int prime_export(int fd, uint32_t handle, uint32_t flags, int *out) {
    struct drm_prime_handle p = {.handle = handle, .flags = flags, .fd = -1};
    if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) != 0)
        return errno;
    *out = p.fd;
    return 0;
}

static int prime_import(int fd, int dmabuf, uint32_t *handle) {
    struct drm_prime_handle p = {.fd = dmabuf};
    if (ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p) != 0)
        return errno;
    *handle = p.handle;
    return 0;
}

static void gem_close(int fd, uint32_t handle) {
    struct drm_gem_close gc = {.handle = handle};
    CHECK(ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc) == 0);
}

/* PRIME as drm_prime.c answers it: every export of an object is an fd of one dma-buf file
 * (DRM_CLOEXEC per fd), importing it on the exporting file gives the exporting handle, on
 * another file of the GPU a handle to the same memory (the same one each time), the dma-buf
 * maps the BO's pages and its size is lseek(SEEK_END); it keeps the object alive after its
 * last handle; bad flags EINVAL, unknown handles ENOENT, an fd that is not a dma-buf EINVAL,
 * one that is not open EBADF. `handle` (on `fd`) is left exported as *kept. */
static void check_prime(int fd, const char *kmd, int *kept) {
    const size_t size = 8192;
    uint32_t h = create_bo(fd, kmd, size);
    uint32_t *cpu = map_bo(fd, kmd, h, size);
    int a = -1, b = -1, c = -1;
    CHECK(prime_export(fd, h, O_WRONLY, &a) == EINVAL);
    CHECK(prime_export(fd, h + 1000, DRM_CLOEXEC, &a) == ENOENT);
    CHECK(prime_export(fd, h, DRM_CLOEXEC | DRM_RDWR, &a) == 0 && a >= 0);
    CHECK(prime_export(fd, h, 0, &b) == 0 && b >= 0 && b != a);
    CHECK((fcntl(a, F_GETFD) & FD_CLOEXEC) && !(fcntl(b, F_GETFD) & FD_CLOEXEC));
    struct stat sa, sb;
    CHECK(fstat(a, &sa) == 0 && fstat(b, &sb) == 0);
    CHECK(sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev);
    CHECK(lseek(b, 0, SEEK_END) == (off_t)size);
    CHECK(lseek(b, 0, SEEK_SET) == 0);
    uint32_t back = 0;
    CHECK(prime_import(fd, b, &back) == 0 && back == h);

    int other = open(node, O_RDWR | O_CLOEXEC);
    CHECK(other >= 0);
    uint32_t h2 = 0, again = 0;
    CHECK(prime_import(other, a, &h2) == 0 && h2 != 0);
    CHECK(prime_import(other, b, &again) == 0 && again == h2);
    uint32_t *cpu2 = map_bo(other, kmd, h2, size);
    cpu[100] = 0xd1ab0f;
    CHECK(cpu2[100] == 0xd1ab0f);
    uint32_t *dm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, a, 0);
    CHECK(dm != MAP_FAILED);
    CHECK(dm[100] == 0xd1ab0f);
    dm[2000] = 0xfeed;
    CHECK(cpu[2000] == 0xfeed && cpu2[2000] == 0xfeed);
    CHECK(munmap(dm, size) == 0);
    CHECK(mmap(NULL, 4 * size, PROT_READ, MAP_SHARED, a, 0) == MAP_FAILED);

    /* The dma-buf keeps the object: after every handle is gone it imports again. */
    CHECK(munmap(cpu2, size) == 0);
    gem_close(other, h2);
    CHECK(prime_import(other, a, &h2) == 0);
    CHECK(prime_export(other, h2, DRM_CLOEXEC, &c) == 0);
    CHECK(fstat(c, &sb) == 0 && sb.st_ino == sa.st_ino);
    CHECK(close(c) == 0);
    gem_close(other, h2);
    CHECK(close(other) == 0);

    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    CHECK(prime_import(fd, pipefd[0], &back) == EINVAL);
    CHECK(close(pipefd[0]) == 0 && close(pipefd[1]) == 0);
    CHECK(prime_import(fd, pipefd[0], &back) == EBADF);
    CHECK(prime_import(fd, -1, &back) == EBADF);
    CHECK(close(a) == 0);
    CHECK(munmap(cpu, size) == 0);
    *kept = b;
    printf("ok prime\n");
}

static int syncobj_fd_ioctl(int fd, unsigned long req, struct drm_syncobj_handle *h) {
    return ioctl(fd, req, h) == 0 ? 0 : errno;
}

/* Syncobj fds as drm_syncobj.c answers them: an opaque fd names the syncobj in any file (a
 * new handle per import), a sync file holds its fence and polls readable once it signals;
 * the argument errors of both ioctls. */
static void check_syncobj_fds(int fd) {
    struct drm_syncobj_create sc = {0};
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc) == 0);
    struct drm_syncobj_handle h = {.handle = sc.handle, .fd = -1};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) == 0 && h.fd >= 0);
    int opaque = h.fd;
    CHECK(fcntl(opaque, F_GETFD) & FD_CLOEXEC);
    /* No fence yet: nothing to put in a sync file. */
    h = (struct drm_syncobj_handle){
        .handle = sc.handle, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) == EINVAL);
    h.handle = sc.handle + 1000;
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) == ENOENT);
    h.flags = 0;
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) == EINVAL);
    h = (struct drm_syncobj_handle){.handle = sc.handle, .flags = 2};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) == EINVAL);
    h = (struct drm_syncobj_handle){.handle = sc.handle, .pad = 1};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) == EINVAL);

    int other = open(node, O_RDWR | O_CLOEXEC);
    CHECK(other >= 0);
    h = (struct drm_syncobj_handle){.fd = opaque};
    CHECK(syncobj_fd_ioctl(other, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == 0 && h.handle);
    uint32_t imported = h.handle;
    CHECK(syncobj_fd_ioctl(other, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == 0);
    CHECK(h.handle != imported);
    struct drm_syncobj_destroy sd = {.handle = h.handle};
    CHECK(ioctl(other, DRM_IOCTL_SYNCOBJ_DESTROY, &sd) == 0);
    /* Signalled through one file, seen through the other. */
    struct drm_syncobj_array sa = {.handles = (uintptr_t)&sc.handle, .count_handles = 1};
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &sa) == 0);
    struct drm_syncobj_wait w = {.handles = (uintptr_t)&imported, .count_handles = 1};
    CHECK(ioctl(other, DRM_IOCTL_SYNCOBJ_WAIT, &w) == 0);

    h = (struct drm_syncobj_handle){
        .handle = imported, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE};
    CHECK(syncobj_fd_ioctl(other, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) == 0 && h.fd >= 0);
    int sync = h.fd;
    struct pollfd p = {.fd = sync, .events = POLLIN};
    CHECK(poll(&p, 1, 10000) == 1);
    /* Its fence into a fresh syncobj of the first file. */
    struct drm_syncobj_create fresh = {0};
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &fresh) == 0);
    w.handles = (uintptr_t)&fresh.handle;
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w) == -1 && errno == EINVAL);
    h = (struct drm_syncobj_handle){
        .handle = fresh.handle, .flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
        .fd = sync};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == 0);
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w) == 0);
    h.handle = fresh.handle + 1000;
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == ENOENT);
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    h = (struct drm_syncobj_handle){
        .handle = fresh.handle, .flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
        .fd = pipefd[0]};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == EINVAL);
    h.flags = 0;
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == EINVAL);
    h.fd = -1;
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == EINVAL);
    h = (struct drm_syncobj_handle){.fd = opaque, .pad = 1};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h) == EINVAL);
    CHECK(close(pipefd[0]) == 0 && close(pipefd[1]) == 0);
    CHECK(close(sync) == 0 && close(opaque) == 0 && close(other) == 0);
    printf("ok syncobj fds\n");
}

/* In a forked child, through the inherited file `fd`: the dma-buf fd the parent exported
 * (`dmabuf`, inherited) imports as the parent's handle, an export made in the child imports
 * back as the same handle, and syncobj fds go both ways. */
static void check_fds_in_child(int fd, const char *kmd, int dmabuf) {
    uint32_t h = 0, back = 0;
    CHECK(prime_import(fd, dmabuf, &h) == 0 && h != 0);
    int mine = -1;
    CHECK(prime_export(fd, h, DRM_CLOEXEC, &mine) == 0 && mine >= 0);
    struct stat s1, s2;
    CHECK(fstat(mine, &s1) == 0 && fstat(dmabuf, &s2) == 0 && s1.st_ino == s2.st_ino);
    CHECK(prime_import(fd, mine, &back) == 0 && back == h);
    CHECK(prime_import(fd, -1, &back) == EBADF);
    uint32_t fresh = create_bo(fd, kmd, 4096);
    int f2 = -1;
    CHECK(prime_export(fd, fresh, DRM_CLOEXEC | DRM_RDWR, &f2) == 0);
    uint32_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f2, 0);
    CHECK(p != MAP_FAILED);
    p[3] = 77;
    uint32_t *q = map_bo(fd, kmd, fresh, 4096);
    CHECK(q[3] == 77);
    CHECK(munmap(p, 4096) == 0 && munmap(q, 4096) == 0 && close(f2) == 0 && close(mine) == 0);

    struct drm_syncobj_create sc = {.flags = DRM_SYNCOBJ_CREATE_SIGNALED};
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc) == 0);
    struct drm_syncobj_handle sh = {.handle = sc.handle};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sh) == 0);
    struct drm_syncobj_handle in = {.fd = sh.fd};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &in) == 0 && in.handle);
    struct drm_syncobj_wait w = {.handles = (uintptr_t)&in.handle, .count_handles = 1};
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w) == 0);
    struct drm_syncobj_handle sf = {
        .handle = in.handle, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sf) == 0);
    struct pollfd pf = {.fd = sf.fd, .events = POLLIN};
    CHECK(poll(&pf, 1, 10000) == 1);
    struct drm_syncobj_create t = {0};
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &t) == 0);
    struct drm_syncobj_handle imp = {
        .handle = t.handle, .flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
        .fd = sf.fd};
    CHECK(syncobj_fd_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp) == 0);
    w.handles = (uintptr_t)&t.handle;
    CHECK(ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w) == 0);
    CHECK(close(sh.fd) == 0 && close(sf.fd) == 0);
}

int main(int argc, char **argv) {
    const char *kmd = argc > 1 ? argv[1] : "i915";
    check_dev_dri();
    check_sysfs(kmd);
    int fd = open_node();
    check_version(fd, kmd);
    check_card(fd, kmd);

    /* Bad argument pointers are EFAULT, not a crash. */
    errno = 0;
    CHECK(ioctl(fd, DRM_IOCTL_VERSION, (void *)8) == -1 && errno == EFAULT);

    if (!strcmp(kmd, "i915")) {
        check_i915_bo(fd);
        check_flink(fd);
        check_fences(fd);
        printf("ok fences\n");
    }
    int dmabuf = -1;
    check_prime(fd, kmd, &dmabuf);
    check_syncobj_fds(fd);

    /* A render node with no events is never readable. */
    struct pollfd p = {.fd = fd, .events = POLLIN};
    CHECK(poll(&p, 1, 0) == 0);

    /* dup shares the file; the original can go. */
    int d = dup(fd);
    CHECK(d >= 0 && close(fd) == 0);
    check_version(d, kmd);
    int d2 = fcntl(d, F_DUPFD_CLOEXEC, 100);
    CHECK(d2 >= 100);
    check_version(d2, kmd);
    CHECK(close(d2) == 0);

    /* Not a render node after close: the number is an ordinary (closed) fd again. */
    errno = 0;
    CHECK(ioctl(d2, DRM_IOCTL_VERSION, &(struct drm_version){0}) == -1 && errno == EBADF);

    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        /* The inherited file is the parent's open file, as with the kernel: its requests
           reach the parent's simulated GPU (the shim forwards them); a new open works too. */
        check_version(d, kmd);
        if (!strcmp(kmd, "i915"))
            check_fences(d);
        check_fds_in_child(d, kmd, dmabuf);
        int f = open(node, O_RDWR);
        if (f < 0)
            _exit(3);
        check_version(f, kmd);
        _exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    check_version(d, kmd);
    printf("ok fork (PRIME and syncobj fds%s in the child)\n",
           strcmp(kmd, "i915") ? "" : ", fences");
    CHECK(close(dmabuf) == 0);
    CHECK(close(d) == 0);
    printf("all ok\n");
    return 0;
}
