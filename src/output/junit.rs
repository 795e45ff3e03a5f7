//! `--format junit`: JUnit XML, which most CI systems show as test results:
//! one test suite per file, one failed test case per finding.

use std::io::{self, Write};

use urldb_output::xml;
use urldb_store::database::FileResult;

pub(crate) fn write(out: &mut dyn Write, files: &[FileResult]) -> io::Result<()> {
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
        let path = urldb_core::source::display_path(&file.path);
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
