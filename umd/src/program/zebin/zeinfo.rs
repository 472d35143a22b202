//! The `.ze_info` YAML schema (the keys NEO's zeinfo decoder reads), as serde types.
//! Keys we do not use are ignored, as NEO does for forward compatibility.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct ZeInfo {
    pub version: Option<String>,
    #[serde(default)]
    pub kernels: Vec<ZeKernel>,
    #[serde(default)]
    pub kernels_misc_info: Vec<MiscInfo>,
}

#[derive(Debug, Deserialize)]
pub struct ZeKernel {
    pub name: String,
    #[serde(default)]
    pub user_attributes: UserAttributes,
    pub execution_env: ExecutionEnv,
    #[serde(default)]
    pub payload_arguments: Vec<PayloadArgument>,
    #[serde(default)]
    pub per_thread_payload_arguments: Vec<PerThreadArgument>,
    #[serde(default)]
    pub binding_table_indices: Vec<BindingTableIndex>,
    #[serde(default)]
    pub per_thread_memory_buffers: Vec<PerThreadMemoryBuffer>,
}

#[derive(Debug, Default, Deserialize)]
pub struct UserAttributes {
    pub intel_reqd_sub_group_size: Option<u32>,
    pub reqd_work_group_size: Option<Vec<u32>>,
    pub work_group_size_hint: Option<Vec<u32>>,
    pub vec_type_hint: Option<String>,
    /// `intel_reqd_workgroup_walk_order`: the kernel requires the order (NEO then keeps it
    /// when choosing the hardware's).
    pub intel_reqd_workgroup_walk_order: Option<Vec<i64>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct ExecutionEnv {
    pub simd_size: u32,
    pub required_sub_group_size: Option<u32>,
    pub required_work_group_size: Option<Vec<u32>>,
    pub grf_count: Option<u32>,
    #[serde(default)]
    pub barrier_count: u32,
    #[serde(default)]
    pub slm_size: u32,
    #[serde(default)]
    pub private_size: u32,
    #[serde(default)]
    pub spill_size: u32,
    #[serde(default)]
    pub has_no_stateless_write: bool,
    #[serde(default)]
    pub offset_to_skip_per_thread_data_load: u32,
    #[serde(default)]
    pub offset_to_skip_set_ffid_gp: u32,
    #[serde(default)]
    pub inline_data_payload_size: u32,
    /// Dimensions fastest first; absent means 0, 1, 2.
    pub work_group_walk_order_dimensions: Option<Vec<i64>>,
}

#[derive(Debug, Deserialize)]
pub struct PayloadArgument {
    pub arg_type: String,
    #[serde(default)]
    pub offset: u32,
    #[serde(default)]
    pub size: u32,
    pub arg_index: Option<u32>,
    pub addrmode: Option<String>,
    pub addrspace: Option<String>,
    pub access_type: Option<String>,
    pub sampler_index: Option<u32>,
    #[serde(default)]
    pub source_offset: u32,
    pub slm_alignment: Option<u32>,
    pub image_type: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct PerThreadArgument {
    pub arg_type: String,
    #[serde(default)]
    pub offset: u32,
    pub size: u32,
}

#[derive(Debug, Deserialize)]
pub struct BindingTableIndex {
    pub bti_value: u32,
    pub arg_index: u32,
}

#[derive(Debug, Deserialize)]
pub struct PerThreadMemoryBuffer {
    #[serde(rename = "type")]
    pub alloc_type: String,
    pub usage: String,
    pub size: u32,
    #[serde(default)]
    pub slot: u32,
    #[serde(default)]
    pub is_simt_thread: bool,
}

#[derive(Debug, Deserialize)]
pub struct MiscInfo {
    pub name: String,
    #[serde(default)]
    pub args_info: Vec<ArgsInfo>,
}

#[derive(Debug, Deserialize)]
pub struct ArgsInfo {
    pub index: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub address_qualifier: String,
    #[serde(default)]
    pub access_qualifier: String,
    #[serde(default)]
    pub type_name: String,
    #[serde(default)]
    pub type_qualifiers: String,
}
