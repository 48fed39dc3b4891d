//! Compressed inputs: gzip, xz and zstd are decompressed on the fly, told apart by their first
//! bytes (whatever the file's name); other compressions and UTF-16 text are refused with a
//! message that says what the input is, rather than read as thousands of invalid records.
//!
//! A decoder's memory is bounded: an xz dictionary or a zstd window may be at most
//! [`MAX_WINDOW`]. A file whose header asks for more is refused with what it needs (read from
//! the header before any memory is taken), and a later stream or frame that asks for more stops
//! the read with the same words, not as corrupt data.

use std::io::{self, BufRead, Read};

use super::fill_buf;

/// The first bytes of a gzip member.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
/// The first bytes of an xz stream.
const XZ_MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0x00];
/// The first bytes of a zstd frame.
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
/// The first bytes of an lz4 frame.
const LZ4_MAGIC: &[u8] = &[0x04, 0x22, 0x4d, 0x18];
/// The bytes that may open a bzip2 stream (`BZh`, a block size, the block magic).
const BZIP2_BLOCK: &[u8] = &[0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
/// The first bytes of a Parquet file.
const PARQUET_MAGIC: &[u8] = b"PAR1";
/// The longest magic looked for.
pub(crate) const SNIFF_BYTES: usize = 10;
/// The first bytes of a compressed input read to find the memory its decoder needs: the xz
/// stream header and its first block header up to the LZMA2 filter, or the zstd frame header.
pub(super) const HEADER_BYTES: usize = 64;

/// The largest xz dictionary or zstd window read: 128 MiB, zstd's own default limit (what
/// `zstd -d` takes without `--long` or `--memory`), larger than `xz -9`'s 64 MiB dictionary.
pub const MAX_WINDOW: u64 = 128 << 20;
/// `log2` of [`MAX_WINDOW`], for the zstd decoder.
const MAX_WINDOW_LOG: u32 = 27;
/// The memory an xz decoder may use: a dictionary of [`MAX_WINDOW`] and the decoder's own
/// state, which is well under a MiB.
const XZ_MEMORY_LIMIT: u64 = MAX_WINDOW + (8 << 20);

/// What the first bytes of an input say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Text (or anything else that is read as it is).
    Plain,
    Gzip,
    Xz,
    Zstd,
    /// A compression that is not read: its name.
    Unsupported(&'static str),
    /// Text in UTF-16, which the readers cannot parse.
    Utf16,
    /// A Parquet file, read as Parquet only when its name or `--format` says so.
    Parquet,
}

impl Kind {
    /// The kind of an input that starts with `head` (its first [`SNIFF_BYTES`] bytes, or all
    /// of a shorter input).
    pub(crate) fn of(head: &[u8]) -> Kind {
        let bzip2 = head.len() >= 10
            && head.starts_with(b"BZh")
            && (b'1'..=b'9').contains(&head[3])
            && head[4..10] == *BZIP2_BLOCK;
        if head.starts_with(GZIP_MAGIC) {
            Kind::Gzip
        } else if head.starts_with(XZ_MAGIC) {
            Kind::Xz
        } else if head.starts_with(ZSTD_MAGIC) {
            Kind::Zstd
        } else if bzip2 {
            Kind::Unsupported("bzip2")
        } else if head.starts_with(LZ4_MAGIC) {
            Kind::Unsupported("lz4")
        } else if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) {
            Kind::Utf16
        } else if head.starts_with(PARQUET_MAGIC) {
            Kind::Parquet
        } else {
            Kind::Plain
        }
    }

    /// The name used in messages about corrupt data.
    fn name(self) -> &'static str {
        match self {
            Kind::Gzip => "gzip",
            Kind::Xz => "xz",
            Kind::Zstd => "zstd",
            Kind::Unsupported(name) => name,
            Kind::Plain | Kind::Utf16 | Kind::Parquet => "text",
        }
    }
}

/// Why an input cannot be read at all, for the message that names it.
pub(crate) fn refusal(kind: Kind) -> Option<String> {
    match kind {
        Kind::Unsupported(name) => Some(format!(
            "{name} input is not supported; decompress it first, or recompress it with gzip, \
             xz or zstd"
        )),
        Kind::Utf16 => Some(
            "UTF-16 input is not supported; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)"
                .into(),
        ),
        Kind::Parquet => {
            Some("this is a Parquet file: name it .parquet or give --format parquet".into())
        }
        _ => None,
    }
}

