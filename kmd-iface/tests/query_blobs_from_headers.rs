//! Must-show 2 (oracle half): query replies are built by a C program against the installed
//! kernel headers, through the headers' own struct definitions and flexible arrays, and parsed
//! by the Rust parsers.

use std::collections::HashMap;
use std::process::Command;

use kmd_iface::hwconfig::parse_hwconfig;
use kmd_iface::i915::query::{
    parse_engine_info, parse_guc_submission_version, parse_memory_regions, parse_topology,
};
use kmd_iface::xe::query::*;

const BUILDER: &str = r#"
#include <stdio.h>
#include <string.h>
#include <drm/i915_drm.h>
#include <drm/xe_drm.h>

static unsigned char buf[4096] __attribute__((aligned(8)));

static void dump(const char *name, size_t len) {
    printf("%s ", name);
    for (size_t i = 0; i < len; i++) printf("%02x", buf[i]);
    printf("\n");
    memset(buf, 0, sizeof buf);
}

int main(void) {
    {   struct drm_i915_query_engine_info *q = (void *)buf;
        q->num_engines = 3;
        q->engines[0].engine.engine_class = I915_ENGINE_CLASS_RENDER;
        q->engines[1].engine.engine_class = I915_ENGINE_CLASS_COPY;
        q->engines[2].engine.engine_class = I915_ENGINE_CLASS_COMPUTE;
        q->engines[2].engine.engine_instance = 1;
        q->engines[2].flags = I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE;
        q->engines[2].logical_instance = 5;
        q->engines[2].capabilities = 0x3;
        dump("i915_engines", sizeof *q + 3 * sizeof q->engines[0]); }
    {   struct drm_i915_query_memory_regions *q = (void *)buf;
        q->num_regions = 2;
        q->regions[0].region.memory_class = I915_MEMORY_CLASS_SYSTEM;
        q->regions[0].probed_size = 16ull << 30;
        q->regions[0].unallocated_size = -1ull;
        q->regions[1].region.memory_class = I915_MEMORY_CLASS_DEVICE;
        q->regions[1].region.memory_instance = 0;
        q->regions[1].probed_size = 8ull << 30;
        q->regions[1].unallocated_size = 7ull << 30;
        q->regions[1].probed_cpu_visible_size = 256ull << 20;
        q->regions[1].unallocated_cpu_visible_size = 200ull << 20;
        dump("i915_regions", sizeof *q + 2 * sizeof q->regions[0]); }
    {   /* Two slices of up to 6 subslices of up to 16 EUs; slice 1 fused off. */
        struct drm_i915_query_topology_info *t = (void *)buf;
        t->max_slices = 2; t->max_subslices = 6; t->max_eus_per_subslice = 16;
        t->subslice_offset = 1; t->subslice_stride = 1;
        t->eu_offset = 1 + 2 * 1; t->eu_stride = 2;
        t->data[0] = 0x01;
        t->data[1] = 0x2d;  /* slice 0: subslices 0, 2, 3, 5 */
        t->data[2] = 0x3f;  /* slice 1 (disabled): all */
        for (int ss = 0; ss < 12; ss++) {
            t->data[3 + ss * 2] = 0xff;
            t->data[3 + ss * 2 + 1] = ss == 2 ? 0x00 : 0x0f;  /* 8 or 12 EUs */
        }
        dump("i915_topology", sizeof *t + 3 + 12 * 2); }
    {   struct drm_xe_query_engines *q = (void *)buf;
        q->num_engines = 2;
        q->engines[0].instance.engine_class = DRM_XE_ENGINE_CLASS_RENDER;
        q->engines[1].instance.engine_class = DRM_XE_ENGINE_CLASS_COMPUTE;
        q->engines[1].instance.engine_instance = 3;
        q->engines[1].instance.gt_id = 1;
        dump("xe_engines", sizeof *q + 2 * sizeof q->engines[0]); }
    {   struct drm_xe_query_mem_regions *q = (void *)buf;
        q->num_mem_regions = 2;
        q->mem_regions[0].mem_class = DRM_XE_MEM_REGION_CLASS_SYSMEM;
        q->mem_regions[0].min_page_size = 4096;
        q->mem_regions[1].mem_class = DRM_XE_MEM_REGION_CLASS_VRAM;
        q->mem_regions[1].instance = 1;
        q->mem_regions[1].min_page_size = 65536;
        q->mem_regions[1].total_size = 8ull << 30;
        q->mem_regions[1].cpu_visible_size = 256ull << 20;
        dump("xe_regions", sizeof *q + 2 * sizeof q->mem_regions[0]); }
    {   struct drm_xe_query_config *q = (void *)buf;
        q->num_params = 5;
        q->info[DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID] = 0x08ull << 16 | 0x56a1;
        q->info[DRM_XE_QUERY_CONFIG_FLAGS] = DRM_XE_QUERY_CONFIG_FLAG_HAS_VRAM;
        q->info[DRM_XE_QUERY_CONFIG_MIN_ALIGNMENT] = 65536;
        q->info[DRM_XE_QUERY_CONFIG_VA_BITS] = 48;
        q->info[DRM_XE_QUERY_CONFIG_MAX_EXEC_QUEUE_PRIORITY] = 2;
        dump("xe_config", sizeof *q + 5 * sizeof q->info[0]); }
    {   struct drm_xe_query_gt_list *q = (void *)buf;
        q->num_gt = 2;
        q->gt_list[0].type = DRM_XE_QUERY_GT_TYPE_MAIN;
        q->gt_list[0].reference_clock = 19200000;
        q->gt_list[0].near_mem_regions = 0x2;
        q->gt_list[0].ip_ver_major = 12; q->gt_list[0].ip_ver_minor = 55;
        q->gt_list[1].type = DRM_XE_QUERY_GT_TYPE_MEDIA;
        q->gt_list[1].gt_id = 1;
        dump("xe_gt_list", sizeof *q + 2 * sizeof q->gt_list[0]); }
    {   /* Variable-length records, each header followed by num_bytes of mask. */
        size_t at = 0;
        struct drm_xe_query_topology_mask *m = (void *)(buf + at);
        m->gt_id = 0; m->type = DRM_XE_TOPO_DSS_GEOMETRY; m->num_bytes = 4;
        memset(m->mask, 0xff, 4); m->mask[3] = 0x0f;
        at += sizeof *m + m->num_bytes;
        m = (void *)(buf + at);
        m->gt_id = 0; m->type = DRM_XE_TOPO_DSS_COMPUTE; m->num_bytes = 8;
        memset(m->mask, 0, 8); m->mask[0] = 0x81;
        at += sizeof *m + m->num_bytes;
        m = (void *)(buf + at);
        m->gt_id = 0; m->type = DRM_XE_TOPO_EU_PER_DSS; m->num_bytes = 1;
        m->mask[0] = 0xff;
        at += sizeof *m + m->num_bytes;
        dump("xe_topology", at); }
    {   struct drm_xe_query_engine_cycles *c = (void *)buf;
        c->eci.engine_class = DRM_XE_ENGINE_CLASS_COMPUTE;
        c->clockid = 1; c->width = 36;
        c->engine_cycles = 123456; c->cpu_timestamp = 999; c->cpu_delta = 7;
        dump("xe_cycles", sizeof *c); }
    {   struct drm_xe_query_uc_fw_version *v = (void *)buf;
        v->uc_type = XE_QUERY_UC_TYPE_HUC;
        v->branch_ver = 1; v->major_ver = 8; v->minor_ver = 4; v->patch_ver = 3;
        dump("xe_uc_fw", sizeof *v); }
    {   struct drm_i915_query_guc_submission_version *v = (void *)buf;
        v->branch = 0; v->major = 1; v->minor = 13; v->patch = 2;
        dump("i915_guc_version", sizeof *v); }
    {   unsigned int *h = (void *)buf; int n = 0;
        h[n++] = 1; h[n++] = 1; h[n++] = 2;               /* key 1: [2] */
        h[n++] = 9; h[n++] = 3; h[n++] = 4; h[n++] = 5; h[n++] = 6;  /* key 9: [4, 5, 6] */
        h[n++] = 12; h[n++] = 0;                           /* key 12: [] */
        dump("hwconfig", n * sizeof *h); }
    return 0;
}
"#;

