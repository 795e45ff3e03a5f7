//! `--format github`: GitHub Actions workflow commands, which the runner
//! turns into annotations on the pull request's diff.
//!
//! `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::MESSAGE`,
//! with GitHub's escaping: `%`, CR and LF in the message; additionally `:`
//! and `,` in property values. Before that, text from the database has
//! its control characters escaped visibly ([`urldb_core::text::escape`]), so
//! the only line breaks in a command are the ones urldb means.
//!
//! `file=` is the path from the repository's root when the runner says
//! where that is ([`annotation_root`]): GitHub reads it from there,
//! whatever directory the step ran in.

use std::io::{self, Write};

use urldb_core::rules::diagnostic::Severity;
use urldb_core::text::escape;
use urldb_output::{AnnotationRoot, github_data as data, github_property as property};
use urldb_store::database::FileResult;

/// Where annotations' paths start: `GITHUB_WORKSPACE`, the checkout of a
/// GitHub Actions job, when it is set; else the top of the git work tree
/// urldb runs in (another CI, a terminal); else the directory urldb runs
/// in. Both the workspace's form as set and its resolved form count, since
/// the directory urldb runs in is always resolved. Found once a run (`fmt`
/// asks for each file).
pub(crate) fn annotation_root() -> AnnotationRoot {
    static ROOT: std::sync::OnceLock<AnnotationRoot> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let Ok(here) = std::env::current_dir() else {
            return AnnotationRoot::none();
        };
        let workspace = std::env::var_os("GITHUB_WORKSPACE").filter(|w| !w.is_empty());
        let Some(workspace) = workspace else {
            let top = urldb_store::Repository::discover(&here, "--format github")
                .ok()
                .map(|repo| repo.workdir().to_path_buf());
            return AnnotationRoot::new(here, top);
        };
        let workspace = std::path::PathBuf::from(workspace);
        let resolved = dunce::canonicalize(&workspace).ok();
        AnnotationRoot::new(here, std::iter::once(workspace).chain(resolved))
    })
    .clone()
}

pub(crate) fn write<W: Write>(
    out: &mut urldb_output::gate::Gate<W>,
    files: &[FileResult],
    root: &AnnotationRoot,
) -> io::Result<()> {
    for file in files {
        let path = property(&escape(&root.file(&file.path)));
        for f in super::locate(file) {
            let command = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let mut message = escape(f.message).into_owned();
            if let Some(help) = f.help {
                message.push_str("\nhelp: ");
                message.push_str(&escape(help));
            }
            out.command(&format!(
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                path,
                f.line,
                f.column,
                f.end_line,
                f.end_column,
                property(&format!("urldb ({})", f.code)),
                data(&message)
            ))?;
        }
    }
    Ok(())
}

/// One `::notice` when suppressions excused findings: the run's page
/// says how many were not annotated.
pub(crate) fn excused<W: Write>(out: &mut urldb_output::gate::Gate<W>, n: usize) -> io::Result<()> {
    if n == 0 {
        return Ok(());
    }
    out.command(&format!(
        "::notice title={}::{}",
        property("urldb"),
        data(&super::excused_note(n))
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(
            urldb_output::github_data("50% done\r\nnext"),
            "50%25 done%0D%0Anext"
        );
        assert_eq!(urldb_output::github_property("a,b: c%"), "a%2Cb%3A c%25");
    }
}
