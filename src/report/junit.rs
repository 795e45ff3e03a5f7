//! `--format junit`: JUnit XML, which most CI systems show as test results:
//! one test suite per file, one failed test case per finding.

use std::io::{self, Write};

use crate::database::FileResult;

pub fn write(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
    let total: usize = files.iter().map(|f| f.checked.findings.len()).sum();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="urldb" tests="{total}" failures="{total}">"#
    )?;
    for file in files {
        let located = super::locate(file);
        if located.is_empty() {
            continue;
        }
        let path = crate::source::display_path(&file.path);
        writeln!(
            out,
            r#"  <testsuite name="{}" tests="{n}" failures="{n}">"#,
            xml(&path),
            n = located.len()
        )?;
        for f in located {
            writeln!(
                out,
                r#"    <testcase name="{}" classname="{}" file="{}" line="{}">"#,
                xml(&format!("{} at {}:{}", f.code, f.line, f.column)),
                xml(&path),
                xml(&path),
                f.line
            )?;
            let body = match f.help {
                Some(help) => format!(
                    "{}:{}:{}: {}\nhelp: {help}",
                    f.path, f.line, f.column, f.message
                ),
                None => format!("{}:{}:{}: {}", f.path, f.line, f.column, f.message),
            };
            writeln!(
                out,
                r#"      <failure type="{}" message="{}">{}</failure>"#,
                f.severity.as_str(),
                xml(f.message),
                xml(&body)
            )?;
            writeln!(out, "    </testcase>")?;
        }
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
}

/// Escape text for an XML attribute or element. Tab, line feed and
/// carriage return become character references (the exact value, and no
/// line of the document starts with data); DEL, C1 controls and the other
/// characters [`crate::text::needs_escape`] names become references too;
/// characters XML 1.0 cannot hold at all (other C0 controls, U+FFFE,
/// U+FFFF) become a visible escape such as `\x01`. (Also used by `verify
/// --format junit`.)
pub fn xml(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c if (c as u32) < 0x20 => crate::text::push_escaped(&mut out, c),
            '\u{FFFE}' => out.push_str("\\u{fffe}"),
            '\u{FFFF}' => out.push_str("\\u{ffff}"),
            c if crate::text::needs_escape(c) => {
                let _ = write!(out, "&#x{:x};", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn xml_escapes_markup_and_control_characters() {
        assert_eq!(
            super::xml("a<b>&\"'\u{1}"),
            "a&lt;b&gt;&amp;&quot;&apos;\\x01"
        );
        assert_eq!(
            super::xml("a\n::error\u{1b}[31m\u{9b}"),
            "a&#10;::error\\x1b[31m&#x9b;"
        );
    }
}