/// Why a compressed input that starts with `head` (its first [`HEADER_BYTES`], or all of a
/// shorter input) is not read: its header asks for a dictionary or window larger than
/// [`MAX_WINDOW`]. `None` when it does not, or when the header cannot be read (the decoder then
/// says what is wrong).
pub(super) fn too_large(kind: Kind, head: &[u8]) -> Option<String> {
    let (needs, hint) = match kind {
        Kind::Xz => (xz_dictionary(head)?, "xz -dc FILE | sudoku-batch ... -"),
        Kind::Zstd => (
            zstd_window(head)?,
            "zstd -dc --long=31 FILE | sudoku-batch ... -",
        ),
        _ => return None,
    };
    (needs > MAX_WINDOW).then(|| window_message(kind, Some(needs), hint))
}

/// The words for a decoder that would need more than [`MAX_WINDOW`]; `needs` when known.
fn window_message(kind: Kind, needs: Option<u64>, hint: &str) -> String {
    let (what, made) = match kind {
        Kind::Xz => ("dictionary", "xz --lzma2=dict=SIZE"),
        _ => ("window", "zstd --long"),
    };
    let needs = needs.map_or("a larger".into(), |n| format!("a {}", mib(n)));
    format!(
        "this {} file was made with {needs} {what} (as `{made}` makes), and reading it would \
         take that much memory; sudoku-batch reads a {what} of at most {}. Decompress it \
         outside: {hint}",
        kind.name(),
        mib(MAX_WINDOW)
    )
}

/// `bytes` in MiB or GiB, as the compressors state dictionary and window sizes.
fn mib(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 27) {
        // Whole eighths of a GiB, which f64 shows exactly: 1.5, 2.
        format!("{} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// The LZMA2 dictionary size the first block header of an xz stream states, when `head` holds
/// it (a stream of no block, or of other filters, states none).
fn xz_dictionary(head: &[u8]) -> Option<u64> {
    // The stream header (12 bytes), then the block header: its size / 4 - 1, flags (the
    // filter count - 1 in the low bits; sizes present in the top two), the sizes, the filters.
    let block = head.get(12..)?;
    let size = (usize::from(*block.first()?) + 1) * 4;
    let block = block.get(..size.min(block.len()))?;
    let flags = *block.get(1)?;
    let mut at = 2;
    let varint = |at: &mut usize| -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..63).step_by(7) {
            let b = *block.get(*at)?;
            *at += 1;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    };
    for present in [0x40, 0x80] {
        if flags & present != 0 {
            varint(&mut at)?;
        }
    }
    for _ in 0..=(flags & 3) {
        let id = varint(&mut at)?;
        let props = varint(&mut at)? as usize;
        if id == 0x21 && props == 1 {
            let bits = u32::from(*block.get(at)?);
            return Some(match bits {
                40 => u64::from(u32::MAX),
                0..40 => (2 | u64::from(bits & 1)) << (bits / 2 + 11),
                _ => return None,
            });
        }
        at += props;
    }
    None
}

/// The window size a zstd frame header states (for a frame of one segment, its content size).
fn zstd_window(head: &[u8]) -> Option<u64> {
    let descriptor = *head.get(4)?;
    let single_segment = descriptor & 0x20 != 0;
    if !single_segment {
        let w = *head.get(5)?;
        let log = 10 + u32::from(w >> 3);
        let base = 1u64 << log;
        return Some(base + (base / 8) * u64::from(w & 7));
    }
    let dictionary_id = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let at = 5 + dictionary_id;
    let (bytes, add) = match descriptor >> 6 {
        0 => (1, 0),
        1 => (2, 256),
        2 => (4, 0),
        _ => (8, 0),
    };
    let field = head.get(at..at + bytes)?;
    let value = field
        .iter()
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b));
    Some(value + add)
}

