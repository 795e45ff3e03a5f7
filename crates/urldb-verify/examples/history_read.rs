//! How long reading a `verify --history` file takes, alone: what a run
//! does before its first request (`docs/dev/performance.md`, "The
//! history's size"). A benchmark helper, never a test.
//!
//!     cargo run --release -p urldb-verify --example history_read -- FILE [TIMES]

// A benchmark tool's own output, never database text: no gate needed (an
// error names the file, escaped by the history's own message).
#![allow(clippy::disallowed_macros)]

use std::time::Instant;

fn main() {
    let mut args = std::env::args_os().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: history_read FILE [TIMES]");
        std::process::exit(2);
    };
    let times: usize = args
        .next()
        .and_then(|t| t.to_str()?.parse().ok())
        .unwrap_or(3);
    for _ in 0..times {
        let start = Instant::now();
        match urldb_verify::history::History::read(path.as_ref(), jiff::Timestamp::now()) {
            Ok(history) => {
                let runs = history.run_ids().count();
                let elapsed = start.elapsed();
                // Not freed: `verify` does not free it either.
                std::mem::forget(history);
                println!("read in {:.3} s ({runs} runs)", elapsed.as_secs_f64());
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    }
}
