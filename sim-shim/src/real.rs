//! The next definition of a libc function (`dlsym(RTLD_NEXT, …)`), looked up once.

/// `real!(name: fn(args) -> ret)` evaluates to the next `name` as a function pointer, or
/// `None` when no later object defines it.
macro_rules! real {
    ($name:ident : fn($($arg:ty),* ; ...) -> $ret:ty) => {
        real!(@ $name, unsafe extern "C" fn($($arg),*, ...) -> $ret)
    };
    ($name:ident : fn($($arg:ty),*) -> $ret:ty) => {
        real!(@ $name, unsafe extern "C" fn($($arg),*) -> $ret)
    };
    (@ $name:ident, $fnty:ty) => {{
        static ADDR: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let mut addr = ADDR.load(std::sync::atomic::Ordering::Relaxed);
        if addr == 0 {
            let name = concat!(stringify!($name), "\0");
            // SAFETY: `name` is NUL-terminated; dlsym has no other precondition.
            addr = unsafe { nix::libc::dlsym(nix::libc::RTLD_NEXT, name.as_ptr().cast()) } as usize;
            ADDR.store(addr, std::sync::atomic::Ordering::Relaxed);
        }
        if addr == 0 {
            None
        } else {
            // SAFETY: the symbol is the C library's function of this name, whose C prototype
            // the macro's caller spells out.
            Some(unsafe {
                std::mem::transmute::<usize, $fnty>(addr)
            })
        }
    }};
}

pub(crate) use real;
