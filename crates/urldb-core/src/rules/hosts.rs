//! Host names as the rules compare them (`domain-conflict`,
//! `cname-conflict`, `cname-is-primary`, `duplicate-cname`): as `verify`
//! requests them, through the one function that makes a host of a name
//! ([`crate::url::canonical::host_form`]: lowercase, A-labels, no
//! trailing dot). `Example.com.yaml` and `example.com.yaml` are one host,
//! which a case-insensitive checkout writes into one file; compared as
//! written, they would pass as two.
//!
//! And the list of other files a cross-file finding names: at most
//! [`SHOWN_PER_RULE`](super::SHOWN_PER_RULE), then a count, so that a
//! finding's length does not grow with the database (ten thousand files
//! listing one cname make one finding each, not ten thousand).

use std::borrow::Cow;
use std::collections::HashMap;

use super::{DbContext, SHOWN_PER_RULE};

/// The host `name` names, as `verify` would request it (borrowed when
/// `name` is written so already, as nearly every name is).
pub(crate) fn host_form(name: &str) -> Cow<'_, str> {
    crate::url::canonical::host_form(name)
}

/// The files (indices into the context's files) of each host, in file order.
pub(crate) type ByHost<'a> = HashMap<&'a str, Vec<usize>>;

/// The host of each file's domain (its name), by index.
pub(crate) fn domains<'a>(ctx: &DbContext<'a>) -> Vec<Cow<'a, str>> {
    ctx.files.iter().map(|f| host_form(&f.domain)).collect()
}

/// The files named after each host.
pub(crate) fn files_by_host<'a>(domains: &'a [Cow<'_, str>]) -> ByHost<'a> {
    let mut by_host = ByHost::with_capacity(domains.len());
    for (index, host) in domains.iter().enumerate() {
        by_host.entry(host.as_ref()).or_default().push(index);
    }
    by_host
}

/// `` `a.yaml` ``, `` `a.yaml` and `b.yaml` `` or
/// `` `a.yaml`, `b.yaml`, … and 9,950 more ``: the files of `group` but
/// `except`, at most [`SHOWN_PER_RULE`] of them by name, and how many
/// there are (`holds_except`: `except` is one of `group`).
pub(crate) fn listed(
    ctx: &DbContext,
    group: &[usize],
    except: usize,
    holds_except: bool,
) -> (String, usize) {
    let count = group.len() - usize::from(holds_except);
    let names: Vec<String> = group
        .iter()
        .filter(|&&i| i != except)
        .take(SHOWN_PER_RULE)
        .map(|&i| format!("`{}`", crate::source::display_path(&ctx.files[i].path)))
        .collect();
    let text = match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [first @ .., last] if count == names.len() => format!("{} and {last}", first.join(", ")),
        all => format!(
            "{}, … and {} more",
            all.join(", "),
            crate::text::thousands(count - all.len())
        ),
    };
    (text, count)
}

/// `file` or `files`, for `count` files.
pub(crate) fn files(count: usize) -> &'static str {
    if count == 1 { "file" } else { "files" }
}

/// ` (the host `example.com`)` when `name` is written otherwise than the
/// host it names, so that the finding says why two spellings are one.
pub(crate) fn as_host(name: &str, host: &str) -> String {
    if name == host {
        String::new()
    } else {
        format!(" (the host `{host}`)")
    }
}

#[cfg(test)]
mod tests {
    use super::host_form;

    #[test]
    fn names_of_one_host_have_one_form() {
        for (a, b) in [
            ("Example.com", "example.com"),
            ("example.com.", "example.com"),
            ("EXAMPLE.COM..", "example.com"),
            ("bücher.example", "xn--bcher-kva.example"),
            ("BÜCHER.example", "xn--bcher-kva.example"),
            ("0x7f.0.0.1", "127.0.0.1"),
        ] {
            assert_eq!(host_form(a), host_form(b), "{a} and {b}");
        }
        assert_ne!(host_form("example.com"), host_form("example.org"));
        assert_ne!(host_form("www.example.com"), host_form("example.com"));
        // A name that is no host still equals itself in another case.
        assert_eq!(host_form("my site.example"), host_form("My Site.example."));
        assert_ne!(host_form("my site.example"), host_form("my-site.example"));
    }
}
