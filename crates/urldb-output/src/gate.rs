//! The output gate: the one place every line urldb writes to stdout or
//! stderr passes through on its way to a terminal or a CI log.
//!
//! A CI runner reads its step's output line by line and obeys some lines as
//! commands (an annotation, a masked secret, "stop reading commands"). Data
//! from a stranger's pull request must never form one. The GitHub Actions
//! runner reads two forms (`docs/security.md` gives the sources):
//!
//! - `::name …::message`: a line whose text, after the white space that
//!   .NET's `String.TrimStart()` removes (Rust's [`char::is_whitespace`],
//!   the same Unicode `White_Space` set: U+00A0, U+1680, U+2000–U+200A,
//!   U+202F, U+205F, U+3000 and the ASCII ones), starts with `::`;
//! - `##[name …]message`, anywhere in a line.
//!
//! Azure Pipelines reads `##vso[` anywhere in a line as well. Lines end at
//! LF and at a CR alone (.NET's `StreamReader.ReadLine`).
//!
//! [`Gate`] wraps a stream and rewrites each such line so that it reads as
//! nothing, in the stream's own [`Syntax`]: the value stays exact where the
//! format can say it another way (`\u005b` in JSON, `&#91;` in XML, `%5B`
//! in a URL) and visible where it cannot (`\x5b` in human text). The only
//! commands that pass are the ones urldb means, written with
//! [`Gate::command`] (`--format github`).

use std::borrow::Cow;
use std::io::{self, Write};

/// How a stream can write `[` and `:` other than literally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Human text: the visible escapes of [`urldb_core::text::escape`].
    Text,
    /// JSON (and JSON Lines, SARIF): the bytes only occur inside strings.
    Json,
    /// XML and HTML character references.
    Xml,
    /// A list of URLs: percent-encoding.
    Url,
}

impl Syntax {
    fn escape(self, c: u8) -> &'static str {
        match (self, c) {
            (Syntax::Text, b'[') => "\\x5b",
            (Syntax::Text, _) => "\\x3a",
            (Syntax::Json, b'[') => "\\u005b",
            (Syntax::Json, _) => "\\u003a",
            (Syntax::Xml, b'[') => "&#91;",
            (Syntax::Xml, _) => "&#58;",
            (Syntax::Url, b'[') => "%5B",
            (Syntax::Url, _) => "%3A",
        }
    }
}

/// The openings a runner reads anywhere in a line.
const ANYWHERE: [&str; 2] = ["##[", "##vso["];

/// Whether a runner would read `line` (one line, no LF) as a command. The
/// test suite parses every line of urldb's output with its own copy of the
/// runner's rules; this is the gate's.
pub fn reads_as_command(line: &str) -> bool {
    line.split('\r').any(|segment| {
        segment.trim_start().starts_with("::") || ANYWHERE.iter().any(|o| segment.contains(o))
    })
}

/// `line` (one line, no LF) rewritten so that no runner reads a command in
/// it: the `[` of every `##[` and `##vso[`, and the first `:` of a `::`
/// that starts the line after white space, written in `syntax`'s escape.
pub fn neutralize(line: &str, syntax: Syntax) -> Cow<'_, str> {
    if !reads_as_command(line) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    for (i, segment) in line.split('\r').enumerate() {
        if i > 0 {
            out.push('\r');
        }
        let body = segment.trim_start();
        let lead = &segment[..segment.len() - body.len()];
        out.push_str(lead);
        let body = match body.strip_prefix(':') {
            Some(rest) if rest.starts_with(':') => {
                out.push_str(syntax.escape(b':'));
                rest
            }
            _ => body,
        };
        let mut rest = body;
        while let Some(at) = first_opening(rest) {
            // `at` is the `[` of an opening.
            out.push_str(&rest[..at]);
            out.push_str(syntax.escape(b'['));
            rest = &rest[at + 1..];
        }
        out.push_str(rest);
    }
    Cow::Owned(out)
}

/// How many bytes the gate writes for `text` in `syntax`: each line as
/// [`neutralize`] rewrites it (`##[` is `##\x5b` in human text, three
/// bytes more). A writer that keeps to a budget on what reaches the
/// reader (`--summary-limit`) measures with this, not with `text.len()`.
pub fn written_len(text: &str, syntax: Syntax) -> usize {
    text.split('\n')
        .map(|line| neutralize(line, syntax).len())
        .sum::<usize>()
        + text.matches('\n').count()
}

/// The byte offset of the `[` of the first opening in `s`.
fn first_opening(s: &str) -> Option<usize> {
    ANYWHERE
        .iter()
        .filter_map(|o| s.find(o).map(|at| at + o.len() - 1))
        .min()
}

/// A stream whose every line passes [`neutralize`] on its way out. Text is
/// held until its line ends (a command can only be seen whole); what is
/// left when the gate is dropped or [finished](Gate::finish) is written
/// as a last line.
pub struct Gate<W: Write> {
    inner: W,
    syntax: Syntax,
    /// The start of a line not yet ended.
    pending: Vec<u8>,
}

