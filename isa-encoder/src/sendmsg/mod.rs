//! Send messages: what a `send`'s SFID, descriptor and extended descriptor mean, printed exactly as
//! `iga64 -d` prints them in the comment after a send, and typed builders for the messages this
//! stack emits.
//!
//! `iga64 -d` ends every send line with `// wr:M[h]+X, rd:R[; sfid][; message]`; `describe`
//! returns the text after `// `. On 12p71 the default `iga64 -d` still prints LSC messages as raw
//! `send.ugm`/`send.slm` lines; their `load.ugm.d32x16t.a32...` spelling appears only in that
//! comment (the `-Xprint-ldst` pseudo-instruction form is not iga64's default).
//!
//! Layout: one declarative table per message family (`sfid`, `hdc`, `lsc`, `gateway`,
//! `other`); typed builders in `build`; the subgroup block built-ins' choice of messages per
//! platform in `subgroup`.

use platform::Platform;

pub mod build;
mod fields;
pub mod gateway;
pub mod hdc;
pub mod lsc;
pub mod other;
pub mod sfid;
pub mod subgroup;

pub use sfid::Sfid;

/// A descriptor operand: an immediate, or an address subregister `a0.N` holding it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DescValue {
    /// Immediate value, as printed in hex by iga64.
    Imm(u32),
    /// `a0.N`: the descriptor is read from an address register at run time.
    A0(u8),
}

/// Everything iga64 looks at to describe one send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SendDescription {
    /// The platform the instruction is for.
    pub platform: Platform,
    /// The shared-function id as encoded. Gen9/Gen11 print it as `ex_desc[3:0]`; Gen12 and later
    /// as the `send.<sfid>` mnemonic. `None` when Gen9/Gen11 take it from an `a0` ex_desc.
    pub sfid: Option<u8>,
    /// Execution size of the send, `(16|M0)` -> 16.
    pub exec_size: u8,
    /// Message descriptor (`desc` operand).
    pub desc: DescValue,
    /// Extended message descriptor (`ex_desc` operand) as iga64 prints it: on Gen9/Gen11 this
    /// includes the SFID in bits 3:0.
    pub ex_desc: DescValue,
    /// The src1 payload length when the encoding carries it outside ex_desc (12p71's `r7:2`
    /// suffix); `None` means ex_desc\[10:6\] holds it (Gen9 to 12p1).
    pub src1_len: Option<u8>,
}

/// A send descriptor's message length in registers, \[28:25\] (every shared function).
pub const fn message_len(desc: u32) -> u32 {
    fields::bits(desc, 25, 4)
}

/// A send descriptor's response length in registers, \[24:20\] (every shared function).
pub const fn response_len(desc: u32) -> u32 {
    fields::bits(desc, 20, 5)
}

/// The comment iga64 prints after `// ` on a send line, e.g.
/// `wr:1h+0, rd:2; oword aligned block read x4`. Never panics: reserved or unknown descriptors
/// give iga64's own `?` text. The text is iga64's byte for byte, including the trailing space
/// it leaves after some descriptions (e.g. `synchronized `). `None` when this module does not
/// model the message (render cache and the Xe-HPG ray-tracing units BTD and RTA: nothing here
/// emits or meets them).
pub fn describe(msg: &SendDescription) -> Option<String> {
    let p = msg.platform;
    let mut out = String::from("wr:");
    let (mlen, rlen) = match msg.desc {
        DescValue::Imm(d) => (message_len(d).to_string(), response_len(d).to_string()),
        DescValue::A0(r) => (format!("a0.{r}[28:25]"), format!("a0.{r}[24:20]")),
    };
    out.push_str(&mlen);
    let sfid = msg.sfid.and_then(|bits| Sfid::decode(p, bits));
    let header_bit = matches!(msg.desc, DescValue::Imm(d) if fields::bits(d, 19, 1) != 0);
    if header_bit && !sfid.is_some_and(Sfid::is_lsc) {
        out.push('h');
    }
    out.push('+');
    match (msg.src1_len, msg.ex_desc) {
        (Some(n), _) => out.push_str(&n.to_string()),
        (None, DescValue::Imm(x)) => out.push_str(&fields::bits(x, 6, 5).to_string()),
        (None, DescValue::A0(r)) => out.push_str(&format!("a0.{r}[10:6]")),
    }
    out.push_str(", rd:");
    out.push_str(&rlen);
    if p < Platform::Tgllp {
        match msg.ex_desc {
            DescValue::A0(r) => out.push_str(&format!("; sfid a0.{r}[3:0]")),
            DescValue::Imm(x) => {
                out.push_str("; ");
                out.push_str(sfid::gen9_comment_name((x & 0xF) as u8));
            }
        }
    }
    let DescValue::Imm(desc) = msg.desc else {
        return Some(out);
    };
    let text = match sfid {
        None => "?".to_string(),
        Some(s) => message_text(p, s, msg.exec_size, desc, msg.ex_desc)?,
    };
    out.push_str("; ");
    out.push_str(&text);
    Some(out)
}

/// The message part of the comment, after the payload sizes (and, before Gen12, the SFID).
fn message_text(
    p: Platform,
    sfid: Sfid,
    exec_size: u8,
    desc: u32,
    ex_desc: DescValue,
) -> Option<String> {
    match sfid {
        Sfid::Dc0 | Sfid::Dc1 | Sfid::Dc2 | Sfid::Dcro => {
            Some(hdc::describe(p, sfid, exec_size, desc))
        }
        Sfid::Ugm | Sfid::Ugml | Sfid::Slm | Sfid::Tgm => {
            lsc::describe(sfid, exec_size, desc, ex_desc)
        }
        Sfid::Gateway => Some(gateway::describe_gateway(desc)),
        Sfid::ThreadSpawner => Some(gateway::describe_spawner(desc)),
        Sfid::Null | Sfid::Vme | Sfid::PixelInterpolator | Sfid::Cre => Some("?".into()),
        Sfid::Sampler => Some(other::describe_sampler(p, desc)),
        Sfid::Urb => Some(other::describe_urb(desc)),
        Sfid::RenderCache | Sfid::Btd | Sfid::Rta => None,
    }
}
