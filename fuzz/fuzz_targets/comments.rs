//! Comments through `fmt`: arbitrary bytes are checked; when fmt accepts
//! them, comments are put at legal places of the canonical text (chosen by
//! the input's last bytes) and `fmt` must keep each exactly once, keep
//! the data, be idempotent and leave nothing new for `check` to report
//! (the same invariants as the `comments_survive_fmt` property test).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Options, check_bytes};

#[path = "../../tests/it/support/comment_insert.rs"]
mod comment_insert;

fuzz_target!(|data: &[u8]| {
    // The last byte says how many choices (of 4 bytes) end the input.
    let Some((&n, rest)) = data.split_last() else {
        return;
    };
    let n = usize::from(n % 9).min(rest.len() / 4);
    let (text, tail) = rest.split_at(rest.len() - 4 * n);
    let checked = check_bytes(Path::new("example.com.yaml"), text, &Options::default());
    let Some(base) = checked.canonical else {
        return;
    };
    let choices: Vec<(bool, usize, u8, String)> = tail
        .chunks(4)
        .map(|c| {
            let tail = match c[3] % 4 {
                0 => String::new(),
                1 => " note".to_string(),
                2 => " # twice: #".to_string(),
                _ => format!(" {}", char::from(b'a' + c[3] % 26)),
            };
            (c[0] & 1 == 1, usize::from(c[1]), c[2], tail)
        })
        .collect();
    let (with, markers) = comment_insert::insert(&base, &choices);
    if let Err(e) = comment_insert::check(&base, &with, &markers) {
        panic!("{e}");
    }
});
