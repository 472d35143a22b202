//! `--arg SPEC` and `--out N=PATH` parsing (the contract's grammar).

use std::path::PathBuf;

use umd::image::ImageFormat;

/// One `--arg`, before any device memory exists.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgSpec {
    /// `buf:SIZE` (zero-filled) or `buf:@PATH` (the file's bytes).
    Buffer(BufInit),
    /// A scalar's little-endian bytes and its type name.
    Scalar(&'static str, Vec<u8>),
    /// `img2d:WxH:FMT[:@PATH]`.
    Image {
        width: u32,
        height: u32,
        format: ImageFormat,
        data: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum BufInit {
    Zeroed(u64),
    File(PathBuf),
}

/// The image formats the contract names (umd knows more, for its own tests of the block-IO
/// element-size rule).
const CLI_FORMATS: [&str; 5] = ["r8ui", "r16ui", "r32ui", "rgba8ui", "r32f"];

fn int<T: TryFrom<i128>>(ty: &str, v: &str) -> Result<T, String> {
    let (neg, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v),
    };
    let parsed = match digits.strip_prefix("0x") {
        Some(h) => i128::from_str_radix(h, 16),
        None => digits.parse::<i128>(),
    }
    .map_err(|_| format!("`{v}` is not a {ty} value"))?;
    let n = if neg { -parsed } else { parsed };
    T::try_from(n).map_err(|_| format!("{v} is out of range for {ty}"))
}

fn scalar(ty: &str, v: &str) -> Result<Option<(&'static str, Vec<u8>)>, String> {
    macro_rules! le {
        ($name:literal, $t:ty) => {
            Some(($name, int::<$t>($name, v)?.to_le_bytes().to_vec()))
        };
    }
    Ok(match ty {
        "u8" => le!("u8", u8),
        "i8" => le!("i8", i8),
        "u16" => le!("u16", u16),
        "i16" => le!("i16", i16),
        "u32" => le!("u32", u32),
        "i32" => le!("i32", i32),
        "u64" => le!("u64", u64),
        "i64" => le!("i64", i64),
        "f32" => Some((
            "f32",
            v.parse::<f32>()
                .map_err(|_| format!("`{v}` is not an f32 value"))?
                .to_le_bytes()
                .to_vec(),
        )),
        "f64" => Some((
            "f64",
            v.parse::<f64>()
                .map_err(|_| format!("`{v}` is not an f64 value"))?
                .to_le_bytes()
                .to_vec(),
        )),
        _ => None,
    })
}

impl std::str::FromStr for ArgSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = |why: String| format!("--arg {s}: {why}");
        let (kind, rest) = s
            .split_once(':')
            .ok_or_else(|| bad("expected KIND:VALUE (buf:, u32:, img2d:, ...)".into()))?;
        if kind == "buf" {
            return Ok(ArgSpec::Buffer(match rest.strip_prefix('@') {
                Some(path) => BufInit::File(path.into()),
                None => {
                    let n: u64 = int("size", rest).map_err(bad)?;
                    if n == 0 {
                        return Err(bad("a buffer needs at least one byte".into()));
                    }
                    BufInit::Zeroed(n)
                }
            }));
        }
        if kind == "img2d" {
            let mut parts = rest.splitn(3, ':');
            let size = parts.next().unwrap_or_default();
            let fmt = parts
                .next()
                .ok_or_else(|| bad("expected img2d:WxH:FMT".into()))?;
            let data = match parts.next() {
                None => None,
                Some(p) => Some(
                    p.strip_prefix('@')
                        .ok_or_else(|| bad(format!("expected :@PATH after the format, not :{p}")))?
                        .into(),
                ),
            };
            let (w, h) = size
                .split_once('x')
                .ok_or_else(|| bad(format!("`{size}` is not WxH")))?;
            let width: u32 = int("width", w).map_err(bad)?;
            let height: u32 = int("height", h).map_err(bad)?;
            if !CLI_FORMATS.contains(&fmt) {
                return Err(bad(format!(
                    "unknown format `{fmt}` (expected one of {})",
                    CLI_FORMATS.join(", ")
                )));
            }
            let format: ImageFormat = fmt.parse().map_err(|e: umd::Error| bad(e.to_string()))?;
            return Ok(ArgSpec::Image {
                width,
                height,
                format,
                data,
            });
        }
        match scalar(kind, rest).map_err(bad)? {
            Some((ty, bytes)) => Ok(ArgSpec::Scalar(ty, bytes)),
            None => Err(bad(format!(
                "unknown kind `{kind}` (expected buf, img2d, u8, i8, u16, i16, u32, i32, u64, i64, f32 or f64)"
            ))),
        }
    }
}

/// `--out N=PATH`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutSpec {
    pub index: usize,
    pub path: PathBuf,
}

impl std::str::FromStr for OutSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (n, path) = s
            .split_once('=')
            .ok_or_else(|| format!("--out {s}: expected N=PATH"))?;
        let index = n
            .parse()
            .map_err(|_| format!("--out {s}: `{n}` is not an argument number"))?;
        Ok(OutSpec {
            index,
            path: path.into(),
        })
    }
}

/// `X[,Y[,Z]]`.
pub fn sizes(s: &str) -> Result<Vec<u32>, String> {
    let v: Vec<u32> = s
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{s}` is not X[,Y[,Z]]"))
        })
        .collect::<Result<_, _>>()?;
    if v.is_empty() || v.len() > 3 || v.contains(&0) {
        return Err(format!("`{s}` is not 1 to 3 sizes of at least 1"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_per_the_contract() {
        assert_eq!("buf:64".parse(), Ok(ArgSpec::Buffer(BufInit::Zeroed(64))));
        assert_eq!(
            "buf:@in.bin".parse(),
            Ok(ArgSpec::Buffer(BufInit::File("in.bin".into())))
        );
        assert_eq!(
            "u32:7".parse(),
            Ok(ArgSpec::Scalar("u32", vec![7, 0, 0, 0]))
        );
        assert_eq!("i8:-1".parse(), Ok(ArgSpec::Scalar("i8", vec![0xff])));
        assert_eq!(
            "u16:0x1234".parse(),
            Ok(ArgSpec::Scalar("u16", vec![0x34, 0x12]))
        );
        assert_eq!(
            "f32:1.5".parse(),
            Ok(ArgSpec::Scalar("f32", 1.5f32.to_le_bytes().to_vec()))
        );
        assert_eq!(
            "img2d:4x2:rgba8ui:@a.raw".parse(),
            Ok(ArgSpec::Image {
                width: 4,
                height: 2,
                format: ImageFormat::Rgba8ui,
                data: Some("a.raw".into())
            })
        );
        for bad in [
            "buf:0",
            "u8:256",
            "i8:-129",
            "u32:x",
            "img2d:4:r8ui",
            "img2d:4x4:rgba32ui",
            "q:1",
            "nothing",
        ] {
            assert!(bad.parse::<ArgSpec>().is_err(), "{bad}");
        }
        assert_eq!(
            "2=o.bin".parse(),
            Ok(OutSpec {
                index: 2,
                path: "o.bin".into()
            })
        );
        assert_eq!(sizes("4,2"), Ok(vec![4, 2]));
        assert!(sizes("1,2,3,4").is_err() && sizes("0").is_err() && sizes("a").is_err());
    }
}