impl<W: Write> Gate<W> {
    pub fn new(inner: W, syntax: Syntax) -> Self {
        Gate {
            inner,
            syntax,
            pending: Vec::new(),
        }
    }

    /// Write one workflow command urldb means (`::error file=…::…`) as a
    /// line of its own. Its parts must already be in the runner's escaping
    /// ([`crate::github_data`], [`crate::github_property`]).
    pub fn command(&mut self, line: &str) -> io::Result<()> {
        self.end_pending()?;
        self.inner.write_all(line.as_bytes())?;
        self.inner.write_all(b"\n")
    }

    /// Write `bytes` as they are, after ending a pending line: a file's own
    /// text (`fmt --stdin-filename`), or CSV to a regular file. The caller
    /// says why no runner reads it.
    pub fn exact(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.end_pending()?;
        self.inner.write_all(bytes)
    }

    /// Write what is pending (the last line needs no LF) and flush: the
    /// end of output, with its error, where dropping would lose it.
    pub fn finish(&mut self) -> io::Result<()> {
        self.write_pending()?;
        self.inner.flush()
    }

    /// End a pending partial line before a command starts a new one.
    fn end_pending(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.write_pending()?;
        self.inner.write_all(b"\n")
    }

    fn write_pending(&mut self) -> io::Result<()> {
        // Taken and given back: the buffer keeps its capacity for the
        // next line.
        let mut pending = std::mem::take(&mut self.pending);
        let written = self.write_line(&pending);
        pending.clear();
        self.pending = pending;
        written
    }

    fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        // urldb writes UTF-8 (borrowed as it is); bytes that are not are
        // printed as the replacement character rather than passed unchecked.
        let text = String::from_utf8_lossy(line);
        self.inner
            .write_all(neutralize(&text, self.syntax).as_bytes())
    }
}

/// Standard output through the gate, buffered: what every command prints
/// its results with. Once the reader has closed it, what is left is
/// discarded ([`UntilClosed`]): the command runs to its end and exits with
/// the status its findings give.
#[allow(clippy::disallowed_methods)] // the one place stdout is opened
pub fn stdout(syntax: Syntax) -> Gate<io::BufWriter<UntilClosed<io::StdoutLock<'static>>>> {
    Gate::new(
        io::BufWriter::with_capacity(1 << 16, UntilClosed::new(io::stdout().lock())),
        syntax,
    )
}

/// A stream that takes writes until its reader closes it, then discards
/// them. A closed pipe (`urldb check | head -1`) says the reader has seen
/// enough, not how the run went: were it an error, or the end of the run,
/// a linter's verdict would depend on its reader, and under `set -o
/// pipefail` a log trimmed with `head` would turn a failed job green or
/// red (`docs/output.md`, "A closed output"). Any other failure (a full
/// disk) is still an error.
pub struct UntilClosed<W: Write> {
    inner: W,
    closed: bool,
}

impl<W: Write> UntilClosed<W> {
    pub fn new(inner: W) -> Self {
        UntilClosed {
            inner,
            closed: false,
        }
    }

    /// Whether the reader has closed the stream.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    fn or_closed<T>(&mut self, result: io::Result<T>, taken: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(taken)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for UntilClosed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let written = self.inner.write(buf);
        self.or_closed(written, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let flushed = self.inner.flush();
        self.or_closed(flushed, ())
    }
}

/// Standard error through the gate, for human text.
#[allow(clippy::disallowed_methods)] // the one place stderr is opened
pub fn stderr() -> Gate<io::StderrLock<'static>> {
    Gate::new(io::stderr().lock(), Syntax::Text)
}

/// Write one line to standard error through the gate ([`say!`](crate::say)).
pub fn eprint_line(args: std::fmt::Arguments<'_>) {
    let mut err = stderr();
    // As `eprintln!` would panic on a closed stderr, and urldb must not:
    // a message that cannot be written is lost, the exit code is not.
    let _ = writeln!(err, "{args}");
    let _ = err.finish();
}

/// Whether standard output is a regular file (`> out.csv`): no runner
/// reads it, so formats with no other way to write a byte (CSV, the
/// URI-Catalogue) keep it exact there.
pub fn stdout_is_a_file() -> bool {
    #[cfg(windows)]
    {
        stdout_handle_is_a_file()
    }
    #[cfg(not(windows))]
    {
        std::fs::metadata("/dev/stdout").is_ok_and(|m| m.is_file())
    }
}

/// Windows has no `/dev/stdout`: the handle itself is asked (a console or
/// a pipe is not a regular file).
#[cfg(windows)]
#[allow(clippy::disallowed_methods)] // asks, writes nothing
fn stdout_handle_is_a_file() -> bool {
    use std::os::windows::io::AsHandle;
    io::stdout()
        .as_handle()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|file| file.metadata())
        .is_ok_and(|m| m.is_file())
}

