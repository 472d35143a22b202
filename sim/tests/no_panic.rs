//! Random ioctls into both personalities on every platform: errors are fine, panics are not.
//! (The cargo-fuzz target in `sim/fuzz` runs the same driver for millions of inputs.)

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[test]
fn random_ioctls_never_panic() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for i in 0..3000u32 {
        let len = 300 + (rng.next() % 2048) as usize;
        let mut data: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        data[0] = i as u8;
        // Make some argument words scratch pointers and some small handles, like real callers.
        for w in data[257..].chunks_exact_mut(8) {
            match rng.next() % 8 {
                0 => w.copy_from_slice(
                    &(0xaaaa_0000_0000_0000 | (rng.next() & 0xfff8)).to_le_bytes(),
                ),
                1 => w.copy_from_slice(&(rng.next() % 4).to_le_bytes()),
                _ => {}
            }
        }
        sim::fuzz::run(&data);
    }
}
