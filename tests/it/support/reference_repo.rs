//! A repository like the reference tool's, where a newcomer meets urldb:
//! the database in `wwt_url_database/db/` among the documentation, CI and
//! packaging files of a Python project (`readthedocs.yml`, `.travis.yml`,
//! `setup.cfg`, `mkdocs.yml`, `azure-pipelines.yml`, `environment.yml`,
//! `ci/templates/build.yaml`), and a few domain files, one of them not
//! canonical; optionally, to make the database ambiguous, a second folder
//! of real domain files (`archive/db/`) beside a `docs/config.example.yaml`
//! that looks like a domain file by its name only (one mapping, no record:
//! it alone makes nothing ambiguous). Every YAML file outside the database
//! is one that `urldb fmt` would rewrite were it taken for a domain file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The database folder.
pub(crate) const DB: &str = "wwt_url_database/db";

/// The domain file that is not canonical (its records are not sorted).
pub(crate) const NOT_CANONICAL: &str = "wwt_url_database/db/example.org.yaml";

/// The example configuration outside the database, named like a domain file.
pub(crate) const EXAMPLE_CONFIG: &str = "docs/config.example.yaml";

/// A second folder of real domain files: which is the database is the
/// user's to say.
pub(crate) const SECOND_DB: &str = "archive/db";

/// The domain file in [`SECOND_DB`] (canonical).
pub(crate) const SECOND_DB_FILE: &str = "archive/db/example.net.yaml";

const FILES: &[(&str, &str)] = &[
    (
        "readthedocs.yml",
        "version: 2\nbuild:\n  os: ubuntu-22.04\n  tools:\n    python: \"3.11\"\n\
         # the documentation\nsphinx:\n  configuration: docs/conf.py\n",
    ),
    (
        ".travis.yml",
        "language: python\npython:\n- '3.8'\nscript: pytest\n",
    ),
    ("setup.cfg", "[metadata]\nname = wwturldb\n"),
    (
        "mkdocs.yml",
        "site_name: URL database\nnav:\n- Home: index.md\ntheme: readthedocs\n",
    ),
    (
        "azure-pipelines.yml",
        "trigger:\n- main\npool:\n  vmImage: ubuntu-latest\njobs:\n- template: ci/templates/build.yaml\n",
    ),
    (
        "environment.yml",
        "name: wwturldb\ndependencies:\n- python=3.11\n- pyyaml\n",
    ),
    (
        "ci/templates/build.yaml",
        "steps:\n- script: pytest\n  displayName: test\n",
    ),
    ("wwt_url_database/__init__.py", ""),
    (
        "wwt_url_database/db/worldwidetelescope.org.yaml",
        "---\nhttps: true\n---\n_path: /\ncategories:\n- frontend\ncontent-type: text/html\n",
    ),
    (
        "wwt_url_database/db/wwtassets.org.yaml",
        "---\n---\n_path: /logo.png\ncontent-type: image/png\n",
    ),
    (
        NOT_CANONICAL,
        "---\n---\n_path: /b\ncontent-type: text/html\n---\n_path: /a\ncontent-type: text/html\n",
    ),
];

pub(crate) const EXAMPLE_CONFIG_TEXT: &str = "url_database: wwt_url_database/db\ntimeout: 30\n";

/// Write the repository's files into `dir` (a git repository is the
/// caller's to make); with `ambiguous`, `docs/config.example.yaml` and a
/// second folder of domain files ([`SECOND_DB`]) too.
pub(crate) fn write(dir: &Path, ambiguous: bool) {
    let mut files = FILES.to_vec();
    if ambiguous {
        files.push((EXAMPLE_CONFIG, EXAMPLE_CONFIG_TEXT));
        files.push((
            SECOND_DB_FILE,
            "---
---
_path: /old
content-type: text/html
",
        ));
    }
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
}

/// Every file below `dir` (outside `.git`), by path relative to it.
pub(crate) fn contents(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(top: &Path, dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read_dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            if entry.file_type().expect("type").is_dir() {
                walk(top, &path, into);
            } else {
                let rel = path.strip_prefix(top).expect("below").to_path_buf();
                into.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    let mut all = BTreeMap::new();
    walk(dir, dir, &mut all);
    all
}

/// The files that differ between two [`contents`] (changed, added or gone).
pub(crate) fn changed(
    before: &BTreeMap<PathBuf, Vec<u8>>,
    after: &BTreeMap<PathBuf, Vec<u8>>,
) -> Vec<PathBuf> {
    let mut names: Vec<&PathBuf> = before.keys().chain(after.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| before.get(*n) != after.get(*n))
        .cloned()
        .collect()
}
