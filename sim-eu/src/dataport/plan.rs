//! A send as the program decoder resolves it once: its message descriptors, its payload and
//! response registers, and its classified form.

use isa_encoder::model::SendDesc;
use isa_encoder::sendmsg::Sfid;

use super::quick::Quick;

/// What a send needs besides its operands.
#[derive(Debug, Clone, Copy)]
pub struct SendPlan {
    pub sfid: u8,
    /// `sfid` decoded for the platform the send was decoded for (`None`: unassigned there).
    pub shared: Option<Sfid>,
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
    /// [`SendPlan::repeatable`] on the platform the send was decoded for (asked per send by
    /// translated code's calls).
    pub repeats: bool,
}

impl SendPlan {
    /// Whether the send does nothing at all when none of its channels is enabled and
    /// predicated, known from its immediate descriptor: a message that acts per channel only
    /// (the sampler's, the HDC's per-lane ones) and does not end the thread. What translated
    /// code may skip without calling out.
    pub fn idle_without_channels(&self) -> bool {
        self.known()
            .is_some_and(|(sfid, desc)| super::per_channel(sfid, desc))
    }

    /// The shared function and immediate descriptor of a send that does not end the thread
    /// (`None` for one that does, or whose descriptor is in a register).
    fn known(&self) -> Option<(Sfid, u32)> {
        let SendDesc::Imm(desc) = self.desc else {
            return None;
        };
        let sfid = self.shared?;
        (!self.eot).then_some((sfid, desc))
    }

    /// Whether the send, known from its immediate descriptor, loads or stores only (the
    /// sampler's messages, the HDC's loads and stores) and does not end the thread: run
    /// again after it failed part way (a fault), it leaves registers and memory as one run
    /// does, so translated code may run it directly and leave a failure to the interpreter.
    pub fn repeatable(&self) -> bool {
        match self.known() {
            Some((Sfid::Sampler, _)) => true,
            Some((Sfid::Dc0, desc)) if super::scratch::is_scratch(desc) => false,
            Some((sfid @ (Sfid::Dc0 | Sfid::Dc1 | Sfid::Dc2 | Sfid::Dcro), desc)) => {
                super::hdc::loads_or_stores(sfid, desc)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform::Platform;

    fn plan(sfid: Sfid, desc: SendDesc, eot: bool) -> SendPlan {
        SendPlan {
            sfid: sfid.encode(Platform::Tgllp).expect("an SFID of Gen12LP"),
            shared: Some(sfid),
            desc,
            ex_desc: SendDesc::Imm(0),
            src1_len: None,
            dst_reg: None,
            src0_reg: 2,
            src1_reg: None,
            eot,
            quick: None,
            repeats: false,
        }
    }

    #[test]
    fn idle_and_repeatable_sends_are_known_from_their_descriptors() {
        // (shared function, descriptor, ends the thread) -> does nothing without channels,
        // may run again after a fault part way. IGC's sampler message and typed write (the
        // descriptors iga64 shows for them) and an untyped atomic add act per channel; the
        // atomic add would add twice. A fence and an OWord block read act whatever the mask
        // (the read is a load); a descriptor in a0 is not known; the end of the thread ends it.
        let rows = [
            (Sfid::Sampler, SendDesc::Imm(0x0485_8000), false, true, true),
            (Sfid::Dc1, SendDesc::Imm(0x0203_5001), false, true, true),
            (Sfid::Dc1, SendDesc::Imm(0x0400_8701), false, true, false),
            (Sfid::Dc0, SendDesc::Imm(0x0219_E000), false, false, false),
            (Sfid::Dc0, SendDesc::Imm(0x0248_4401), false, false, true),
            (Sfid::Dc1, SendDesc::Reg(0), false, false, false),
            (
                Sfid::Sampler,
                SendDesc::Imm(0x0485_8000),
                true,
                false,
                false,
            ),
        ];
        for (sfid, desc, eot, idle, repeatable) in rows {
            let p = plan(sfid, desc, eot);
            let what = format!("{sfid:?} {desc:?} eot {eot}");
            assert_eq!(p.idle_without_channels(), idle, "{what}");
            assert_eq!(p.repeatable(), repeatable, "{what}");
        }
    }
}
