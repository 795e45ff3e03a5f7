//! The release as the workflow makes it (`.github/workflows/release.yml`,
//! `docs/dev/releasing.md`): the notes it extracts (`tools/release-notes`),
//! the version job (`tools/release-check`), the public texts that follow
//! the repository's one setting and the placeholders that stop a release
//! (`tools/release-texts`), the versions the docs name, and the workflows'
//! own promises (maturin pinned as `tools/build-wheel` pins it, the sdist
//! and the musllinux wheels installed, the unlocked build of the
//! `language: rust` hooks). `tools/release-rehearsal` runs the rest.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Run `tools/NAME ARGS` of the checkout at `root`.
fn tool(root: &Path, name: &str, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(root.join("tools").join(name))
        .args(args)
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("tools/{name}: {e}"))
}

/// The files the release tools read, copied to a directory of their own.
fn copy_of_the_release_files() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut pending: Vec<PathBuf> = [
        "Cargo.toml",
        "CHANGELOG.md",
        "README.md",
        "CONTRIBUTING.md",
        "action.yml",
        "pyproject.toml",
        "python",
        "pre-commit-mirror",
        "docs",
        "tools",
        "crates",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    while let Some(rel) = pending.pop() {
        let from = repo().join(&rel);
        let to = tmp.path().join(&rel);
        if from.is_dir() {
            if rel.ends_with("src") {
                continue;
            }
            std::fs::create_dir_all(&to).expect("mkdir");
            for entry in std::fs::read_dir(&from).expect("read_dir") {
                pending.push(rel.join(entry.expect("entry").file_name()));
            }
        } else {
            std::fs::copy(&from, &to).expect("copy");
        }
    }
    tmp
}

/// The CHANGELOG of release day: `## [Unreleased]` renamed to the release.
fn release_day_changelog(text: &str, date: &str) -> String {
    assert_eq!(text.matches("\n## [Unreleased]\n").count(), 1);
    text.replace(
        "\n## [Unreleased]\n",
        &format!("\n## [{VERSION}] - {date}\n"),
    )
}

