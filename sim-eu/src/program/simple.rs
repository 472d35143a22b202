//! Instructions the fast path's block runs without the general path's set-up: a send with a
//! classified form ([`crate::dataport::quick`]), or one that does nothing in a functional
//! simulator (`nop`, a `sync` other than a barrier wait: the thread already sees every result
//! it waits for). Worked out once per program, with the channels they run on, so the block
//! never looks at the instruction.

use isa_encoder::model::{Opcode, Shape, Subfunction, SyncFn};

use super::channels::Channels;
use super::Inst;
use crate::dataport::quick::Quick;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Simple {
    /// The send's classified form and whether it ends the thread; `None` for a no-op.
    pub send: Option<(Quick, bool)>,
    pub ch: Channels,
}

impl Simple {
    /// Whether it is the thread spawner's end of thread: an end-of-thread message with no
    /// other effect, where no channel or memory matters.
    #[inline]
    pub fn ends_plainly(&self) -> bool {
        matches!(self.send, Some((Quick::Nothing, true)))
    }
}

/// The [`Simple`] form of `inst`, if it has one.
pub fn classify(inst: &Inst) -> Option<Simple> {
    if inst.invalid.is_some() || inst.reads_ce {
        return None;
    }
    let send = match inst.opcode.shape() {
        Shape::Send => {
            let plan = inst.send.as_ref()?;
            Some((plan.quick?, plan.eot))
        }
        Shape::Nullary if inst.opcode == Opcode::Nop => None,
        Shape::Sync if inst.func != Subfunction::Sync(SyncFn::Bar) => None,
        _ => return None,
    };
    Some(Simple {
        send,
        ch: Channels::of(inst),
    })
}
