//! Compressed inputs: gzip, xz and zstd are decompressed on the fly, told apart by their first
//! bytes (whatever the file's name); other compressions and UTF-16 text are refused with a
//! message that says what the input is, rather than read as thousands of invalid records.

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
        Kind::Xz => Box::new(Labelled(
            kind,
            liblzma::bufread::XzDecoder::new_multi_decoder(input),
        )),
        Kind::Zstd => Box::new(Labelled(
            kind,
            zstd::stream::read::Decoder::with_buffer(input)?,
        )),
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
            if e.kind() == io::ErrorKind::Interrupted {
                e
            } else {
                let kind = self.0.name();
                io::Error::new(e.kind(), format!("corrupt or truncated {kind} data: {e}"))
            }
        })
    }
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
