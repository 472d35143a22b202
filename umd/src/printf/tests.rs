//! Decoder tests on hand-built buffers in IGC's layout (NEO's print_formatter reads the
//! same), including malformed and truncated ones.

use super::*;

/// A buffer: the used-bytes header, then `words`.
fn buffer(words: &[u32]) -> Vec<u8> {
    let mut b = ((4 + 4 * words.len()) as u32).to_le_bytes().to_vec();
    b.extend(words.iter().flat_map(|w| w.to_le_bytes()));
    b
}

fn table() -> Vec<(u32, Vec<u8>)> {
    vec![
        (0, b"i=%d f=%f\n\0".to_vec()),
        (1, b"s=%s c=%c\n\0".to_vec()),
        (2, b"hi\0".to_vec()),
        (3, b"v=%v4hhd|%v2hlx\n".to_vec()),
        (4, b"bad %q\n".to_vec()),
    ]
}

#[test]
fn records_decode_in_buffer_order() {
    let t = table();
    let b = buffer(&[
        0,
        tag::INT,
        (-7i32) as u32,
        tag::FLOAT,
        1.5f32.to_bits(),
        1,
        tag::STRING,
        2,
        tag::INT,
        b'x' as u32,
    ]);
    let d = decode(&b, Strings::Indexed(&t));
    assert_eq!(d.error, None);
    assert_eq!(d.text, b"i=-7 f=1.500000\ns=hi c=x\n");
}

#[test]
fn vectors_are_packed_then_padded() {
    let t = table();
    // char4 (1,2,-3,4): four packed bytes then 3 * 4 bytes of padding; uint2 (255, 16).
    let b = buffer(&[
        3,
        tag::VECTOR_BYTE,
        4,
        u32::from_le_bytes([1, 2, 0xfd, 4]),
        0,
        0,
        0,
        tag::VECTOR_INT,
        2,
        255,
        16,
    ]);
    let d = decode(&b, Strings::Indexed(&t));
    assert_eq!(d.error, None);
    assert_eq!(String::from_utf8_lossy(&d.text), "v=1,2,-3,4|ff,10\n");
}

#[test]
fn zebin_strings_are_addresses_in_the_string_segment() {
    let seg = b"a=%ld %s\0word\0";
    let base = 0x1_0000_0000u64;
    let mut words = vec![base as u32, (base >> 32) as u32, tag::LONG];
    words.extend([(-2i64) as u32, u32::MAX, tag::STRING]);
    let s = base + 9;
    words.extend([s as u32, (s >> 32) as u32]);
    let d = decode(&buffer(&words), Strings::Addressed { base, bytes: seg });
    assert_eq!(d.error, None);
    assert_eq!(d.text, b"a=-2 word");
}

#[test]
fn an_empty_or_tiny_buffer_has_no_text() {
    let t = table();
    for b in [&[][..], &[4, 0], &[4, 0, 0, 0], &[0, 0, 0, 0]] {
        assert_eq!(decode(b, Strings::Indexed(&t)), Decoded::default());
    }
}

