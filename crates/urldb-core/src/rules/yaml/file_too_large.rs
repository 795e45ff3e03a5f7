//! ## What it checks
//! A domain file larger than `max-file-size` (64 MiB unless `urldb.toml`
//! says otherwise, at most 1 GiB). The size is checked before the file
//! is read.
//!
//! ## Why it matters
//! One domain's URLs fit in a few megabytes. A file far larger is a
//! mistake (a generated dump, a log or a binary saved as `.yaml`), and
//! reading it would cost every hook run time and memory. urldb neither
//! reads nor rewrites it.
//!
//! ## Example
//! ```text
//! $ ls -lh example.com.yaml
//! -rw-r--r-- 1 ann ann 300M example.com.yaml
//! ```
//!
//! Use instead: remove the data that does not belong in the file, or, if
//! it really is one domain's records, raise the limit in `urldb.toml`:
//! ```toml
//! max-file-size = "512 MiB"
//! ```
//!
//! ## Fix
//! None: only a person can tell what the file should hold.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "file-too-large",
    summary: "file larger than `max-file-size`",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("`check` did not read the file"),
    check: Check::Parse,
};

/// A file of `size` bytes, over the `limit` (both in bytes).
pub fn finding(size: u64, limit: u64) -> Finding {
    let (size, limit) = sizes(size, limit);
    Finding::new(
        &RULE,
        0..0,
        format!("file is {size}, over the {limit} limit (`max-file-size`)"),
    )
    .help("the file is not read; if it really holds one domain's records, raise `max-file-size` in `urldb.toml`")
}

const UNITS: [(u64, &str); 6] = [
    (1 << 30, "GiB"),
    (1_000_000_000, "GB"),
    (1 << 20, "MiB"),
    (1_000_000, "MB"),
    (1 << 10, "KiB"),
    (1_000, "kB"),
];

/// The size and the limit in words, in the unit the limit is a whole
/// number of (as it was probably configured): `("70.0 MiB", "64 MiB")`.
/// Exact byte counts when rounding would hide the difference.
fn sizes(size: u64, limit: u64) -> (String, String) {
    let exact = (format!("{size} bytes"), format!("{limit}-byte"));
    let Some(&(unit, name)) = UNITS
        .iter()
        .find(|(unit, _)| limit >= *unit && limit.is_multiple_of(*unit))
    else {
        return exact;
    };
    let shown = format!("{:.1}", size as f64 / unit as f64);
    let limit_units = limit / unit;
    if shown == format!("{limit_units}.0") {
        return (exact.0, format!("{limit_units} {name} ({limit}-byte)"));
    }
    (format!("{shown} {name}"), format!("{limit_units} {name}"))
}

#[cfg(test)]
mod tests {
    use super::finding;

    const MIB: u64 = 1024 * 1024;

    #[test]
    fn message_names_size_and_limit() {
        let f = finding(70 * MIB, 64 * MIB);
        assert_eq!(
            f.message,
            "file is 70.0 MiB, over the 64 MiB limit (`max-file-size`)"
        );
        assert_eq!(f.span, 0..0);
        assert_eq!(f.rule.code, "file-too-large");
        assert!(f.rule.blocks_rewrite);
    }

    #[test]
    fn message_uses_the_unit_of_the_limit() {
        assert_eq!(
            finding(600_000, 500_000).message,
            "file is 600.0 kB, over the 500 kB limit (`max-file-size`)"
        );
        assert_eq!(
            finding(1500, 1000).message,
            "file is 1.5 kB, over the 1 kB limit (`max-file-size`)"
        );
    }

    #[test]
    fn message_is_exact_when_rounding_would_hide_the_difference() {
        assert_eq!(
            finding(64 * MIB + 1, 64 * MIB).message,
            "file is 67108865 bytes, over the 64 MiB (67108864-byte) limit (`max-file-size`)"
        );
        assert_eq!(
            finding(1001, 999).message,
            "file is 1001 bytes, over the 999-byte limit (`max-file-size`)"
        );
    }
}
