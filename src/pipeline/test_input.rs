//! Inputs for the stages' tests.

use std::io::{self, Read};

/// Bytes read through `read` calls every other one of which fails with `Interrupted`, as a
/// signal arriving during `read` makes it; the failing one comes first.
pub struct Interrupting {
    inner: io::Cursor<Vec<u8>>,
    fail: bool,
}

impl Interrupting {
    pub fn new(bytes: Vec<u8>) -> Self {
        Interrupting {
            inner: io::Cursor::new(bytes),
            fail: false,
        }
    }
}

impl Read for Interrupting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.fail = !self.fail;
        if self.fail {
            return Err(io::ErrorKind::Interrupted.into());
        }
        self.inner.read(buf)
    }
}
