//! ## What it checks
//! A file that uses more than one kind of line break: LF (`\n`, Unix),
//! CRLF (`\r\n`, Windows) or a lone CR (`\r`, classic Mac OS). The finding
//! points at the first line break that differs from the file's first one
//! and says how many differ. A file whose line breaks start with a lone CR
//! is flagged even when they all are: a lone CR is never written, so
//! `urldb fmt` changes every one of them; the finding points at the first
//! and says how many more there are.
//!
//! ## Why it matters
//! Mixed line endings come from pasting between editors or from a git
//! checkout with `core.autocrlf` on one machine only. Every diff of such a
//! file shows lines as changed that are not, and tools that split lines on
//! one kind of break see stray `\r` characters at the end of values.
//!
//! ## Example
//! (`␊` marks an LF line break, `␍␊` a CRLF one.)
//! ```yaml
//! ---␊
//! ---␊
//! _path: /a␍␊
//! content-type: text/html␊
//! ```
//!
//! Use instead:
//! ```yaml
//! ---␊
//! ---␊
//! _path: /a␊
//! content-type: text/html␊
//! ```
//!
//! ## Fix
//! Safe, by `urldb fmt`: every line break is written the same way. With
//! `line-ending = "auto"` (the default) that is the file's first line break
//! when it is CRLF, and LF otherwise (a lone CR is never written); `lf`,
//! `crlf` and `native` in `urldb.toml` choose for every file.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "mixed-line-endings",
    summary: "file mixes LF, CRLF and CR line breaks, or breaks lines with a lone CR",
    severity: Severity::Error,
    fix: FixKind::Format,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::No,
    check: Check::Text(check),
};

/// A kind of line break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Break {
    Lf,
    Crlf,
    Cr,
}

impl Break {
    fn name(self) -> &'static str {
        match self {
            Break::Lf => "LF (`\\n`)",
            Break::Crlf => "CRLF (`\\r\\n`)",
            Break::Cr => "CR (`\\r`)",
        }
    }
}

/// Every line break of `text`: its kind and its byte range.
fn breaks(text: &str) -> impl Iterator<Item = (Break, Span)> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let at = i;
            match bytes[i] {
                b'\n' => {
                    i += 1;
                    return Some((Break::Lf, at..i));
                }
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    i += 2;
                    return Some((Break::Crlf, at..i));
                }
                b'\r' => {
                    i += 1;
                    return Some((Break::Cr, at..i));
                }
                _ => i += 1,
            }
        }
        None
    })
}

fn check(ctx: &TextContext, out: &mut Vec<Finding>) {
    // Without a CR every break is an LF: the common case, found at
    // memchr speed.
    if memchr::memchr(b'\r', ctx.source.text.as_bytes()).is_none() {
        return;
    }
    let mut all = breaks(&ctx.source.text);
    let Some((first, first_span)) = all.next() else {
        return;
    };
    if first == Break::Cr {
        // Every lone CR changes, whatever else the file holds.
        let others = all.filter(|(kind, _)| *kind == Break::Cr).count();
        let more = match others {
            0 => String::new(),
            1 => " (1 more lone CR)".to_string(),
            n => format!(" ({n} more lone CRs)"),
        };
        out.push(
            Finding::new(
                &RULE,
                first_span,
                format!("line break is a lone CR (`\\r`), which is never written{more}"),
            )
            .help(
                "`urldb fmt` writes every line break as LF (`\\n`) (with the default \
                 `line-ending = \"auto\"`)",
            )
            .fix(Fix::format("use one kind of line break")),
        );
        return;
    }
    let mut differing = all.filter(|(kind, _)| *kind != first);
    let Some((kind, span)) = differing.next() else {
        return;
    };
    let others = differing.count();
    let more = match others {
        0 => String::new(),
        1 => " (1 more line break differs)".to_string(),
        n => format!(" ({n} more line breaks differ)"),
    };
    // What `line-ending = "auto"` writes (see `lint::render_options`).
    let target = if first == Break::Crlf {
        Break::Crlf
    } else {
        Break::Lf
    };
    let help = if target == first {
        format!(
            "`urldb fmt` writes every line break as {}, the file's first kind \
             (with the default `line-ending = \"auto\"`)",
            target.name()
        )
    } else {
        format!(
            "`urldb fmt` writes every line break as {} (a lone CR is never written)",
            target.name()
        )
    };
    out.push(
        Finding::new(
            &RULE,
            span,
            format!(
                "line break is {}, but the file's first line break is {}{more}",
                kind.name(),
                first.name()
            ),
        )
        .help(help)
        .fix(Fix::format("use one kind of line break")),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{codes, finding, findings, fixed};

    #[test]
    fn flags_crlf_in_an_lf_file() {
        let text = "---\n---\n_path: /a\r\ncontent-type: text/html\r\n";
        let f = finding(text, "mixed-line-endings");
        assert_eq!(f.span, 17..19);
        assert_eq!(
            f.message,
            "line break is CRLF (`\\r\\n`), but the file's first line break is LF (`\\n`) (1 more line break differs)"
        );
        assert_eq!(codes("example.com.yaml", text), ["mixed-line-endings"]);
    }

    #[test]
    fn flags_lf_in_a_crlf_file() {
        let f = finding(
            "---\r\n---\r\n_path: /a\ncontent-type: text/html\r\n",
            "mixed-line-endings",
        );
        assert_eq!(f.span, 19..20);
        assert!(f.help.unwrap().contains("CRLF"));
    }

    #[test]
    fn flags_a_lone_cr() {
        let f = finding(
            "---\n---\r_path: /a\ncontent-type: text/html\n",
            "mixed-line-endings",
        );
        assert_eq!(f.span, 7..8);
        assert!(f.message.starts_with("line break is CR (`\\r`)"));
    }

    #[test]
    fn flags_a_file_of_lone_crs() {
        let text = "---\r---\r_path: /a\rcontent-type: text/html\r";
        let f = finding(text, "mixed-line-endings");
        assert_eq!(f.span, 3..4);
        assert_eq!(
            f.message,
            "line break is a lone CR (`\\r`), which is never written (3 more lone CRs)"
        );
        assert_eq!(
            fixed("example.com.yaml", text),
            "---\n---\n_path: /a\ncontent-type: text/html\n"
        );
    }

    #[test]
    fn accepts_one_kind_of_line_break() {
        assert!(
            findings(
                "---\n---\n_path: /a\ncontent-type: text/html\n",
                "mixed-line-endings"
            )
            .is_empty()
        );
        assert!(
            findings(
                "---\r\n---\r\n_path: /a\r\ncontent-type: text/html\r\n",
                "mixed-line-endings"
            )
            .is_empty()
        );
        assert!(findings("", "mixed-line-endings").is_empty());
    }

    #[test]
    fn fix_uses_the_first_line_break() {
        assert_eq!(
            fixed(
                "example.com.yaml",
                "---\n---\n_path: /a\r\ncontent-type: text/html\r\n"
            ),
            "---\n---\n_path: /a\ncontent-type: text/html\n"
        );
        assert_eq!(
            fixed(
                "example.com.yaml",
                "---\r\n---\n_path: /a\r\ncontent-type: text/html\n"
            ),
            "---\r\n---\r\n_path: /a\r\ncontent-type: text/html\r\n"
        );
    }
}
