//! A directive line (`%YAML 1.1`, `%TAG !e! tag:example.com,2000:`) as
//! PyYAML's scanner reads it (`yaml/scanner.py`, `scan_directive` and what
//! it calls), so that a directive PyYAML refuses is refused however
//! yaml-rust2 reads it.

/// What a directive line says, when PyYAML reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Directive {
    Yaml {
        major: String,
    },
    Tag {
        handle: String,
    },
    /// Another name: PyYAML ignores the rest of the line.
    Other,
}

/// Read `line` (from its `%` to the end of its line, the break not
/// included) as PyYAML does; `Err` says why PyYAML refuses it.
pub(crate) fn read(line: &str) -> Result<Directive, &'static str> {
    let mut at = Cursor {
        bytes: line.as_bytes(),
        pos: 1,
    };
    let name_len = at.count(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if name_len == 0 || !at.ends_token(name_len) {
        return Err("expected alphabetic or numeric character in its name");
    }
    let name = &line[1..1 + name_len];
    at.pos += name_len;
    let directive = match name {
        "YAML" => {
            at.spaces();
            let major = at.number().ok_or("expected a digit")?;
            if at.peek() != Some(b'.') {
                return Err("expected a digit or '.'");
            }
            at.pos += 1;
            at.number().ok_or("expected a digit")?;
            if !at.ends_token(0) {
                return Err("expected a digit or ' '");
            }
            Directive::Yaml {
                major: major.to_string(),
            }
        }
        "TAG" => {
            at.spaces();
            let handle = at.handle().ok_or("expected '!' in its handle")?;
            if at.peek() != Some(b' ') {
                return Err("expected ' ' after its handle");
            }
            at.spaces();
            if !at.uri() {
                return Err("expected a URI");
            }
            if !at.ends_token(0) {
                return Err("expected ' ' after its prefix");
            }
            Directive::Tag {
                handle: handle.to_string(),
            }
        }
        _ => {
            at.pos = line.len();
            Directive::Other
        }
    };
    // `scan_directive_ignored_line`: spaces, a comment, the end.
    at.spaces();
    if at.peek() == Some(b'#') {
        at.pos = line.len();
    }
    if at.pos < line.len() {
        return Err("expected a comment or a line break");
    }
    Ok(directive)
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// How many bytes from here `take` takes.
    fn count(&self, take: impl Fn(u8) -> bool) -> usize {
        self.bytes[self.pos.min(self.bytes.len())..]
            .iter()
            .take_while(|&&b| take(b))
            .count()
    }

    /// What follows `len` bytes from here ends a token: a space or the end
    /// of the line.
    fn ends_token(&self, len: usize) -> bool {
        matches!(self.bytes.get(self.pos + len), None | Some(b' '))
    }

    fn spaces(&mut self) {
        self.pos += self.count(|b| b == b' ');
    }

    /// `scan_yaml_directive_number`: digits.
    fn number(&mut self) -> Option<&'a str> {
        let len = self.count(|b| b.is_ascii_digit());
        let digits = std::str::from_utf8(&self.bytes[self.pos..self.pos + len]).ok()?;
        self.pos += len;
        (len > 0).then_some(digits)
    }

    /// `scan_tag_handle`: `!`, or `!` word characters `!`.
    fn handle(&mut self) -> Option<&'a str> {
        let start = self.pos;
        if self.peek() != Some(b'!') {
            return None;
        }
        let mut len = 1;
        if self.bytes.get(start + 1) != Some(&b' ') {
            len += self.bytes[start + 1..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
                .count();
            if self.bytes.get(start + len) != Some(&b'!') {
                return None;
            }
            len += 1;
        }
        self.pos += len;
        std::str::from_utf8(&self.bytes[start..start + len]).ok()
    }

    /// `scan_tag_uri`: URI characters and `%` escapes of UTF-8; whether
    /// there was one at least.
    fn uri(&mut self) -> bool {
        let start = self.pos;
        let mut decoded = Vec::new();
        while let Some(b) = self.peek() {
            if b == b'%' {
                let hex = |k: usize| {
                    self.bytes
                        .get(self.pos + k)
                        .is_some_and(u8::is_ascii_hexdigit)
                };
                if !(hex(1) && hex(2)) {
                    return false;
                }
                let text = std::str::from_utf8(&self.bytes[self.pos + 1..self.pos + 3]);
                decoded.push(
                    text.ok()
                        .and_then(|t| u8::from_str_radix(t, 16).ok())
                        .unwrap_or(0),
                );
                self.pos += 3;
                continue;
            }
            if b.is_ascii_alphanumeric() || b"-;/?:@&=+$,_.!~*'()[]".contains(&b) {
                if !decoded.is_empty() && std::str::from_utf8(&decoded).is_err() {
                    return false;
                }
                decoded.clear();
                self.pos += 1;
            } else {
                break;
            }
        }
        if !decoded.is_empty() && std::str::from_utf8(&decoded).is_err() {
            return false;
        }
        self.pos > start
    }
}

#[cfg(test)]
mod tests {
    use super::{Directive, read};

    /// PyYAML 6.0.3's verdicts (`yaml.safe_load_all` of the line, then
    /// `---`), written down.
    #[test]
    fn directives_as_pyyaml_reads_them() {
        let yaml = |m: &str| Ok(Directive::Yaml { major: m.into() });
        let tag = |h: &str| Ok(Directive::Tag { handle: h.into() });
        let cases: &[(&str, Result<Directive, ()>)] = &[
            ("%YAML 1.1", yaml("1")),
            ("%YAML  1.1", yaml("1")),
            ("%YAML 2.0 # c", yaml("2")),
            ("%YAML 1.1#c", Err(())),
            ("%YAML 1.1 x", Err(())),
            ("%YAML 1", Err(())),
            ("%YAML 1.1.1", Err(())),
            ("%TAG !e! tag:example.com,2000:", tag("!e!")),
            ("%TAG !e! tag:example.com,2000: #c", tag("!e!")),
            ("%TAG ! !", tag("!")),
            ("%TAG !! tag:x", tag("!!")),
            ("%TAG !e!tag:x", Err(())),
            ("%TAG !@tag:example.com,2000:", Err(())),
            ("%TAG !e! tag:exa#mple.com,2000:", Err(())),
            ("%TAG !e! %41", tag("!e!")),
            ("%TAG !e! %FF", Err(())),
            ("%TAG !e!", Err(())),
            ("%FOO", Ok(Directive::Other)),
            ("%FOO bar baz", Ok(Directive::Other)),
            ("%FO!O x", Err(())),
            ("%", Err(())),
        ];
        for (line, want) in cases {
            assert_eq!(read(line).map_err(|_| ()), *want, "{line}");
        }
    }
}