/// A lower-case file name without the compression suffix it may end in (`.gz`, `.xz`,
/// `.zst`, `.zstd`).
pub(super) fn strip_suffix(name: &str) -> &str {
    [".gz", ".xz", ".zst", ".zstd"]
        .iter()
        .find_map(|suffix| name.strip_suffix(suffix))
        .unwrap_or(name)
}

/// `input`, decompressed when `kind` says it is compressed.
pub(crate) fn decompress(
    kind: Kind,
    input: Box<dyn BufRead + Send>,
) -> io::Result<Box<dyn BufRead + Send>> {
    let decoded: Box<dyn Read + Send> = match kind {
        Kind::Gzip => Box::new(Labelled(kind, GzipMembers::new(input))),
        Kind::Xz => {
            let stream = liblzma::stream::Stream::new_stream_decoder(
                XZ_MEMORY_LIMIT,
                liblzma::stream::CONCATENATED,
            )
            .map_err(io::Error::other)?;
            Box::new(Labelled(
                kind,
                liblzma::bufread::XzDecoder::new_stream(input, stream),
            ))
        }
        Kind::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(input)?;
            decoder.window_log_max(MAX_WINDOW_LOG)?;
            Box::new(Labelled(kind, decoder))
        }
        _ => return Ok(input),
    };
    Ok(Box::new(io::BufReader::with_capacity(
        super::BUF_SIZE,
        decoded,
    )))
}

/// Says in decompression errors which data is at fault: the decoders' own messages
/// ("incomplete deflate stream") do not tell a user that the file is truncated or corrupt.
struct Labelled<R>(Kind, R);

impl<R: Read> Read for Labelled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.1.read(buf).map_err(|e| {
            let kind = self.0;
            if e.kind() == io::ErrorKind::Interrupted {
                e
            } else if is_memory_limit(&e) {
                let hint = match kind {
                    Kind::Xz => "xz -dc FILE | sudoku-batch ... -",
                    _ => "zstd -dc --long=31 FILE | sudoku-batch ... -",
                };
                io::Error::other(window_message(kind, None, hint))
            } else {
                let kind = kind.name();
                io::Error::new(e.kind(), format!("corrupt or truncated {kind} data: {e}"))
            }
        })
    }
}

/// Whether `e` is a decoder's refusal to take more memory than it is allowed: liblzma's
/// memory limit, or zstd's window limit (whose error is text only, zstd's own words).
fn is_memory_limit(e: &io::Error) -> bool {
    let lzma = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<liblzma::stream::Error>())
        .is_some_and(|inner| matches!(inner, liblzma::stream::Error::MemLimit));
    lzma || e.to_string().contains("Frame requires too much memory")
}

/// Gzip members one after another, as `gzip -d` reads them; zero bytes after the last member
/// (the padding that tape drives and some tools add) end the input. Anything else after a
/// member is an error.
struct GzipMembers {
    member: Option<flate2::bufread::GzDecoder<Box<dyn BufRead + Send>>>,
    /// The input after the last member read, while no member is open.
    rest: Option<Box<dyn BufRead + Send>>,
}

impl GzipMembers {
    fn new(input: Box<dyn BufRead + Send>) -> Self {
        GzipMembers {
            member: Some(flate2::bufread::GzDecoder::new(input)),
            rest: None,
        }
    }

    /// After a member: opens the next one, or says the input has ended.
    fn next_member(&mut self) -> io::Result<bool> {
        let Some(mut rest) = self.rest.take() else {
            return Ok(false);
        };
        loop {
            let avail = fill_buf!(rest);
            if avail.is_empty() {
                return Ok(false);
            }
            if avail[0] == GZIP_MAGIC[0] {
                // The magic may be cut by the end of the buffer: the decoder reads the header
                // itself and says whether it is one.
                self.member = Some(flate2::bufread::GzDecoder::new(rest));
                return Ok(true);
            }
            let zeros = avail.iter().take_while(|&&b| b == 0).count();
            if zeros < avail.len() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "data after the last gzip member that is neither a member nor zero padding",
                ));
            }
            rest.consume(zeros);
        }
    }
}

