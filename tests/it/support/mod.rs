//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub(crate) mod http;
pub(crate) mod model_walk;
pub(crate) mod oracles;
pub(crate) mod reader_oracle;
pub(crate) mod reference_repo;
pub(crate) mod runner;

pub(crate) use oracles::{python, run_python};

use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The seed every property test starts from unless `URLDB_PROPTEST_SEED`
/// names another.
const PROPTEST_SEED: u64 = 46;

/// The configuration of every property test: `cases` cases (times
/// `URLDB_PROPTEST_SCALE`) from a fixed seed (or `URLDB_PROPTEST_SEED`).
/// `cargo test` tries the same inputs on every run and machine, so a
/// failure in CI is one anybody can replay, and a passing commit stays
/// passing; `tools/property-search` runs the properties from other seeds
/// and for longer, to find what these cases miss.
pub(crate) fn property_config(cases: u32) -> ProptestConfig {
    fn from_env<T: std::str::FromStr>(name: &str) -> Option<T> {
        std::env::var(name).ok().and_then(|v| v.parse().ok())
    }
    ProptestConfig {
        cases: cases.saturating_mul(from_env("URLDB_PROPTEST_SCALE").unwrap_or(1)),
        rng_seed: RngSeed::Fixed(from_env("URLDB_PROPTEST_SEED").unwrap_or(PROPTEST_SEED)),
        ..ProptestConfig::default()
    }
}

/// Run `git` in `dir` ([`git_command`]), insist that it succeeds, and
/// return what it printed.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = git_command(dir).args(args).output().expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `git` in `dir` with an identity of its own, isolated from the user's
/// and the system's configuration, no standard input: for a test that
/// needs the command itself (its exit status, another `PATH`).
pub(crate) fn git_command(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.test")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.test")
        .stdin(Stdio::null());
    cmd
}

/// urldb in `dir`, with no colour, no `URLDB_FORMAT` from the
/// environment, git isolated from the user's configuration (as
/// [`git_command`]) and no standard input.
pub(crate) fn urldb_in(dir: &Path, args: &[&str]) -> Output {
    urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run urldb")
}

/// Every file below `dir`, at any depth, sorted: the tests that hold
/// the repository's own files to a rule (docs, sources, saved cases).
pub(crate) fn files_below(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// [`files_below`] `dir` whose extension is `extension`.
pub(crate) fn files_with_extension(dir: &Path, extension: &str) -> Vec<std::path::PathBuf> {
    let mut files = files_below(dir);
    files.retain(|p| p.extension().is_some_and(|e| e == extension));
    files
}

/// A small deterministic generator (xorshift64*): the tests must make the
/// same data on every run and machine, and need nothing more.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The urldb the tests run: the binary cargo built for them, or, when
/// `URLDB_TEST_BINARY` names one, that program instead. The Windows run
/// (`tools/windows-tests`, `docs/dev/windows.md`) sets it to a wrapper
/// that runs the Windows build under Wine, so the same tests drive
/// `urldb.exe` while git and the Python oracles stay on Linux.
pub(crate) fn binary() -> std::path::PathBuf {
    std::env::var_os("URLDB_TEST_BINARY")
        .filter(|p| !p.is_empty())
        .map_or_else(|| env!("CARGO_BIN_EXE_urldb").into(), Into::into)
}

/// The tests run the Windows build (`URLDB_TEST_BINARY` is set and
/// `URLDB_TEST_DRIVE` names the drive Wine shows the host's `/` as).
pub(crate) fn windows_drive() -> Option<String> {
    std::env::var("URLDB_TEST_DRIVE")
        .ok()
        .filter(|d| !d.is_empty() && std::env::var_os("URLDB_TEST_BINARY").is_some())
}

/// The tested urldb ([`binary`]). Its results cache goes under `target/`,
/// not the user's cache directory (a test that looks at the cache sets its
/// own `XDG_CACHE_HOME`).
pub(crate) fn urldb() -> Command {
    let mut cmd = Command::new(binary());
    cmd.env("XDG_CACHE_HOME", oracles::target_tmp().join("xdg-cache"))
        // What a CI step may set changes what a run reads: a test sets it.
        .env_remove("URLDB_CONFIG_FROM")
        .env_remove("URLDB_ALLOW_ENV")
        // A GitHub runner's checkout: annotations name files from there.
        .env_remove("GITHUB_WORKSPACE");
    cmd
}

/// urldb run as the user `nobody` (uid 65534), for tests of permission
/// bits that root would ignore. nobody may not reach the build directory
/// (a clone under a directory only root can enter), so this runs a copy
/// of the binary from a directory it can read; keep the directory alive
/// while the command runs.
#[cfg(unix)]
pub(crate) fn urldb_as_nobody() -> (tempfile::TempDir, Command) {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = dir.path().join("urldb");
    std::fs::copy(env!("CARGO_BIN_EXE_urldb"), &exe).expect("copy the binary");
    for (p, m) in [(dir.path(), 0o755), (exe.as_path(), 0o755)] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod");
    }
    let mut cmd = Command::new(exe);
    cmd.env("XDG_CACHE_HOME", oracles::target_tmp().join("xdg-cache"))
        .uid(65534)
        .gid(65534);
    (dir, cmd)
}

/// Run urldb in `dir` with `args`; stdin closed.
pub(crate) fn run_in(dir: &Path, args: &[&str]) -> Output {
    urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env_remove("URLDB_NO_SUPPRESSIONS")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run urldb")
}

/// Copy a directory tree.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
