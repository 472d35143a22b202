//! Shared by the sendmsg oracle tests: writes send instructions as IGA text, reads iga64's
//! listing back, and compares iga64's send comments with `describe`.

#![allow(dead_code)]

use isa_encoder::sendmsg::{describe, DescValue, SendDescription, Sfid};
use platform::Platform;

/// One send to put through iga64.
#[derive(Debug, Clone, Copy)]
pub struct Send {
    pub sfid: Sfid,
    pub exec_size: u8,
    pub desc: u32,
    /// Extended descriptor without the SFID nibble and without the src1 length.
    pub ex_desc: u32,
    pub src1_len: u8,
}

/// The IGA text of `s` on `p`, in the form iga64 itself prints.
pub fn send_text(p: Platform, s: &Send) -> Option<String> {
    let sfid_bits = u32::from(s.sfid.encode(p)?);
    let exec = format!("({}|M0)", s.exec_size);
    let xlen = u32::from(s.src1_len);
    let src1 = if s.src1_len == 0 {
        "null".to_string()
    } else {
        "r40".to_string()
    };
    Some(match p {
        Platform::Skl | Platform::Icllp => format!(
            "(W) sends {exec} r20 r30 {src1} 0x{:X} 0x{:08X}",
            s.ex_desc | xlen << 6 | sfid_bits,
            s.desc
        ),
        Platform::Tgllp => format!(
            "(W) send.{} {exec} r20 r30 {src1} 0x{:X} 0x{:08X} {{$0}}",
            s.sfid.mnemonic(),
            s.ex_desc | xlen << 6,
            s.desc
        ),
        Platform::Dg2 => format!(
            "(W) send.{} {exec} r20 r30 {src1}:{xlen} 0x{:X} 0x{:08X} {{$0}}",
            s.sfid.mnemonic(),
            s.ex_desc,
            s.desc
        ),
    })
}

fn parse_value(tok: &str) -> Option<DescValue> {
    if let Some(sub) = tok.strip_prefix("a0.") {
        return sub.parse().ok().map(DescValue::A0);
    }
    let hex = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X"))?;
    u32::from_str_radix(hex, 16).ok().map(DescValue::Imm)
}

/// A send line of an iga64 listing: what describe() needs, and iga64's comment.
#[derive(Debug)]
pub struct ListedSend {
    pub line: String,
    pub msg: SendDescription,
    pub comment: Option<String>,
}

/// Every send/sends/sendc/sendsc line of `listing`.
pub fn listed_sends(p: Platform, listing: &str) -> Vec<ListedSend> {
    let mut out = Vec::new();
    for line in listing.lines() {
        let (code, comment) = match line.split_once(" // ") {
            Some((c, m)) => (c, Some(m.trim_end_matches('\r').to_string())),
            None => (line, None),
        };
        let toks: Vec<&str> = code.split_whitespace().collect();
        let Some(at) = toks.iter().position(|t| t.starts_with("send")) else {
            continue;
        };
        let op = toks[at];
        let (base, sfid_name) = op.split_once('.').unwrap_or((op, ""));
        let exec_size: u8 = toks[at + 1]
            .trim_start_matches('(')
            .split(['|', ')'])
            .next()
            .and_then(|n| n.parse().ok())
            .expect("exec size");
        let operands: Vec<&str> = toks[at + 2..]
            .iter()
            .copied()
            .take_while(|t| !t.starts_with('{'))
            .collect();
        let has_src1 = p >= Platform::Tgllp || base.ends_with("s") || base.ends_with("sc");
        let n = if has_src1 { 5 } else { 4 };
        assert_eq!(operands.len(), n, "unexpected send operands in {line:?}");
        let ex_desc = parse_value(operands[n - 2]).expect("ex_desc");
        let desc = parse_value(operands[n - 1]).expect("desc");
        let sfid = if p >= Platform::Tgllp {
            Sfid::from_mnemonic(p, sfid_name).and_then(|s| s.encode(p))
        } else {
            match ex_desc {
                DescValue::Imm(x) => Some((x & 0xF) as u8),
                DescValue::A0(_) => None,
            }
        };
        let src1_len = if p >= Platform::Dg2 {
            operands[2]
                .split_once(':')
                .and_then(|(_, l)| l.parse().ok())
        } else {
            None
        };
        out.push(ListedSend {
            line: line.to_string(),
            msg: SendDescription {
                platform: p,
                sfid,
                exec_size,
                desc,
                ex_desc,
                src1_len,
            },
            comment,
        });
    }
    out
}

/// Compares describe() with iga64's comment for every send of `listing`; returns the
/// mismatches as readable lines and how many sends were compared (not counting messages
/// describe() declines).
pub fn compare_listing(p: Platform, listing: &str) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut compared = 0;
    for s in listed_sends(p, listing) {
        let ours = describe(&s.msg);
        if ours.is_none() {
            continue;
        }
        compared += 1;
        if ours != s.comment {
            bad.push(format!("{p}: {}\n    ours: {:?}", s.line.trim(), ours));
        }
    }
    (bad, compared)
}

/// Assembles then disassembles `sends` on `p` with iga64 in one run each; returns the listing.
pub fn iga_round_trip(iga: &std::path::Path, p: Platform, sends: &[Send]) -> String {
    let text: String = sends
        .iter()
        .filter_map(|s| send_text(p, s))
        .map(|l| l + "\n")
        .collect();
    let bytes = oracles::iga64::asm(iga, p, &text, &[])
        .unwrap_or_else(|e| panic!("iga64 -a {p}: {e}\n{text}"));
    oracles::iga64::disasm(iga, p, &bytes, &[]).unwrap_or_else(|e| panic!("iga64 -d {p}: {e}"))
}
