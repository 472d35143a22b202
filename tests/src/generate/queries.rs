//! The subgroup queries (cl_khr_subgroups, cl_intel_subgroups), one kernel per function; the
//! references run each over 1D, 2D and 3D ranges with full, partial and single-lane
//! subgroups and partial work-groups (`cases::generated_queries`).

use super::line;

/// The queries, each returning a uint.
pub const QUERIES: [&str; 6] = [
    "get_sub_group_size",
    "get_max_sub_group_size",
    "get_num_sub_groups",
    "get_enqueued_num_sub_groups",
    "get_sub_group_id",
    "get_sub_group_local_id",
];

const PRELUDE: &str = r#"// Generated (tests/src/generate/queries.rs): each query's value at the work-item's global
// linear id.
#define G_QUERY(F) SG kernel void g_query_##F(global uint *out) { out[get_global_linear_id()] = F(); }
"#;

pub fn text() -> String {
    let mut s = String::from(PRELUDE);
    s.push_str("// @instances\n");
    for q in QUERIES {
        s.push_str(&line("G_QUERY", &[q]));
        s.push('\n');
    }
    s
}