impl Read for GzipMembers {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(member) = &mut self.member {
                let n = member.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                self.rest = self
                    .member
                    .take()
                    .map(flate2::bufread::GzDecoder::into_inner);
            }
            if !self.next_member()? {
                return Ok(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn read_all(kind: Kind, bytes: Vec<u8>, capacity: usize) -> io::Result<Vec<u8>> {
        let input = Box::new(io::BufReader::with_capacity(
            capacity,
            io::Cursor::new(bytes),
        ));
        let mut out = Vec::new();
        decompress(kind, input)?.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn kinds_are_told_by_their_first_bytes() {
        assert_eq!(Kind::of(&gzip(b"x")), Kind::Gzip);
        let xz = liblzma::encode_all(&b"x"[..], 1).unwrap();
        assert_eq!(Kind::of(&xz), Kind::Xz);
        let zst = zstd::encode_all(&b"x"[..], 1).unwrap();
        assert_eq!(Kind::of(&zst), Kind::Zstd);
        assert_eq!(Kind::of(b"BZh91AY&SY\x01"), Kind::Unsupported("bzip2"));
        assert_eq!(Kind::of(b"BZh9 not bzip2"), Kind::Plain);
        assert_eq!(
            Kind::of(&[0x04, 0x22, 0x4d, 0x18, 0]),
            Kind::Unsupported("lz4")
        );
        assert_eq!(Kind::of(&[0xff, 0xfe, b'1', 0]), Kind::Utf16);
        assert_eq!(Kind::of(b"..3.1"), Kind::Plain);
        assert_eq!(Kind::of(b""), Kind::Plain);
    }

    #[test]
    fn gzip_members_and_zero_padding_are_read_as_gzip_d_reads_them() {
        let mut two = gzip(b"first\n");
        two.extend(gzip(b"second\n"));
        let mut padded = two.clone();
        padded.extend(std::iter::repeat_n(0u8, 10_000));
        for capacity in [1, 7, 64, 8192] {
            assert_eq!(
                read_all(Kind::Gzip, two.clone(), capacity).unwrap(),
                b"first\nsecond\n"
            );
            assert_eq!(
                read_all(Kind::Gzip, padded.clone(), capacity).unwrap(),
                b"first\nsecond\n"
            );
        }
        let mut garbage = two.clone();
        garbage.extend_from_slice(b"\0\0junk");
        let err = read_all(Kind::Gzip, garbage, 8192).unwrap_err().to_string();
        assert!(err.starts_with("corrupt or truncated gzip data"), "{err}");
        let cut = two[..two.len() - 3].to_vec();
        assert!(read_all(Kind::Gzip, cut, 8192).is_err());
    }

    #[test]
    fn window_sizes_are_read_from_the_headers() {
        assert_eq!(mib(3 << 29), "1.5 GiB");
        assert_eq!(mib(2 << 30), "2 GiB");
        assert_eq!(mib(256 << 20), "256 MiB");
        // `xz -1` uses a dictionary of 1 MiB.
        let xz = liblzma::encode_all(&b"x"[..], 1).unwrap();
        assert_eq!(
            xz_dictionary(&xz[..HEADER_BYTES.min(xz.len())]),
            Some(1 << 20)
        );
        // A frame of one segment states its content's size, here 1,000 bytes.
        let zst = zstd::encode_all(&[b'.'; 1000][..], 3).unwrap();
        assert_eq!(zstd_window(&zst), Some(1000));
        assert_eq!(too_large(Kind::Xz, &xz), None);
        assert_eq!(too_large(Kind::Zstd, &zst), None);
        assert_eq!(xz_dictionary(&xz[..14]), None);
    }

    #[test]
    fn xz_and_zstd_are_decompressed() {
        let text = b"..3.1\n".repeat(1000);
        let xz = liblzma::encode_all(&text[..], 6).unwrap();
        assert_eq!(read_all(Kind::Xz, xz.clone(), 8192).unwrap(), text);
        let zst = zstd::encode_all(&text[..], 3).unwrap();
        let mut frames = zst.clone();
        frames.extend(&zst);
        assert_eq!(read_all(Kind::Zstd, frames, 8192).unwrap(), text.repeat(2));
        let err = read_all(Kind::Xz, xz[..xz.len() / 2].to_vec(), 8192).unwrap_err();
        assert!(
            err.to_string().starts_with("corrupt or truncated xz data"),
            "{err}"
        );
    }
}
