//! Properties of the formatter: `fmt` is idempotent, and what it writes
//! means what it read — parse(render(model)) = model, and for any text fmt
//! accepts, parse(fmt(x)) = parse(x).

use proptest::prelude::*;
use urldb_core::lint::{Options, check_bytes};
use urldb_core::model::node::{Document, Entry, Node, Scalar, ScalarStyle, Value};
use urldb_core::model::normal::normal_form;
use urldb_core::render::{RenderOptions, render};

fn hard_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z/._~-]{0,12}",
        "[ -~]{0,16}",
        prop::sample::select(vec![
            "yes",
            "~",
            "null",
            "0x1F",
            "1_000",
            "12:30",
            "2001-12-14",
            ".inf",
            "<<",
            "=",
            "1.0",
            "0123",
            "- a",
            "a: b",
            "a #b",
            " lead",
            "trail ",
            "'",
            "\"",
            "\\",
            "\t",
            "é",
            "😀",
            "\u{85}",
            "\u{2028}",
            "a\nb",
            "a \nb",
            "\n",
            "---",
            "",
            "\u{feff}",
            "\r",
        ])
        .prop_map(str::to_string),
        "\\PC{0,8}",
    ]
}

fn scalar() -> impl Strategy<Value = Node> {
    prop_oneof![
        hard_string().prop_map(|s| Node::new(Value::Scalar(Scalar::string(s)), 0..0)),
        (0u32..100_000).prop_map(|n| Node::new(Value::Scalar(Scalar::plain(n.to_string())), 0..0)),
        prop::sample::select(vec![
            "true",
            "false",
            "null",
            "yes",
            "0x1F",
            "1.5",
            "2001-12-14"
        ])
        .prop_map(|s| Node::new(Value::Scalar(Scalar::plain(s)), 0..0)),
    ]
}

fn value() -> impl Strategy<Value = Node> {
    scalar().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|items| Node::new(Value::Seq(items), 0..0)),
            prop::collection::btree_map(hard_string(), inner, 0..4).prop_map(|m| {
                Node::new(
                    Value::Map(
                        m.into_iter()
                            .map(|(k, v)| Entry {
                                key: Node::new(Value::Scalar(Scalar::string(k)), 0..0),
                                value: v,
                            })
                            .collect(),
                    ),
                    0..0,
                )
            }),
        ]
    })
}

fn string_node(s: String) -> Node {
    Node::new(Value::Scalar(Scalar::string(s)), 0..0)
}

fn record() -> impl Strategy<Value = Node> {
    (
        hard_string(),
        hard_string(),
        prop::collection::vec(hard_string(), 0..3),
        prop::collection::btree_map("[a-z_]{1,8}", value(), 0..3),
    )
        .prop_map(|(path, ctype, cats, extras)| {
            let mut entries = vec![
                ("_path".to_string(), string_node(format!("/{path}"))),
                ("content-type".to_string(), string_node(ctype)),
            ];
            if !cats.is_empty() {
                entries.push((
                    "categories".to_string(),
                    Node::new(
                        Value::Seq(cats.into_iter().map(string_node).collect()),
                        0..0,
                    ),
                ));
            }
            for (k, v) in extras {
                if !matches!(k.as_str(), "categories") {
                    entries.push((format!("x_{k}"), v));
                }
            }
            Node::new(
                Value::Map(
                    entries
                        .into_iter()
                        .map(|(k, v)| Entry {
                            key: string_node(k),
                            value: v,
                        })
                        .collect(),
                ),
                0..0,
            )
        })
}

pub(crate) fn file() -> impl Strategy<Value = Vec<Document>> {
    (any::<bool>(), prop::collection::vec(record(), 0..6)).prop_map(|(https, records)| {
        let meta = if https {
            Some(Node::new(
                Value::Map(vec![Entry {
                    key: string_node("https".into()),
                    value: Node::new(Value::Scalar(Scalar::plain("true")), 0..0),
                }]),
                0..0,
            ))
        } else {
            None
        };
        std::iter::once(meta)
            .chain(records.into_iter().map(Some))
            .map(|root| Document {
                root,
                span: 0..0,
                explicit_start: true,
                ..Document::default()
            })
            .collect()
    })
}

fn parse(text: &str) -> Option<Vec<Document>> {
    check_bytes(
        std::path::Path::new("example.com.yaml"),
        text.as_bytes(),
        &Options::default(),
    )
    .documents
    .into_parsed()
}

proptest! {
    #![proptest_config(crate::support::property_config(512))]

    #[test]
    fn render_then_parse_gives_the_model_back(docs in file()) {
        let text = render(&docs, &RenderOptions::default());
        let parsed = parse(&text).expect("the canonical text parses");
        prop_assert_eq!(normal_form(&parsed), normal_form(&docs));
        // ...and rendering what was read changes nothing (idempotence).
        prop_assert_eq!(render(&parsed, &RenderOptions::default()), text);
    }

    #[test]
    fn fmt_of_any_accepted_text_is_idempotent_and_keeps_meaning(docs in file(), flow in any::<bool>(), quote in any::<bool>()) {
        // Build a non-canonical but equivalent text by re-styling, then fmt it.
        let canonical = render(&docs, &RenderOptions::default());
        let mut messy = canonical.replace("\n- ", "\n  - ");
        if flow { messy = messy.replace(": []", ": [ ]"); }
        if quote { messy = messy.replace("content-type: text", "content-type:    text"); }
        let options = Options::default();
        let checked = check_bytes(std::path::Path::new("example.com.yaml"), messy.as_bytes(), &options);
        if let (Some(first), Some(docs_x)) = (checked.canonical.clone(), checked.documents.clone().into_parsed()) {
            let again = check_bytes(std::path::Path::new("example.com.yaml"), first.as_bytes(), &options);
            prop_assert_eq!(again.canonical.as_deref(), Some(first.as_str()));
            let docs_y = again.documents.into_parsed().expect("parses");
            prop_assert_eq!(normal_form(&docs_y), normal_form(&docs_x));
        }
    }
}

#[test]
fn scalar_styles_survive_a_round_trip() {
    // Every style the parser meets renders to text that reads back the same.
    for (text, want) in [
        ("'it''s'", "it's"),
        ("\"a\\tb\"", "a\tb"),
        ("|\n  lit\n  two\n", "lit\ntwo\n"),
        (">\n  fold\n  ed\n", "fold ed\n"),
        ("plain", "plain"),
    ] {
        let src = format!("---\n---\n_path: /a\ncontent-type: text/html\nn: {text}\n");
        let docs = parse(&src).expect("parses");
        let n = docs[1]
            .root
            .as_ref()
            .and_then(|r| r.as_map())
            .and_then(|m| urldb_core::model::node::get(m, "n"))
            .expect("n");
        let s = n.value.as_scalar().expect("scalar");
        assert_eq!(s.value, want);
        let out = render(&docs, &RenderOptions::default());
        let back = parse(&out).expect("parses");
        assert_eq!(normal_form(&back), normal_form(&docs), "{out}");
        let _ = ScalarStyle::Plain;
    }
}
