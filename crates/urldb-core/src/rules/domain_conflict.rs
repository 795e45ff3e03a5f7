//! ## What it checks
//! Two domain files for the same domain (say `example.com.yaml` in two
//! directories, or `example.com.yaml` and `example.com.yml`).
//!
//! ## Why it matters
//! Each domain has exactly one file: `urldb add` would not know which one
//! to write, and records split over two files escape the duplicate and
//! sorting checks.
//!
//! ## Example
//! ```text
//! db/example.com.yaml
//! db/old/example.com.yaml
//! ```
//!
//! Use instead: merge the records into one `example.com.yaml`.
//!
//! ## Fix
//! None: merge the files by hand.

use super::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "domain-conflict",
    summary: "the same domain has two files",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    check: Check::Database(check),
};

fn check(ctx: &DbContext, out: &mut Vec<DbFinding>) {
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (index, file) in ctx.files.iter().enumerate() {
        match first.get(file.domain.as_str()) {
            None => {
                first.insert(&file.domain, index);
            }
            Some(&other) => {
                for (this, that) in [(index, other), (other, index)] {
                    if !ctx.files[this].checked {
                        continue;
                    }
                    out.push(DbFinding {
                        file: this,
                        finding: Finding::new(
                            &RULE,
                            0..0,
                            format!(
                                "domain `{}` also has the file `{}`",
                                file.domain,
                                crate::source::display_path(&ctx.files[that].path)
                            ),
                        )
                        .help("keep one file per domain: merge the records into one of them"),
                    });
                }
            }
        }
    }
}
