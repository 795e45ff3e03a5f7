//! `textDocument/hover`: the documentation of the rules of the findings
//! under the cursor, else what the key there means.

use std::collections::BTreeSet;

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, Range, request};
use urldb_core::lint::Checked;

use super::{Failure, Handler};
use crate::position::Positions;
use crate::session::Server;

pub(crate) struct Hovering;

impl Handler for Hovering {
    type Request = request::HoverRequest;

    fn answer(
        server: &mut Server<'_>,
        params: HoverParams,
        _: &dyn Fn() -> bool,
    ) -> Result<Option<Hover>, Failure> {
        let at = params.text_document_position_params;
        let hover = server.with_checked(&at.text_document.uri, true, |checked, _, _, pos| {
            hover(checked, pos, pos.offset(at.position))
        });
        Ok(hover.flatten())
    }
}

/// The documentation under `offset`: the rules of the findings there,
/// else what the key there means.
fn hover(checked: &Checked, pos: &Positions, offset: usize) -> Option<Hover> {
    let mut seen = BTreeSet::new();
    let mut parts = Vec::new();
    let mut range: Option<Range> = None;
    for f in &checked.findings {
        let here = (f.span.start <= offset && offset < f.span.end) || f.span.start == offset;
        if here && seen.insert(f.rule.code) {
            parts.push(urldb_core::rules::docs::render(f.rule));
            range.get_or_insert_with(|| pos.range(&f.span));
        }
    }
    if parts.is_empty()
        && let Some(docs) = checked.documents.parsed()
    {
        for (index, doc) in docs.iter().enumerate() {
            let Some(entries) = doc.root.as_ref().and_then(|r| r.as_map()) else {
                continue;
            };
            for entry in entries {
                let span = &entry.key.span;
                if !(span.start <= offset && offset <= span.end) {
                    continue;
                }
                let Some(key) = entry.key_str() else { continue };
                if let Some(text) = crate::keys::describe(key, index == 0) {
                    parts.push(text);
                    range = Some(pos.range(span));
                }
            }
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n---\n\n"),
        }),
        range,
    })
}
