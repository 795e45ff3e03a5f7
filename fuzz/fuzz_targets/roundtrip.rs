//! parse → render → parse: what the renderer writes means what was read.
//!
//! For every input that parses completely and that urldb would rewrite
//! (nothing blocks it): render(parse(x)) parses again, to the same model
//! (normal form), and rendering that again gives the same text (a fixed
//! point). Rendering is also tried on files that *are* blocked (comments,
//! anchors), to prove the renderer itself never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use urldb_core::lint::{Options, check_bytes, render_options};
use urldb_core::model::normal::normal_form;
use urldb_core::render::render;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = Options::default();
    let path = Path::new("example.com.yaml");
    let checked = check_bytes(path, text.as_bytes(), &options);
    let Some(docs) = checked.documents.parsed() else {
        return;
    };
    let rendered = render(docs, &render_options(text, docs, &options));
    if checked.blocked_by.is_some() {
        return;
    }
    let again = check_bytes(path, rendered.as_bytes(), &options);
    let Some(docs2) = again.documents.parsed() else {
        panic!("rendered text does not parse:\n{rendered}");
    };
    assert_eq!(
        normal_form(docs2),
        normal_form(docs),
        "meaning changed:\n{text:?}\n->\n{rendered:?}"
    );
    let twice = render(docs2, &render_options(&rendered, docs2, &options));
    assert_eq!(twice, rendered, "render is not a fixed point");
    assert!(
        again.blocked_by.is_none(),
        "the canonical text is blocked by {:?}:\n{rendered}",
        again.blocked_by.map(|r| r.code)
    );
});
