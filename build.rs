//! Build script: on Linux with glibc, links the `sudoku-batch` binary statically when the C
//! toolchain can.
//!
//! A dynamically linked binary pays at every start for the dynamic loader: mapping the C
//! library, relocating against it, resolving its symbols. On the KVM guest of BENCHMARKS.md
//! that was about 0.2 ms of each run, as long as solving a hundred 17-clue puzzles and more
//! than a sixth of a whole run over 100 top1465 puzzles. A static binary does none of it.
//!
//! rustc links statically when the target feature `crt-static` is on, but that feature can
//! only be set for every crate of a build, and the derive macros (clap's, serde's), which must
//! be shared libraries, then fail to build (cargo keeps it off them only when given
//! `--target`, which ties a build command to one platform). This script gets the same link
//! for the binary alone:
//!
//! - `-static-pie`, a link argument of the binary only, makes the C compiler link a static
//!   position-independent executable (the start-up file `rcrt1.o`, no dynamic loader);
//! - the standard library still asks for `-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc` after
//!   switching the linker back to shared libraries (`-Bdynamic`), so a directory of this
//!   build, searched first, holds a `lib<name>.so` for each that is a linker script naming the
//!   static archive instead (`libgcc_eh.a` and `libgcc.a` for `libgcc_s`). The linker reads
//!   those scripts whatever mode it is in, and no shared library is linked.
//!
//! Before any of that it links and runs a small C program the same way; if that fails (no
//! `libc.a`, as on Fedora without `glibc-static`; a toolchain without static PIE support), the
//! binary is linked as usual and cargo shows a warning that says why. Setting
//! `SUDOKU_BATCH_DYNAMIC=1` asks for the usual link. Tests, examples and benches are always
//! linked as usual. `SUDOKU_BATCH_LINKAGE` tells the crate which link the binary got.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The libraries the standard library links on linux-gnu, in the order it asks for them, each
/// with the static archives that stand in for it.
const STAND_INS: [(&str, &[&str]); 7] = [
    ("gcc_s", &["libgcc_eh.a", "libgcc.a"]),
    ("util", &["libutil.a"]),
    ("rt", &["librt.a"]),
    ("pthread", &["libpthread.a"]),
    ("m", &["libm.a"]),
    ("dl", &["libdl.a"]),
    ("c", &["libc.a", "libgcc.a", "libgcc_eh.a"]),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SUDOKU_BATCH_DYNAMIC");
    let linkage = match static_link() {
        Link::Static => "static",
        Link::Usual => "dynamic",
        Link::Failed(why) => {
            println!(
                "cargo:warning=sudoku-batch is linked dynamically, which costs each run about \
                 0.2 ms more to start: {why}. glibc's static libraries (libc6-dev on Debian and \
                 Ubuntu, glibc-static on Fedora) allow the static link; \
                 SUDOKU_BATCH_DYNAMIC=1 asks for the dynamic one without this warning."
            );
            "dynamic"
        }
    };
    println!("cargo:rustc-env=SUDOKU_BATCH_LINKAGE={linkage}");
}

/// What became of the static link.
enum Link {
    /// Set up by this script, or asked for by the build's own flags.
    Static,
    /// Not attempted: another platform, a cross build, or asked not to.
    Usual,
    /// Attempted and not possible here, for this reason.
    Failed(String),
}

fn static_link() -> Link {
    let var = |name: &str| env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return Link::Usual;
    }
    if var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static")
    {
        return Link::Static; // rustc links statically itself
    }
    // The archives are looked up, and the trial run, on this machine: for another one they
    // would be the wrong ones.
    if var("HOST") != var("TARGET") || !var("SUDOKU_BATCH_DYNAMIC").is_empty() {
        return Link::Usual;
    }
    let out = PathBuf::from(var("OUT_DIR"));
    let dir = out.join("static-libs");
    // The C compiler that links for rustc: the one cargo was told of, else rustc's default.
    let cc = env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".into());
    match stand_ins(&cc, &dir).and_then(|()| trial(&cc, &dir, &out)) {
        Ok(()) => {
            println!("cargo:rustc-link-arg-bins=-static-pie");
            // A link argument rather than a search path of the package, so that only the
            // binary finds these scripts: the linker searches every -L directory for every -l,
            // wherever the option stands, and user directories before its own.
            println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
            Link::Static
        }
        Err(why) => Link::Failed(why),
    }
}

/// Writes the linker scripts that stand in for the shared libraries into `dir`.
fn stand_ins(cc: &str, dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (lib, archives) in STAND_INS {
        let paths = archives
            .iter()
            .map(|a| archive(cc, a).map(|p| format!("\"{p}\"")))
            .collect::<Result<Vec<_>, _>>()?;
        let script = format!("GROUP ( {} )\n", paths.join(" "));
        let path = dir.join(format!("lib{lib}.so"));
        fs::write(&path, script).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The path of a static archive of the C toolchain.
fn archive(cc: &str, name: &str) -> Result<String, String> {
    let output = Command::new(cc)
        .arg(format!("-print-file-name={name}"))
        .output()
        .map_err(|e| format!("cannot run `{cc}`: {e}"))?;
    let path = String::from_utf8_lossy(&output.stdout).trim().to_string();
    // Not found, the compiler prints the bare name back.
    if !output.status.success() || !Path::new(&path).is_absolute() || path.contains('"') {
        return Err(format!("the C toolchain has no {name}"));
    }
    Ok(path)
}

/// Links a small C program as the binary will be linked (`-static-pie`, the standard library's
/// libraries asked for after `-Bdynamic`, found in `dir`) and runs it.
fn trial(cc: &str, dir: &Path, out: &Path) -> Result<(), String> {
    let source = out.join("static_trial.c");
    let program = out.join("static_trial");
    let text = "#include <stdio.h>\n#include <math.h>\n\
                int main(void) { return printf(\"%.0f\", floor(2.5)) == 1 ? 0 : 1; }\n";
    fs::write(&source, text).map_err(|e| format!("cannot write {}: {e}", source.display()))?;
    let linked = Command::new(cc)
        .arg("-static-pie")
        .arg("-o")
        .arg(&program)
        .arg(&source)
        .arg(format!("-L{}", dir.display()))
        .arg("-Wl,-Bdynamic")
        .args(STAND_INS.iter().map(|(lib, _)| format!("-l{lib}")))
        .output()
        .map_err(|e| format!("cannot run `{cc}`: {e}"))?;
    if !linked.status.success() {
        let err = String::from_utf8_lossy(&linked.stderr);
        let first = err.lines().next().unwrap_or("");
        return Err(format!("a static C program does not link: {first}"));
    }
    let ran = Command::new(&program)
        .output()
        .map_err(|e| format!("a static C program does not start: {e}"))?;
    if !ran.status.success() || ran.stdout != b"2" {
        return Err("a static C program does not run right".into());
    }
    Ok(())
}
