//! Real IGC kernels: OpenCL C compiled by ocloc (zebin), the thread payload built by hand from
//! the kernel's `.ze_info` (r0 with the group id, local IDs, then cross-thread data), run on
//! the interpreter and checked against a CPU reference written from the OpenCL spec.

// Lanes index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::eu_support as support;
use crate::zebin;

use platform::Platform;
use support::*;
use zebin::*;

#[test]
fn igc_buffer_kernel_matches_the_cpu_reference() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "__kernel void add1(__global const int *a, __global int *b, int k) {
        size_t i = get_global_id(0);
        b[i] = a[i] * k + (int)i;
    }";
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let bin = oracles::ocloc::compile(
            &ocloc,
            p,
            src,
            "-cl-std=CL2.0",
            oracles::ocloc::Format::Zebin,
        )
        .unwrap();
        let k = ze_kernel(&bin, "add1");
        let n = 96usize;
        let (a_at, b_at) = (BASE, BASE + 0x1000);
        let mut mem = TestMem::new(BASE, 0x8000);
        let a: Vec<u32> = values(n, 11);
        mem.put_u32s(a_at, &a);
        let kv = 0x1234_5677u32;
        dispatch(
            p,
            &k,
            &mut mem,
            3,
            32,
            &[
                (a_at, 4 * n as u64),
                (b_at, 4 * n as u64),
                (u64::from(kv), 4),
            ],
        );
        for i in 0..n {
            let want = (a[i] as i32).wrapping_mul(kv as i32).wrapping_add(i as i32) as u32;
            assert_eq!(mem.u32_at(b_at + 4 * i as u64), want, "{p} b[{i}]");
        }
    }
}

#[test]
fn igc_subgroup_shuffle_reduce_and_block_io() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
    __kernel void sg(__global uint *a, __global uint *b) {
        uint i = get_global_id(0);
        uint x = intel_sub_group_block_read(a + get_group_id(0) * 16);
        uint s = intel_sub_group_shuffle(x, (get_sub_group_local_id() + 3) & 15);
        uint r = sub_group_reduce_add(x);
        uint m = sub_group_reduce_max(x);
        b[i] = s;
        b[64 + i] = r;
        b[128 + i] = m;
        intel_sub_group_block_write(b + 192 + get_group_id(0) * 16, x ^ 0x5a5a);
    }";
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let k = compile(&ocloc, p, src, "sg");
        let n = 64usize;
        let (a_at, b_at) = (BASE, BASE + 0x1000);
        let mut mem = TestMem::new(BASE, 0x8000);
        let a: Vec<u32> = values(n, 21).iter().map(|v| v & 0xffff).collect();
        mem.put_u32s(a_at, &a);
        dispatch(
            p,
            &k,
            &mut mem,
            4,
            16,
            &[(a_at, 4 * n as u64), (b_at, 4 * 256)],
        );
        for i in 0..n {
            let g = i / 16;
            let sub = &a[g * 16..g * 16 + 16];
            let b = |j: usize| mem.u32_at(b_at + 4 * j as u64);
            assert_eq!(b(i), sub[(i % 16 + 3) & 15], "{p} shuffle {i}");
            assert_eq!(b(64 + i), sub.iter().sum::<u32>(), "{p} reduce_add {i}");
            assert_eq!(b(128 + i), *sub.iter().max().unwrap(), "{p} reduce_max {i}");
            assert_eq!(b(192 + i), a[i] ^ 0x5a5a, "{p} block write {i}");
        }
    }
}

#[test]
fn igc_local_memory_and_barrier() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
    __kernel void rev(__global const uint *a, __global uint *b, __local uint *tmp) {
        uint l = get_local_id(0);
        uint n = get_local_size(0);
        tmp[l] = a[get_global_id(0)] + 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        b[get_global_id(0)] = tmp[n - 1 - l];
    }";
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let k = compile(&ocloc, p, src, "rev");
        let n = 128usize;
        let (a_at, b_at) = (BASE, BASE + 0x1000);
        let mut mem = TestMem::new(BASE, 0x8000);
        let a = values(n, 31);
        mem.put_u32s(a_at, &a);
        dispatch(
            p,
            &k,
            &mut mem,
            2,
            64,
            &[(a_at, 4 * n as u64), (b_at, 4 * n as u64), (0, 0)],
        );

        for i in 0..n {
            let (g, l) = (i / 64, i % 64);
            let want = a[g * 64 + 63 - l].wrapping_add(1);
            assert_eq!(mem.u32_at(b_at + 4 * i as u64), want, "{p} b[{i}]");
        }
    }
}
