//! urldb without a Rust toolchain: the `urldb-cli` wheel that holds the
//! binary (pyproject.toml, `tools/build-wheel`), the pre-commit mirror whose
//! hooks install it (`pre-commit-mirror/`), the release archives
//! (`tools/release-archive`, the binstall names of Cargo.toml), and
//! `actionlint` and `zizmor` on the Action and every workflow, in the
//! repository and in the docs.
//!
//! The tests that need the wheel build it once (a third release build, with
//! zig, under `target/`) and are ignored by plain `cargo test`; `.ci/run`
//! runs them (`cargo test --test it project -- --ignored`). So is the
//! linters' test, which installs them from PyPI
//! (`tests/release-requirements.txt`). The rest run everywhere.

use crate::support::{self, git, oracles};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Instant;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo() -> &'static Path {
    oracles::repo()
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The directory holding the wheel of this version, built once per test
/// run by `tools/build-wheel` (cargo rebuilds only what changed).
pub(super) fn wheel_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| oracles::locked("wheel-build", build_wheel))
}

fn build_wheel() -> PathBuf {
    let out = oracles::target_tmp().join("wheel");
    // Only this build's wheel: pip must not find an older one.
    let _ = std::fs::remove_dir_all(&out);
    let started = Instant::now();
    let built = Command::new(repo().join("tools/build-wheel"))
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .expect("run tools/build-wheel");
    assert!(
        built.status.success(),
        "tools/build-wheel:\n{}",
        show(&built)
    );
    eprintln!(
        "tools/build-wheel: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    out
}

/// The wheel's path.
fn wheel() -> PathBuf {
    let wheels: Vec<PathBuf> = std::fs::read_dir(wheel_dir())
        .expect("the wheel directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    wheels[0].clone()
}

/// A member of the wheel (a zip file), read with Python's `zipfile`: the
/// member whose name ends with `suffix`.
fn wheel_member(suffix: &str) -> Vec<u8> {
    let wheel = wheel();
    let out = support::run_python(
        "import sys, zipfile\n\
         z = zipfile.ZipFile(sys.argv[1])\n\
         names = [n for n in z.namelist() if n.endswith(sys.argv[2])]\n\
         assert len(names) == 1, names\n\
         sys.stdout.buffer.write(z.read(names[0]))",
        &[wheel.as_os_str(), suffix.as_ref()],
        b"",
    );
    assert!(out.status.success(), "{}", show(&out));
    out.stdout
}

/// The binary the wheel installs.
pub(super) fn wheel_binary() -> Vec<u8> {
    wheel_member(".data/scripts/urldb")
}

/// A `cargo` for `PATH` that fails loudly and leaves `mark`: proof that
/// nothing built urldb.
pub(super) fn failing_cargo(dir: &Path, mark: &Path) {
    let cargo = dir.join("cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"cargo was run ($*): the prebuilt urldb was not used\" >&2\ntouch '{}'\nexit 97\n",
            mark.display()
        ),
    )
    .expect("write");
    #[cfg(unix)]
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
}

/// The interpreter new virtual environments are made with (as
/// `support::oracles` does: `PYTHON`, else `python3`).
fn base_python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

#[test]
#[ignore = "builds the wheel, a third release build (tools/build-wheel): run by .ci/run"]
fn the_wheel_installs_urldb_on_path_and_checks_the_example_database() {
    let dir = wheel_dir();
    let wheel = wheel();
    let meta = String::from_utf8(wheel_member(".dist-info/WHEEL")).expect("UTF-8");
    let tags: Vec<&str> = meta
        .lines()
        .filter_map(|l| l.strip_prefix("Tag: "))
        .collect();
    println!(
        "{}: tags {tags:?}",
        wheel.file_name().expect("name").display()
    );
    assert!(!tags.is_empty(), "{meta}");
    for tag in &tags {
        // Portable Linux (manylinux), never the local `linux_x86_64`.
        assert!(tag.contains("-manylinux"), "{tag}");
        assert!(!tag.contains("-linux_"), "{tag}");
    }
    let name = wheel
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with(&format!("urldb_cli-{VERSION}-")), "{name}");

    // A fresh virtual environment; pip sees only the wheel's directory.
    let venv = tempfile::tempdir().expect("tempdir");
    let started = Instant::now();
    let made = Command::new(base_python())
        .args(["-m", "venv"])
        .arg(venv.path())
        .output()
        .expect("python3 -m venv");
    assert!(made.status.success(), "{}", show(&made));
    let pip = Command::new(venv.path().join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-index",
            "--find-links",
        ])
        .arg(dir)
        .arg("urldb-cli")
        .output()
        .expect("pip");
    assert!(pip.status.success(), "{}", show(&pip));
    println!(
        "a fresh virtual environment and the wheel installed: {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // `urldb` is on the environment's PATH, and it is the wheel's binary.
    let bin = venv.path().join("bin");
    assert_eq!(
        std::fs::read(bin.join("urldb")).expect("urldb in the environment"),
        wheel_binary()
    );
    let urldb = |args: &[&str], dir: &Path| {
        Command::new("urldb")
            .args(args)
            .current_dir(dir)
            .env("PATH", oracles::path_with(&[&bin]))
            .env("NO_COLOR", "1")
            .env_remove("URLDB_FORMAT")
            .output()
            .expect("urldb from the environment's PATH")
    };
    let version = urldb(&["--version"], repo());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("urldb {VERSION}\n"),
        "{}",
        show(&version)
    );
    // The README's example command.
    let check = urldb(
        &["--no-cache", "check", "--db", "examples/database"],
        repo(),
    );
    assert_eq!(check.status.code(), Some(0), "{}", show(&check));
    assert!(
        String::from_utf8_lossy(&check.stdout).contains("All checks passed"),
        "{}",
        show(&check)
    );
    // And a finding is one.
    let db = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        db.path().join("example.com.yaml"),
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    let bad = urldb(&["--no-cache", "check"], db.path());
    assert_eq!(bad.status.code(), Some(1), "{}", show(&bad));
    assert!(
        String::from_utf8_lossy(&bad.stdout).contains("path-escape-case"),
        "{}",
        show(&bad)
    );

    // `python -m urldb` runs the same binary.
    let module = Command::new(bin.join("python"))
        .args(["-m", "urldb", "--version"])
        .output()
        .expect("python -m urldb");
    assert_eq!(
        String::from_utf8_lossy(&module.stdout),
        format!("urldb {VERSION}\n"),
        "{}",
        show(&module)
    );
}

