//! `cargo install urldb` from crates.io: every crate of the workspace can
//! be packaged (`cargo package --workspace`), with what crates.io shows
//! and needs: a description, the license and its file, a README, the
//! repository (Cargo.toml's one setting), and the workspace's own crates
//! depended on by version as well as by path. `.ci/run` packages them all
//! (`--no-verify`); `tools/release-rehearsal` builds the packages too.

use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn cargo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .current_dir(repo())
        .args(args)
        .output()
        .expect("cargo");
    assert!(
        out.status.success(),
        "cargo {args:?}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn every_crate_packages_with_the_metadata_crates_io_shows() {
    let metadata: serde_json::Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--locked",
    ]))
    .expect("cargo metadata");
    let version = env!("CARGO_PKG_VERSION");
    let packages = metadata["packages"].as_array().expect("packages");
    let names: Vec<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names.len(), 6, "{names:?}");
    let cargo_toml = std::fs::read_to_string(repo().join("Cargo.toml")).expect("read");
    let repository = cargo_toml
        .lines()
        .find_map(|l| l.strip_prefix("repository = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("[workspace.package] repository");
    for p in packages {
        let name = p["name"].as_str().expect("name");
        assert_eq!(p["version"], version, "{name}");
        assert!(p["publish"].is_null(), "{name} may not be published");
        assert!(
            p["description"].as_str().is_some_and(|d| d.len() > 20),
            "{name}: no description"
        );
        assert_eq!(p["license"], "MIT", "{name}");
        assert_eq!(p["repository"], repository, "{name}");
        assert!(
            p["readme"]
                .as_str()
                .is_some_and(|r| r.ends_with("README.md")),
            "{name}: no readme"
        );
        for dep in p["dependencies"].as_array().expect("dependencies") {
            let dep_name = dep["name"].as_str().expect("name");
            if names.contains(&dep_name) && dep["kind"].is_null() {
                assert_eq!(
                    dep["req"],
                    format!("={version}"),
                    "{name} depends on {dep_name} without its version"
                );
            }
        }
        let files = cargo(&["package", "-p", name, "--list", "--allow-dirty", "--locked"]);
        let files: Vec<&str> = files.lines().collect();
        for wanted in ["Cargo.toml", "LICENSE", "README.md", "src/lib.rs"] {
            let wanted = if name == "urldb" && wanted == "src/lib.rs" {
                "src/main.rs"
            } else {
                wanted
            };
            assert!(files.contains(&wanted), "{name} lacks {wanted}: {files:?}");
        }
        // Nothing from outside the crate's directory is read at build time
        // (a package holds only its own directory; `cargo package` without
        // `--no-verify` builds it, in tools/release-rehearsal). Unit tests
        // are not built from a package.
        let dir = Path::new(p["manifest_path"].as_str().expect("path"))
            .parent()
            .expect("dir")
            .to_path_buf();
        for file in files
            .iter()
            .filter(|f| f.starts_with("src/") && f.ends_with(".rs"))
        {
            let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
            let built = text.split("#[cfg(test)]").next().unwrap_or_default();
            for included in built.split("include_str!(\"").skip(1) {
                let rel = included.split('"').next().unwrap_or_default();
                let mut at = dir.join(file);
                at.pop();
                for part in rel.split('/') {
                    match part {
                        ".." => {
                            at.pop();
                        }
                        part => at.push(part),
                    }
                }
                assert!(
                    at.starts_with(&dir),
                    "{name}/{file} reads {rel}, outside its crate"
                );
            }
        }
    }
}

/// The language server's copy of the schema (its crate holds only its own
/// directory) is the published `schemas/domain-file.schema.json`.
#[test]
fn the_servers_schema_is_the_published_one() {
    let published = std::fs::read(repo().join("schemas/domain-file.schema.json")).expect("read");
    let copy =
        std::fs::read(repo().join("crates/urldb-server/domain-file.schema.json")).expect("read");
    assert!(
        published == copy,
        "crates/urldb-server/domain-file.schema.json differs from schemas/domain-file.schema.json: copy it over"
    );
}
