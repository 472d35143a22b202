//! `batch-diff`: where two runs of the same kernel program the GPU differently, field by field.
//!
//! Each run is a directory the simulator's command log wrote (`INTEL_GPU_SIM_COMMAND_LOG`):
//! the commands each request executed and, per walker, its dispatch record (what the walker
//! read from memory: interface descriptor, payload, binding table, ...). The runs are lined up
//! walker by walker ([`align`]); for each pair the walker packets, the dispatch records, the
//! state packets in effect and the commands since the previous walker (by kind, not offset)
//! are compared ([`compare`]).

mod align;
mod capture;
mod compare;

use std::path::PathBuf;

use batchbuffer::PacketId;
use platform::Platform;

use align::{kernel_key, segments, Segment};
use capture::Run;
use compare::{Diff, Verdict};

#[derive(clap::Args)]
pub struct BatchDiffArgs {
    /// Platform both runs ran on: skl, icllp, tgllp, dg2.
    #[arg(short = 'p', long = "platform")]
    platform: Platform,
    /// Run A: a command-log directory (e.g. Intel's runtime's).
    a: PathBuf,
    /// Run B: a command-log directory (e.g. ours).
    b: PathBuf,
    /// Print every compared field, equal ones and heap offsets too.
    #[arg(long)]
    all: bool,
}

/// State compared from the dispatch records (which hold what was in effect, merged), not
/// from the command stream.
const FROM_RECORDS: [PacketId; 4] = [
    PacketId::StateBaseAddress,
    PacketId::MediaVfeState,
    PacketId::CfeState,
    PacketId::MediaInterfaceDescriptorLoad,
];

pub fn run(args: BatchDiffArgs) -> Result<(), String> {
    let p = args.platform;
    let a = capture::load(p, &args.a)?;
    let b = capture::load(p, &args.b)?;
    let text = report(p, &a, &b, args.all);
    println!("A: {}\nB: {}", args.a.display(), args.b.display());
    print!("{text}");
    Ok(())
}

/// Adds the comparison of walker `sa` of `a` and `sb` of `b`; `before_*`: the commands since
/// the previous paired walker.
fn walker_pair(
    p: Platform,
    d: &mut Diff,
    (a, sa, before_a): (&Run, &Segment, &[&[u32]]),
    (b, sb, before_b): (&Run, &Segment, &[&[u32]]),
) {
    let (wa, wb) = (&a.cmds[sa.walker], &b.cmds[sb.walker]);
    // A walker packet is the same kind on one platform. Fields compared from the records: the
    // inline interface descriptor and inline data.
    if let Some(id) = wa.packet {
        d.packet(
            p,
            id.name(),
            id.layout(),
            Some(&wa.dwords),
            Some(&wb.dwords),
            &["body.Interface Descriptor.", "body.Inline Data["],
        );
    }
    match (a.record(wa), b.record(wb)) {
        (Some(x), Some(y)) => d.records(p, x, y),
        (x, y) => {
            let t = |r: Option<&serde_json::Value>| {
                if r.is_some() {
                    "dispatched"
                } else {
                    "not dispatched (predicated off)"
                }
                .to_string()
            };
            d.value("dispatch record", "(instance)", t(x), t(y));
        }
    }
    let kinds: std::collections::BTreeSet<&str> = sa
        .in_effect
        .keys()
        .chain(sb.in_effect.keys())
        .filter(|k| !FROM_RECORDS.contains(k))
        .map(|k| k.name())
        .collect();
    for name in kinds {
        let Some(id) = PacketId::ALL.iter().copied().find(|i| i.name() == name) else {
            continue;
        };
        let get = |r: &Run, s: &Segment| s.in_effect.get(&id).map(|&i| r.cmds[i].dwords.clone());
        let (x, y) = (get(a, sa), get(b, sb));
        d.packet(p, name, id.layout(), x.as_deref(), y.as_deref(), &[]);
    }
    d.commands(p, "commands before it", before_a, before_b);
}

