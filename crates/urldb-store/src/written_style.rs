//! Which text style a database's files were written in (`docs/format.md`,
//! "Two styles"), for `urldb init` to adopt: a database the reference
//! tool wrote is PyYAML's default output (non-ASCII escaped, long values
//! folded at 80 columns), which the default `readable` style rewrites.
//! Left at the default, a team that still runs `wwturldb add` would see
//! the two tools rewrite each other's files.

use std::path::Path;

use urldb_core::config::Config;
use urldb_core::render::TextStyle;

use crate::membership::Members;
use crate::read::Root;

/// How many files of a database are canonical in one style and not the
/// other. A file canonical in both (short ASCII values) or in neither
/// (not canonical at all, or blocked by a finding) says nothing.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct StyleCount {
    pub pyyaml_only: usize,
    pub readable_only: usize,
}

impl StyleCount {
    /// The style that rewrites fewer files: `pyyaml` when more files are
    /// canonical in it alone, else the default.
    pub fn style(&self) -> TextStyle {
        if self.pyyaml_only > self.readable_only {
            TextStyle::Pyyaml
        } else {
            TextStyle::Readable
        }
    }
}

/// Count the domain files below `root` (without `urldb.toml`'s other
/// settings: `exclude` as `init` writes it) by the style they are
/// canonical in. Files that cannot be read are left out: `check` reports
/// them.
pub fn count_written_styles(root: &Path, exclude: &[String]) -> StyleCount {
    let mut count = StyleCount::default();
    let Ok(root) = Root::new(root) else {
        return count;
    };
    let Ok(members) = Members::new(root.clone(), exclude, false) else {
        return count;
    };
    let Ok(mut options) = crate::settings::lint_options(&Config::default(), None) else {
        return count;
    };
    let max = options.settings.max_file_size;
    for file in crate::discover::find_files(&members).files {
        let Ok(raw) = crate::read::read_limited(&file, max, Some(&root)) else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(&raw) else {
            continue;
        };
        let mut canonical_in = |style| {
            options.settings.style = style;
            urldb_core::lint::check_bytes(&file, &raw, &options)
                .canonical
                .as_deref()
                == Some(text)
        };
        match (
            canonical_in(TextStyle::Pyyaml),
            canonical_in(TextStyle::Readable),
        ) {
            (true, false) => count.pyyaml_only += 1,
            (false, true) => count.readable_only += 1,
            _ => {}
        }
    }
    count
}
