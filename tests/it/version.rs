//! One version everywhere: the crate's, the Python package's, `--version`'s and the
//! changelog's section for it.

use std::path::Path;

use crate::util::bin;

/// The crate's version, as `Cargo.toml` states it.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The `version = "..."` of the `[package]` table of the manifest at `path`.
fn manifest_version(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let package = text
        .split("\n[")
        .find(|table| table.trim_start_matches('[').starts_with("package]"))
        .unwrap_or_else(|| panic!("{}: no [package] table", path.display()));
    let line = package
        .lines()
        .find(|l| l.starts_with("version"))
        .unwrap_or_else(|| panic!("{}: no version", path.display()));
    line.split('"').nth(1).unwrap().to_string()
}

#[test]
fn the_python_package_has_the_crates_version() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(manifest_version(&root.join("python/Cargo.toml")), VERSION);
    // pyproject.toml takes its version from python/Cargo.toml (maturin), states none itself.
    let pyproject = std::fs::read_to_string(root.join("python/pyproject.toml")).unwrap();
    assert!(pyproject.contains("dynamic = [\"version\"]"), "{pyproject}");
}

#[test]
fn version_prints_the_crates_version() {
    let out = bin().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("sudoku-batch {VERSION}\n")
    );
}

#[test]
fn the_changelog_has_a_section_for_this_version() {
    let changelog =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("CHANGELOG.md"))
            .unwrap();
    let heading = format!("## [{VERSION}]");
    assert!(
        changelog.lines().any(|l| l.starts_with(&heading)),
        "CHANGELOG.md has no `{heading}` section"
    );
}
