//! Splitting the bot's stdout into lines or length-prefixed frames, with bounded
//! memory. Pure logic (no I/O) so it can be tested byte by byte.

/// What one `read_line` call observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadEvent {
    /// A complete line, terminator (LF, CR LF or CR) removed. Raw bytes: the
    /// caller decides what non-UTF-8 means.
    Line(Vec<u8>),
    /// The deadline passed without a complete line (partial input stays buffered).
    Timeout,
    /// End of file on stdout: every process holding the pipe closed it. The bot
    /// may still be running (check `try_wait`).
    Closed,
    /// A line longer than `Limits::max_line_bytes`; its first bytes are kept and
    /// the rest of the line is discarded as it arrives.
    LineTooLong { kept_prefix: Vec<u8> },
    /// More than `Limits::max_output_bytes` were written on stdout in total.
    OutputLimit,
}

/// What one `read_frame` call observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameEvent {
    /// One frame body (without its 4-byte big-endian length prefix).
    Frame(Vec<u8>),
    /// The deadline passed before a whole frame arrived.
    Timeout,
    /// End of file on stdout.
    Closed,
    /// End of file in the middle of a frame: `received` of `declared` bytes.
    Truncated { declared: u32, received: usize },
    /// The declared length exceeds `Limits::max_frame_bytes`; the body is skipped
    /// as it arrives (the stream stays in sync).
    TooLarge { declared: u32 },
    /// More than `Limits::max_output_bytes` were written on stdout in total.
    OutputLimit,
}

/// Buffered stdout bytes not yet handed to the caller.
#[derive(Debug)]
pub(crate) struct StdoutBuffer {
    buf: Vec<u8>,
    /// Bytes of `buf` before `start` were consumed.
    start: usize,
    /// The previous line ended with CR: a leading LF belongs to it.
    skip_lf: bool,
    /// Inside an over-long line: drop bytes up to the next terminator.
    discarding_line: bool,
    /// Bytes of an over-large frame body still to drop.
    skip_bytes: u64,
    max_line: usize,
    max_frame: usize,
}

impl StdoutBuffer {
    pub(crate) fn new(max_line: usize, max_frame: usize) -> Self {
        StdoutBuffer {
            buf: Vec::new(),
            start: 0,
            skip_lf: false,
            discarding_line: false,
            skip_bytes: 0,
            max_line: max_line.max(1),
            max_frame,
        }
    }

    /// Appends bytes read from the pipe; bytes that are being discarded never
    /// reach the buffer, so memory stays bounded by the line/frame limits.
    pub(crate) fn push(&mut self, mut data: &[u8]) {
        if self.skip_bytes > 0 {
            let n = usize::try_from(self.skip_bytes)
                .unwrap_or(usize::MAX)
                .min(data.len());
            self.skip_bytes -= n as u64;
            data = &data[n..];
        }
        if self.discarding_line {
            match data.iter().position(|&b| b == b'\n' || b == b'\r') {
                None => return,
                Some(i) => {
                    self.discarding_line = false;
                    self.skip_lf = data[i] == b'\r';
                    data = &data[i + 1..];
                }
            }
        }
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(data);
    }

    fn pending(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or(&[])
    }

    /// Next complete line, or an over-long line, from buffered data.
    pub(crate) fn next_line(&mut self) -> Option<ReadEvent> {
        if self.skip_lf {
            match self.pending().first() {
                None => return None,
                Some(&b'\n') => self.start += 1,
                Some(_) => {}
            }
            self.skip_lf = false;
        }
        let pending = self.pending();
        let end = pending.iter().position(|&b| b == b'\n' || b == b'\r');
        match end {
            Some(i) if i <= self.max_line => {
                let line = pending[..i].to_vec();
                self.skip_lf = pending[i] == b'\r';
                self.start += i + 1;
                Some(ReadEvent::Line(line))
            }
            Some(i) => {
                let kept = pending[..self.max_line].to_vec();
                self.skip_lf = pending[i] == b'\r';
                self.start += i + 1;
                Some(ReadEvent::LineTooLong { kept_prefix: kept })
            }
            None if pending.len() > self.max_line => {
                let kept = pending[..self.max_line].to_vec();
                self.start = self.buf.len();
                self.discarding_line = true;
                Some(ReadEvent::LineTooLong { kept_prefix: kept })
            }
            None => None,
        }
    }

    /// At end of file: an unterminated last line is still delivered once.
    pub(crate) fn line_at_eof(&mut self) -> ReadEvent {
        if let Some(event) = self.next_line() {
            return event;
        }
        let pending = self.pending();
        if pending.is_empty() || self.discarding_line {
            return ReadEvent::Closed;
        }
        let line = pending.to_vec();
        self.start = self.buf.len();
        ReadEvent::Line(line)
    }

