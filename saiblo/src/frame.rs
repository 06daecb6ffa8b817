//! Saiblo's byte framing (seed 002), as pure functions over `Read`/`Write`:
//!
//! - judger -> logic and AI -> judger: `4 + n` (big-endian body length, then the body);
//! - logic -> judger: `4 + 4 + n` (length, then a big-endian signed target: `-1` = for the
//!   judger, `i >= 0` = forward the body to AI `i`);
//! - logic -> AI (inside the forwarded body, our convention and the public templates'):
//!   an 8-digit zero-padded decimal length, then the text.
//!
//! Every malformed input is a [`FrameError`] naming what was wrong; reading never waits for
//! more than the declared bytes, so an end of file mid-frame is an error, not a hang.

use std::fmt;
use std::io::{self, Read, Write};

/// The largest body accepted by default (Saiblo messages are small; a bigger length is almost
/// always a desynchronised stream, e.g. text written where a header was expected).
pub const DEFAULT_MAX_BODY: usize = 16 << 20;

/// Target value of a logic frame meant for the judger itself.
pub const TO_JUDGER: i32 = -1;

/// Why a frame could not be read.
#[derive(Debug)]
pub enum FrameError {
    /// The header declares more than the accepted maximum (`header` shows the raw bytes, which
    /// often reveal text written without framing).
    BadLength {
        declared: u64,
        max: usize,
        header: [u8; 4],
    },
    /// The stream ended inside the header.
    TruncatedHeader {
        got: usize,
        need: usize,
    },
    /// The stream ended inside the body.
    TruncatedBody {
        declared: usize,
        got: usize,
    },
    /// A logic frame's target is neither -1 nor an AI number.
    BadTarget(i32),
    /// The 8-digit decimal length of a logic -> AI message is not 8 digits.
    BadDecimalLength([u8; 8]),
    Io(io::Error),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::BadLength {
                declared,
                max,
                header,
            } => write!(
                f,
                "bad frame length {declared} (more than {max} bytes; header bytes {:?} = {:?}): \
                 is the peer writing unframed text?",
                header,
                String::from_utf8_lossy(header)
            ),
            FrameError::TruncatedHeader { got, need } => write!(
                f,
                "truncated frame header: the stream ended after {got} of {need} header bytes"
            ),
            FrameError::TruncatedBody { declared, got } => write!(
                f,
                "truncated frame body: the stream ended after {got} of {declared} declared bytes"
            ),
            FrameError::BadTarget(t) => {
                write!(
                    f,
                    "bad frame target {t}: expected -1 (judger) or an AI number"
                )
            }
            FrameError::BadDecimalLength(b) => write!(
                f,
                "bad message length {:?}: expected 8 decimal digits",
                String::from_utf8_lossy(b)
            ),
            FrameError::Io(e) => write!(f, "read failed: {e}"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Reads exactly `buf.len()` bytes; returns how many arrived before end of file.
fn fill<R: Read>(r: &mut R, buf: &mut [u8]) -> Result<usize, FrameError> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(FrameError::Io(e)),
        }
    }
    Ok(got)
}

/// Reads a header of `N` bytes: `Ok(None)` on a clean end of file before its first byte.
fn header<R: Read, const N: usize>(r: &mut R) -> Result<Option<[u8; N]>, FrameError> {
    let mut h = [0u8; N];
    match fill(r, &mut h)? {
        0 => Ok(None),
        n if n < N => Err(FrameError::TruncatedHeader { got: n, need: N }),
        _ => Ok(Some(h)),
    }
}

fn body<R: Read>(r: &mut R, len_bytes: [u8; 4], max: usize) -> Result<Vec<u8>, FrameError> {
    let declared = u32::from_be_bytes(len_bytes);
    let len = usize::try_from(declared).unwrap_or(usize::MAX);
    if len > max {
        return Err(FrameError::BadLength {
            declared: u64::from(declared),
            max,
            header: len_bytes,
        });
    }
    let mut buf = vec![0u8; len];
    let got = fill(r, &mut buf)?;
    if got < len {
        return Err(FrameError::TruncatedBody { declared: len, got });
    }
    Ok(buf)
}

/// Reads one `4 + n` frame (judger -> logic, AI -> judger). `Ok(None)` at a clean end of file.
pub fn read_frame<R: Read>(r: &mut R, max: usize) -> Result<Option<Vec<u8>>, FrameError> {
    let Some(h) = header::<R, 4>(r)? else {
        return Ok(None);
    };
    body(r, h, max).map(Some)
}

/// Reads one `4 + 4 + n` frame (logic -> judger): `(target, body)`. `Ok(None)` at a clean end
/// of file. Targets below -1 are refused; whether an AI number exists is the caller's check.
pub fn read_logic_frame<R: Read>(
    r: &mut R,
    max: usize,
) -> Result<Option<(i32, Vec<u8>)>, FrameError> {
    let Some(h) = header::<R, 8>(r)? else {
        return Ok(None);
    };
    let len = [h[0], h[1], h[2], h[3]];
    let target = i32::from_be_bytes([h[4], h[5], h[6], h[7]]);
    // Check the length before the target: a desynchronised stream shows as a bad length.
    let declared = u32::from_be_bytes(len);
    if usize::try_from(declared).unwrap_or(usize::MAX) > max {
        return Err(FrameError::BadLength {
            declared: u64::from(declared),
            max,
            header: len,
        });
    }
    if target < TO_JUDGER {
        return Err(FrameError::BadTarget(target));
    }
    body(r, len, max).map(|b| Some((target, b)))
}

/// A `4 + n` frame.
pub fn encode_frame(body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(body.len()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(body.len() + 4);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// A `4 + 4 + n` frame for `target` (-1 = the judger).
pub fn encode_logic_frame(target: i32, body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(body.len()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(body.len() + 8);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&target.to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// Writes a `4 + n` frame and flushes.
pub fn write_frame<W: Write>(w: &mut W, body: &[u8]) -> io::Result<()> {
    w.write_all(&encode_frame(body))?;
    w.flush()
}

/// Writes a `4 + 4 + n` frame and flushes.
pub fn write_logic_frame<W: Write>(w: &mut W, target: i32, body: &[u8]) -> io::Result<()> {
    w.write_all(&encode_logic_frame(target, body))?;
    w.flush()
}

/// A logic -> AI message in the 8-digit decimal convention: `00000009PLACE 3 4` ...
/// Texts of 10^8 bytes or more cannot be written this way (Saiblo's 2048-byte defaults are far
/// below).
pub fn encode_for_ai(text: &str) -> String {
    format!("{:08}{text}", text.len())
}

/// Reads one 8-digit-length message (what an AI SDK does with the bytes the judger forwards).
pub fn read_ai_message<R: Read>(r: &mut R, max: usize) -> Result<Option<Vec<u8>>, FrameError> {
    let Some(h) = header::<R, 8>(r)? else {
        return Ok(None);
    };
    let text = std::str::from_utf8(&h).map_err(|_| FrameError::BadDecimalLength(h))?;
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FrameError::BadDecimalLength(h));
    }
    let len: usize = text.parse().map_err(|_| FrameError::BadDecimalLength(h))?;
    if len > max {
        return Err(FrameError::BadLength {
            declared: len as u64,
            max,
            header: [h[0], h[1], h[2], h[3]],
        });
    }
    let mut buf = vec![0u8; len];
    let got = fill(r, &mut buf)?;
    if got < len {
        return Err(FrameError::TruncatedBody { declared: len, got });
    }
    Ok(Some(buf))
}
