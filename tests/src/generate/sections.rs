//! What the big (`big`) and mixed (`mixed`) kernels share: sections, each under its own bit of
//! a uniform `mask`, whose sources are loaded from regions of `in` (region r at byte
//! `r * stride`, element `i = get_global_id(0)`) before the first branch and whose first
//! source `a{j}` is copied to region 2j + 1 of `out` after the last, and a file of such
//! kernels as object-like macros.

/// The statement loading `var`, of type `t`, from element i of region `region` of `in`.
pub fn load(t: &str, var: &str, region: usize) -> String {
    format!("{t} {var} = ((global const {t} *)(in + {region} * stride))[i];")
}

/// The macro lines copying each enabled section's `a{j}` (of type `types[j]`) to region
/// 2j + 1 of `out`, after every section ran.
pub fn copy_out<'a>(types: impl IntoIterator<Item = &'a str>) -> String {
    let mut s = String::new();
    for (j, t) in types.into_iter().enumerate() {
        s.push_str(&format!(
            "  if (mask & (1u << {j})) ((global {t} *)(out + {r} * stride))[i] = a{j}; \\\n",
            r = 2 * j + 1
        ));
    }
    s
}

/// A file of `count` kernels `kernel(k)`, each the object-like macro `{name}_k`, instantiated
/// as `{name}(k)`, after `header` (a comment and the macros they use).
pub fn file(header: &str, name: &str, count: usize, kernel: impl Fn(usize) -> String) -> String {
    let mut s = String::from(header);
    s.push_str(&format!("#define {name}(k) {name}_##k\n"));
    for k in 0..count {
        s.push_str(&kernel(k));
    }
    s.push_str("// @instances\n");
    for k in 0..count {
        s.push_str(&format!("{name}({k})\n"));
    }
    s
}