#[test]
fn a_used_size_past_the_buffer_is_clamped() {
    let t = table();
    let mut b = buffer(&[1, tag::STRING, 2, tag::INT, 65]);
    b[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    let d = decode(&b, Strings::Indexed(&t));
    assert_eq!(d.text, b"s=hi c=A\n");
    assert_eq!(d.error, None);
}

#[test]
fn the_end_mark_stops_quietly() {
    let t = table();
    let b = buffer(&[1, tag::STRING, 2, tag::INT, 65, u32::MAX, 7, 7]);
    let d = decode(&b, Strings::Indexed(&t));
    assert_eq!(d.text, b"s=hi c=A\n");
    assert_eq!(d.error, None);
}

#[test]
fn malformed_records_end_decoding_with_an_error() {
    let t = table();
    let cases: Vec<(Vec<u32>, DecodeError)> = vec![
        // Missing the float.
        (vec![0, tag::INT, 1], DecodeError::Truncated { at: 16 }),
        // Half a value.
        (
            vec![0, tag::INT, 1, tag::DOUBLE, 0],
            DecodeError::Truncated { at: 20 },
        ),
        (vec![20], DecodeError::UnknownString { at: 4, key: 20 }),
        (vec![0, 99, 1], DecodeError::BadTag { at: 8, tag: 99 }),
        (vec![0, 0, 1], DecodeError::BadTag { at: 8, tag: 0 }),
        // %s given an int.
        (vec![1, tag::INT, 5], DecodeError::BadTag { at: 8, tag: 3 }),
        // A string argument naming no string.
        (
            vec![1, tag::STRING, 77],
            DecodeError::UnknownString { at: 8, key: 77 },
        ),
        (
            vec![3, tag::VECTOR_BYTE, 0x4000_0000],
            DecodeError::BadVector {
                at: 8,
                count: 0x4000_0000,
            },
        ),
        (
            vec![3, tag::VECTOR_INT, 4, 1, 2],
            DecodeError::Truncated { at: 24 },
        ),
        (
            vec![4, tag::INT, 1],
            DecodeError::BadSpec {
                at: 4,
                spec: "q\n".into(),
            },
        ),
    ];
    for (words, want) in cases {
        let mut w = vec![1, tag::STRING, 2, tag::INT, 65];
        let first = w.len();
        w.extend(&words);
        let d = decode(&buffer(&w), Strings::Indexed(&t));
        let shifted = |e: DecodeError| match e {
            DecodeError::Truncated { at } => DecodeError::Truncated { at: at + 4 * first },
            DecodeError::UnknownString { at, key } => DecodeError::UnknownString {
                at: at + 4 * first,
                key,
            },
            DecodeError::BadTag { at, tag } => DecodeError::BadTag {
                at: at + 4 * first,
                tag,
            },
            DecodeError::BadVector { at, count } => DecodeError::BadVector {
                at: at + 4 * first,
                count,
            },
            DecodeError::BadSpec { at, spec } => DecodeError::BadSpec {
                at: at + 4 * first,
                spec,
            },
        };
        assert_eq!(d.error, Some(shifted(want)), "{words:?}");
        // The record before the bad one is kept; the bad one adds at most its own prefix.
        assert!(d.text.starts_with(b"s=hi c=A\n"), "{words:?}");
    }
}

#[test]
fn addresses_outside_the_segment_are_errors() {
    let seg = b"x\0";
    let d = decode(
        &buffer(&[0x10, 0]),
        Strings::Addressed {
            base: 0x1000,
            bytes: seg,
        },
    );
    assert_eq!(
        d.error,
        Some(DecodeError::UnknownString { at: 4, key: 0x10 })
    );
    let d = decode(
        &buffer(&[0x1000 + 5, 0]),
        Strings::Addressed {
            base: 0x1000,
            bytes: seg,
        },
    );
    assert!(matches!(d.error, Some(DecodeError::UnknownString { .. })));
}

#[test]
fn arbitrary_bytes_never_panic() {
    let t = table();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for n in 0..2000usize {
        let mut b = Vec::with_capacity(n % 97);
        for _ in 0..n % 97 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Small values so tags, indices and counts are often valid.
            b.push(if seed.is_multiple_of(3) {
                (seed >> 8) as u8
            } else {
                (seed >> 8) as u8 % 16
            });
        }
        let _ = decode(&b, Strings::Indexed(&t));
        let _ = decode(
            &b,
            Strings::Addressed {
                base: 0,
                bytes: b"%d%s%v4hhd%a\0",
            },
        );
    }
}

#[test]
fn escapes_resolve_as_c_spells_them() {
    let cases: [(&[u8], &[u8]); 8] = [
        (br"foo\nbar", b"foo\nbar"),
        (br"a\tb\\c", b"a\tb\\c"),
        (br#"\"%%\""#, b"\"%%\""),
        (br"\'x\?", b"'x?"),
        (br"o\101\0x", b"oA\0x"),
        (br"h\x41\x7e!", b"hA~!"),
        (br"\xzz", br"\xzz"),
        (br"end\", br"end\"),
    ];
    for (src, want) in cases {
        assert_eq!(unescape(src), want, "{}", String::from_utf8_lossy(src));
    }
}

#[test]
fn pointer_string_arguments_are_found_in_the_segments() {
    let t = vec![(0u32, b"[%s]\0".to_vec())];
    let data: &[u8] = b"xx\0empty\0";
    let a = 0x5000u64 + 3;
    let b = buffer(&[0, tag::POINTER, a as u32, 0]);
    let d = decode_in(&b, Strings::Indexed(&t), &[(0x5000, data)]);
    assert_eq!(d.error, None);
    assert_eq!(d.text, b"[empty]");
    let d = decode_in(&b, Strings::Indexed(&t), &[(0x9000, data)]);
    assert_eq!(d.error, Some(DecodeError::UnknownString { at: 8, key: a }));
}

#[test]
fn arguments_beyond_the_format_are_skipped() {
    // printf("hi", 5L, "hi") then printf("s=%s c=%c\n", "hi", 'A'): the extra long and
    // string are recorded after the first format's index (tags 6 and 5 name no string here).
    let t = table();
    let b = buffer(&[
        2,
        tag::LONG,
        5,
        0,
        tag::STRING,
        2,
        1,
        tag::STRING,
        2,
        tag::INT,
        65,
    ]);
    let d = decode(&b, Strings::Indexed(&t));
    assert_eq!(d.error, None);
    assert_eq!(d.text, b"his=hi c=A\n");
}

#[test]
fn an_overflowed_buffer_ends_quietly_at_its_last_whole_record() {
    let t = table();
    // Two records fit; the kernel asked for more room than the 48-byte buffer has, and the
    // bytes after them were never written.
    let mut b = buffer(&[1, tag::STRING, 2, tag::INT, 65, 0, tag::INT, 1]);
    b.resize(48, 0);
    b[..4].copy_from_slice(&1000u32.to_le_bytes());
    let d = decode(&b, Strings::Indexed(&t));
    assert_eq!(d.error, None);
    assert_eq!(d.text, b"s=hi c=A\n");
}