fn blobs() -> Option<HashMap<String, Vec<u8>>> {
    let include = oracles::get(oracles::Oracle::UapiHeaders, "query_blobs_from_headers")?;
    let dir = tempfile::tempdir().unwrap();
    let (src, exe) = (dir.path().join("blobs.c"), dir.path().join("blobs"));
    std::fs::write(&src, BUILDER).unwrap();
    let cc = Command::new("gcc")
        .args(["-Wall", "-Werror", "-I"])
        .arg(&include)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("gcc must be installed");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    Some(
        text.lines()
            .map(|l| {
                let (name, hex) = l.split_once(' ').unwrap();
                let bytes = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                (name.to_string(), bytes)
            })
            .collect(),
    )
}

#[test]
fn parsers_read_blobs_the_headers_lay_out() {
    let Some(b) = blobs() else { return };

    let engines = parse_engine_info(&b["i915_engines"]).unwrap();
    assert_eq!(engines.len(), 3);
    assert_eq!((engines[1].class, engines[1].logical_instance), (1, None));
    assert_eq!(
        (
            engines[2].class,
            engines[2].instance,
            engines[2].logical_instance,
            engines[2].capabilities
        ),
        (4, 1, Some(5), 3)
    );

    let regions = parse_memory_regions(&b["i915_regions"]).unwrap();
    assert_eq!(regions.len(), 2);
    assert_eq!(regions[0].unallocated_size, u64::MAX);
    assert_eq!((regions[1].class, regions[1].probed_size), (1, 8 << 30));
    assert_eq!(regions[1].probed_cpu_visible_size, 256 << 20);
    assert_eq!(regions[1].unallocated_cpu_visible_size, 200 << 20);

    let t = parse_topology(&b["i915_topology"]).unwrap();
    assert!(t.slice_available(0) && !t.slice_available(1));
    assert!(t.subslice_available(0, 0) && !t.subslice_available(0, 1));
    assert!(
        t.subslice_available(1, 1),
        "masks are reported even for a fused-off slice"
    );
    assert!(t.eu_available(0, 2, 7) && !t.eu_available(0, 2, 8));
    assert!(t.eu_available(0, 3, 11) && !t.eu_available(0, 3, 12));
    assert_eq!(t.subslice_total(), 4);
    assert_eq!(t.eu_total(), 8 + 12 * 3);

    let xe_engines = parse_engines(&b["xe_engines"]).unwrap();
    assert_eq!(xe_engines.len(), 2);
    assert_eq!(
        (
            xe_engines[1].engine_class,
            xe_engines[1].engine_instance,
            xe_engines[1].gt_id
        ),
        (4, 3, 1)
    );

    let mem = parse_mem_regions(&b["xe_regions"]).unwrap();
    assert_eq!(mem.len(), 2);
    assert_eq!(
        (mem[1].mem_class, mem[1].instance, mem[1].min_page_size),
        (1, 1, 65536)
    );
    assert_eq!(mem[1].cpu_visible_size, 256 << 20);

    let c = parse_config(&b["xe_config"]).unwrap();
    assert_eq!(
        (c.device_id(), c.revision(), c.has_vram()),
        (Some(0x56a1), Some(8), Some(true))
    );
    assert_eq!(
        (c.min_alignment(), c.va_bits(), c.max_exec_queue_priority()),
        (Some(65536), Some(48), Some(2))
    );

    let gts = parse_gt_list(&b["xe_gt_list"]).unwrap();
    assert_eq!(gts.len(), 2);
    assert_eq!(
        (
            gts[0].reference_clock,
            gts[0].ip_ver_major,
            gts[0].ip_ver_minor
        ),
        (19_200_000, 12, 55)
    );
    assert_eq!((gts[1].r#type, gts[1].gt_id), (1, 1));

    let topo = parse_gt_topology(&b["xe_topology"]).unwrap();
    assert_eq!(topo.len(), 3);
    assert_eq!((topo[0].kind, topo[0].count()), (1, 28));
    assert_eq!(
        (topo[1].kind, topo[1].mask.len(), topo[1].count()),
        (2, 8, 2)
    );
    assert_eq!((topo[2].kind, topo[2].count()), (4, 8));

    let cy = parse_engine_cycles(&b["xe_cycles"]).unwrap();
    assert_eq!(
        (cy.eci.engine_class, cy.clockid, cy.width, cy.engine_cycles),
        (4, 1, 36, 123456)
    );
    assert_eq!((cy.cpu_timestamp, cy.cpu_delta), (999, 7));

    let uc = parse_uc_fw_version(&b["xe_uc_fw"]).unwrap();
    assert_eq!(
        (
            uc.uc_type,
            uc.branch_ver,
            uc.major_ver,
            uc.minor_ver,
            uc.patch_ver
        ),
        (1, 1, 8, 4, 3)
    );
    let guc = parse_guc_submission_version(&b["i915_guc_version"]).unwrap();
    assert_eq!((guc.branch, guc.major, guc.minor, guc.patch), (0, 1, 13, 2));

    let hw = parse_hwconfig(&b["hwconfig"]).unwrap();
    let pairs: Vec<(u32, Vec<u32>)> = hw.into_iter().map(|a| (a.key, a.values)).collect();
    assert_eq!(pairs, [(1, vec![2]), (9, vec![4, 5, 6]), (12, vec![])]);
}

#[test]
fn every_truncation_and_extension_of_a_header_blob_is_an_error() {
    let Some(b) = blobs() else { return };
    type Parser = fn(&[u8]) -> bool;
    let parsers: [(&str, Parser); 11] = [
        ("xe_uc_fw", |x| parse_uc_fw_version(x).is_ok()),
        ("i915_guc_version", |x| {
            parse_guc_submission_version(x).is_ok()
        }),
        ("i915_engines", |x| parse_engine_info(x).is_ok()),
        ("i915_regions", |x| parse_memory_regions(x).is_ok()),
        ("i915_topology", |x| parse_topology(x).is_ok()),
        ("xe_engines", |x| parse_engines(x).is_ok()),
        ("xe_regions", |x| parse_mem_regions(x).is_ok()),
        ("xe_config", |x| parse_config(x).is_ok()),
        ("xe_gt_list", |x| parse_gt_list(x).is_ok()),
        ("xe_topology", |x| parse_gt_topology(x).is_ok()),
        ("xe_cycles", |x| parse_engine_cycles(x).is_ok()),
    ];
    for (name, ok) in parsers {
        let blob = &b[name];
        assert!(ok(blob), "{name} parses whole");
        for cut in 0..blob.len() {
            // A topology blob cut exactly between records is a valid shorter list.
            let boundary = name == "xe_topology" && [0, 12, 28].contains(&cut);
            assert_eq!(ok(&blob[..cut]), boundary, "{name} cut to {cut} bytes");
        }
        let mut longer = blob.clone();
        longer.extend_from_slice(&[0; 4]);
        // Four zero bytes are an incomplete next topology record (its header is 8 bytes).
        assert!(!ok(&longer), "{name} with 4 trailing bytes");
    }
    for cut in 1..b["hwconfig"].len() {
        let whole_records = [12, 32, 40].contains(&cut);
        assert_eq!(
            parse_hwconfig(&b["hwconfig"][..cut]).is_ok(),
            whole_records,
            "hwconfig cut {cut}"
        );
    }
}
