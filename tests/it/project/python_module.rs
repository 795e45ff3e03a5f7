//! `python -m urldb` (python/urldb/) on every Python the wheel declares
//! (`requires-python = ">=3.8"`, pyproject.toml): the module finds the
//! binary pip installed in each layout pip makes (a virtual environment,
//! `--user`, `--target`, `--prefix`) and runs it, on real interpreters of
//! 3.8 and 3.9 where this machine has them (pyenv's, or `python3.8` on
//! `PATH`) and on the default `python3`. `sysconfig.get_default_scheme`,
//! which the module once called, is 3.10's: on 3.8 it crashed.
//!
//! The binary is a stand-in script here, so this runs in the plain suite;
//! the real wheel's `python -m urldb` on 3.8 and 3.9 is in `wheel.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A real interpreter of Python `version` ("3.8"), if this machine has
/// one: `pythonX.Y` on `PATH` that runs (a pyenv shim of a version not
/// selected does not), else pyenv's own build of it.
pub(super) fn interpreter(version: &str) -> Option<PathBuf> {
    let runs = |python: &Path| {
        Command::new(python)
            .args(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
            .output()
            .is_ok_and(|o| {
                o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == version
            })
    };
    let on_path = PathBuf::from(format!("python{version}"));
    if runs(&on_path) {
        return Some(on_path);
    }
    let root = Command::new("pyenv").arg("root").output().ok()?;
    let versions = PathBuf::from(String::from_utf8_lossy(&root.stdout).trim()).join("versions");
    let mut found: Vec<PathBuf> = std::fs::read_dir(versions)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name == version || name.starts_with(&format!("{version}."))
        })
        .map(|e| e.path().join("bin").join(format!("python{version}")))
        .filter(|p| runs(p))
        .collect();
    found.sort();
    found.pop()
}

/// The interpreters to test: 3.8 and 3.9 where found, and `python3`.
fn interpreters() -> Vec<(String, PathBuf)> {
    let mut all: Vec<(String, PathBuf)> = ["3.8", "3.9"]
        .into_iter()
        .filter_map(|v| interpreter(v).map(|p| (v.to_string(), p)))
        .collect();
    all.push(("python3".to_string(), PathBuf::from("python3")));
    all
}

/// The interpreter to test `pip install --user` with: `python` when it
/// reads a user site, else (a virtual environment's interpreter, such as
/// the `python3` of an activated environment: a venv turns the user site
/// off) the interpreter the environment was made from, when that one
/// does. `Err` says why there is none.
fn with_user_site(python: &Path) -> Result<PathBuf, NoUserSite> {
    let reads_user_site = |p: &Path| {
        Command::new(p)
            .args([
                "-c",
                "import site, sys; sys.exit(0 if site.ENABLE_USER_SITE else 1)",
            ])
            .env_remove("PYTHONNOUSERSITE")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if reads_user_site(python) {
        return Ok(python.to_path_buf());
    }
    // The base of a virtual environment: `sys.base_prefix`'s own
    // interpreter of the same version.
    let base = python_value(
        python,
        "import os, sys\n\
         v = 'python%d.%d' % sys.version_info[:2]\n\
         found = [p for p in (os.path.join(sys.base_prefix, 'bin', n) for n in (v, 'python3')) \
         if sys.prefix != sys.base_prefix and os.access(p, os.X_OK)]\n\
         print(found[0] if found else '')",
        &[],
    );
    if base.as_os_str().is_empty() {
        return Err(NoUserSite::NoBase(python.to_path_buf()));
    }
    if reads_user_site(&base) {
        Ok(base)
    } else {
        Err(NoUserSite::NeitherReads {
            python: python.to_path_buf(),
            base,
        })
    }
}

/// Why no interpreter can test `pip install --user`.
#[derive(Debug)]
enum NoUserSite {
    NoBase(PathBuf),
    NeitherReads { python: PathBuf, base: PathBuf },
}

impl std::fmt::Display for NoUserSite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoUserSite::NoBase(python) => write!(
                f,
                "{} reads no user site and is no virtual environment's",
                python.display()
            ),
            NoUserSite::NeitherReads { python, base } => write!(
                f,
                "neither {} nor its base {} reads a user site",
                python.display(),
                base.display()
            ),
        }
    }
}

