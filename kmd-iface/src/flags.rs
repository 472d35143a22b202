//! The uAPI's flag sets as `bitflags` types, shared by the wrappers and the simulator that
//! decodes the same fields. Each flag is one of the header-checked constants of `*/uapi.rs`
//! (so `tests/layout_vs_headers.rs` has compared its value with the installed headers), and
//! [`all_flag_sets`] lists them by their C names for a test to tie the two together.

/// One flag set: its Rust name and each flag's header constant (C name, value).
#[derive(Debug, Clone, Copy)]
pub struct FlagSet {
    pub name: &'static str,
    pub flags: &'static [(&'static str, i64)],
}

/// Declares a `bitflags` type whose flags are uAPI constants, and its [`FlagSet`].
macro_rules! uapi_flags {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $ty:ty { $( $flag:ident = $c:ident; )* }
    )*) => {
        $(
            bitflags::bitflags! {
                $(#[doc = $doc])*
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
                pub struct $name: $ty {
                    $( #[doc = concat!("`", stringify!($c), "`")] const $flag = $c; )*
                }
            }
        )*
        /// Every flag set of this module.
        pub const SETS: &[super::FlagSet] = &[
            $( super::FlagSet {
                name: stringify!($name),
                flags: &[ $( (stringify!($c), $c as i64), )* ],
            }, )*
        ];
    };
}

/// DRM core flags.
pub mod drm {
    use crate::drm_core::uapi::*;

    uapi_flags! {
        /// `drm_syncobj_wait.flags`.
        SyncobjWaitFlags: u32 {
            WAIT_ALL = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
            WAIT_FOR_SUBMIT = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
            WAIT_AVAILABLE = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
            WAIT_DEADLINE = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE;
        }
    }
}

/// i915 flags.
pub mod i915 {
    use crate::i915::uapi::*;

    uapi_flags! {
        /// `drm_i915_gem_execbuffer2.flags` besides the engine selector (`I915_EXEC_RING_MASK`
        /// bits, or an engine-map index), which is a number, not a flag.
        ExecFlags: u64 {
            NO_RELOC = I915_EXEC_NO_RELOC;
            HANDLE_LUT = I915_EXEC_HANDLE_LUT;
            FENCE_IN = I915_EXEC_FENCE_IN;
            FENCE_OUT = I915_EXEC_FENCE_OUT;
            BATCH_FIRST = I915_EXEC_BATCH_FIRST;
            FENCE_ARRAY = I915_EXEC_FENCE_ARRAY;
            FENCE_SUBMIT = I915_EXEC_FENCE_SUBMIT;
            USE_EXTENSIONS = I915_EXEC_USE_EXTENSIONS;
        }
        /// `drm_i915_gem_exec_object2.flags`.
        ExecObjectFlags: u64 {
            NEEDS_FENCE = EXEC_OBJECT_NEEDS_FENCE;
            NEEDS_GTT = EXEC_OBJECT_NEEDS_GTT;
            WRITE = EXEC_OBJECT_WRITE;
            SUPPORTS_48B_ADDRESS = EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
            PINNED = EXEC_OBJECT_PINNED;
            PAD_TO_SIZE = EXEC_OBJECT_PAD_TO_SIZE;
            ASYNC = EXEC_OBJECT_ASYNC;
            CAPTURE = EXEC_OBJECT_CAPTURE;
        }
        /// `drm_i915_gem_exec_fence.flags` (the `I915_EXEC_FENCE_ARRAY` entries).
        ExecFenceFlags: u32 {
            WAIT = I915_EXEC_FENCE_WAIT;
            SIGNAL = I915_EXEC_FENCE_SIGNAL;
        }
        /// `drm_i915_gem_userptr.flags`.
        UserptrFlags: u32 {
            READ_ONLY = I915_USERPTR_READ_ONLY;
            PROBE = I915_USERPTR_PROBE;
            UNSYNCHRONIZED = I915_USERPTR_UNSYNCHRONIZED;
        }
        /// `drm_i915_gem_create_ext.flags`.
        GemCreateExtFlags: u32 {
            NEEDS_CPU_ACCESS = I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS;
        }
        /// `drm_i915_gem_context_create_ext.flags`.
        ContextCreateFlags: u32 {
            USE_EXTENSIONS = I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS;
            SINGLE_TIMELINE = I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE;
        }
    }
}

/// xe flags.
pub mod xe {
    use crate::xe::uapi::*;

    uapi_flags! {
        /// `drm_xe_gem_create.flags`.
        GemCreateFlags: u32 {
            DEFER_BACKING = DRM_XE_GEM_CREATE_FLAG_DEFER_BACKING;
            SCANOUT = DRM_XE_GEM_CREATE_FLAG_SCANOUT;
            NEEDS_VISIBLE_VRAM = DRM_XE_GEM_CREATE_FLAG_NEEDS_VISIBLE_VRAM;
        }
        /// `drm_xe_vm_create.flags`.
        VmCreateFlags: u32 {
            SCRATCH_PAGE = DRM_XE_VM_CREATE_FLAG_SCRATCH_PAGE;
            LR_MODE = DRM_XE_VM_CREATE_FLAG_LR_MODE;
            FAULT_MODE = DRM_XE_VM_CREATE_FLAG_FAULT_MODE;
        }
        /// `drm_xe_vm_bind_op.flags`.
        VmBindFlags: u32 {
            READONLY = DRM_XE_VM_BIND_FLAG_READONLY;
            IMMEDIATE = DRM_XE_VM_BIND_FLAG_IMMEDIATE;
            NULL = DRM_XE_VM_BIND_FLAG_NULL;
            DUMPABLE = DRM_XE_VM_BIND_FLAG_DUMPABLE;
        }
        /// `drm_xe_sync.flags`.
        SyncFlags: u32 {
            SIGNAL = DRM_XE_SYNC_FLAG_SIGNAL;
        }
        /// `drm_xe_wait_user_fence.flags`.
        UfenceWaitFlags: u16 {
            ABSTIME = DRM_XE_UFENCE_WAIT_FLAG_ABSTIME;
        }
    }
}

/// Every flag set the crate defines.
pub fn all_flag_sets() -> impl Iterator<Item = &'static FlagSet> {
    [drm::SETS, i915::SETS, xe::SETS].into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each flag is the header-checked constant of its C name, and no two flags of a set
    /// share a bit.
    #[test]
    fn flags_are_the_checked_constants() {
        let consts: std::collections::HashMap<_, _> =
            crate::all_consts().map(|c| (c.name, c.value)).collect();
        for set in all_flag_sets() {
            let mut seen = 0i64;
            for &(name, value) in set.flags {
                assert_eq!(consts.get(name), Some(&value), "{}: {name}", set.name);
                assert_eq!(value.count_ones(), 1, "{}: {name} is one bit", set.name);
                assert_eq!(seen & value, 0, "{}: {name} overlaps", set.name);
                seen |= value;
            }
        }
    }
}
