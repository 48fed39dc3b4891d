//! The guarded opening of outputs: one file under two names, `/dev/null`, locks, and a file
//! the run made when the run never starts.

use super::*;

#[test]
fn a_file_not_yet_made_is_known_by_its_resolved_path() {
    let dir = tempfile::tempdir().unwrap();
    let a = Role::of_path(&dir.path().join("out.csv"));
    let b = Role::of_path(&dir.path().join(".").join("out.csv"));
    assert!(a.same(&b));
    std::os::unix::fs::symlink("out.csv", dir.path().join("link.csv")).unwrap();
    assert!(a.same(&Role::of_path(&dir.path().join("link.csv"))));
    assert!(!a.same(&Role::of_path(&dir.path().join("other.csv"))));
    std::fs::write(dir.path().join("out.csv"), "x").unwrap();
    let hard = dir.path().join("hard.csv");
    std::fs::hard_link(dir.path().join("out.csv"), &hard).unwrap();
    assert!(Role::of_path(&dir.path().join("out.csv")).same(&Role::of_path(&hard)));
}

#[test]
fn dev_null_may_serve_twice() {
    let null = Role::of_path(Path::new("/dev/null"));
    assert!(null.null && !null.same(&null.clone()));
}

#[test]
fn a_second_lock_names_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    let first = open_one(&Output::Path(path.clone())).unwrap();
    let Err(RunError::Locked { holder, .. }) = open_one(&Output::Path(path.clone())) else {
        panic!("the second open must fail")
    };
    if std::path::Path::new("/proc/locks").exists() {
        assert_eq!(holder, Some(std::process::id()));
    }
    drop(first);
    assert!(open_one(&Output::Path(path)).is_ok());
}

#[test]
fn a_file_the_run_made_goes_again_if_the_run_never_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.csv");
    drop(open_one(&Output::Path(path.clone())).unwrap());
    assert!(!path.exists());
    let mut kept = open_one(&Output::Path(path.clone())).unwrap();
    kept.start(0).unwrap();
    drop(kept);
    assert!(path.exists());
}