/// The notes of the first release are the whole `[Unreleased]` section,
/// through what the first complete state did: nothing of it is left out
/// (the workflow once extracted a 20-line stub of an old section).
#[test]
fn the_first_releases_notes_hold_the_whole_unreleased_section() {
    let changelog = std::fs::read_to_string(repo().join("CHANGELOG.md")).expect("read");
    // Today there is no section of this version: notes cannot be made,
    // and the version job refuses the tag.
    let today = tool(repo(), "release-notes", &[VERSION]);
    assert_eq!(today.status.code(), Some(1), "{}", show(&today));
    assert!(show(&today).contains(&format!("no `## [{VERSION}]` section")));

    let tmp = tempfile::tempdir().expect("tempdir");
    let day = tmp.path().join("CHANGELOG.md");
    std::fs::write(&day, release_day_changelog(&changelog, "2026-12-01")).expect("write");
    let out = tool(
        repo(),
        "release-notes",
        &[VERSION, day.to_str().expect("UTF-8")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let notes = String::from_utf8(out.stdout).expect("UTF-8");

    let unreleased = changelog
        .split_once("\n## [Unreleased]\n")
        .expect("an [Unreleased] section")
        .1;
    let unreleased = unreleased.split("\n## [").next().expect("the section");
    assert_eq!(notes.trim(), unreleased.trim());
    for part in [
        "### Security",
        "### Changed",
        "### What the first complete state did",
        "#### Added",
        "against yamllint, prettier and PyYAML.",
    ] {
        assert!(notes.contains(part), "the notes lack {part:?}");
    }
    assert!(!notes.contains("\n## "), "a level-2 heading in the notes");
    println!("the notes of {VERSION}: {} lines", notes.lines().count());

    // An empty section is refused, not published.
    std::fs::write(
        &day,
        format!("# Changelog\n\n## [{VERSION}] - 2026-12-01\n\n## [0.0.1] - 2026-01-01\n\n- x\n"),
    )
    .expect("write");
    let empty = tool(
        repo(),
        "release-notes",
        &[VERSION, day.to_str().expect("UTF-8")],
    );
    assert_eq!(empty.status.code(), Some(1), "{}", show(&empty));
    assert!(show(&empty).contains("is empty"), "{}", show(&empty));
}

/// The version job on this commit refuses the tag while any placeholder
/// remains; on a copy given release day's edits (the address set and the
/// texts made from it, the passages true only before the first release
/// gone, the CHANGELOG section named) it passes, and nothing a user reads
/// holds a placeholder or a relative link PyPI cannot follow.
#[test]
fn the_version_job_refuses_placeholders_and_passes_on_release_day() {
    let tag = format!("v{VERSION}");
    let now = tool(repo(), "release-check", &[&tag]);
    let said = show(&now);
    assert_eq!(now.status.code(), Some(1), "{said}");
    assert!(said.contains("FAIL no placeholder remains"), "{said}");
    assert!(
        said.contains("repository is still https://github.com/OWNER/urldb"),
        "{said}"
    );
    assert!(said.contains("ok   every public text follows"), "{said}");
    let wrong = tool(repo(), "release-check", &["v9.9.9"]);
    assert!(show(&wrong).contains("FAIL the tag is v + Cargo.toml's version"));

    let copy = copy_of_the_release_files();
    let root = copy.path();
    let cargo = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&cargo).expect("read");
    std::fs::write(
        &cargo,
        text.replace(
            "repository = \"https://github.com/OWNER/urldb\"",
            "repository = \"https://github.com/example-owner/urldb\"",
        ),
    )
    .expect("write");
    // The address alone: the texts no longer follow it.
    let stale = tool(root, "release-texts", &[]);
    assert_eq!(stale.status.code(), Some(1), "{}", show(&stale));
    assert!(show(&stale).contains("README.md:"), "{}", show(&stale));
    let first = tool(root, "release-texts", &["--first-release"]);
    assert_eq!(first.status.code(), Some(0), "{}", show(&first));
    let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).expect("read");
    std::fs::write(
        root.join("CHANGELOG.md"),
        release_day_changelog(&changelog, "2026-12-01"),
    )
    .expect("write");
    let day = tool(root, "release-check", &[&tag]);
    assert_eq!(day.status.code(), Some(0), "{}", show(&day));

    let readme = std::fs::read_to_string(root.join("README.md")).expect("read");
    assert!(readme.contains("- uses: example-owner/urldb@v"), "{readme}");
    assert!(readme.contains("https://github.com/example-owner/urldb-pre-commit"));
    let pypi = std::fs::read_to_string(root.join("python/README.md")).expect("read");
    for (n, link) in pypi.split("](").skip(1).enumerate() {
        assert!(
            link.starts_with("https://"),
            "link {n} of PyPI's description is relative: {}",
            &link[..link.len().min(60)]
        );
    }
    assert!(pypi.contains(&format!(
        "(https://github.com/example-owner/urldb/blob/v{VERSION}/docs/install.md)"
    )));
    assert!(!pypi.contains("Until the first release"));
    let pyproject: toml::Table =
        toml::from_str(&std::fs::read_to_string(root.join("pyproject.toml")).expect("read"))
            .expect("TOML");
    assert_eq!(
        pyproject["project"]["urls"]["Source"].as_str(),
        Some("https://github.com/example-owner/urldb")
    );
    let mirror = tool(root, "release-texts", &["--mirror"]);
    assert_eq!(
        String::from_utf8_lossy(&mirror.stdout),
        "https://github.com/example-owner/urldb-pre-commit\n"
    );
}

/// The texts follow the setting today (python/README.md is current), and
/// a text that names another owner, or a stale PyPI description, is found.
#[test]
fn the_public_texts_follow_the_repository_setting() {
    let out = tool(repo(), "release-texts", &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\nrun tools/release-texts --write",
        show(&out)
    );
    let copy = copy_of_the_release_files();
    let root = copy.path();
    let guide = root.join("docs/guide.md");
    let text = std::fs::read_to_string(&guide).expect("read");
    std::fs::write(&guide, text.replacen("OWNER/urldb", "someone/urldb", 1)).expect("write");
    std::fs::write(root.join("python/README.md"), "stale\n").expect("write");
    let out = tool(root, "release-texts", &[]);
    let said = show(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("docs/guide.md:") && said.contains("'someone'"),
        "{said}"
    );
    assert!(
        said.contains("python/README.md is not README.md as PyPI shows it"),
        "{said}"
    );
}

