//! A send as the program decoder resolves it once: its message descriptors, its payload and
//! response registers, and its classified form.

use isa_encoder::model::SendDesc;

use super::quick::Quick;

/// What a send needs besides its operands.
#[derive(Debug, Clone, Copy)]
pub struct SendPlan {
    pub sfid: u8,
    pub desc: SendDesc,
    pub ex_desc: SendDesc,
    pub src1_len: Option<u8>,
    /// First GRF of the response, `None` for `null`.
    pub dst_reg: Option<u8>,
    pub src0_reg: u8,
    /// Second payload's first GRF (split sends), `None` when absent or `null`.
    pub src1_reg: Option<u8>,
    pub eot: bool,
    /// The message's classified form, when it has one (immediate descriptors, a common
    /// message): tried before the general path.
    pub quick: Option<Quick>,
}
