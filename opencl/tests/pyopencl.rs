//! PyOpenCL (Debian's python3-pyopencl under /usr/bin/python3) through the ocl-icd loader on
//! every simulated device: kernels built from OpenCL C and from SPIR-V (made by the ocloc
//! oracle's `-spv_only`), results checked against CPU references in `python/kernels.py`.

mod support;

use oracles::{require, Oracle, Platform};

const AXPY: &str = "kernel void axpy(global const float* x, global float* y, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
";

#[test]
fn pyopencl_runs_kernels_on_each_simulated_device() {
    let python = require!(Oracle::PyOpenCl);
    let ocloc = require!(Oracle::Ocloc);
    let icd = support::icd();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/kernels.py");
    for dev in support::SIM_DEVICES {
        let p: Platform = dev.trim_start_matches("sim:").parse().unwrap();
        let spv = oracles::ocloc::build(
            &ocloc,
            p,
            ("axpy.cl", AXPY.as_bytes()),
            "",
            &["-spv_only"],
            "out.spv",
        )
        .expect("ocloc -spv_only");
        let spv_file = icd.dir.path().join(format!("axpy-{}.spv", p.name()));
        std::fs::write(&spv_file, spv).unwrap();
        let mut cmd = support::command(&python, &icd, dev);
        cmd.arg(script).arg(&spv_file);
        let out = support::run(&mut cmd);
        assert!(!out.contains("FAIL"), "{dev}:\n{out}");
        assert!(out.contains("ok   program from SPIR-V"), "{dev}:\n{out}");
        assert!(out.contains("ok   sub-group built-ins"), "{dev}:\n{out}");
    }
}

/// Buffer copies and fills (the copy engine on tgllp and dg2, the queue's thread on skl and
/// icllp) against numpy's memcpy/memset (`python/blit.py`).
#[test]
fn pyopencl_copies_and_fills_on_each_simulated_device() {
    let python = require!(Oracle::PyOpenCl);
    let icd = support::icd();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/blit.py");
    for dev in support::SIM_DEVICES {
        let out = support::run(support::command(&python, &icd, dev).arg(script));
        assert!(!out.contains("FAIL"), "{dev}:\n{out}");
        assert!(
            out.contains("ok   fill on a second queue after the copy"),
            "{dev}:\n{out}"
        );
    }
}

/// The execution model from PyOpenCL: user events, in-order and out-of-order queues, callbacks,
/// failed dependencies, markers, barriers and profiling (`python/events.py`).
#[test]
fn pyopencl_execution_model_on_each_simulated_device() {
    let python = require!(Oracle::PyOpenCl);
    let icd = support::icd();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/events.py");
    for dev in support::SIM_DEVICES {
        let out = support::run(support::command(&python, &icd, dev).arg(script));
        assert!(!out.contains("FAIL"), "{dev}:\n{out}");
        assert!(
            out.contains("ok   kernel behind the barrier ran"),
            "{dev}:\n{out}"
        );
    }
}

/// By-value char, uchar, short, ushort, char2, char3 (and half where reported) arguments set
/// with their OpenCL type's size, the wrong sizes refused, and argument information only on
/// request (`python/small_args.py`), on every simulated device.
#[test]
fn pyopencl_small_by_value_arguments_on_each_simulated_device() {
    let python = require!(Oracle::PyOpenCl);
    let icd = support::icd();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/small_args.py");
    for dev in support::SIM_DEVICES {
        let out = support::run(support::command(&python, &icd, dev).arg(script));
        assert!(!out.contains("FAIL"), "{dev}:\n{out}");
        assert!(
            out.contains("ok   char, short, uchar, char2, ushort, char3 arguments"),
            "{dev}:\n{out}"
        );
        assert!(
            out.contains("ok   arg type names with -cl-kernel-arg-info"),
            "{dev}:\n{out}"
        );
    }
}

/// cl_khr_fp16 on every simulated device: the extension and its queries, and half arithmetic,
/// conversions in each rounding mode and sub-group reductions against numpy's float16
/// (`python/half.py`).
#[test]
fn pyopencl_half_precision_matches_numpy_on_each_simulated_device() {
    let python = require!(Oracle::PyOpenCl);
    let icd = support::icd();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/half.py");
    for dev in support::SIM_DEVICES {
        let out = support::run(support::command(&python, &icd, dev).arg(script));
        assert!(!out.contains("FAIL"), "{dev}:\n{out}");
        for line in [
            "ok   half fma as numpy float16",
            "ok   convert_half_rtz as numpy",
            "ok   convert_half_rtn as numpy",
            "ok   sub_group_reduce_add(half)",
        ] {
            assert!(out.contains(line), "{dev}: no {line:?}:\n{out}");
        }
    }
}

/// Images and samplers (`python/images.py`): image queries at OpenCL 3.0's minimums, the
/// minimum format list, cl.Image 2D/3D/1D-array round trips through enqueue_copy, read_imagef
/// through nearest and linear samplers, write_imageui and 3D write_imagef, against numpy, on
/// every simulated device reporting images.
#[test]
fn pyopencl_images_and_samplers_on_each_simulated_device() {
    let python = require!(Oracle::PyOpenCl);
    let icd = support::icd();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/images.py");
    for dev in support::SIM_DEVICES {
        let out = support::run(support::command(&python, &icd, dev).arg(script));
        assert!(!out.contains("FAIL"), "{dev}:\n{out}");
        for line in [
            "ok   CL_DEVICE_IMAGE_SUPPORT",
            "ok   read_imagef linear, sampler argument",
            "ok   write_imageui to RGBA uint8",
            "ok   write_imagef to a 3D image",
            "ok   read_imageui from a 1D array",
        ] {
            assert!(out.contains(line), "{dev}: no {line:?}:\n{out}");
        }
    }
}
