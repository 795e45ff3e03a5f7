//! CSV export (RFC 4180): a header line, then one line per record.
//! `categories` are joined by `;`, `extras` is a JSON object.

use std::io::Write;

use crate::listing::UrlRecord;

pub(crate) const HEADER: [&str; 8] = [
    "url",
    "domain",
    "_path",
    "content-type",
    "categories",
    "content-length",
    "content-sha256",
    "extras",
];

/// A field, quoted when it holds a comma, a quote or a line break; one a
/// spreadsheet would read as a formula written after a `'`
/// ([`formula_safe`]).
fn field(text: &str) -> String {
    let text = formula_safe(text);
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into_owned()
    }
}

/// `text`, after a `'` when it starts with a character a spreadsheet
/// reads as the start of a formula (`=`, `+`, `-`, `@`) or that some
/// strip before one (TAB, CR): the cell is then text, and a category
/// `=HYPERLINK("http://attacker…")` from a pull request is no live link
/// when the export is opened (OWASP, "CSV Injection"). The `'` is the
/// spreadsheets' own mark for "text", which they do not show.
fn formula_safe(text: &str) -> std::borrow::Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

fn line(fields: &[String], out: &mut impl Write) -> std::io::Result<()> {
    let quoted: Vec<String> = fields.iter().map(|f| field(f)).collect();
    out.write_all(quoted.join(",").as_bytes())?;
    out.write_all(b"\r\n")
}

pub fn write_csv(records: &[UrlRecord], out: &mut impl Write) -> std::io::Result<()> {
    line(&HEADER.map(String::from), out)?;
    for r in records {
        let extras: serde_json::Map<String, serde_json::Value> = r
            .extras
            .iter()
            .map(|(k, v)| (k.clone(), super::json::node_to_json(v)))
            .collect();
        line(
            &[
                r.url.clone(),
                r.domain.clone(),
                r.path.clone(),
                r.content_type.clone().unwrap_or_default(),
                r.categories.join(";"),
                r.content_length.map(|n| n.to_string()).unwrap_or_default(),
                r.content_sha256.clone().unwrap_or_default(),
                if extras.is_empty() {
                    String::new()
                } else {
                    serde_json::Value::Object(extras).to_string()
                },
            ],
            out,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::field;

    #[test]
    fn cells_a_spreadsheet_would_run_are_text() {
        for (cell, written) in [
            (
                "=HYPERLINK(\"http://x\")",
                "\"'=HYPERLINK(\"\"http://x\"\")\"",
            ),
            ("+1", "'+1"),
            ("-1", "'-1"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "\"'\r=1\""),
            ("a=1", "a=1"),
            ("/a", "/a"),
            ("", ""),
        ] {
            assert_eq!(field(cell), written, "{cell:?}");
        }
    }
}
