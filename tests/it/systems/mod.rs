//! What differs between operating systems, through the real binary: how
//! every output format spells a path, CRLF files in and out, a file that
//! another program holds open while urldb replaces it, lock files, and a
//! database whose path has spaces and non-ASCII letters, with every command
//! run in it (`check`, `fmt`, `--fix`, `add`, `rm`, `ls`, `import`,
//! `export`, `init`, `verify` against a server on 127.0.0.1, `report`, and
//! the language server's `initialize` and diagnostics).
//!
//! They need nothing but urldb, the file system and that server (no git,
//! no Python), so they run unchanged wherever urldb runs: by plain
//! `cargo test` on Linux, natively on the macOS and Windows runners of
//! `.github/workflows/ci.yml`, and against the Windows build under Wine
//! with `tools/windows-tests` (`docs/dev/windows.md`), where the tests stay
//! a Linux program and urldb is `urldb.exe`. What they expect differs only
//! where Windows differs ([`urldb_on_windows`]), as `docs/files.md` and
//! `docs/output.md` say.

mod every_command;
mod line_endings;
mod locks;
mod open_files;
mod output_files;
mod paths;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};

use crate::support;

/// The urldb under test is a Windows program: these tests are a Windows
/// build themselves, or they drive `urldb.exe` under Wine.
pub(crate) fn urldb_on_windows() -> bool {
    cfg!(windows) || support::windows_drive().is_some()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    support::run_in(dir, args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

/// Run urldb in `dir` with `input` on its standard input.
fn run_with_input(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = support::urldb()
        .current_dir(dir)
        .args(args)
        .env_remove("URLDB_FORMAT")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run urldb");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("urldb")
}

/// The `file:` URI an editor sends for `path`. Under Wine the host's `/`
/// is a drive (`Z:`), so the URI names it: `file:///Z:/tmp/...`.
fn file_uri(path: &Path) -> String {
    let uri = url::Url::from_file_path(path)
        .expect("an absolute path")
        .to_string();
    match support::windows_drive() {
        Some(drive) if !cfg!(windows) => {
            let rest = uri.strip_prefix("file://").expect("a file URI");
            format!("file:///{drive}{rest}")
        }
        _ => uri,
    }
}

/// How another program holds a file open ([`hold`]).
#[derive(Debug, Clone, Copy)]
enum Hold {
    /// Reading, sharing reading and writing but not deletion: how C's
    /// `fopen`, Python's `open` and many editors open a file on Windows.
    Read,
    /// Reading, sharing deletion too (`FILE_SHARE_DELETE`), as Rust's std
    /// opens files.
    ReadSharingDelete,
    /// An exclusive lock on the whole file: a urldb writer holding
    /// `FILE.lock` (`File::lock`).
    Lock,
}

/// A file held open by another program until this is dropped.
struct Held {
    /// Held by the tests' own process (urldb runs on this system).
    _file: Option<std::fs::File>,
    /// Held by `hold-open.exe` under Wine, until its standard input ends.
    holder: Option<(Child, ChildStdin)>,
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some((mut child, stdin)) = self.holder.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

/// Hold `path` open, the way `how` says, from another process than urldb's.
/// Under Wine the holder must be a Windows program, since a Linux process
/// has neither share modes nor Windows locks: `tools/windows-tests` names
/// one (`tools/wine/hold-open.c`) in `URLDB_TEST_HOLD_OPEN`.
fn hold(path: &Path, how: Hold) -> Held {
    if support::windows_drive().is_some() && !cfg!(windows) {
        let program = std::env::var_os("URLDB_TEST_HOLD_OPEN")
            .expect("URLDB_TEST_HOLD_OPEN: set by tools/windows-tests");
        let mut command = Command::new(program);
        match how {
            Hold::Read => {}
            Hold::ReadSharingDelete => {
                command.arg("--share-delete");
            }
            Hold::Lock => {
                command.arg("--lock");
            }
        }
        let mut child = command
            .arg(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start hold-open");
        let stdin = child.stdin.take().expect("stdin");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read hold-open");
        assert_eq!(line.trim(), "open", "hold-open {how:?} {}", path.display());
        return Held {
            _file: None,
            holder: Some((child, stdin)),
        };
    }
    let file = open_held(path, how);
    Held {
        _file: Some(file),
        holder: None,
    }
}

#[cfg(windows)]
fn open_held(path: &Path, how: Hold) -> std::fs::File {
    use std::os::windows::fs::OpenOptionsExt;
    const FILE_SHARE_READ: u32 = 1;
    const FILE_SHARE_WRITE: u32 = 2;
    const FILE_SHARE_DELETE: u32 = 4;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    match how {
        Hold::Read => {
            options.share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE);
        }
        Hold::ReadSharingDelete => {
            options.share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE);
        }
        Hold::Lock => {
            options.write(true);
        }
    }
    let file = options.open(path).expect("open");
    if matches!(how, Hold::Lock) {
        file.lock().expect("lock");
    }
    file
}

#[cfg(not(windows))]
fn open_held(path: &Path, how: Hold) -> std::fs::File {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(matches!(how, Hold::Lock))
        .open(path)
        .expect("open");
    if matches!(how, Hold::Lock) {
        file.lock().expect("lock");
    }
    file
}
