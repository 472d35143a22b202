//! A kernel's device-side state, set up at its first dispatch on a device (`upload.rs`) and
//! kept while the kernel lives: the ISA (relocated for the program's data) in its own BO at
//! Instruction Base Address, and the program-scope data segments. The kernel holds it, so
//! this file names no kernel type.

use std::sync::{Arc, Mutex};

use crate::driver_addresses::DriverAddresses;
use crate::memory::Bo;
use crate::printf::strings::KernelStrings;
use crate::segments::Placed;

/// One device's copy of a kernel.
#[derive(Debug)]
pub(crate) struct Resident {
    pub isa: Arc<Bo>,
    /// The program's data segments; their BOs are part of every submission.
    pub placed: Arc<Placed>,
    /// The constant and global segments' addresses and sizes.
    pub driver: DriverAddresses,
    /// The strings its printf records name, when it calls printf.
    pub printf: Option<Arc<KernelStrings>>,
}

/// The devices a kernel (and its clones) is resident on.
pub(crate) type Residence = Arc<Mutex<Vec<Arc<Resident>>>>;
