//! ## What it checks
//! A domain file whose name (the file stem, `example.com` in
//! `example.com.yaml`) is not a valid lowercase hostname: labels of letters,
//! digits and hyphens (not starting or ending with a hyphen), each 1–63
//! characters, 253 characters in all, no trailing dot. An internationalized
//! name must be written in its A-label form (`xn--bcher-kva.example`, not
//! `bücher.example`), and letters must be lowercase.
//!
//! A single label (`localhost`, an intranet host) is accepted, and so is an
//! IPv4 address written as four decimal numbers (`192.0.2.1`). Which files
//! are domain files at all is decided before this rule (`docs/files.md`):
//! without a `urldb.toml` only names with a dot are, since `localhost.yaml`
//! cannot be told from a project's `mkdocs.yml` by its name; with one,
//! every `*.yaml` below the root is, single labels included. Other
//! spellings that URL parsers (the WHATWG URL standard, as browsers and
//! `verify`) read as an IPv4 address, such as `0x7f.1` or `2130706433`
//! (both 127.0.0.1), are flagged: the host requested would not be the one
//! the name shows, so `verify` refuses them. The punycode of an `xn--`
//! label is not decoded.
//!
//! ## Why it matters
//! The file name *is* the domain: `urldb add` finds the file by it, `verify`
//! builds the URLs from it, and host names are case-insensitive, so
//! `Example.com.yaml` next to `example.com.yaml` would be one domain in two
//! files. A name that is not a hostname (`my_site.yaml`) makes URLs no
//! client can fetch.
//!
//! ## Example
//! ```text
//! db/Bücher.Example.yaml
//! ```
//!
//! Use instead:
//! ```text
//! db/xn--bcher-kva.example.yaml
//! ```
//!
//! ## Fix
//! None: rename the file (the help gives the lowercase, A-label name when
//! there is one; check the A-label, as the IDNA mapping of some characters
//! is more than lowercasing).

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-domain-name",
    summary: "the file name is not a valid lowercase hostname",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: false,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Some(
        "a file name that is no host name in any letter case (`verify` cannot use it); \
         uppercase letters and a trailing dot alone can be excused",
    ),
    check: Check::File {
        check,
        clean: CleanText(CLEAN),
    },
};

/// Clean text: it reads the file's name alone (`rules::clean`).
pub(crate) static CLEAN: &[Clean] = &[Clean::Metadata];

fn check(ctx: &FileContext, out: &mut Vec<Finding>) {
    let Some(problem) = hostname_problem(ctx.domain) else {
        return;
    };
    let help = match suggestion(ctx.domain) {
        Some(name) => format!("rename the file to `{name}.yaml`"),
        None => "name the file after its domain: lowercase letters, digits and hyphens in \
                 dot-separated labels, then `.yaml`"
            .to_string(),
    };
    let finding = Finding::new(
        &RULE,
        0..0,
        format!("the file name's domain `{}` {problem}", ctx.domain),
    )
    .help(help);
    // A name that is no host name in any letter case is one `verify`
    // cannot use: a gate finding (`gate_findings`).
    out.push(if simple_fix(ctx.domain).is_some() {
        finding
    } else {
        finding.gate()
    });
}

/// Most characters in a hostname.
const MAX_NAME: usize = 253;
/// Most characters in one label.
const MAX_LABEL: usize = 63;

/// What is wrong with `name` as a lowercase hostname, as a phrase that
/// follows the name ("`x` has uppercase letters"); `None` when it is valid.
pub fn hostname_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("is empty".to_string());
    }
    if let Some(c) = name.chars().find(|c| !c.is_ascii()) {
        return Some(format!(
            "has the non-ASCII character {}: an internationalized name is written in its \
             A-label (`xn--`) form",
            show_char(c)
        ));
    }
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        return Some("has uppercase letters".to_string());
    }
    if name.ends_with('.') && name.len() > 1 && !name.ends_with("..") {
        return Some("ends with a dot".to_string());
    }
    if name.len() > MAX_NAME {
        return Some(format!(
            "is {} characters long (at most {MAX_NAME})",
            name.len()
        ));
    }
    for label in name.split('.') {
        if let Some(problem) = label_problem(label) {
            return Some(problem);
        }
    }
    // What `verify` does with the name: the WHATWG URL host parser (the
    // `url` crate, as browsers) reads `0x7f.1` or `2130706433` as the IPv4
    // address 127.0.0.1, another host than the name says, which `verify`
    // refuses; `check` says so first, with the same parser.
    match url::Host::parse(name) {
        Ok(host) if host.to_string() == name => None,
        Ok(url::Host::Ipv4(ip)) => Some(format!(
            "is read by URL parsers (WHATWG) as the IPv4 address `{ip}`; `verify` does not \
             request it"
        )),
        _ => Some("is not a host name URL parsers (WHATWG) read as written".to_string()),
    }
}

