//! The stdio transport: LSP's base protocol (`Content-Length` headers, a
//! JSON-RPC body) between stdin/stdout and an in-memory
//! [`Connection`](lsp_server::Connection).
//!
//! lsp-server's own stdio transport ends the session at the first body
//! that is not a JSON-RPC message, and may then lose the answers still on
//! their way out. Here a body that does not parse is logged and skipped
//! (its length was known, so the next message is read where it starts);
//! only a broken header, after which the stream cannot be followed, ends
//! the session. Every answer is written before the server exits.

use std::io::{BufRead, Write};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};

use crate::cancel::Cancels;

/// A body larger than this is refused (and ends the session): it is no
/// editor's message, and reading it would first allocate it.
const MAX_BODY: usize = 1 << 30;

/// The server's end of a connection over stdin/stdout, and the thread
/// writing stdout (join it, after dropping the connection, to flush every
/// answer). Each `$/cancelRequest` read is noted in `cancels` before it is
/// passed on, so that the request it cancels sees it while it runs.
pub(crate) fn stdio(cancels: Cancels) -> (Connection, JoinHandle<()>) {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    // The reader is not joined: at the end it may be blocked on stdin,
    // which the process's exit ends.
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            let body = match read_body(&mut input) {
                Ok(Some(body)) => body,
                Ok(None) => break,
                Err(message) => {
                    urldb_output::say!("urldb server: {message}; the session ends");
                    break;
                }
            };
            let message: Message = match serde_json::from_slice(&body) {
                Ok(m) => m,
                Err(e) => {
                    urldb_output::say!(
                        "urldb server: a message that is not JSON-RPC was skipped: {e}"
                    );
                    continue;
                }
            };
            cancels.note(&message);
            let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
            if sender.send(message).is_err() || exit {
                break;
            }
        }
    });
    // Not through the output gate: stdout is the JSON-RPC stream to the
    // editor, framed by byte counts, and no CI runner reads it.
    #[allow(clippy::disallowed_methods)]
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        let mut output = stdout.lock();
        for message in receiver {
            if message.write(&mut output).is_err() {
                break;
            }
        }
        let _ = output.flush();
    });
    (server, writer)
}

/// Why the input cannot be read as LSP messages (the session ends).
#[derive(Debug, thiserror::Error)]
enum FramingError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("a header line without CRLF")]
    NoCrlf,
    #[error("a malformed header {0:?}")]
    Header(String),
    #[error("a malformed Content-Length {0:?}")]
    Length(String),
    #[error("a message without Content-Length")]
    NoLength,
    #[error("a message of {0} bytes")]
    TooLarge(usize),
}

/// One message's body; `None` at the end of the input.
fn read_body(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, FramingError> {
    let mut length = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = input.read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        let header = line.strip_suffix(b"\r\n").ok_or(FramingError::NoCrlf)?;
        if header.is_empty() {
            break;
        }
        let header = String::from_utf8_lossy(header);
        let (name, value) = header
            .split_once(':')
            .ok_or_else(|| FramingError::Header(header.to_string()))?;
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let n: usize = value
                .trim()
                .parse()
                .map_err(|_| FramingError::Length(value.to_string()))?;
            length = Some(n);
        }
    }
    let length = length.ok_or(FramingError::NoLength)?;
    if length > MAX_BODY {
        return Err(FramingError::TooLarge(length));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(body))
}

#[cfg(test)]
mod tests {
    use super::read_body;

    #[test]
    fn bodies_are_read_by_their_length() {
        let mut input: &[u8] =
            b"Content-Length: 3\r\nContent-Type: x\r\n\r\n{x}content-length:2\r\n\r\n[]";
        assert_eq!(read_body(&mut input).ok(), Some(Some(b"{x}".to_vec())));
        assert_eq!(read_body(&mut input).ok(), Some(Some(b"[]".to_vec())));
        assert_eq!(read_body(&mut input).ok(), Some(None));
        let mut broken: &[u8] = b"Content-Length 3\r\n\r\n{x}";
        assert!(read_body(&mut broken).is_err());
        let mut huge: &[u8] = b"Content-Length: 99999999999\r\n\r\n";
        assert!(read_body(&mut huge).is_err());
    }
}
