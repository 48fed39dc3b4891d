//! An output stream compressed as a whole, or not ([`Compressed`]): gzip, zstd or xz, ended
//! with its trailer.

use std::io::{self, Write};

/// An output stream, compressed or not.
pub enum Compressed {
    /// As it is.
    Plain(Box<dyn Write + Send>),
    /// gzip.
    Gzip(flate2::write::GzEncoder<Box<dyn Write + Send>>),
    /// zstd.
    Zstd(zstd::stream::write::Encoder<'static, Box<dyn Write + Send>>),
    /// xz.
    Xz(liblzma::write::XzEncoder<Box<dyn Write + Send>>),
}

impl Compressed {
    /// Ends the compressed stream (its trailer) and flushes the output.
    pub fn finish(&mut self) -> io::Result<()> {
        match self {
            Compressed::Plain(w) => w.flush(),
            Compressed::Gzip(w) => w.try_finish(),
            Compressed::Zstd(w) => w.do_finish(),
            Compressed::Xz(w) => w.try_finish(),
        }
    }
}

impl Write for Compressed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Compressed::Plain(w) => w.write(buf),
            Compressed::Gzip(w) => w.write(buf),
            Compressed::Zstd(w) => w.write(buf),
            Compressed::Xz(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Compressed::Plain(w) => w.write_all(buf),
            Compressed::Gzip(w) => w.write_all(buf),
            Compressed::Zstd(w) => w.write_all(buf),
            Compressed::Xz(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Compressed::Plain(w) => w.flush(),
            Compressed::Gzip(w) => w.flush(),
            Compressed::Zstd(w) => w.flush(),
            Compressed::Xz(w) => w.flush(),
        }
    }
}