fn python_value(python: &Path, code: &str, env: &[(&str, &Path)]) -> PathBuf {
    let mut cmd = Command::new(python);
    cmd.args(["-c", code]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("python");
    assert!(out.status.success(), "{}", show(&out));
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// The module as the wheel installs it, in `site`, and a stand-in binary
/// in `scripts` that says it ran.
fn install(site: &Path, scripts: &Path) {
    let module = site.join("urldb");
    std::fs::create_dir_all(&module).expect("mkdir");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/urldb");
    for name in ["__init__.py", "__main__.py"] {
        std::fs::copy(source.join(name), module.join(name)).expect("copy");
    }
    std::fs::create_dir_all(scripts).expect("mkdir");
    let bin = scripts.join("urldb");
    std::fs::write(&bin, "#!/bin/sh\necho \"the stand-in urldb: $*\"\n").expect("write");
    #[cfg(unix)]
    std::fs::set_permissions(&bin, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
}

/// `python -m urldb --version` in a directory of its own with `env`.
fn run_module(python: &Path, env: &[(&str, &Path)]) -> Output {
    let cwd = tempfile::tempdir().expect("tempdir");
    let mut cmd = Command::new(python);
    cmd.args(["-m", "urldb", "--version"])
        .current_dir(cwd.path())
        .env_remove("PYTHONPATH")
        .env_remove("PYTHONUSERBASE")
        .env_remove("VIRTUAL_ENV");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("python -m urldb")
}

fn assert_ran(out: &Output, what: &str) {
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "the stand-in urldb: --version\n",
        "{what}: {}",
        show(out)
    );
    assert_eq!(out.status.code(), Some(0), "{what}: {}", show(out));
}

#[test]
#[cfg(unix)]
fn python_m_urldb_finds_the_binary_in_every_layout_on_every_python() {
    let tested: Vec<String> = interpreters().into_iter().map(|(v, _)| v).collect();
    println!("python -m urldb tested on: {tested:?}");
    for (version, python) in interpreters() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let t = tmp.path();

        // A virtual environment (pip's default layout in one).
        let venv = t.join("venv");
        let made = Command::new(&python)
            .args(["-m", "venv", "--without-pip"])
            .arg(&venv)
            .output()
            .expect("venv");
        assert!(made.status.success(), "{version}: {}", show(&made));
        let vpython = venv.join("bin/python");
        let site = python_value(
            &vpython,
            "import sysconfig; print(sysconfig.get_path('purelib'))",
            &[],
        );
        install(&site, &venv.join("bin"));
        assert_ran(&run_module(&vpython, &[]), &format!("{version}, venv"));

        // `pip install --user`: the user base's site-packages and bin/,
        // on an interpreter that reads a user site (in an activated
        // virtual environment, `python3` is the environment's, which does
        // not: its base is tested instead).
        match with_user_site(&python) {
            Ok(user_python) => {
                let user = t.join("user");
                let user_site = python_value(
                    &user_python,
                    "import site; print(site.getusersitepackages())",
                    &[("PYTHONUSERBASE", &user)],
                );
                install(&user_site, &user.join("bin"));
                assert_ran(
                    &run_module(&user_python, &[("PYTHONUSERBASE", &user)]),
                    &format!("{version} ({}), --user", user_python.display()),
                );
            }
            Err(why) => println!("{version}: `--user` not tested: {why}"),
        }

        // `pip install --target DIR` (the Action's install).
        let target = t.join("target");
        install(&target, &target.join("bin"));
        assert_ran(
            &run_module(&python, &[("PYTHONPATH", &target)]),
            &format!("{version}, --target"),
        );

        // `pip install --prefix DIR`.
        let prefix = t.join("prefix");
        let lib = python_value(
            &python,
            "import sys; print('lib/python%d.%d/site-packages' % sys.version_info[:2])",
            &[],
        );
        let prefix_site = prefix.join(lib);
        install(&prefix_site, &prefix.join("bin"));
        assert_ran(
            &run_module(&python, &[("PYTHONPATH", &prefix_site)]),
            &format!("{version}, --prefix"),
        );

        // The module without its binary (a fresh environment, an empty
        // user base): a clear error, exit 2.
        let bare = t.join("bare");
        let made = Command::new(&python)
            .args(["-m", "venv", "--without-pip"])
            .arg(&bare)
            .output()
            .expect("venv");
        assert!(made.status.success(), "{version}: {}", show(&made));
        let lone = t.join("lone");
        install(&lone, &t.join("elsewhere"));
        let out = run_module(
            &bare.join("bin/python"),
            &[("PYTHONPATH", &lone), ("PYTHONUSERBASE", &t.join("empty"))],
        );
        assert_eq!(out.status.code(), Some(2), "{version}: {}", show(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .starts_with("error: the urldb binary of the urldb-cli wheel is not installed"),
            "{version}: {}",
            show(&out)
        );
    }
}