/// Whether standard output is a terminal (colours, the `full` report).
#[allow(clippy::disallowed_methods)] // asks, writes nothing
pub fn stdout_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&io::stdout())
}

/// Whether standard error is a terminal (progress bars).
#[allow(clippy::disallowed_methods)] // asks, writes nothing
pub fn stderr_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&io::stderr())
}

/// `eprintln!` through the output gate: one line of human text on stderr.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::gate::eprint_line(format_args!($($arg)*))
    };
}

impl<W: Write> Write for Gate<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(at) = memchr::memchr(b'\n', rest) {
            let (line, tail) = rest.split_at(at);
            if self.pending.is_empty() {
                self.write_line(line)?;
            } else {
                self.pending.extend_from_slice(line);
                self.write_pending()?;
            }
            self.inner.write_all(b"\n")?;
            rest = &tail[1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(buf.len())
    }

    /// Flushes what whole lines were written; a partial line waits for its
    /// end, since its command could still be completed.
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Gate<W> {
    fn drop(&mut self) {
        // As `BufWriter` does: errors on drop are ignored; `finish` reports them.
        let _ = self.write_pending();
        let _ = self.inner.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gated(syntax: Syntax, text: &str) -> String {
        let mut out = Vec::new();
        {
            let mut gate = Gate::new(&mut out, syntax);
            // In pieces, as formatters write: a command split over writes.
            for piece in text.as_bytes().chunks(3) {
                gate.write_all(piece).unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn both_forms_and_every_white_space_are_read_as_commands() {
        assert!(reads_as_command("::error::x"));
        assert!(reads_as_command(" \t::error::x"));
        for space in [
            '\u{a0}', '\u{1680}', '\u{2000}', '\u{200a}', '\u{202f}', '\u{205f}', '\u{3000}',
        ] {
            assert!(reads_as_command(&format!("{space}::error::x")), "{space:?}");
        }
        assert!(reads_as_command("x.yaml: ##[error]x"));
        assert!(reads_as_command("ok\r::warning::x"));
        assert!(reads_as_command("a ##vso[task.logissue]x"));
        assert!(!reads_as_command("a::b ## [x] #[y]"));
    }

    #[test]
    fn written_len_is_what_the_gate_writes() {
        for text in [
            "",
            "a\n",
            "##[x\n##vso[y ##[z\n::e::f",
            "\u{a0}::a\r::b\nend",
        ] {
            for syntax in [Syntax::Text, Syntax::Json, Syntax::Xml, Syntax::Url] {
                assert_eq!(
                    written_len(text, syntax),
                    gated(syntax, text).len(),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn lines_are_rewritten_in_the_streams_syntax() {
        let text = "\u{a0}::error::x ##[warning]y\nok ::\n";
        assert_eq!(
            gated(Syntax::Text, text),
            "\u{a0}\\x3a:error::x ##\\x5bwarning]y\nok ::\n"
        );
        assert_eq!(gated(Syntax::Json, "\"##[a\"\n"), "\"##\\u005ba\"\n");
        assert_eq!(gated(Syntax::Xml, "<a>##[x</a>"), "<a>##&#91;x</a>");
        assert_eq!(
            gated(Syntax::Url, "https://h/##vso[x"),
            "https://h/##vso%5Bx"
        );
        for line in gated(Syntax::Text, text).lines() {
            assert!(!reads_as_command(line), "{line}");
        }
    }

    /// A stream whose reader leaves after `room` bytes.
    struct ClosesAfter {
        room: usize,
        got: Vec<u8>,
    }

    impl Write for ClosesAfter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writes_after_the_reader_left_are_discarded_and_other_errors_are_not() {
        let mut out = UntilClosed::new(ClosesAfter {
            room: 4,
            got: Vec::new(),
        });
        out.write_all(b"one\ntwo\n").unwrap();
        assert!(out.is_closed());
        out.write_all(b"three\n").unwrap();
        out.flush().unwrap();
        assert_eq!(out.inner.got, b"one\n");
        let mut room = [0u8; 2];
        let mut full = UntilClosed::new(io::Cursor::new(room.as_mut_slice()));
        assert_eq!(
            full.write_all(b"abc").unwrap_err().kind(),
            io::ErrorKind::WriteZero
        );
        assert!(!full.is_closed());
    }

    #[test]
    fn commands_urldb_means_pass_whole() {
        let mut out = Vec::new();
        let mut gate = Gate::new(&mut out, Syntax::Text);
        gate.write_all(b"partial").unwrap();
        gate.command("::error file=a.yaml::m").unwrap();
        gate.write_all(b"::forged::x").unwrap();
        gate.finish().unwrap();
        drop(gate);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "partial\n::error file=a.yaml::m\n\\x3a:forged::x"
        );
    }
}
