//! Why a kernel could not be translated.

/// A translation failure; the interpreter then runs the kernel as it is.
#[derive(Debug, thiserror::Error)]
pub enum JitError {
    /// Cranelift has no code generator for this host, or refused its settings.
    #[error("no Cranelift code generator for this host: {0}")]
    Setup(String),
    /// Cranelift rejected a generated function (a translator bug).
    #[error("Cranelift rejected a translated run: {0}")]
    Compile(String),
    #[error("Cranelift module: {0}")]
    Module(Box<cranelift_module::ModuleError>),
}

impl From<cranelift_module::ModuleError> for JitError {
    fn from(e: cranelift_module::ModuleError) -> JitError {
        JitError::Module(Box::new(e))
    }
}
