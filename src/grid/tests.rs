//! Tests of the grid: blanks and comments accepted, too few or too many cells and bad bytes
//! refused with the cell named, the fast parser against the general one, conflicts and peers.

use super::*;

const P1: &str =
    "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";

#[test]
fn parses_dots_zeros_and_underscores_alike() {
    let dots: Grid = P1.parse().unwrap();
    let zeros: Grid = P1.replace('.', "0").parse().unwrap();
    let unders: Grid = P1.replace('.', "_").parse().unwrap();
    assert_eq!(dots, zeros);
    assert_eq!(dots, unders);
    assert_eq!(dots.to_string(), P1);
}

#[test]
fn comment_after_any_delimiter_is_ignored() {
    for d in [" ", "\t", ",", ";"] {
        let g: Grid = format!("{P1}{d}rating 7.1").parse().unwrap();
        assert_eq!(g.to_string(), P1, "delimiter {d:?}");
    }
    let g: Grid = format!("  {P1}").parse().unwrap();
    assert_eq!(g.to_string(), P1, "leading spaces are skipped");
}

#[test]
fn too_few_cells() {
    let e = P1[..80].parse::<Grid>().unwrap_err();
    assert_eq!(e.to_string(), "80 cells, expected 81");
    let e = "".parse::<Grid>().unwrap_err();
    assert_eq!(e.to_string(), "0 cells, expected 81");
    // A delimiter ends the cells early: the count is what came before it.
    let e = format!("{} {}", &P1[..40], &P1[40..])
        .parse::<Grid>()
        .unwrap_err();
    assert_eq!(e.to_string(), "40 cells, expected 81");
}

#[test]
fn too_many_cells() {
    let e = format!("{P1}12").parse::<Grid>().unwrap_err();
    assert_eq!(e.to_string(), "83 cells, expected 81");
}

#[test]
fn unexpected_character_names_the_cell() {
    let mut s = P1.to_string();
    s.replace_range(11..12, "x");
    assert_eq!(
        s.parse::<Grid>().unwrap_err().to_string(),
        "cell 12: unexpected character 'x'"
    );
    let e = Grid::parse_bytes(b"12\0").unwrap_err();
    assert_eq!(e.to_string(), "cell 3: unexpected character '\\0'");
    let e = "1é".parse::<Grid>().unwrap_err();
    assert_eq!(e.to_string(), "cell 2: unexpected character 'é'");
}

#[test]
fn invalid_utf8_names_the_byte() {
    let e = Grid::parse_bytes(b"123\xff\xfe").unwrap_err();
    assert_eq!(e.to_string(), "cell 4: invalid UTF-8 byte 0xff");
}

#[test]
fn fast_path_agrees_with_the_general_parser() {
    // Mutations of a valid record: every byte kind at every position, and lengths around 81.
    let kinds = b"0159._x \t,;#\r\xff\0";
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let mut rec = P1.as_bytes().to_vec();
        let len = 78 + (next() % 8) as usize;
        rec.resize(len, b'.');
        for _ in 0..(next() % 3) {
            let at = (next() % len as u64) as usize;
            rec[at] = kinds[(next() % kinds.len() as u64) as usize];
        }
        assert_eq!(
            Grid::parse_bytes(&rec),
            Grid::parse_general(&rec),
            "{:?}",
            String::from_utf8_lossy(&rec)
        );
    }
}

#[test]
fn from_cells_rejects_values_above_nine() {
    let mut cells = [0u8; 81];
    cells[5] = 10;
    assert_eq!(
        Grid::from_cells(cells).unwrap_err().to_string(),
        "cell 6: value 10 is not 0-9"
    );
}

#[test]
fn conflicts_name_the_unit() {
    let mut g = Grid::EMPTY;
    g.set(0, 5);
    g.set(8, 5);
    assert_eq!(g.conflict().unwrap().to_string(), "digit 5 twice in row 1");
    let mut g = Grid::EMPTY;
    g.set(4, 7);
    g.set(4 + 9 * 6, 7);
    assert_eq!(
        g.conflict().unwrap().to_string(),
        "digit 7 twice in column 5"
    );
    let mut g = Grid::EMPTY;
    g.set(80, 2);
    g.set(60, 2);
    assert_eq!(g.conflict().unwrap().to_string(), "digit 2 twice in box 9");
    assert_eq!(P1.parse::<Grid>().unwrap().conflict(), None);
    assert!(!P1.parse::<Grid>().unwrap().has_conflict());
    // The quick check and the detailed one agree on every single added clue.
    let base: Grid = P1.parse().unwrap();
    for i in 0..CELLS {
        for d in 1..=9 {
            let mut g = base;
            g.set(i, d);
            assert_eq!(
                g.has_conflict(),
                g.conflict().is_some(),
                "cell {i} digit {d}"
            );
        }
    }
}

#[test]
fn peers_are_twenty_distinct_cells_sharing_a_unit() {
    for (i, peers) in PEERS.iter().enumerate() {
        let mut p = peers.to_vec();
        p.sort();
        p.dedup();
        assert_eq!(p.len(), 20);
        for &j in &p {
            let j = j as usize;
            assert!(j / 9 == i / 9 || j % 9 == i % 9 || box_of(j) == box_of(i));
        }
    }
}