/// The wheel declares Python 3.8 and newer: on real 3.8 and 3.9
/// interpreters (pyenv's on this machine; `python_module.rs` finds them)
/// pip installs it and `python -m urldb` runs its binary.
#[test]
#[ignore = "builds the wheel, a third release build (tools/build-wheel): run by .ci/run"]
fn the_wheel_runs_as_python_m_urldb_on_python_3_8_and_3_9() {
    let dir = wheel_dir();
    for version in ["3.8", "3.9"] {
        let python = super::python_module::interpreter(version).unwrap_or_else(|| {
            panic!("no Python {version} here (pyenv install {version}, or python{version} on PATH)")
        });
        let venv = tempfile::tempdir().expect("tempdir");
        let made = Command::new(&python)
            .args(["-m", "venv"])
            .arg(venv.path())
            .output()
            .expect("venv");
        assert!(made.status.success(), "{version}: {}", show(&made));
        let vpython = venv.path().join("bin/python");
        let pip = Command::new(&vpython)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-index",
                "--find-links",
            ])
            .arg(dir)
            .arg("urldb-cli")
            .output()
            .expect("pip");
        assert!(pip.status.success(), "{version}: {}", show(&pip));
        let module = Command::new(&vpython)
            .args(["-m", "urldb", "--version"])
            .output()
            .expect("python -m urldb");
        assert_eq!(
            String::from_utf8_lossy(&module.stdout),
            format!("urldb {VERSION}\n"),
            "Python {version}: {}",
            show(&module)
        );
        println!("Python {version}: python -m urldb --version ran the wheel's urldb");
    }
}

/// setuptools, which pip needs to install the mirror's directory (its
/// build backend), as a wheel in a directory of its own: downloaded from
/// PyPI once, then found there with the index off.
const SETUPTOOLS: &str = "setuptools==80.9.0";

