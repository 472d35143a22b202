//! Bit-field access shared by the message families.

/// `len` bits of `word` starting at bit `off` (len in 1..=32).
pub const fn bits(word: u32, off: u32, len: u32) -> u32 {
    let shifted = word >> off;
    if len >= 32 {
        shifted
    } else {
        shifted & ((1u32 << len) - 1)
    }
}

/// `word` with `len` bits at `off` set to `value` (which must fit; checked by builders).
pub const fn with_bits(word: u32, off: u32, len: u32, value: u32) -> u32 {
    let mask = if len >= 32 {
        u32::MAX
    } else {
        ((1u32 << len) - 1) << off
    };
    (word & !mask) | ((value << off) & mask)
}

/// Typed messages: iga64 appends which coordinates (u, v, r, lod) the address payload of
/// `mlen` (desc\[28:25\]) registers holds, assuming one GRF-padded block of `lanes` addresses
/// of `addr_bits` each per coordinate.
pub fn append_coordinates(text: &mut String, desc: u32, lanes: u32, addr_bits: u32) {
    const COORDS: [&str; 4] = ["u", "u,v", "u,v,r", "u,v,r,lod"];
    let mlen = bits(desc, 25, 4);
    let regs_per_coord = (lanes * addr_bits / 256).max(1);
    if let Some(c) = (mlen / regs_per_coord)
        .checked_sub(1)
        .and_then(|i| COORDS.get(i as usize))
    {
        text.push_str("; ");
        text.push_str(c);
    }
}
