//! The fuzz targets of `fuzz/targets.rs`, run on stable under `cargo test`: random
//! bytes, bytes from the alphabet the parsers care about, mutated fixtures and cut gzip
//! streams. The same functions are the cargo-fuzz targets in `fuzz/` (nightly), which search far
//! longer; every input they find that fails becomes a regression test here.

#[path = "../../fuzz/targets.rs"]
mod fuzz_targets;

use sudoku_batch::generate::Rng;

use crate::util::{data, gzip};

/// Bytes the readers treat specially, weighted towards them.
const ALPHABET: &[u8] = b"123456789.0_-, \t;|{}[]\"\"\"\n\n\r\r#x\xef\xbb\xbf\xff\x00";

fn random_bytes(rng: &mut Rng, len: usize, alphabet: Option<&[u8]>) -> Vec<u8> {
    (0..len)
        .map(|_| match alphabet {
            Some(a) => a[rng.below(a.len())],
            None => rng.next_u64() as u8,
        })
        .collect()
}

fn fixtures() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(data("."))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    out.sort();
    out
}

/// Flips, inserts and deletes a few bytes of `base`.
fn mutate(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..1 + rng.below(8) {
        let pos = if v.is_empty() { 0 } else { rng.below(v.len()) };
        match rng.below(3) {
            0 if !v.is_empty() => v[pos] = ALPHABET[rng.below(ALPHABET.len())],
            1 => v.insert(pos, ALPHABET[rng.below(ALPHABET.len())]),
            _ if !v.is_empty() => {
                v.remove(pos);
            }
            _ => {}
        }
    }
    v
}

#[test]
fn targets_survive_random_and_structured_bytes() {
    let mut rng = Rng::new(0x5eed);
    for i in 0..600 {
        let len = [0, 1, 81, 82, 200, 1000][i % 6] + rng.below(40);
        let alphabet = (i % 2 == 0).then_some(ALPHABET);
        fuzz_targets::all(&random_bytes(&mut rng, len, alphabet));
    }
}

#[test]
fn targets_survive_mutated_fixtures() {
    let mut rng = Rng::new(7);
    for base in fixtures() {
        // The big fixture line is cut so that each run stays quick.
        let base: Vec<u8> = base.into_iter().take(8_000).collect();
        fuzz_targets::all(&base);
        for _ in 0..40 {
            fuzz_targets::all(&mutate(&mut rng, &base));
        }
    }
}

#[test]
fn targets_survive_cut_and_damaged_gzip() {
    let mut rng = Rng::new(11);
    let gz = gzip(&fixtures()[0]);
    for _ in 0..60 {
        let cut = rng.below(gz.len() + 1);
        fuzz_targets::all(&gz[..cut]);
        fuzz_targets::all(&mutate(&mut rng, &gz));
    }
}

/// Found by `cargo fuzz run text`: a gzip stream of 859 bytes gave 2,428 records before its
/// corrupt end, which the targets took for more records than the input could hold.
#[test]
fn targets_accept_gzip_that_expands_to_more_records_than_its_bytes() {
    let gz = gzip(&b"1\n".repeat(5_000));
    assert!(gz.len() < 5_000, "{} bytes", gz.len());
    fuzz_targets::all(&gz);
}

#[test]
fn solver_target_on_generated_puzzles_and_near_empty_grids() {
    let mut rng = Rng::new(3);
    for i in 0..300 {
        // Bytes below 90 are digits: vary how many there are, from none to all.
        let density = [0, 10, 20, 30, 60, 90][i % 6];
        let bytes: Vec<u8> = (0..81)
            .map(|_| {
                if rng.below(90) < density {
                    rng.below(90) as u8
                } else {
                    200
                }
            })
            .collect();
        fuzz_targets::solver(&bytes);
    }
}
