//! The key table's tests: keys, places and tags across growth, crowding and spills.

use super::*;

/// A key like [`key`](super::super::canon::key)'s: two halves below 2^61, from `n`.
fn key_of(n: u64) -> u128 {
    let mix = |x: u64| {
        let x = (x ^ (x >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (x ^ (x >> 29)).wrapping_mul(0x94d0_49bb_1331_11eb) >> 3
    };
    (u128::from(mix(2 * n)) << 64) | u128::from(mix(2 * n + 1))
}

#[test]
fn slots_are_16_bytes() {
    assert_eq!(size_of::<Slot>(), 16);
}

#[test]
fn keys_are_found_with_their_first_place_across_growth() {
    let mut t = KeyTable::new();
    let n = 60_000u64;
    for i in 0..n {
        assert_eq!(t.first_or_insert(key_of(i), 0, i + 2), (0, i + 2));
    }
    assert_eq!(t.len(), n as usize);
    // Every sub-table grew several times; every key is still there, at its first line.
    assert!((0..SUBS).all(|s| lock(&t.subs, s).slots.len() > MIN_SLOTS * 2));
    for i in 0..n {
        assert_eq!(t.first_or_insert(key_of(i), 0, n + 10 + i), (0, i + 2));
        assert_eq!(t.get(key_of(i)), Some((0, i + 2)));
    }
    assert_eq!(t.len(), n as usize);
    assert_eq!(t.get(key_of(n)), None);
}

#[test]
fn memory_stays_within_25_bytes_a_key_at_every_size() {
    let mut t = KeyTable::new();
    let mut worst = 0f64;
    for i in 0..200_000u64 {
        t.first_or_insert(key_of(i), 0, i + 1);
        if i >= 20_000 {
            worst = worst.max(t.heap_bytes() as f64 / t.len() as f64);
        }
    }
    assert!(worst <= 25.5, "{worst} bytes a key");
    assert!(worst > 20.0, "{worst} bytes a key");
}

#[test]
fn keys_that_share_a_slot_or_stored_bits_stay_apart() {
    let mut t = KeyTable::new();
    let a = key_of(7);
    // The same stored bits, another sub-table: a different key.
    let b = a ^ (1 << 100);
    // The same sub-table and first word, another `hi`.
    let c = a ^ (1 << 70);
    // The same sub-table and `hi`, so most likely the same home slot: another `lo`.
    let d = a ^ 1;
    for (k, line) in [(a, 1), (b, 2), (c, 3), (d, 4)] {
        assert_eq!(t.first_or_insert(k, 0, line), (0, line));
    }
    assert_eq!(t.len(), 4);
    for (k, line) in [(a, 1), (b, 2), (c, 3), (d, 4)] {
        assert_eq!(t.get(k), Some((0, line)));
    }
    // The 18 bits of the first hash that are not kept (its bits 33, 34 and 45 to 60)
    // tell no keys apart: the 2^-43 of the bound.
    for unkept in [33, 34, 45, 50, 60] {
        assert_eq!(
            t.get(a ^ (1 << (64 + unkept))),
            Some((0, 1)),
            "bit {unkept}"
        );
    }
    for kept in [0, 2, 3, 32, 35, 44] {
        assert_eq!(t.get(a ^ (1 << (64 + kept))), None, "bit {kept}");
    }
    // Keys crowded into one sub-table and one home slot are found by probing.
    let mut crowded = KeyTable::new();
    for i in 0..500u64 {
        let k = (u128::from(i) << 64) | 5;
        assert_eq!(crowded.first_or_insert(k, 0, i), (0, i));
    }
    for i in 0..500u64 {
        assert_eq!(crowded.get((u128::from(i) << 64) | 5), Some((0, i)));
    }
}

#[test]
fn tags_come_back_to_the_owner_and_to_views_across_growth() {
    let mut t = KeyTable::new();
    let view = t.known();
    let n = 20_000u64;
    for i in 0..n {
        let tag = (i % 4) as u8;
        assert_eq!(
            t.first_or_insert_tagged(key_of(i), 0, i + 1, tag),
            (0, i + 1, tag)
        );
    }
    // A key seen again keeps its first place and tag, whatever tag it comes with now.
    for i in 0..n {
        let tag = (i % 4) as u8;
        assert_eq!(
            t.first_or_insert_tagged(key_of(i), 1, 5, 3 - tag),
            (0, i + 1, tag)
        );
        assert_eq!(view.tag(key_of(i)), Some(tag));
        // What the view found leads back to the same place without a second look-up.
        let found = view.find(key_of(i)).unwrap();
        assert_eq!(t.first_found(found), (0, i + 1, tag));
        // The tag's bits are not the key's: the same key is found under any tag.
        assert_eq!(t.get(key_of(i)), Some((0, i + 1)));
    }
    assert_eq!(view.tag(key_of(n)), None);
    assert_eq!(t.len(), n as usize);
    // A view made before the keys came, and one made after, see the same table; another
    // thread reads while this one adds.
    let later = t.known();
    std::thread::scope(|scope| {
        let reader = scope.spawn(|| (0..n).filter(|&i| later.tag(key_of(i)).is_some()).count());
        for i in n..2 * n {
            t.first_or_insert_tagged(key_of(i), 0, i + 1, 1);
        }
        assert_eq!(reader.join().unwrap(), n as usize);
    });
    assert_eq!(view.tag(key_of(2 * n - 1)), Some(1));
}

#[test]
fn places_come_back_across_several_inputs() {
    let mut t = KeyTable::new();
    // Three inputs with a header line, blank lines, and lines from 1.
    let mut expected = Vec::new();
    let mut n = 0;
    for (file, lines) in [(0u32, 2..500u64), (1, 2..900), (2, 1..300)] {
        for line in lines.filter(|l| l % 7 != 3) {
            expected.push((key_of(n), (file, line)));
            assert_eq!(t.first_or_insert(key_of(n), file, line), (file, line));
            n += 1;
        }
    }
    // An input read again, and one whose lines go back.
    for line in [10u64, 5, 20] {
        expected.push((key_of(n), (0, line)));
        t.first_or_insert(key_of(n), 0, line);
        n += 1;
    }
    let view = t.known();
    for (k, place) in &expected {
        assert_eq!(t.get(*k), Some(*place));
        assert_eq!(t.first_or_insert(*k, 2, 10_000), *place);
        let (file, line, _) = t.first_found(view.find(*k).unwrap());
        assert_eq!((file, line), *place);
    }
    assert_eq!(t.places.runs.len(), 5);
}

#[test]
fn places_past_the_last_index_spill_and_are_still_found() {
    let mut t = KeyTable::new();
    let far = u64::from(u32::MAX) + 5;
    assert_eq!(t.first_or_insert(key_of(1), 0, 1), (0, 1));
    assert_eq!(t.first_or_insert(key_of(2), 0, far), (0, far));
    assert_eq!(t.first_or_insert(key_of(3), 1, 7), (1, 7));
    assert_eq!(t.spill.len(), 1);
    // A spilled key keeps its tag for the owner; views do not see it.
    let k = key_of(4);
    assert_eq!(
        t.first_or_insert_tagged(k, 1, far + 10, 2),
        (1, far + 10, 2)
    );
    assert_eq!(t.spill.len(), 2);
    assert_eq!(t.first_or_insert_tagged(k, 0, 3, 1), (1, far + 10, 2));
    assert_eq!(t.known().tag(k), None);
    assert_eq!(t.get(key_of(2)), Some((0, far)));
    assert_eq!(t.get(key_of(3)), Some((1, 7)));
    assert_eq!(t.first_or_insert(key_of(2), 1, 9), (0, far));
    assert_eq!(t.get(key_of(1)), Some((0, 1)));
    assert_eq!(t.len(), 4);
}
