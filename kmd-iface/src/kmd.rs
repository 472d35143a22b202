//! One open device, whichever kernel driver is behind it.

use std::sync::Arc;

use crate::discovery::Driver;
use crate::drm_core::version;
use crate::error::{Error, Result};
use crate::i915::I915;
use crate::seam::DeviceFile;
use crate::xe::Xe;

/// An i915 or xe device, chosen by the file's DRM VERSION name. Works the same on a render node
/// and on the simulator.
#[derive(Debug, Clone)]
pub enum Kmd {
    I915(I915),
    Xe(Xe),
}

impl Kmd {
    /// Asks `file` which driver it is and wraps it accordingly.
    pub fn new(file: Arc<dyn DeviceFile>) -> Result<Self> {
        let v = version(&*file)?;
        match Driver::from_version_name(&v.name) {
            Some(Driver::I915) => Ok(Kmd::I915(I915::new(file))),
            Some(Driver::Xe) => Ok(Kmd::Xe(Xe::new(file))),
            None => Err(Error::UnsupportedDriver { name: v.name }),
        }
    }

    pub fn driver(&self) -> Driver {
        match self {
            Kmd::I915(_) => Driver::I915,
            Kmd::Xe(_) => Driver::Xe,
        }
    }

    pub fn file(&self) -> &dyn DeviceFile {
        match self {
            Kmd::I915(d) => d.file(),
            Kmd::Xe(d) => d.file(),
        }
    }
}