fn label_problem(label: &str) -> Option<String> {
    if label.is_empty() {
        return Some("has an empty label (two dots in a row, or a dot at an end)".to_string());
    }
    if label.len() > MAX_LABEL {
        return Some(format!(
            "has a label of {} characters (at most {MAX_LABEL})",
            label.len()
        ));
    }
    if let Some(c) = label
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-'))
    {
        return Some(format!(
            "has the character {}, which is not a letter, digit or hyphen",
            show_char(c)
        ));
    }
    if label.starts_with('-') || label.ends_with('-') {
        return Some(format!(
            "has the label `{label}`, which starts or ends with a hyphen"
        ));
    }
    None
}

/// A character as the user should see it in a message.
fn show_char(c: char) -> String {
    if c.is_ascii_graphic() || (!c.is_ascii() && !c.is_control() && !c.is_whitespace()) {
        format!("`{c}`")
    } else {
        format!("U+{:04X}", u32::from(c))
    }
}

/// The canonical spelling of `name` (lowercase, no trailing dot, IDN labels
/// in A-label form, by UTS 46 as browsers map it) when it differs from
/// `name` and is a valid hostname.
pub(crate) fn suggestion(name: &str) -> Option<String> {
    let name = name.strip_suffix('.').unwrap_or(name);
    let fixed = idna::domain_to_ascii(name).ok()?;
    (fixed != name && hostname_problem(&fixed).is_none()).then_some(fixed)
}

/// `name` lowercased (ASCII) and without one trailing dot, when that alone
/// makes it a valid hostname: the spelling change that keeps the meaning
/// (host names are case-insensitive; the trailing dot only says "absolute").
pub(crate) fn simple_fix(name: &str) -> Option<String> {
    if !name.is_ascii() {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    let fixed = lower.strip_suffix('.').unwrap_or(&lower);
    (fixed != name && hostname_problem(fixed).is_none()).then(|| fixed.to_string())
}

#[cfg(test)]
mod tests {
    use super::{hostname_problem, simple_fix, suggestion};
    use crate::rules::test_support::codes;

    const MINIMAL: &str = "---\n---\n_path: /\ncontent-type: text/html\n";

    #[test]
    fn flags_uppercase_file_name() {
        assert!(codes("Example.com.yaml", MINIMAL).contains(&"invalid-domain-name"));
    }

    #[test]
    fn flags_underscore_and_non_ascii() {
        assert!(codes("my_site.example.yaml", MINIMAL).contains(&"invalid-domain-name"));
        assert!(codes("bücher.example.yaml", MINIMAL).contains(&"invalid-domain-name"));
    }

    #[test]
    fn accepts_hostnames_single_labels_and_a_labels() {
        for name in [
            "example.com.yaml",
            "localhost.yaml",
            "xn--bcher-kva.example.yaml",
            "a-b.c0.yaml",
        ] {
            assert!(
                !codes(name, MINIMAL).contains(&"invalid-domain-name"),
                "{name}"
            );
        }
    }

    #[test]
    fn hostname_problems() {
        assert_eq!(hostname_problem("example.com"), None);
        assert_eq!(hostname_problem("192.0.2.1"), None);
        for ipv4 in ["0x7f.1", "2130706433", "127.1", "0177.0.0.1"] {
            let problem = hostname_problem(ipv4).unwrap_or_default();
            assert!(problem.contains("`127.0.0.1`"), "{ipv4}: {problem}");
        }
        assert!(hostname_problem("").is_some());
        assert!(hostname_problem("-a.com").is_some());
        assert!(hostname_problem("a-.com").is_some());
        assert!(hostname_problem("a..com").is_some());
        assert!(hostname_problem(".a.com").is_some());
        assert!(hostname_problem("a.com.").is_some());
        assert!(hostname_problem("a com").is_some());
        assert!(hostname_problem("A.com").is_some());
        assert!(hostname_problem(&"a".repeat(64)).is_some());
        assert_eq!(hostname_problem(&"a".repeat(63)), None);
        let long = vec!["a".repeat(63); 4].join(".");
        assert_eq!(long.len(), 255);
        assert!(hostname_problem(&long).is_some());
        assert_eq!(hostname_problem(&long[2..]), None);
    }

    #[test]
    fn idn_suggestions_are_a_labels() {
        assert_eq!(
            suggestion("bücher.example").as_deref(),
            Some("xn--bcher-kva.example")
        );
        assert_eq!(
            suggestion("中国.example").as_deref(),
            Some("xn--fiqs8s.example")
        );
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            suggestion("Bücher.Example").as_deref(),
            Some("xn--bcher-kva.example")
        );
        assert_eq!(
            suggestion("WWW.example.com.").as_deref(),
            Some("www.example.com")
        );
        assert_eq!(suggestion("my_site.example"), None);
        assert_eq!(
            simple_fix("WWW.Example.com.").as_deref(),
            Some("www.example.com")
        );
        assert_eq!(simple_fix("bücher.example"), None);
        assert_eq!(simple_fix("www.example.com"), None);
    }
}
