use super::*;

const HEADER: [&str; 3] = ["line", "puzzle", "status"];

/// Reads the results at `path` (and `solutions`) to the end, keeping every whole row.
fn scan(
    path: &Path,
    header: &[&str],
    solutions: Option<&Path>,
) -> Result<ResumePoint, ResumeError> {
    let mut scan = Scan::open(path, header, solutions)?;
    while scan.next_row()?.is_some() {}
    Ok(scan.point)
}

fn scan_bytes(bytes: &[u8]) -> Result<ResumePoint, ResumeError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    std::fs::write(&path, bytes).unwrap();
    scan(&path, &HEADER, None)
}

#[test]
fn missing_empty_or_half_header_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        scan(&dir.path().join("none.csv"), &HEADER, None).unwrap(),
        ResumePoint::default()
    );
    assert_eq!(scan_bytes(b"").unwrap(), ResumePoint::default());
    assert_eq!(scan_bytes(b"line,puz").unwrap(), ResumePoint::default());
    assert_eq!(scan_bytes(b"l").unwrap(), ResumePoint::default());
    assert!(scan_bytes(b"other").is_err());
}

#[test]
fn counts_complete_rows_and_drops_a_damaged_last_row() {
    let full = b"line,puzzle,status\n3,\"a\nb\",x\n7,p,invalid\n";
    let p = scan_bytes(full).unwrap();
    assert_eq!(
        (p.rows, p.keep_bytes, p.invalid, p.has_header),
        (2, full.len() as u64, 1, true)
    );
    let mut cut = full.to_vec();
    cut.extend_from_slice(b"9,p,uni");
    assert_eq!(scan_bytes(&cut).unwrap(), p, "partial last row");
    let mut ragged = full.to_vec();
    ragged.extend_from_slice(b"9,p\n");
    assert_eq!(scan_bytes(&ragged).unwrap(), p, "too few fields");
    let mut open_quote = full.to_vec();
    open_quote.extend_from_slice(b"9,\"p,x\n");
    assert_eq!(scan_bytes(&open_quote).unwrap(), p, "unbalanced quote");
    let mut not_a_number = full.to_vec();
    not_a_number.extend_from_slice(b"9x,p,unique\n");
    assert_eq!(scan_bytes(&not_a_number).unwrap(), p, "line not a number");
}

#[test]
fn a_row_is_kept_only_with_all_its_solutions() {
    const HEADER: [&str; 4] = ["line", "puzzle", "status", "solutions"];
    let results: &[u8] = b"line,puzzle,status,solutions\n1,a,unique,1\n2,b,invalid,0\n\
                           3,c,multiple,2\n";
    let row_ends = [29, 42, 56, results.len()];
    let solutions: &[u8] = b"line,index,solution\n1,1,x\n3,1,y\n3,2,z\n";
    let solution_ends = [20, 26, 32, solutions.len()];
    let dir = tempfile::tempdir().unwrap();
    let (r, s) = (dir.path().join("r.csv"), dir.path().join("s.csv"));
    let scan_pair = |solutions: &[u8]| {
        std::fs::write(&r, results).unwrap();
        std::fs::write(&s, solutions).unwrap();
        scan(&r, &HEADER, Some(&s))
    };
    let kept = |p: ResumePoint| (p.rows, p.keep_bytes, p.solutions_bytes);
    let all = (3, row_ends[3] as u64, solution_ends[3] as u64);
    assert_eq!(kept(scan_pair(solutions).unwrap()), all);
    let mut extra = solutions.to_vec();
    extra.extend_from_slice(b"4,1,w\n");
    assert_eq!(kept(scan_pair(&extra).unwrap()), all, "solutions ahead");
    // Row 3's second solution is missing or cut short: rows 1 and 2 stay.
    let two = (2, row_ends[2] as u64, solution_ends[1] as u64);
    assert_eq!(kept(scan_pair(&solutions[..32]).unwrap()), two);
    assert_eq!(kept(scan_pair(&solutions[..35]).unwrap()), two);
    // No solutions file at all: row 1 already lacks its solution.
    let none = (0, row_ends[0] as u64, 0);
    assert_eq!(kept(scan_pair(b"").unwrap()), none);
    assert_eq!(kept(scan_pair(b"line,ind").unwrap()), none);
    std::fs::remove_file(&s).unwrap();
    assert_eq!(kept(scan(&r, &HEADER, Some(&s)).unwrap()), none);
    // Solutions of another run, or another file: refused.
    assert!(scan_pair(b"line,index,solution\n1,1,x\n3,2,z\n").is_err());
    assert!(scan_pair(b"line,index,solution\n2,1,x\n").is_err());
    assert!(scan_pair(b"line,index,solution\n1,1\n3,1,y\n").is_err());
    assert!(scan_pair(b"a,b\n").is_err());
    // Results without a solutions column cannot be checked.
    std::fs::write(&r, b"line,puzzle,status\n1,a,unique\n").unwrap();
    std::fs::write(&s, solutions).unwrap();
    let err = scan(&r, &HEADER[..3], Some(&s)).unwrap_err();
    assert!(err.to_string().contains("no solutions column"), "{err}");
}

#[test]
fn damaged_row_in_the_middle_or_wrong_header_is_refused() {
    assert!(matches!(
        scan_bytes(b"line,puzzle,status\n3,p\n4,p,x\n"),
        Err(ResumeError::Mismatch(_))
    ));
    assert!(matches!(
        scan_bytes(b"a,b,c\n1,2,3\n"),
        Err(ResumeError::Mismatch(_))
    ));
}

#[test]
fn every_kept_row_must_be_the_row_of_its_record() {
    use crate::pipeline::read::ReadOptions;
    const P: &str =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    std::fs::write(
        &out,
        format!("line,puzzle,status\n1,{P},unique\n2,xyz,invalid\n"),
    )
    .unwrap();
    let skip = |input: String| {
        let mut reader =
            Reader::from_reader("in.txt", io::Cursor::new(input), &ReadOptions::default()).unwrap();
        skip_done(&mut reader, &out, &HEADER, None).map(|p| (p.rows, p.invalid))
    };
    assert_eq!(skip(format!("{P}\nxyz\n{P}\n")).unwrap(), (2, 1));
    // A changed puzzle, an inserted record, a shorter input: refused, and named.
    let changed = P.replace("..29", "1.29");
    let err = skip(format!("{changed}\nxyz\n")).unwrap_err().to_string();
    assert!(err.contains("OUTPUT does not match INPUT: row 1"), "{err}");
    let err = skip(format!("{P}\n{P}\nxyz\n")).unwrap_err().to_string();
    assert!(err.contains("row 2 is for line 2 and puzzle xyz"), "{err}");
    let err = skip(format!("{P}\n")).unwrap_err().to_string();
    assert!(
        err.contains("it has 2 rows but in.txt has only 1 record"),
        "{err}"
    );
    let err = skip(format!("\n{P}\nxyz\n")).unwrap_err().to_string();
    assert!(err.contains("record 1 of in.txt is on line 2"), "{err}");
}
