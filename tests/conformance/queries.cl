// Subgroup queries and sub_group_barrier (cl_khr_subgroups, cl_intel_subgroups).
// common.cl comes first (the harness puts it there).

// Eight values per work-item, at its global linear id.
#define QUERIES() SG kernel void queries(global uint *out) { \
    global uint *o = out + 8 * get_global_linear_id(); \
    o[0] = get_sub_group_size(); \
    o[1] = get_max_sub_group_size(); \
    o[2] = get_num_sub_groups(); \
    o[3] = get_enqueued_num_sub_groups(); \
    o[4] = get_sub_group_id(); \
    o[5] = get_sub_group_local_id(); \
    o[6] = get_local_linear_id(); \
    o[7] = sub_group_broadcast((uint)get_local_linear_id(), 0); }

// Each work-item reads what its right neighbour in the subgroup (cyclically) stored before the
// barrier: through local memory, through global memory, and three times round a loop. Local
// memory is indexed by sub-group and lane (SLOT): which work-items share a sub-group is the
// implementation's in 2D and 3D groups, so the local kernels also report it (SUB_GROUP_OF).
#define SLOT (get_sub_group_id() * get_max_sub_group_size() + get_sub_group_local_id())
#define NEIGHBOUR (get_sub_group_id() * get_max_sub_group_size() + \
                   (get_sub_group_local_id() + 1) % get_sub_group_size())
#define SUB_GROUP_OF() map[get_global_linear_id()] = get_sub_group_id() << 16 | get_sub_group_local_id()
#define BARRIER_LOCAL() SG kernel void barrier_local(global const uint *in, global uint *out, global uint *map) { \
    local uint tmp[1024]; \
    tmp[SLOT] = in[get_global_linear_id()]; \
    SUB_GROUP_OF(); \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE); \
    out[get_global_linear_id()] = tmp[NEIGHBOUR]; }
#define BARRIER_GLOBAL() SG kernel void barrier_global(global const uint *in, global uint *tmp, global uint *out) { \
    size_t first = get_global_linear_id() - get_local_linear_id(); \
    tmp[get_global_linear_id()] = in[get_global_linear_id()]; \
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE); \
    out[get_global_linear_id()] = tmp[first + NEIGHBOUR]; }
#define BARRIER_SCOPED() SG kernel void barrier_scoped(global const uint *in, global uint *out, global uint *map) { \
    local uint tmp[1024]; \
    uint v = in[get_global_linear_id()]; \
    SUB_GROUP_OF(); \
    for (int k = 0; k < 3; k++) { \
        tmp[SLOT] = v; \
        sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group); \
        v = tmp[NEIGHBOUR]; \
        sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group); \
    } \
    out[get_global_linear_id()] = v; }

// @instances
QUERIES()
BARRIER_LOCAL()
BARRIER_GLOBAL()
BARRIER_SCOPED()
