//! Differential tests: the binary on generated corpora against the `sudoku` crate (the
//! oracle).

use std::collections::BTreeMap;

use sudoku_batch::Strategy;
use sudoku_batch::generate::{Rng, mixed_puzzle};

use crate::util::{KINDS, check_against_oracle, rows, solve, write};

#[test]
fn generated_corpus_of_every_kind_agrees_with_the_oracle() {
    let mut solver = Strategy::Singles.solver();
    let mut rng = Rng::new(2);
    let mut text = String::new();
    let mut csv = String::from("id,puzzle\n");
    for i in 0..400 {
        let p = mixed_puzzle(&mut rng, KINDS[i % KINDS.len()], &mut *solver);
        text.push_str(&format!("{p}\n"));
        csv.push_str(&format!("{i},{}\n", p.to_string().replace('.', "0")));
    }
    let dir = tempfile::tempdir().unwrap();
    let t = write(dir.path(), "g.txt", &text);
    let c = write(dir.path(), "g.csv", &csv);
    let mut statuses = BTreeMap::new();
    for path in [&t, &c] {
        let out = solve(&[], path);
        assert_eq!(out.status.code(), Some(0));
        let rows = rows(&out);
        assert_eq!(rows.len(), 400);
        assert_eq!(check_against_oracle(&rows), 400);
        for r in &rows {
            *statuses.entry(r.status.clone()).or_insert(0) += 1;
        }
    }
    assert_eq!(statuses["unique"], 2 * 160);
    assert_eq!(statuses["multiple"], 2 * 80);
    assert_eq!(statuses["unsolvable"], 2 * 160);
}
