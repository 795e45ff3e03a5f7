//! ## What it checks
//! Two domain files for the same domain (say `example.com.yaml` in two
//! directories, or `example.com.yaml` and `example.com.yml`). Names are
//! compared as the hosts `verify` requests: `Example.com.yaml` and
//! `example.com.` are `example.com` too.
//!
//! ## Why it matters
//! Each domain has exactly one file: `urldb add` would not know which one
//! to write, and records split over two files escape the duplicate and
//! sorting checks. On a case-insensitive checkout (macOS, Windows) git
//! writes `Example.com.yaml` and `example.com.yaml` into one file, and
//! the records of the other are lost.
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

use crate::rules::hosts;
use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "domain-conflict",
    summary: "the same domain has two files",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always(
        "one host has two files (`Example.com.yaml` and `example.com.yaml`, which a \
         case-insensitive checkout writes into one); `ls` and `export` list both",
    ),
    check: Check::Database(check),
};

fn check(ctx: &DbContext, out: &mut Vec<DbFinding>) {
    let domains = hosts::domains(ctx);
    let by_host = hosts::files_by_host(&domains);
    for (index, file) in ctx.files.iter().enumerate() {
        if !file.checked {
            continue;
        }
        let host = &domains[index];
        let group = by_host.get(host.as_ref()).map_or(&[][..], Vec::as_slice);
        if group.len() < 2 {
            continue;
        }
        // One finding per file, naming the others up to a cap: linear in
        // the number of files however many share one host.
        let (others, count) = hosts::listed(ctx, group, index, true);
        out.push(DbFinding {
            file: index,
            finding: Finding::new(
                &RULE,
                0..0,
                format!(
                    "domain `{}`{} also has the {} {others}",
                    file.domain,
                    hosts::as_host(&file.domain, host),
                    hosts::files(count),
                ),
            )
            .help("keep one file per domain: merge the records into one of them"),
        });
    }
}