/// The whole comparison as text: per walker pair, its differing fields (every field with
/// `all`), then the walkers only one run has and the commands after the last walker.
fn report(p: Platform, a: &Run, b: &Run, all: bool) -> String {
    use std::fmt::Write;
    let (sega, taila) = segments(a);
    let (segb, tailb) = segments(b);
    let keys = |r: &Run, s: &[Segment]| -> Vec<Option<String>> {
        s.iter().map(|x| kernel_key(r, &r.cmds[x.walker])).collect()
    };
    let mut pairs = align::align(&keys(a, &sega), &keys(b, &segb));
    let starts = |r: &Run, s: &[Segment]| -> Vec<Option<String>> {
        s.iter()
            .map(|x| {
                r.record(&r.cmds[x.walker])
                    .map(|v| v["groups"]["start"].to_string())
            })
            .collect()
    };
    align::by_region(&mut pairs, &starts(a, &sega), &starts(b, &segb));
    let mut out = String::new();
    let mut differing = 0;
    // Commands of walkers left unpaired count as commands before the next paired one.
    let (mut pend_a, mut pend_b): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let cmds = |r: &Run, idx: &[usize]| -> Vec<Vec<u32>> {
        idx.iter().map(|&i| r.cmds[i].dwords.clone()).collect()
    };
    for (n, pair) in pairs.iter().enumerate() {
        match *pair {
            (Some(i), Some(j)) => {
                let (sa, sb) = (&sega[i], &segb[j]);
                pend_a.extend(&sa.before);
                pend_b.extend(&sb.before);
                let (ca, cb) = (cmds(a, &pend_a), cmds(b, &pend_b));
                let ra: Vec<&[u32]> = ca.iter().map(Vec::as_slice).collect();
                let rb: Vec<&[u32]> = cb.iter().map(Vec::as_slice).collect();
                let mut d = Diff::default();
                walker_pair(p, &mut d, (a, sa, &ra), (b, sb, &rb));
                let title = format!(
                    "walker {n}: A {} | B {}",
                    a.cmds[sa.walker].at(),
                    b.cmds[sb.walker].at()
                );
                differing += show(&mut out, &title, &d, all);
                pend_a.clear();
                pend_b.clear();
            }
            (Some(i), None) => {
                let s = &sega[i];
                pend_a.extend(&s.before);
                pend_a.push(s.walker);
                let _ = writeln!(
                    out,
                    "walker only in A: {}{}",
                    a.cmds[s.walker].at(),
                    kernel_of(a, s)
                );
                differing += 1;
            }
            (None, Some(j)) => {
                let s = &segb[j];
                pend_b.extend(&s.before);
                pend_b.push(s.walker);
                let _ = writeln!(
                    out,
                    "walker only in B: {}{}",
                    b.cmds[s.walker].at(),
                    kernel_of(b, s)
                );
                differing += 1;
            }
            (None, None) => {}
        }
    }
    pend_a.extend(&taila);
    pend_b.extend(&tailb);
    let (ca, cb) = (cmds(a, &pend_a), cmds(b, &pend_b));
    let ra: Vec<&[u32]> = ca.iter().map(Vec::as_slice).collect();
    let rb: Vec<&[u32]> = cb.iter().map(Vec::as_slice).collect();
    let mut d = Diff::default();
    d.commands(p, "commands after the last walker", &ra, &rb);
    differing += show(&mut out, "after the last walker:", &d, all);
    let _ = writeln!(
        out,
        "{} walker(s) in A, {} in B; {}",
        sega.len(),
        segb.len(),
        match differing {
            0 => "no differences".to_string(),
            n => format!("{n} differing field(s)"),
        }
    );
    out
}

/// Writes `d`'s differing lines (every line with `all`) under `title`; returns how many differ.
fn show(out: &mut String, title: &str, d: &Diff, all: bool) -> usize {
    let lines: Vec<String> = d
        .lines
        .iter()
        .filter(|l| all || l.verdict == Verdict::Differ)
        .map(|l| format!("    {l}\n"))
        .collect();
    if !lines.is_empty() {
        out.push_str(title);
        out.push('\n');
        out.extend(lines);
    }
    d.lines
        .iter()
        .filter(|l| l.verdict == Verdict::Differ)
        .count()
}

fn kernel_of(r: &Run, s: &Segment) -> String {
    let c = &r.cmds[s.walker];
    match r.record(c) {
        Some(v) => format!(
            " (kernel {}, {} bytes)",
            v["kernel"]["fnv1a64"].as_str().unwrap_or("?"),
            v["kernel"]["bytes"]
        ),
        None => String::new(),
    }
}
