//! Payloads (replays, compile logs, artefacts) are stored gzip-compressed: replays are JSON and
//! shrink about tenfold. Unpacking is bounded, so a corrupt or hostile row cannot exhaust memory.

use std::io::{Read, Write};

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

/// The largest payload unpacked (a 16x16 Reversi replay with logs is well under 1 MB; a bot
/// artefact is capped by its submission limit).
pub const MAX_UNPACKED: u64 = 256 << 20;

/// gzip at a fast level: workers pack every replay.
pub fn pack(bytes: &[u8]) -> Vec<u8> {
    let mut out = GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4 + 64),
        Compression::new(6),
    );
    // Writing into a Vec cannot fail.
    let _ = out.write_all(bytes);
    out.finish().unwrap_or_default()
}

/// Reverses [`pack`]; refuses data that is not gzip or unpacks past [`MAX_UNPACKED`].
pub fn unpack(packed: &[u8]) -> Result<Vec<u8>, crate::Error> {
    let mut out = Vec::new();
    GzDecoder::new(packed)
        .take(MAX_UNPACKED + 1)
        .read_to_end(&mut out)
        .map_err(|e| crate::Error::Corrupt(format!("stored payload does not unpack: {e}")))?;
    if out.len() as u64 > MAX_UNPACKED {
        return Err(crate::Error::Corrupt(format!(
            "stored payload unpacks to more than {} MB",
            MAX_UNPACKED >> 20
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip() {
        let text = b"{\"format\":\"arbiter-replay\"}".repeat(100);
        let packed = super::pack(&text);
        assert!(packed.len() < text.len() / 5);
        assert_eq!(super::unpack(&packed).unwrap(), text);
        assert!(super::unpack(b"not gzip").is_err());
    }
}
