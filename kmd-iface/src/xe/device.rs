//! An xe device file.

use std::sync::Arc;

use crate::seam::DeviceFile;

/// An open xe render node (or the simulator's xe personality). The wrappers in this module's
/// files are its methods; each issues one uAPI call through the [`DeviceFile`] seam.
#[derive(Debug, Clone)]
pub struct Xe {
    file: Arc<dyn DeviceFile>,
}

impl Xe {
    pub fn new(file: Arc<dyn DeviceFile>) -> Self {
        Xe { file }
    }

    pub fn file(&self) -> &dyn DeviceFile {
        &*self.file
    }
}