fn setuptools_dir() -> PathBuf {
    oracles::locked("setuptools-wheel", || {
        let dir = oracles::target_tmp().join("setuptools-wheel");
        let stamp = dir.join("pin");
        if std::fs::read_to_string(&stamp).ok().as_deref() == Some(SETUPTOOLS) {
            return dir;
        }
        let _ = std::fs::remove_dir_all(&dir);
        let out = Command::new(support::python())
            .args([
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--only-binary",
                ":all:",
                "--dest",
            ])
            .arg(&dir)
            .arg(SETUPTOOLS)
            .output()
            .expect("pip download");
        assert!(
            out.status.success(),
            "pip download {SETUPTOOLS} (PyPI must be reachable the first time):\n{}",
            show(&out)
        );
        std::fs::write(&stamp, SETUPTOOLS).expect("stamp");
        dir
    })
}

/// The mirror as the release workflow publishes it: `pre-commit-mirror/`
/// in a git repository of its own, the pin set to `version`. Returns the
/// commit.
fn publish_mirror(to: &Path, version: &str) -> String {
    std::fs::create_dir(to).expect("mkdir");
    for entry in std::fs::read_dir(repo().join("pre-commit-mirror")).expect("pre-commit-mirror/") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
    let pyproject = to.join("pyproject.toml");
    let text = std::fs::read_to_string(&pyproject).expect("read");
    let start = text.find("\"urldb-cli==").expect("the pin") + "\"urldb-cli==".len();
    let end = start + text[start..].find('"').expect("closing quote");
    let pinned = format!("{}{version}{}", &text[..start], &text[end..]);
    std::fs::write(&pyproject, pinned).expect("write");
    git(to, &["init", "-q"]);
    git(to, &["add", "-A"]);
    git(to, &["commit", "-qm", "urldb"]);
    git(to, &["rev-parse", "HEAD"]).trim().to_string()
}

#[test]
#[ignore = "builds the wheel, a third release build (tools/build-wheel): run by .ci/run"]
fn the_mirror_hooks_install_the_wheel_then_pass_fix_and_fail() {
    let wheels = wheel_dir();
    let setuptools = setuptools_dir();
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path();
    let rev = publish_mirror(&t.join("mirror"), VERSION);

    let user = t.join("user");
    let db = user.join("database");
    std::fs::create_dir_all(&db).expect("mkdir");
    let file = db.join("example.com.yaml");
    std::fs::write(
        &file,
        "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n",
    )
    .expect("write");
    std::fs::write(
        user.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: urldb-fmt\n      - id: urldb-check\n",
            t.join("mirror").display()
        ),
    )
    .expect("write");
    git(&user, &["init", "-q"]);
    git(&user, &["add", "-A"]);

    let shims = t.join("shims");
    std::fs::create_dir(&shims).expect("mkdir");
    let mark = t.join("cargo-ran");
    failing_cargo(&shims, &mark);
    let find_links = format!("{} {}", wheels.display(), setuptools.display());
    let run = || {
        let started = Instant::now();
        let out = Command::new(oracles::venv_bin("pre-commit"))
            .current_dir(&user)
            .args(["run", "--all-files", "--color", "never"])
            // An empty cache: the first run installs the hook environment.
            .env("PRE_COMMIT_HOME", t.join("pre-commit-home"))
            .env("PIP_NO_INDEX", "1")
            .env("PIP_FIND_LINKS", &find_links)
            .env("PATH", oracles::path_with(&[&shims]))
            .env("NO_COLOR", "1")
            .env_remove("URLDB_FORMAT")
            .output()
            .expect("pre-commit");
        (out, started.elapsed().as_secs_f64())
    };

    // Canonical and clean: the environment installs, both hooks pass.
    let (first, seconds) = run();
    println!("the mirror's first run, from an empty pre-commit cache: {seconds:.1} s");
    assert_eq!(first.status.code(), Some(0), "{}", show(&first));
    let text = show(&first);
    assert!(text.contains("Installing environment for"), "{text}");
    assert!(
        text.contains("urldb fmt......") && text.contains("Passed"),
        "{text}"
    );
    assert!(!mark.exists(), "cargo ran:\n{text}");

    // Out of order: fmt rewrites it and fails.
    std::fs::write(
        &file,
        "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n",
    )
    .expect("write");
    git(&user, &["add", "-A"]);
    let (unsorted, _) = run();
    assert_eq!(unsorted.status.code(), Some(1), "{}", show(&unsorted));
    assert!(
        show(&unsorted).contains("files were modified by this hook"),
        "{}",
        show(&unsorted)
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\ncontent-type: text/html\n"
    );

    // A finding: check fails and names it.
    std::fs::write(
        &file,
        "---\n---\n_path: /caf%c3%a9\ncontent-type: text/html\n",
    )
    .expect("write");
    git(&user, &["add", "-A"]);
    let (finding, _) = run();
    assert_eq!(finding.status.code(), Some(1), "{}", show(&finding));
    assert!(
        show(&finding).contains("- hook id: urldb-check")
            && show(&finding).contains("path-escape-case"),
        "{}",
        show(&finding)
    );
    assert!(!mark.exists(), "cargo ran");
}