/// Every version the docs tell users to pin (`rev: vX.Y.Z`, `@vX.Y.Z`,
/// `urldb-cli==X.Y.Z`) is this version or one CHANGELOG.md dates: none
/// names a release that will never exist.
#[test]
fn the_versions_the_docs_name_exist_or_are_this_one() {
    let changelog = std::fs::read_to_string(repo().join("CHANGELOG.md")).expect("read");
    let mut files = vec![
        repo().join("README.md"),
        repo().join("pre-commit-mirror/README.md"),
        repo().join("python/README.md"),
    ];
    files.extend(crate::support::files_with_extension(
        &repo().join("docs"),
        "md",
    ));
    let mut seen = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        for (n, line) in text.lines().enumerate() {
            for marker in ["rev: v", "urldb@v", "urldb-cli==", "urldb v", "tag v", "`v"] {
                for rest in line.split(marker).skip(1) {
                    let version: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '.')
                        .collect();
                    let version = version.trim_end_matches('.');
                    if version.split('.').count() != 3 || !version.split('.').all(|p| !p.is_empty())
                    {
                        continue;
                    }
                    seen += 1;
                    let released = changelog.contains(&format!("\n## [{version}] - "));
                    assert!(
                        version == VERSION || released,
                        "{}:{}: names {version}, neither this version ({VERSION}) nor a release",
                        file.display(),
                        n + 1
                    );
                }
            }
        }
    }
    assert!(seen > 10, "only {seen} versions found");
}

/// The release and CI workflows hold what the release promises: maturin is
/// the version `tools/build-wheel` pins, the version job and the notes are
/// the tools the tests run, the sdist and the musllinux wheels are
/// installed and run before anything is published, the mirror is
/// published by `tools/publish-mirror`, the crates go to crates.io, and CI
/// builds what the `language: rust` hooks build (no `--locked`).
#[test]
fn the_workflows_test_what_is_released() {
    let json = |file: &str| -> serde_json::Value {
        let out = support::run_python(
            "import json, sys, yaml\nprint(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
            &[repo().join(file).as_os_str()],
            b"",
        );
        assert!(out.status.success(), "{}", show(&out));
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let release = json(".github/workflows/release.yml");
    let build_wheel = std::fs::read_to_string(repo().join("tools/build-wheel")).expect("read");
    let pin = build_wheel
        .split("maturin==")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("tools/build-wheel pins maturin");
    let jobs = release["jobs"].as_object().expect("jobs");
    let steps = |job: &str| -> Vec<serde_json::Value> {
        jobs[job]["steps"].as_array().expect("steps").clone()
    };
    let runs = |job: &str| -> String {
        steps(job)
            .iter()
            .filter_map(|s| s["run"].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut maturin_steps = 0;
    for (name, job) in jobs {
        for step in job["steps"].as_array().into_iter().flatten() {
            if step["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("PyO3/maturin-action@"))
            {
                maturin_steps += 1;
                assert_eq!(
                    step["with"]["maturin-version"].as_str(),
                    Some(pin),
                    "job {name}: maturin is not tools/build-wheel's {pin}"
                );
            }
        }
    }
    assert_eq!(maturin_steps, 2, "the wheels and the sdist");
    assert!(runs("version").contains("tools/release-check \"$TAG\""));
    assert!(runs("github-release").contains("tools/release-notes \"$version\" > notes.md"));
    let sdist = runs("sdist");
    assert!(
        sdist.contains("pip install --quiet wheels/urldb_cli-*.tar.gz")
            && sdist.contains(&format!("maturin=={pin}\""))
            && sdist.contains("urldb\" check --db examples/database"),
        "{sdist}"
    );
    let smoke = runs("smoke");
    assert!(
        smoke.contains("python:3.13-alpine")
            && smoke.contains("pip install --quiet --no-index --find-links wheels urldb-cli")
            && smoke.contains("/tmp/smoke/bin/urldb check --db examples/database"),
        "{smoke}"
    );
    let musl_targets: Vec<&str> = jobs["smoke"]["strategy"]["matrix"]["include"]
        .as_array()
        .expect("matrix")
        .iter()
        .filter_map(|m| m["target"].as_str())
        .filter(|t| t.ends_with("-musl"))
        .collect();
    assert_eq!(musl_targets.len(), 2, "{musl_targets:?}");
    for publisher in ["pypi", "crates-io", "github-release"] {
        let needs: Vec<&str> = jobs[publisher]["needs"]
            .as_array()
            .expect("needs")
            .iter()
            .filter_map(|n| n.as_str())
            .collect();
        for check in ["wheels", "smoke", "sdist"] {
            assert!(
                needs.contains(&check),
                "{publisher} does not wait for {check}"
            );
        }
    }
    assert!(runs("crates-io").contains("cargo publish --workspace --locked"));
    assert!(runs("pre-commit-mirror").contains("tools/publish-mirror \"${TAG#v}\""));

    let ci = json(".github/workflows/ci.yml");
    let ci_runs = |job: &str| -> String {
        ci["jobs"][job]["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .filter_map(|s| s["run"].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let unlocked = ci_runs("unlocked");
    assert!(
        unlocked.contains("cargo install --bins --root") && !unlocked.contains("--locked"),
        "{unlocked}"
    );
    assert!(ci_runs("lint").contains("cargo package --workspace --locked --no-verify"));
}
