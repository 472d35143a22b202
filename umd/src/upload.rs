//! Making a kernel resident on a device: at its first dispatch there, its program data is
//! placed, its ISA relocated and uploaded, and its printf strings gathered ([`Resident`]).

use std::sync::Arc;

use crate::device::Inner;
use crate::driver_addresses::DriverAddresses;
use crate::error::{Error, Result};
use crate::kernel::{Description, Kernel};
use crate::payload::driver_surface_bti;
use crate::printf::strings::KernelStrings;
use crate::program::{ArgKind, Segment};
use crate::resident::Resident;
use crate::segments::relocate;

impl Kernel {
    /// This kernel on `dev`: uploaded on first use, reused afterwards.
    pub(crate) fn resident(&self, dev: &Arc<Inner>) -> Result<Arc<Resident>> {
        let mut list = self.residence.lock().unwrap_or_else(|e| e.into_inner());
        // A kernel's ISA does not change after it is made: the copy on `dev` stays right.
        if let Some(r) = list.iter().find(|r| r.isa.on(dev)) {
            return Ok(r.clone());
        }
        let r = Arc::new(upload(self, dev)?);
        list.push(r.clone());
        Ok(r)
    }
}

fn upload(kernel: &Kernel, dev: &Arc<Inner>) -> Result<Resident> {
    let mut code = kernel.isa.clone();
    let mut driver = DriverAddresses::default();
    let mut placed = Arc::default();
    let mut printf = None;
    if let Description::Ocloc(k, data) = &kernel.description {
        // With program data, every binding-table entry must be an argument's or a driver
        // surface's (bound in `build`): an unknown one might be program data and would run
        // against an unset surface.
        let program: Vec<u32> = k
            .driver_surfaces
            .iter()
            .filter_map(|s| driver_surface_bti(k, s))
            .collect();
        let unbound: Vec<u32> = k
            .binding_table
            .iter()
            .map(|e| e.index)
            .filter(|i| {
                !program.contains(i)
                    && !k.args.iter().any(|a| match &a.kind {
                        ArgKind::Buffer { bti, .. } | ArgKind::Image { bti, .. } => {
                            *bti == Some(*i)
                        }
                        _ => false,
                    })
            })
            .collect();
        if !data.is_empty() && !unbound.is_empty() {
            return Err(Error::Unsupported(format!(
                "kernel {} reads program-scope data and uses binding-table entries \
                 {unbound:?} that belong to no argument or driver surface",
                kernel.name
            )));
        }
        placed = dev.placed(data)?;
        relocate(&mut code, &k.isa_relocations, &placed)?;
        driver.constant_base = placed.base(Segment::Constant);
        driver.global_base = placed.base(Segment::Global);
        driver.constant_size = placed.size(Segment::Constant);
        driver.global_size = placed.size(Segment::Global);
        printf = KernelStrings::new(k, data, &placed);
    }
    let isa = dev.alloc_bo(code.len() as u64)?;
    isa.map.write(0, &code)?;
    Ok(Resident {
        isa,
        placed,
        driver,
        printf,
    })
}