/// The mirror's hooks are the repository's `language: rust` hooks with
/// `language: python`: the same ids, names, entries and file options.
#[test]
fn the_mirror_hooks_are_the_rust_hooks_in_python() {
    let out = support::run_python(
        "import json, sys, yaml\n\
         root = {h['id']: h for h in yaml.safe_load(open(sys.argv[1]))}\n\
         mirror = yaml.safe_load(open(sys.argv[2]))\n\
         print(json.dumps([[h, root.get(h['id'])] for h in mirror]))",
        &[
            repo().join(".pre-commit-hooks.yaml").as_os_str(),
            repo()
                .join("pre-commit-mirror/.pre-commit-hooks.yaml")
                .as_os_str(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", show(&out));
    let pairs: Vec<(serde_json::Value, serde_json::Value)> =
        serde_json::from_slice(&out.stdout).expect("JSON");
    let ids: Vec<&str> = pairs
        .iter()
        .map(|(m, _)| m["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["urldb-check", "urldb-fmt"]);
    for (mirror, rust) in &pairs {
        assert_eq!(mirror["language"], "python", "{mirror}");
        assert_eq!(rust["language"], "rust", "{rust}");
        for key in [
            "name",
            "description",
            "entry",
            "types_or",
            "exclude",
            "require_serial",
            "files",
            "args",
        ] {
            assert_eq!(mirror.get(key), rust.get(key), "{key} of {}", mirror["id"]);
        }
    }
}

/// One version everywhere: Cargo.toml's is the wheel's (pyproject.toml
/// takes it, `dynamic`), the mirror pins it, and the Action asks pip for
/// it. The release workflow refuses a tag that says otherwise.
#[test]
fn the_mirror_pins_this_version_and_the_wheel_takes_cargos() {
    let mirror =
        std::fs::read_to_string(repo().join("pre-commit-mirror/pyproject.toml")).expect("read");
    let mirror: toml::Table = toml::from_str(&mirror).expect("TOML");
    assert_eq!(
        mirror["project"]["dependencies"],
        toml::Value::Array(vec![format!("urldb-cli=={VERSION}").into()])
    );
    let pyproject = std::fs::read_to_string(repo().join("pyproject.toml")).expect("read");
    let pyproject: toml::Table = toml::from_str(&pyproject).expect("TOML");
    assert_eq!(pyproject["project"]["name"].as_str(), Some("urldb-cli"));
    assert_eq!(
        pyproject["project"]["dynamic"],
        toml::Value::Array(vec!["version".into()])
    );
    assert_eq!(
        pyproject["tool"]["maturin"]["bindings"].as_str(),
        Some("bin")
    );
    // The Action's `sed` reads the first `version = "..."` line.
    let cargo = std::fs::read_to_string(repo().join("Cargo.toml")).expect("read");
    let first = cargo
        .lines()
        .find(|l| l.starts_with("version = \""))
        .expect("a version line");
    assert_eq!(first, format!("version = \"{VERSION}\""));
}

/// `tools/release-archive` makes the archive cargo-binstall looks for:
/// the name and the binary's path inside are Cargo.toml's
/// `[package.metadata.binstall]` templates filled in, and the `.sha256`
/// file is `sha256sum`'s line for it. Run on a stand-in wheel (a zip with
/// the scripts entry), for a Linux and the Windows target.
#[test]
fn release_archives_are_where_binstall_looks() {
    use sha2::{Digest, Sha256};
    let cargo: toml::Table =
        toml::from_str(&std::fs::read_to_string(repo().join("Cargo.toml")).expect("read"))
            .expect("TOML");
    let binstall = &cargo["package"]["metadata"]["binstall"];
    let tmp = tempfile::tempdir().expect("tempdir");
    for (target, exe, windows) in [
        ("aarch64-unknown-linux-musl", "urldb", false),
        ("x86_64-pc-windows-msvc", "urldb.exe", true),
    ] {
        let wheel = tmp.path().join(format!("{target}.whl"));
        let out = support::run_python(
            "import sys, zipfile\n\
             with zipfile.ZipFile(sys.argv[1], 'w') as z:\n\
             \x20   z.writestr('urldb_cli-0.data/scripts/' + sys.argv[2], b'the binary')\n\
             \x20   z.writestr('urldb/__init__.py', b'')",
            &[wheel.as_os_str(), exe.as_ref()],
            b"",
        );
        assert!(out.status.success(), "{}", show(&out));
        let dist = tmp.path().join(target);
        let made = Command::new(support::python())
            .arg(repo().join("tools/release-archive"))
            .arg(&wheel)
            .arg(target)
            .arg(&dist)
            .output()
            .expect("tools/release-archive");
        assert!(made.status.success(), "{}", show(&made));

        let template = |key: &str| {
            let rules = if windows {
                &binstall["overrides"][target]
            } else {
                binstall
            };
            rules
                .get(key)
                .or_else(|| binstall.get(key))
                .and_then(|v| v.as_str())
                .expect("a binstall key")
                .replace("{ repo }", "REPO")
                .replace("{ version }", VERSION)
                .replace("{ target }", target)
                .replace("{ bin }", "urldb")
                .replace("{ binary-ext }", if windows { ".exe" } else { "" })
        };
        let url = template("pkg-url");
        let name = url
            .strip_prefix(&format!("REPO/releases/download/v{VERSION}/"))
            .expect("a release asset");
        let archive = std::fs::read(dist.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sha = std::fs::read_to_string(dist.join(format!("{name}.sha256"))).expect("sha256");
        let digest: String = Sha256::digest(&archive)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(sha, format!("{digest}  {name}\n"));
        assert_eq!(
            template("pkg-fmt"),
            if windows { "zip" } else { "tgz" },
            "{target}"
        );

        // The binary is where bin-dir says, with the wheel's bytes.
        let listing = support::run_python(
            "import sys, tarfile, zipfile\n\
             p = sys.argv[1]\n\
             if p.endswith('.zip'):\n\
             \x20   z = zipfile.ZipFile(p); sys.stdout.buffer.write(z.read(sys.argv[2]))\n\
             else:\n\
             \x20   t = tarfile.open(p); m = t.getmember(sys.argv[2])\n\
             \x20   assert m.mode == 0o755, oct(m.mode)\n\
             \x20   sys.stdout.buffer.write(t.extractfile(m).read())",
            &[dist.join(name).as_os_str(), template("bin-dir").as_ref()],
            b"",
        );
        assert!(listing.status.success(), "{}", show(&listing));
        assert_eq!(listing.stdout, b"the binary");
    }
}

/// The YAML blocks of the README and docs/ that are workflows (they have
/// `on:` and `jobs:`), written to `dir` as files: (file, document).
fn documented_workflows(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut docs = vec![repo().join("README.md")];
    docs.extend(crate::support::files_with_extension(
        &repo().join("docs"),
        "md",
    ));
    docs.sort();
    let mut found = Vec::new();
    for doc in docs {
        let text = std::fs::read_to_string(&doc).expect("read");
        let mut block: Option<String> = None;
        let mut n = 0;
        for line in text.lines() {
            match &mut block {
                None if line == "```yaml" => block = Some(String::new()),
                Some(body) if line == "```" => {
                    let is_workflow = body.lines().any(|l| l.starts_with("on:"))
                        && body.lines().any(|l| l.starts_with("jobs:"));
                    if is_workflow {
                        n += 1;
                        let stem = doc.file_stem().expect("stem").to_string_lossy();
                        let file = dir.join(format!("{stem}-{n}.yml"));
                        std::fs::write(&file, &*body).expect("write");
                        found.push((
                            file,
                            doc.strip_prefix(repo())
                                .expect("in repo")
                                .display()
                                .to_string(),
                        ));
                    }
                    block = None;
                }
                Some(body) => {
                    body.push_str(line);
                    body.push('\n');
                }
                None => {}
            }
        }
    }
    found
}

#[test]
#[ignore = "installs actionlint, zizmor and shellcheck from PyPI (tests/release-requirements.txt): run by .ci/run"]
fn actionlint_and_zizmor_find_nothing_in_the_action_and_every_workflow() {
    let tools = oracles::release_tools_venv().join("bin");
    let tmp = tempfile::tempdir().expect("tempdir");
    let documented = documented_workflows(tmp.path());
    let from_docs: Vec<&str> = documented.iter().map(|(_, doc)| doc.as_str()).collect();
    println!("workflows in the docs: {from_docs:?}");
    for doc in ["README.md", "docs/guide.md", "docs/verify.md"] {
        assert!(from_docs.contains(&doc), "no workflow found in {doc}");
    }
    let mut workflows: Vec<PathBuf> = std::fs::read_dir(repo().join(".github/workflows"))
        .expect(".github/workflows")
        .map(|e| e.expect("entry").path())
        .collect();
    workflows.sort();
    for own in ["release.yml", "ci.yml"] {
        assert!(
            workflows.iter().any(|w| w.ends_with(own)),
            "{own} not in {workflows:?}"
        );
    }
    workflows.extend(documented.into_iter().map(|(file, _)| file));

    // actionlint reads workflows; the Action is checked where a workflow
    // uses it (`uses: ./`), which makes actionlint read its metadata.
    let user = tmp.path().join("uses-the-action");
    std::fs::create_dir_all(user.join(".github/workflows")).expect("mkdir");
    std::fs::copy(repo().join("action.yml"), user.join("action.yml")).expect("copy");
    let uses = user.join(".github/workflows/urldb.yml");
    std::fs::write(
        &uses,
        "on: [pull_request]\npermissions:\n  contents: read\njobs:\n  urldb:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          args: check\n          working-directory: database\n          format: github\n",
    )
    .expect("write");
    git(&user, &["init", "-q"]);
    let mut linted = workflows.clone();
    linted.push(uses);
    let actionlint = Command::new(tools.join("actionlint"))
        .current_dir(&user)
        .arg("-oneline")
        .arg("-shellcheck")
        .arg(tools.join("shellcheck"))
        .args(&linted)
        .output()
        .expect("actionlint");
    println!(
        "actionlint on {} workflows:\n{}",
        linted.len(),
        show(&actionlint)
    );
    assert_eq!(actionlint.status.code(), Some(0), "{}", show(&actionlint));
    assert!(actionlint.stdout.is_empty(), "{}", show(&actionlint));

    // The repository's own files with zizmor's defaults; the documented
    // workflows with one exception: they name urldb's Action by its
    // release tag (`uses: OWNER/urldb@v0.1.0`), since the README of a
    // release cannot hold the commit of its own tag. Every other action
    // there is still held to a commit.
    let slug = std::fs::read_to_string(repo().join("Cargo.toml"))
        .expect("read")
        .lines()
        .find_map(|l| l.strip_prefix("repository = \"https://github.com/"))
        .and_then(|l| l.strip_suffix('"'))
        .expect("[workspace.package] repository")
        .to_string();
    let config = tmp.path().join("zizmor-docs.yml");
    std::fs::write(
        &config,
        format!(
            "rules:\n  unpinned-uses:\n    config:\n      policies:\n        \"{slug}\": ref-pin\n        \"*\": hash-pin\n"
        ),
    )
    .expect("write");
    let own: Vec<&PathBuf> = workflows.iter().filter(|w| w.starts_with(repo())).collect();
    let docs: Vec<&PathBuf> = workflows
        .iter()
        .filter(|w| !w.starts_with(repo()))
        .collect();
    for (what, config, files) in [
        (
            "action.yml and the repository's workflows",
            None,
            std::iter::once(repo().join("action.yml"))
                .chain(own.into_iter().cloned())
                .collect::<Vec<_>>(),
        ),
        (
            "the documented workflows",
            Some(&config),
            docs.into_iter().cloned().collect(),
        ),
    ] {
        let mut cmd = Command::new(tools.join("zizmor"));
        cmd.current_dir(tmp.path())
            .args(["--offline", "--no-progress"]);
        match config {
            Some(config) => cmd.arg("--config").arg(config),
            None => cmd.arg("--no-config"),
        };
        let zizmor = cmd.args(&files).output().expect("zizmor");
        println!(
            "zizmor on {what} ({} files):\n{}",
            files.len(),
            show(&zizmor)
        );
        assert_eq!(zizmor.status.code(), Some(0), "{}", show(&zizmor));
        assert!(
            String::from_utf8_lossy(&zizmor.stdout).contains("No findings to report"),
            "{}",
            show(&zizmor)
        );
    }
}
