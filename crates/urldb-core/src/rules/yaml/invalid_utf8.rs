//! ## What it checks
//! Bytes that are not UTF-8 in a domain file: a Latin-1 `é` (the byte
//! `E9`), a Windows-1252 curly quote, a truncated multi-byte character, or
//! binary data. One finding per file points at the first bad sequence and
//! says how many there are.
//!
//! ## Why it matters
//! Domain files are UTF-8 text. YAML readers refuse other encodings (the
//! reference tool's PyYAML stops with a `UnicodeDecodeError`), so one stray
//! byte makes the whole file unreadable for every other tool. urldb shows
//! the file with the bad bytes replaced by `�`, but it never rewrites it:
//! the replacement would silently change the data. No finding on the bad
//! bytes quotes `�` or advises writing it (`path-invalid-char` would say
//! `%EF%BF%BD`): the file does not hold that character. Those findings
//! speak once the file is UTF-8.
//!
//! ## Example
//! ```yaml
//! ---
//! ---
//! _path: /caf<E9>
//! content-type: text/html
//! ```
//!
//! Use instead:
//! ```yaml
//! ---
//! ---
//! _path: /caf%C3%A9
//! content-type: text/html
//! ```
//!
//! ## Fix
//! None: only a person knows which encoding the bytes were meant in.
//! Re-save the file as UTF-8 (`iconv -f latin1 -t utf-8`), then run
//! `urldb check` again.

use crate::rules::prelude::*;

pub(crate) static RULE: Rule = Rule {
    code: "invalid-utf8",
    summary: "bytes that are not UTF-8",
    severity: Severity::Error,
    fix: FixKind::None,
    blocks_rewrite: true,
    blocks_request: None,
    enabled: Enabled::On,
    gate: Gate::Always("PyYAML and every urldb command refuse the file"),
    check: Check::Text(check),
};

fn check(ctx: &TextContext, out: &mut Vec<Finding>) {
    let Err(error) = std::str::from_utf8(ctx.raw) else {
        return;
    };
    let offset = error.valid_up_to();
    let bad_len = error.error_len().unwrap_or(ctx.raw.len() - offset);
    let bad = &ctx.raw[offset..offset + bad_len];
    let hex: Vec<String> = bad.iter().map(|b| format!("{b:02X}")).collect();
    let count = ctx
        .raw
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .count();
    // The text is the lossy decoding: the bytes before `offset` are the same,
    // and the bad sequence became one U+FFFD (three bytes) there.
    let replacement = char::REPLACEMENT_CHARACTER.len_utf8();
    let span = if ctx
        .source
        .text
        .get(offset..)
        .is_some_and(|t| t.starts_with(char::REPLACEMENT_CHARACTER))
    {
        offset..offset + replacement
    } else {
        offset..offset
    };
    let more = match count {
        0 | 1 => String::new(),
        2 => " (and 1 more bad sequence in the file)".to_string(),
        n => format!(" (and {} more bad sequences in the file)", n - 1),
    };
    out.push(
        Finding::new(
            &RULE,
            span,
            format!(
                "byte{} {} at offset {offset} {} not UTF-8{more}",
                if bad.len() == 1 { "" } else { "s" },
                hex.join(" "),
                if bad.len() == 1 { "is" } else { "are" },
            ),
        )
        .help(
            "save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`); \
             urldb does not rewrite a file it cannot read exactly",
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{check, codes, findings};

    #[test]
    fn flags_a_latin1_byte() {
        let found = findings(
            b"---\n---\n_path: /caf\xE9\ncontent-type: text/html\n",
            "invalid-utf8",
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "byte E9 at offset 19 is not UTF-8");
        assert_eq!(found[0].span, 19..22);
    }

    #[test]
    fn counts_every_bad_sequence_in_one_finding() {
        let found = findings(b"---\n---\n_path: /\xE9\xFF/x\xC3\n", "invalid-utf8");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].message,
            "byte E9 at offset 16 is not UTF-8 (and 2 more bad sequences in the file)"
        );
    }

    #[test]
    fn flags_a_truncated_character_at_the_end() {
        let found = findings(b"---\nhttps: true\n\xE2\x82", "invalid-utf8");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "bytes E2 82 at offset 16 are not UTF-8");
    }

    #[test]
    fn blocks_rewriting() {
        let checked = check(b"---\n---\n_path: /caf\xE9\ncontent-type: text/html\n");
        assert!(checked.blocked_by.is_some());
        assert!(checked.canonical.is_none());
    }

    #[test]
    fn accepts_utf8() {
        assert!(
            !codes(
                "example.com.yaml",
                "---\n---\n_path: /café\ncontent-type: text/html\n"
            )
            .contains(&"invalid-utf8")
        );
    }
}