    /// Next complete frame from buffered data.
    pub(crate) fn next_frame(&mut self) -> Option<FrameEvent> {
        if self.skip_bytes > 0 {
            return None;
        }
        let pending = self.pending();
        let header: [u8; 4] = pending.get(..4)?.try_into().ok()?;
        let declared = u32::from_be_bytes(header);
        let len = declared as usize;
        if len > self.max_frame {
            let available = pending.len() - 4;
            let dropped = available.min(len);
            self.start += 4 + dropped;
            self.skip_bytes = (len - dropped) as u64;
            return Some(FrameEvent::TooLarge { declared });
        }
        let body = pending.get(4..4 + len)?.to_vec();
        self.start += 4 + len;
        Some(FrameEvent::Frame(body))
    }

    /// At end of file in frame mode.
    pub(crate) fn frame_at_eof(&mut self) -> FrameEvent {
        if let Some(event) = self.next_frame() {
            return event;
        }
        let pending = self.pending();
        if pending.is_empty() {
            return FrameEvent::Closed;
        }
        let mut header = [0u8; 4];
        for (dst, src) in header.iter_mut().zip(pending) {
            *dst = *src;
        }
        let received = pending.len().saturating_sub(4);
        self.start = self.buf.len();
        FrameEvent::Truncated {
            declared: u32::from_be_bytes(header),
            received,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(chunks: &[&[u8]], max: usize) -> Vec<ReadEvent> {
        let mut b = StdoutBuffer::new(max, 100);
        let mut out = Vec::new();
        for c in chunks {
            b.push(c);
            while let Some(e) = b.next_line() {
                out.push(e);
            }
        }
        out.push(b.line_at_eof());
        out
    }

    fn l(s: &str) -> ReadEvent {
        ReadEvent::Line(s.as_bytes().to_vec())
    }

    #[test]
    fn terminators_lf_crlf_cr_even_split_across_reads() {
        let got = lines(&[b"a\nb\r", b"\nc\rd\r\n", b"\r\ne"], 10);
        assert_eq!(got, vec![l("a"), l("b"), l("c"), l("d"), l(""), l("e")]);
    }

    #[test]
    fn every_split_point_gives_same_lines() {
        let data = b"x 1\r\ny 22\rz\n\nlast";
        let whole = lines(&[data], 100);
        for cut in 0..data.len() {
            let (a, b) = data.split_at(cut);
            assert_eq!(lines(&[a, b], 100), whole, "cut at {cut}");
        }
        assert_eq!(whole, vec![l("x 1"), l("y 22"), l("z"), l(""), l("last")]);
    }

    #[test]
    fn long_line_is_cut_and_rest_discarded() {
        let got = lines(&[b"abcdefgh", b"ijkl", b"mn\nok\n"], 4);
        assert_eq!(
            got,
            vec![
                ReadEvent::LineTooLong {
                    kept_prefix: b"abcd".to_vec()
                },
                l("ok"),
                ReadEvent::Closed
            ]
        );
        let got = lines(&[b"abcdefgh\r\nok\n"], 4);
        assert_eq!(
            got,
            vec![
                ReadEvent::LineTooLong {
                    kept_prefix: b"abcd".to_vec()
                },
                l("ok"),
                ReadEvent::Closed
            ]
        );
        assert_eq!(lines(&[b"abcd\n"], 4), vec![l("abcd"), ReadEvent::Closed]);
    }

    #[test]
    fn discarding_keeps_memory_bounded() {
        let mut b = StdoutBuffer::new(8, 8);
        b.push(&[b'x'; 100]);
        assert!(matches!(b.next_line(), Some(ReadEvent::LineTooLong { .. })));
        for _ in 0..1000 {
            b.push(&[b'y'; 4096]);
            assert!(b.next_line().is_none());
        }
        assert!(b.buf.len() <= 200, "buffer grew to {}", b.buf.len());
        b.push(b"\nhi\n");
        assert_eq!(b.next_line(), Some(l("hi")));
    }

    #[test]
    fn frames_roundtrip_and_oversize_skip() {
        let mut b = StdoutBuffer::new(10, 5);
        let mut data = Vec::new();
        data.extend_from_slice(&3u32.to_be_bytes());
        data.extend_from_slice(b"abc");
        data.extend_from_slice(&9u32.to_be_bytes());
        data.extend_from_slice(b"123456789");
        data.extend_from_slice(&0u32.to_be_bytes());
        data.extend_from_slice(&2u32.to_be_bytes());
        data.push(b'z');
        let mut out = Vec::new();
        for byte in data {
            b.push(&[byte]);
            while let Some(e) = b.next_frame() {
                out.push(e);
            }
        }
        out.push(b.frame_at_eof());
        assert_eq!(
            out,
            vec![
                FrameEvent::Frame(b"abc".to_vec()),
                FrameEvent::TooLarge { declared: 9 },
                FrameEvent::Frame(Vec::new()),
                FrameEvent::Truncated {
                    declared: 2,
                    received: 1
                },
            ]
        );
    }
}
