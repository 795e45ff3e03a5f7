//! What the tests need from outside Rust, installed by the tests themselves
//! under `target/` so that `cargo test` is the whole set-up on a fresh
//! machine: a Python virtual environment with the pinned oracles of
//! `tests/requirements.txt` (PyYAML, url-normalize, jsonschema, pre-commit,
//! yamllint),
//! and urldb built once in release mode for the end-to-end tests (the Action,
//! pre-commit and the README).
//!
//! Each is made once, under a file lock, so that test processes running at
//! the same time (cargo-nextest runs one process per test) wait for one
//! maker instead of racing; later runs find it made and need no network.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The repository.
pub(crate) fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `target/tmp` (or its place under `CARGO_TARGET_DIR`): everything the
/// tests install lives here, nothing outside `target/`.
pub(crate) fn target_tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// Run `make` holding an exclusive lock named `name`; other processes
/// asking for the same lock wait until it is released.
pub(crate) fn locked<T>(name: &str, make: impl FnOnce() -> T) -> T {
    let dir = target_tmp();
    std::fs::create_dir_all(&dir).expect("create target/tmp");
    let lock: File = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(format!("{name}.lock")))
        .expect("open the lock file under target/tmp");
    lock.lock().expect("lock");
    let made = make();
    drop(lock);
    made
}

/// The virtual environment with the oracles, made on first use.
pub(crate) fn venv() -> &'static Path {
    static VENV: OnceLock<PathBuf> = OnceLock::new();
    VENV.get_or_init(|| {
        locked("oracles-venv", || {
            make_venv("oracles-venv", "tests/requirements.txt")
        })
    })
}

/// The virtual environment of the release tests' linters
/// (`tests/release-requirements.txt`: actionlint, zizmor, shellcheck),
/// made on first use: only the ignored tests of
/// `tests/it/project/wheel.rs` need it.
pub(crate) fn release_tools_venv() -> &'static Path {
    static VENV: OnceLock<PathBuf> = OnceLock::new();
    VENV.get_or_init(|| {
        locked("release-tools-venv", || {
            make_venv("release-tools-venv", "tests/release-requirements.txt")
        })
    })
}

/// The environment's Python (it has every package of the requirements).
pub(crate) fn python() -> PathBuf {
    venv().join("bin/python")
}

/// Run `script` (`python -c`, then `args`) with the environment's Python,
/// `input` on its standard input, and return what it did. The input is
/// written from a thread: a script that answers as it reads cannot then
/// stall against a full pipe.
pub(crate) fn run_python(
    script: &str,
    args: &[&std::ffi::OsStr],
    input: &[u8],
) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(python())
        .arg("-c")
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the oracles' python");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("wait for python");
    writer
        .join()
        .expect("writer thread")
        .expect("write to python");
    out
}

/// A program the environment installed (`pre-commit`).
pub(crate) fn venv_bin(name: &str) -> PathBuf {
    venv().join("bin").join(name)
}

fn make_venv(name: &str, requirements: &str) -> PathBuf {
    let dir = target_tmp().join(name);
    let requirements_file = repo().join(requirements);
    let requirements = std::fs::read_to_string(&requirements_file)
        .unwrap_or_else(|e| panic!("read {}: {e}", requirements_file.display()));
    // The requirements it was made from: the same text, nothing to do.
    let stamp = dir.join("urldb-requirements.txt");
    if dir.join("bin/python").exists()
        && std::fs::read_to_string(&stamp).ok().as_deref() == Some(requirements.as_str())
    {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    // `PYTHON` names another interpreter to make the environment with.
    let base = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let made = Command::new(&base)
        .args(["-m", "venv"])
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "the tests need Python 3 to install their oracles (`{base}`: {e}).\n\
                 Install it, e.g. `apt-get install python3 python3-venv`, or set PYTHON."
            )
        });
    assert!(
        made.status.success(),
        "`{base} -m venv {}` failed:\n{}\nThe tests need Python's venv module: \
         e.g. `apt-get install python3-venv`.",
        dir.display(),
        String::from_utf8_lossy(&made.stderr)
    );
    let pip = Command::new(dir.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-input",
            "-r",
        ])
        .arg(&requirements_file)
        .stdin(Stdio::null())
        .output()
        .expect("run pip in the new environment");
    assert!(
        pip.status.success(),
        "installing {} into {} failed (PyPI must be reachable \
         the first time):\n{}",
        requirements_file.display(),
        dir.display(),
        String::from_utf8_lossy(&pip.stderr)
    );
    std::fs::write(&stamp, &requirements).expect("write the stamp");
    dir
}

/// The target directory of the release build the end-to-end tests share.
pub(crate) fn release_target_dir() -> PathBuf {
    target_tmp().join("e2e-build")
}

/// A directory holding only `urldb`, built once per test run in release
/// mode (as users install it) for the end-to-end tests; cargo makes it
/// again only when the sources changed.
pub(crate) fn release_bin_dir() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| locked("e2e-build", build_release))
}

fn build_release() -> PathBuf {
    let target = release_target_dir();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(repo())
        .args([
            "build",
            "--release",
            "--locked",
            "--quiet",
            "--bin",
            "urldb",
        ])
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build --release failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A copy of its own: `cargo install` runs sharing this target directory
    // (the README, the Action, pre-commit's build from a clone) replace
    // `release/urldb`, and a test must not see it half written.
    let bin = target.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let tmp = bin.join("urldb.new");
    std::fs::copy(target.join("release/urldb"), &tmp).expect("copy urldb");
    std::fs::rename(&tmp, bin.join("urldb")).expect("rename urldb");
    bin
}

/// `PATH` with `dirs` first.
pub(crate) fn path_with(dirs: &[&Path]) -> std::ffi::OsString {
    let mut all: Vec<PathBuf> = dirs.iter().map(|d| d.to_path_buf()).collect();
    if let Some(path) = std::env::var_os("PATH") {
        all.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(all).expect("PATH")
}
