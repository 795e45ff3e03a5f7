//! The merge driver in real repositories: set up by `urldb install-hook
//! --merge-driver` from a subfolder, then `git merge`, `git rebase`,
//! `git cherry-pick` and a criss-cross merge run from a subfolder too, as
//! a user runs them.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{binary, git_command, urldb_in};

struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    /// A repository with the database in `db/`, its first commit holding
    /// `base` as `db/example.org.yaml`, and the driver set up.
    fn new(base: &str) -> Repo {
        let repo = Repo {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        std::fs::create_dir_all(repo.db().join("sub")).expect("mkdir");
        std::fs::write(repo.top().join("urldb.toml"), "root = \"db\"\n").expect("write");
        repo.write(base);
        let out = urldb_in(&repo.db().join("sub"), &["install-hook", "--merge-driver"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(repo.top().join(".gitattributes")).expect("read"),
            "db/**/*.yaml merge=urldb\n"
        );
        repo.commit("base");
        repo
    }

    fn top(&self) -> &Path {
        self.dir.path()
    }

    fn db(&self) -> PathBuf {
        self.top().join("db")
    }

    fn file(&self) -> PathBuf {
        self.db().join("example.org.yaml")
    }

    fn write(&self, text: &str) {
        std::fs::write(self.file(), text).expect("write");
    }

    fn read(&self) -> String {
        std::fs::read_to_string(self.file()).expect("read")
    }

    /// git, run in `db/` with the tested urldb first on `PATH` (the driver
    /// is `urldb merge-driver ...`).
    fn run(&self, args: &[&str]) -> Output {
        let bin = binary();
        let dir = bin.parent().expect("the binary's folder");
        let path = std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .expect("PATH");
        git_command(&self.db())
            .env("PATH", path)
            .args(args)
            .output()
            .expect("git")
    }

    fn git(&self, args: &[&str]) -> String {
        let out = git_command(self.top()).args(args).output().expect("git");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "git {args:?}:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    }

    fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// `urldb check` of the database passes.
    fn checks(&self) {
        let out = urldb_in(self.top(), &["check"]);
        assert!(
            out.status.success(),
            "{}\n{}\n{}",
            self.read(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The canonical text of a file of these records.
fn file_of(paths: &[&str]) -> String {
    let mut text = "---\n".to_string();
    for path in paths {
        text.push_str(&format!("---\n_path: {path}\ncontent-type: text/html\n"));
    }
    text
}

#[test]
fn neighbouring_additions_merge_without_conflict() {
    let repo = Repo::new(&file_of(&["/a", "/c"]));
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write(&file_of(&["/a", "/b", "/c"]));
    repo.commit("side: /b");
    repo.git(&["checkout", "-q", "main"]);
    repo.write(&file_of(&["/a", "/bb", "/c", "/d"]));
    repo.commit("main: /bb, /d");
    repo.ok(&["merge", "-q", "-m", "merge", "side"]);
    assert_eq!(repo.read(), file_of(&["/a", "/b", "/bb", "/c", "/d"]));
    repo.checks();
}

#[test]
fn a_rebase_of_five_additions_over_neighbouring_ones() {
    let repo = Repo::new(&file_of(&["/a", "/z"]));
    repo.git(&["checkout", "-q", "-b", "feature"]);
    let mut feature = vec!["/a", "/z"];
    for path in ["/b1", "/b3", "/b5", "/b7", "/b9"] {
        feature.push(path);
        feature.sort();
        repo.write(&file_of(&feature));
        repo.commit(&format!("add {path}"));
    }
    repo.git(&["checkout", "-q", "main"]);
    let mut main = vec!["/a", "/z"];
    for path in ["/b2", "/b4", "/b6", "/b8"] {
        main.push(path);
        main.sort();
        repo.write(&file_of(&main));
        repo.commit(&format!("add {path}"));
    }
    repo.git(&["checkout", "-q", "feature"]);
    repo.ok(&["rebase", "main"]);
    let mut all: Vec<&str> = feature.iter().chain(&main).copied().collect();
    all.sort();
    all.dedup();
    assert_eq!(repo.read(), file_of(&all));
    assert_eq!(
        repo.git(&["rev-list", "--count", "main..feature"]).trim(),
        "5"
    );
    repo.checks();
}

#[test]
fn a_cherry_pick_next_to_a_neighbour() {
    let repo = Repo::new(&file_of(&["/a", "/c"]));
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write(&file_of(&["/a", "/b", "/c"]));
    repo.commit("side: /b");
    let picked = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["checkout", "-q", "main"]);
    repo.write(&file_of(&["/a", "/ba", "/c"]));
    repo.commit("main: /ba");
    repo.ok(&["cherry-pick", picked.trim()]);
    assert_eq!(repo.read(), file_of(&["/a", "/b", "/ba", "/c"]));
    repo.checks();
}

#[test]
fn a_key_changed_on_both_sides_is_the_one_conflict() {
    let base = "---\n---\n_path: /a\ncontent-type: text/plain\n---\n_path: /m\n";
    let repo = Repo::new(base);
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("---\n---\n_path: /a\ncontent-type: text/html\n---\n_path: /b\n---\n_path: /m\n");
    repo.commit("side");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("---\n---\n_path: /a\ncontent-type: text/csv\n---\n_path: /m\n---\n_path: /n\n");
    repo.commit("main");
    let out = repo.run(&["merge", "-q", "-m", "merge", "side"]);
    assert!(!out.status.success());
    let text = repo.read();
    assert_eq!(
        text,
        format!(
            "---\n---\n_path: /a\n\
             <<<<<<< HEAD (record /a, key content-type)\ncontent-type: text/csv\n\
             ||||||| {base_label}\ncontent-type: text/plain\n=======\ncontent-type: text/html\n\
             >>>>>>> side\n---\n_path: /b\n---\n_path: /m\n---\n_path: /n\n",
            base_label = base_label(&text)
        )
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("conflict: db/example.org.yaml: record /a, key content-type"),
        "{stderr}"
    );
    let check = urldb_in(repo.top(), &["check"]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(said.contains("unresolved merge conflict"), "{said}");
    assert!(said.contains("(from line 4)"), "{said}");
}

/// The label git gave the common ancestor (a commit id, or a name).
fn base_label(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("||||||| "))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_criss_cross_merge() {
    let repo = Repo::new(&file_of(&["/a", "/m"]));
    repo.git(&["checkout", "-q", "-b", "other"]);
    repo.write(&file_of(&["/a", "/b", "/m"]));
    repo.commit("other: /b");
    repo.git(&["checkout", "-q", "main"]);
    repo.write(&file_of(&["/a", "/c", "/m"]));
    repo.commit("main: /c");
    // Each branch merges the other: two merge bases from then on.
    repo.ok(&["merge", "-q", "-m", "main takes other", "other~0"]);
    let main_merge = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["checkout", "-q", "other"]);
    repo.ok(&["merge", "-q", "-m", "other takes main", "main~1"]);
    repo.write(&file_of(&["/a", "/b", "/c", "/d", "/m"]));
    repo.commit("other: /d");
    repo.git(&["checkout", "-q", "main"]);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]), main_merge);
    repo.write(&file_of(&["/a", "/b", "/c", "/ca", "/m"]));
    repo.commit("main: /ca");
    let bases = repo.git(&["merge-base", "--all", "main", "other"]);
    assert_eq!(bases.lines().count(), 2, "{bases}");
    repo.ok(&["merge", "-q", "-m", "criss-cross", "other"]);
    assert_eq!(repo.read(), file_of(&["/a", "/b", "/c", "/ca", "/d", "/m"]));
    repo.checks();
}

#[test]
fn a_yaml_file_that_is_no_domain_file_is_merged_line_by_line() {
    let repo = Repo::new(&file_of(&["/a"]));
    let drafts = repo.db().join(".drafts");
    std::fs::create_dir_all(&drafts).expect("mkdir");
    let list = drafts.join("list.yaml");
    std::fs::write(&list, "one\ntwo\nthree\nfour\nfive\n").expect("write");
    repo.commit("drafts");
    repo.git(&["checkout", "-q", "-b", "side"]);
    std::fs::write(&list, "one\ntwo\nthree\nfour\nfive, and more\n").expect("write");
    repo.commit("side");
    repo.git(&["checkout", "-q", "main"]);
    std::fs::write(&list, "one, first\ntwo\nthree\nfour\nfive\n").expect("write");
    repo.commit("main");
    let said = repo.ok(&["merge", "-m", "merge", "side"]);
    assert!(
        said.contains("db/.drafts/list.yaml: merged line by line"),
        "{said}"
    );
    assert!(said.contains("hidden name"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&list).expect("read"),
        "one, first\ntwo\nthree\nfour\nfive, and more\n"
    );
}
