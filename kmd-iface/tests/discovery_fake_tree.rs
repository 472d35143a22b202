//! Discovery on a fake /dev/dri + sysfs tree, with a fake opener answering DRM VERSION; and the
//! real opener's errors for paths that are not render nodes.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use kmd_iface::discovery::{discover_in, render_nodes, Driver, Skipped};
use kmd_iface::drm_core::uapi::drm_version;
use kmd_iface::render_node::RenderNode;
use kmd_iface::seam::{DeviceFile, Errno};
use kmd_iface::Error;
use platform::Platform;
use support::{write_user, FakeDevice};

/// A device whose VERSION answers `name`.
fn answering(name: &'static str) -> Arc<dyn DeviceFile> {
    let fake = FakeDevice::new();
    fake.on(move |v: &mut drm_version| {
        v.name_len = name.len() as u64;
        Ok(0)
    });
    fake.on(move |v: &mut drm_version| {
        // SAFETY: `name` is the wrapper's buffer of name_len bytes.
        unsafe { write_user(v.name, name.as_bytes()) };
        Ok(0)
    });
    fake
}

fn touch(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn finds_intel_nodes_tells_i915_from_xe_and_maps_pci_ids() {
    let root = tempfile::tempdir().unwrap();
    let dev = root.path().join("dev/dri");
    let sys = root.path().join("sys/class/drm");
    for n in [
        "card0",
        "card1",
        "renderD128",
        "renderD129",
        "renderD130",
        "renderD131",
        "renderDx",
    ] {
        touch(&dev.join(n), "");
    }
    touch(&sys.join("renderD128/device/vendor"), "0x8086\n");
    touch(&sys.join("renderD128/device/device"), "0x56a0\n");
    touch(&sys.join("renderD129/device/vendor"), "0x1002\n");
    touch(&sys.join("renderD130/device/vendor"), "0x8086\n");
    touch(&sys.join("renderD130/device/device"), "0x9a49\n");
    // renderD131 has no sysfs entry (e.g. a virtual device).

    let open = |p: &Path| -> kmd_iface::Result<Arc<dyn DeviceFile>> {
        match p.file_name().unwrap().to_str().unwrap() {
            "renderD128" => Ok(answering("xe")),
            "renderD130" => Ok(answering("i915")),
            "renderD131" => Ok(answering("vgem")),
            other => panic!("{other} should not be opened"),
        }
    };
    let d = discover_in(&dev, &sys, &open).unwrap();

    assert_eq!(d.found.len(), 2);
    let xe = &d.found[0];
    assert!(xe.path.ends_with("renderD128"));
    assert_eq!((xe.driver, xe.device_id), (Driver::Xe, Some(0x56A0)));
    assert_eq!(xe.pci.unwrap().platform, Platform::Dg2);
    let i915 = &d.found[1];
    assert_eq!((i915.driver, i915.device_id), (Driver::I915, Some(0x9A49)));
    assert_eq!(i915.pci.unwrap().platform, Platform::Tgllp);

    assert_eq!(d.skipped.len(), 2);
    assert!(matches!(
        d.skipped[0].1,
        Skipped::NotIntel { vendor: 0x1002 }
    ));
    assert!(matches!(&d.skipped[1].1, Skipped::OtherDriver { name } if name == "vgem"));
}

#[test]
fn render_nodes_are_listed_by_minor_number() {
    let root = tempfile::tempdir().unwrap();
    for n in ["renderD130", "renderD128", "card0", "renderD129"] {
        touch(&root.path().join(n), "");
    }
    let names: Vec<String> = render_nodes(root.path())
        .unwrap()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["renderD128", "renderD129", "renderD130"]);
}

#[test]
fn a_node_that_fails_to_open_is_skipped_with_its_error() {
    let root = tempfile::tempdir().unwrap();
    touch(&root.path().join("dev/renderD128"), "");
    let open = |p: &Path| -> kmd_iface::Result<Arc<dyn DeviceFile>> {
        Err(Error::Open {
            path: p.to_owned(),
            errno: Errno::EACCES,
        })
    };
    let d = discover_in(&root.path().join("dev"), &root.path().join("sys"), &open).unwrap();
    assert!(d.found.is_empty());
    assert!(matches!(
        d.skipped[0].1,
        Skipped::Failed(Error::Open {
            errno: Errno::EACCES,
            ..
        })
    ));
}

#[test]
fn opening_a_missing_node_names_the_path_and_errno() {
    let path = Path::new("/nonexistent-dir/dri/renderD128");
    match RenderNode::open(path) {
        Err(Error::Open { path: p, errno }) => {
            assert_eq!(p, path);
            assert_eq!(errno, Errno::ENOENT);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn files_that_are_not_render_nodes_are_refused() {
    let f = tempfile::NamedTempFile::new().unwrap();
    assert!(matches!(
        RenderNode::open(f.path()),
        Err(Error::NotRenderNode { .. })
    ));
    // A character device, but not DRM.
    assert!(matches!(
        RenderNode::open(Path::new("/dev/null")),
        Err(Error::NotRenderNode { .. })
    ));
}

#[test]
fn kmd_picks_the_wrapper_by_driver_name() {
    use kmd_iface::Kmd;
    assert_eq!(Kmd::new(answering("xe")).unwrap().driver(), Driver::Xe);
    assert_eq!(Kmd::new(answering("i915")).unwrap().driver(), Driver::I915);
    assert!(matches!(
        Kmd::new(answering("amdgpu")),
        Err(Error::UnsupportedDriver { name }) if name == "amdgpu"
    ));
}
