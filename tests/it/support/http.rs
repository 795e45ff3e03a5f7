//! What the tests' stand-in HTTP servers share: a listener on 127.0.0.1
//! (never any other address), a thread per connection, one request per
//! connection (each answer says `Connection: close`), every connection
//! counted, every request target logged, and every request's head (its
//! line and headers) kept for tests of what was sent. Each test module answers by
//! path in its own way.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A running server: its port, how many connections it took, and the
/// request targets it was sent, in the order read.
pub(crate) struct Listening {
    pub port: u16,
    pub connections: Arc<AtomicUsize>,
    pub requests: Arc<Mutex<Vec<String>>>,
    /// Each request's line and headers, as received.
    pub heads: Arc<Mutex<Vec<String>>>,
}

/// Start a server that calls `answer` with each connection and its
/// request target, once the request line and headers are read. A
/// connection closed before its headers end gets no answer.
pub(crate) fn listen(answer: impl Fn(TcpStream, &str) + Send + Sync + 'static) -> Listening {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let connections = Arc::new(AtomicUsize::new(0));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let heads = Arc::new(Mutex::new(Vec::new()));
    let (c, r, h) = (
        Arc::clone(&connections),
        Arc::clone(&requests),
        Arc::clone(&heads),
    );
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            c.fetch_add(1, Ordering::SeqCst);
            let (r, h, answer) = (Arc::clone(&r), Arc::clone(&h), Arc::clone(&answer));
            std::thread::spawn(move || {
                if let Some((target, head)) = read_request(&stream) {
                    h.lock().expect("lock").push(head);
                    r.lock().expect("lock").push(target.clone());
                    answer(stream, &target);
                }
            });
        }
    });
    Listening {
        port,
        connections,
        requests,
        heads,
    }
}

/// Read a request's line and headers; its target and its whole head.
fn read_request(stream: &TcpStream) -> Option<(String, String)> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut head = line.clone();
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => return None,
            Ok(_) if header == "\r\n" => break,
            Ok(_) => head.push_str(&header),
        }
    }
    let target = line.split_whitespace().nth(1)?.to_string();
    Some((target, head))
}
