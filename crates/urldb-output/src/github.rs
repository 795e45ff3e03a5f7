//! What GitHub asks of what urldb prints for it: workflow commands'
//! escaping (`::error file=…::message`: the runner reads `%`, CR and LF
//! specially in a message, and `:` and `,` too in a property; the GitHub
//! Actions toolkit's `escapeData` and `escapeProperty` do the same), the
//! paths of annotations, and the size of a job summary.

/// GitHub's limit on one step's job summary (`$GITHUB_STEP_SUMMARY`):
/// 1 MiB. A summary over it is dropped whole, so urldb's stays under it
/// (`verify`, `report` and `diff`'s `--summary-limit`).
pub const SUMMARY_LIMIT: usize = 1 << 20;

/// The smallest `--summary-limit`: the counts and every heading fit.
pub const SUMMARY_LIMIT_MIN: usize = 4096;

/// Escape a GitHub workflow command's message (the text after `::`).
pub fn github_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a GitHub workflow command's property value (`file=`, `title=`).
pub fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

use std::path::{Component, Path, PathBuf};

/// Where GitHub finds the file of an annotation: it reads `file=` from the
/// root of the repository (`GITHUB_WORKSPACE`), not from the directory a
/// step ran in, so an annotation printed as `docs.example.org.yaml` by a
/// step with `working-directory: database` lands on no file of the pull
/// request, or on another file of the same name at the top. This turns the
/// path urldb shows into the path from the workspace: never absolute, never
/// with a `./` inside (`docs/output.md`, "Paths in annotations").
///
/// It reads neither the environment nor the file system: the binary gives
/// it the directory urldb runs in and the workspace, in each form the
/// workspace may take (as the runner wrote it, and resolved).
#[derive(Debug, Clone, Default)]
pub struct AnnotationRoot {
    /// The directory urldb runs in, absolute.
    here: PathBuf,
    /// The workspace, in each form a path may start with; none: paths
    /// start from `here`.
    workspaces: Vec<PathBuf>,
}

impl AnnotationRoot {
    /// Annotations name files as urldb shows them, without `./`: neither
    /// the workspace nor the directory urldb runs in is known.
    pub fn none() -> Self {
        AnnotationRoot::default()
    }

    /// Annotations name files from the first of `workspaces` a file lies
    /// in, or from `here` when there is none; `here` is the directory
    /// relative paths start from.
    pub fn new(here: PathBuf, workspaces: impl IntoIterator<Item = PathBuf>) -> Self {
        AnnotationRoot {
            here: lexical(&here),
            workspaces: workspaces.into_iter().map(|w| lexical(&w)).collect(),
        }
    }

    /// Where a command named in an annotation runs: the workspace (or the
    /// repository's top) when one is known, words to add after the command;
    /// else nothing to add (paths start where urldb runs).
    pub fn run_from(&self) -> &'static str {
        if self.workspaces.is_empty() {
            ""
        } else {
            " from the repository's top"
        }
    }

    /// The `file=` of `path` (as urldb shows it): from the workspace, with
    /// `/` between components, when the file lies in it; a file outside
    /// it with `..` from the workspace (GitHub annotates no file outside
    /// the repository, and a path from elsewhere would name another file
    /// of it); with no workspace, from the directory urldb runs in. Only a
    /// path that no `..` reaches (another drive) stays as urldb shows it.
    /// Not yet escaped.
    pub fn file(&self, path: &Path) -> String {
        if path.as_os_str().is_empty() {
            return String::new();
        }
        let full = lexical(&self.here.join(path));
        for workspace in &self.workspaces {
            if let Ok(rest) = full.strip_prefix(workspace) {
                let parts = names(rest);
                if !parts.is_empty() {
                    return parts.join("/");
                }
            }
        }
        let base = self.workspaces.first().unwrap_or(&self.here);
        match relative(&full, base) {
            Some(parts) if !parts.is_empty() => parts.join("/"),
            _ => urldb_core::source::display_path(path),
        }
    }
}

/// Each component of `path` as text.
fn names(path: &Path) -> Vec<String> {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
}

/// The components that lead from `base` to `full` (both lexical), with
/// `..` to go up; `None` when `full` is absolute and `base` shares no
/// root with it.
fn relative(full: &Path, base: &Path) -> Option<Vec<String>> {
    if !full.has_root() {
        return Some(names(full));
    }
    let (f, b): (Vec<_>, Vec<_>) = (full.components().collect(), base.components().collect());
    let common = f.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let rooted = |c: &Component| matches!(c, Component::Prefix(_) | Component::RootDir);
    if common == 0 || !b[..common].iter().any(rooted) {
        return None;
    }
    let mut parts = vec!["..".to_string(); b.len() - common];
    parts.extend(
        f[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(parts)
}

/// `path` with its `.` components dropped and each `..` taking the
/// component before it: urldb names files below where it runs, and a
/// `..` a user wrote (`check ../database`) must not hide the workspace.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::AnnotationRoot;
    use std::path::{Path, PathBuf};

    fn root(here: &str, workspaces: &[&str]) -> AnnotationRoot {
        AnnotationRoot::new(PathBuf::from(here), workspaces.iter().map(PathBuf::from))
    }

    #[test]
    fn a_file_is_named_from_the_workspace() {
        let r = root("/w/repo/database", &["/w/repo"]);
        assert_eq!(
            r.file(Path::new("a.example.yaml")),
            "database/a.example.yaml"
        );
        assert_eq!(r.file(Path::new("./sub/a.yaml")), "database/sub/a.yaml");
        assert_eq!(r.file(Path::new("../other/a.yaml")), "other/a.yaml");
        assert_eq!(r.file(Path::new("/w/repo/x/a.yaml")), "x/a.yaml");
        // The workspace with a trailing `/` or `.`, as a user may set it.
        let r = root("/w/repo/database", &["/w/repo/", "/w/./repo"]);
        assert_eq!(r.file(Path::new("a.yaml")), "database/a.yaml");
        // Urldb run at the root: the path is the one shown.
        let r = root("/w/repo", &["/w/repo"]);
        assert_eq!(r.file(Path::new("database/a.yaml")), "database/a.yaml");
    }

    #[test]
    fn the_second_form_of_the_workspace_counts() {
        // The runner's form goes through a link; the directory urldb runs
        // in is the resolved one.
        let r = root("/private/w/repo/db", &["/w/repo", "/private/w/repo"]);
        assert_eq!(r.file(Path::new("a.yaml")), "db/a.yaml");
    }

    #[test]
    fn a_file_outside_the_workspace_is_named_from_it_with_dots() {
        let r = root("/elsewhere", &["/w/repo"]);
        assert_eq!(r.file(Path::new("./a.yaml")), "../../elsewhere/a.yaml");
        assert_eq!(
            r.file(Path::new("/w/repository/./a.yaml")),
            "../repository/a.yaml"
        );
        let r = root("/w/repo", &["/w/repo"]);
        assert_eq!(r.file(Path::new("../a.yaml")), "../a.yaml");
        // No workspace: from the directory urldb runs in.
        let r = root("/w/repo/db", &[]);
        assert_eq!(r.file(Path::new("./sub/./a.yaml")), "sub/a.yaml");
        assert_eq!(r.file(Path::new("/w/repo/./db/a.yaml")), "a.yaml");
        assert_eq!(r.file(Path::new("/w/other/a.yaml")), "../../other/a.yaml");
        // No file, or nothing known: as shown, without `./`.
        assert_eq!(r.file(Path::new("")), "");
        assert_eq!(AnnotationRoot::none().file(Path::new("./a.yaml")), "a.yaml");
    }
}
