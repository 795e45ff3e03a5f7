//! The files a rule's documentation shows, made real: the `## Example`
//! section's files and the `Use instead:` files, read from the code blocks
//! as a reader reads them.
//!
//! - a `yaml` block is one domain file, `example.com.yaml` unless its first
//!   line names another (`# example.net.yaml`);
//! - a `toml` block whose first line is `# urldb.toml` is the
//!   configuration, for the example and the `Use instead:` files alike;
//! - a `text` block that only lists `.yaml`/`.yml` paths makes those files
//!   (a minimal `---` each): rules about names and places;
//! - inside blocks, `␊` marks an LF line break and `␍␊` a CRLF one (when
//!   they are used, the marks are the only line breaks), `·` a space,
//!   `<U+FEFF>` a character and `<E9>` a raw byte.
//!
//! Any other block (a shell session, a bare `toml` snippet) is prose.

/// Rules whose example cannot be made in a test, and why: their fixture
/// (`tests/fixtures/rules/`) shows them instead.
pub(super) const ILLUSTRATIVE: &[&str] = &[
    // A 300 MB file.
    "file-too-large",
    // 200,001 documents.
    "too-many-documents",
];

#[derive(Debug, Default)]
pub(super) struct Examples {
    pub bad: Vec<(String, Vec<u8>)>,
    pub good: Vec<(String, Vec<u8>)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Other,
    Bad,
    Good,
}

pub(super) fn read(doc: &str) -> Examples {
    let mut examples = Examples::default();
    let mut section = Section::Other;
    let mut block: Option<(String, Vec<&str>)> = None;
    for line in doc.lines() {
        if let Some((lang, lines)) = &mut block {
            if line.starts_with("```") {
                let files = files(lang, lines);
                match section {
                    Section::Bad => examples.bad.extend(files),
                    Section::Good => examples.good.extend(files),
                    Section::Other => {}
                }
                block = None;
            } else {
                lines.push(line);
            }
            continue;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            section = if heading.trim() == "Example" {
                Section::Bad
            } else {
                Section::Other
            };
        } else if line.starts_with("Use instead") && section != Section::Other {
            section = Section::Good;
        } else if let Some(lang) = line.strip_prefix("```") {
            block = Some((lang.trim().to_string(), Vec::new()));
        }
    }
    // The configuration holds for the files that replace the example too.
    if let Some(config) = examples
        .bad
        .iter()
        .find(|(n, _)| n == "urldb.toml")
        .cloned()
        && !examples.good.is_empty()
        && !examples.good.iter().any(|(n, _)| n == "urldb.toml")
    {
        examples.good.push(config);
    }
    examples
}

fn files(lang: &str, lines: &[&str]) -> Vec<(String, Vec<u8>)> {
    match lang {
        "yaml" => {
            let named = lines
                .first()
                .and_then(|l| l.strip_prefix("# "))
                .filter(|n| !n.contains(' ') && (n.ends_with(".yaml") || n.ends_with(".yml")));
            match named {
                Some(name) => vec![(name.to_string(), decode(&lines[1..]))],
                None => vec![("example.com.yaml".to_string(), decode(lines))],
            }
        }
        "toml" if lines.first() == Some(&"# urldb.toml") => {
            vec![("urldb.toml".to_string(), decode(lines))]
        }
        "text" => {
            let paths: Vec<&str> = lines
                .iter()
                .map(|l| l.trim())
                .filter(|l| !l.is_empty())
                .collect();
            let listing = !paths.is_empty()
                && paths
                    .iter()
                    .all(|p| !p.contains(' ') && (p.ends_with(".yaml") || p.ends_with(".yml")));
            if listing {
                paths
                    .iter()
                    .map(|p| (p.to_string(), b"---\n".to_vec()))
                    .collect()
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

fn decode(lines: &[&str]) -> Vec<u8> {
    let marked = lines.iter().any(|l| l.contains('␊'));
    let text = if marked {
        lines.concat()
    } else {
        let mut t = lines.join("\n");
        t.push('\n');
        t
    };
    let text = text
        .replace("␍␊", "\r\n")
        .replace('␊', "\n")
        .replace('·', " ");
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find('<') {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let tail = &rest[at..];
        let close = tail.find('>').unwrap_or(0);
        let inner = &tail[1..close.max(1)];
        if let Some(hex) = inner.strip_prefix("U+")
            && let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
        {
            out.extend_from_slice(c.to_string().as_bytes());
            rest = &tail[close + 1..];
        } else if inner.len() == 2
            && inner
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
            && let Ok(byte) = u8::from_str_radix(inner, 16)
        {
            out.push(byte);
            rest = &tail[close + 1..];
        } else {
            out.push(b'<');
            rest = &tail[1..];
        }
    }
    out.extend_from_slice(rest.as_bytes());
    out
}
