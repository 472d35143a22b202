fn main() {
    // The ICD loader (libOpenCL) exports the same cl* names this library does; bind this
    // library's own references to its own definitions, not the loader's.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic");
}
