"""Drive `urldb server` with a real LSP client (pygls's LanguageClient).

Usage: client.py URLDB WORKDIR

WORKDIR holds the database the Rust test made (urldb.toml, domain files).
Every expectation that urldb's command line can answer is taken from it
(`check --stdin-filename --format json`, `check --fix --stdin-filename`,
`fmt --stdin-filename`, `rule CODE`) run on the same text: the server must
say what the command line says. Prints `ok` at the end; any failed
expectation raises.
"""

import asyncio
import json
import os
import pathlib
import re
import sys

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
import lsp_session
from lsp_session import WAIT, expect

URLDB = sys.argv[1]
WORK = pathlib.Path(sys.argv[2])


def cli(*args, stdin=None):
    return lsp_session.cli(URLDB, WORK, *args, stdin=stdin)


# The Windows run (tools/windows-tests) gives the files to urldb.exe under
# Wine, which sees the host's `/` as a drive (`Z:`): the URIs name it, as
# an editor on Windows would (`file:///Z:/tmp/...`).
DRIVE = os.environ.get("URLDB_TEST_DRIVE", "")


def file_uri(path):
    if DRIVE:
        return pathlib.PureWindowsPath(DRIVE + str(path)).as_uri()
    return path.as_uri()


def uri_of(name):
    return file_uri(WORK / name)


def make_client():
    client = lsp_session.Client("urldb-test-client")

    @client.feature(T.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: T.RegistrationParams):
        client.registrations = params.registrations
        return None

    return client


async def wait_for(client, predicate):
    async def waiting():
        async with client.changed:
            await client.changed.wait_for(predicate)

    await asyncio.wait_for(waiting(), WAIT)


async def diagnostics_after(client, uri, count):
    """The diagnostics of the publish number `count + 1` for `uri`."""
    await wait_for(client, lambda: len(client.published.get(uri, [])) > count)
    return list(client.published[uri][count].diagnostics)


def published(client, uri):
    return len(client.published.get(uri, []))


def units(line, column_chars, encoding):
    """A 1-based character column of `line` as an LSP column."""
    head = line[: column_chars - 1]
    if encoding == "utf-8":
        return len(head.encode("utf-8"))
    return len(head.encode("utf-16-le")) // 2


def expected_diagnostics(name, text, encoding):
    """(code, severity, range) of every finding `urldb check` reports."""
    report = json.loads(
        cli("check", "--format", "json", "--exit-zero", "--stdin-filename", name, stdin=text)
    )
    # The lines as urldb and LSP count them: `str.splitlines` would also
    # break at NEL, LS, PS and other characters.
    lines = re.split(r"\r\n|\r|\n", text)
    out = []
    for f in report:
        start_line = lines[f["line"] - 1]
        end_line = lines[f["end_line"] - 1]
        out.append(
            (
                f["code"],
                f["severity"],
                (
                    f["line"] - 1,
                    units(start_line, f["column"], encoding),
                    f["end_line"] - 1,
                    units(end_line, f["end_column"], encoding),
                ),
            )
        )
    return sorted(out)


def got_diagnostics(diagnostics):
    severity = {T.DiagnosticSeverity.Error: "error", T.DiagnosticSeverity.Warning: "warning"}
    return sorted(
        (
            d.code,
            severity[d.severity],
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
        )
        for d in diagnostics
    )


def apply_whole(text, edits):
    """Apply one whole-document TextEdit (what the server sends)."""
    expect(len(edits) == 1, f"one whole-document edit, got {edits}")
    edit = edits[0]
    expect(edit.range.start.line == 0 and edit.range.start.character == 0, "starts at 0:0")
    return edit.new_text


async def start(client, encodings):
    await client.start_io(URLDB, "server", cwd=str(WORK))
    result = await client.initialize_async(
        T.InitializeParams(
            process_id=None,
            root_uri=file_uri(WORK),
            capabilities=T.ClientCapabilities(
                general=T.GeneralClientCapabilities(position_encodings=encodings),
                workspace=T.WorkspaceClientCapabilities(
                    did_change_watched_files=T.DidChangeWatchedFilesClientCapabilities(
                        dynamic_registration=True
                    )
                ),
            ),
        )
    )
    client.initialized(T.InitializedParams())
    return result


def open_doc(client, name, text, version=1):
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(
                uri=uri_of(name), language_id="yaml", version=version, text=text
            )
        )
    )


def change_doc(client, name, version, text, range_=None):
    change = (
        T.TextDocumentContentChangePartial(range=range_, text=text)
        if range_ is not None
        else T.TextDocumentContentChangeWholeDocument(text=text)
    )
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri_of(name), version=version),
            content_changes=[change],
        )
    )


def doc_id(name):
    return T.TextDocumentIdentifier(uri=uri_of(name))


def pos(line, character):
    return T.Position(line=line, character=character)


# The buffer differs from the file on disk (which is clean): the server
# must check the buffer. `😀` is 2 UTF-16 code units and 4 UTF-8 bytes, so
# the columns after it differ by encoding.
MAIN = "example.com.yaml"
MAIN_TEXT = (
    "---\n---\n_path: /\U0001F600/a%7e\ncontent-type: text/HTML\ncategories: [news, docs]\n"
    "---\n_path: /b\ncontent-type: text/html\n"
)


async def session_utf16():
    client = make_client()
    result = await start(client, ["utf-16"])
    expect(result.capabilities.position_encoding == "utf-16", result.capabilities)
    expect(result.server_info.name == "urldb", result.server_info)
    sync = result.capabilities.text_document_sync
    expect(sync.change == T.TextDocumentSyncKind.Incremental and sync.save, sync)
    main = uri_of(MAIN)

    # Diagnostics on open: codes, severities (unsorted-keys is a warning by
    # urldb.toml) and UTF-16 ranges, as `urldb check` reports them.
    open_doc(client, MAIN, MAIN_TEXT)
    diagnostics = await diagnostics_after(client, main, 0)
    expect(client.published[main][0].version == 1, "diagnostics carry the version")
    got = got_diagnostics(diagnostics)
    want = expected_diagnostics(MAIN, MAIN_TEXT, "utf-16")
    expect(got == want, f"diagnostics\n got {got}\nwant {want}")
    codes = {d.code for d in diagnostics}
    expect("path-unneeded-escape" in codes and "content-type-case" in codes, codes)
    escape = next(d for d in diagnostics if d.code == "path-unneeded-escape")
    expect(
        (escape.range.start.line, escape.range.start.character, escape.range.end.character)
        == (2, 12, 15),
        f"UTF-16 range of %7e: {escape.range}",
    )
    expect(escape.source == "urldb", escape)
    unsorted = next(d for d in diagnostics if d.code == "unsorted-keys")
    expect(unsorted.severity == T.DiagnosticSeverity.Warning, "configured severity")
    expect(escape.severity == T.DiagnosticSeverity.Error, "default severity")

    # A record hidden behind LINE SEPARATORs, which PyYAML reads as line
    # breaks: the editor reads the file as `check` does and shows the
    # same gate finding (docs/format.md, "How urldb reads a file").
    hidden_name = "hidden.org.yaml"
    hidden = (
        "---\n---\n_path: /a\ncontent-type: text/html # reviewed\u2028---\u2028"
        "_path: '@attacker.invalid/x'\u2028content-type: text/html\n"
    )
    open_doc(client, hidden_name, hidden)
    found = await diagnostics_after(client, uri_of(hidden_name), 0)
    got = got_diagnostics(found)
    want = expected_diagnostics(hidden_name, hidden, "utf-16")
    expect(got == want, f"diagnostics\n got {got}\nwant {want}")
    expect(any(d.code == "yaml-syntax" and "U+2028" in d.message for d in found), found)

    # Hover on a diagnostic: the rule's documentation, as `urldb rule`.
    hover = await client.text_document_hover_async(
        T.HoverParams(text_document=doc_id(MAIN), position=pos(2, 13))
    )
    rule_doc = cli("rule", "path-unneeded-escape")
    expect(hover is not None and rule_doc.strip() in hover.contents.value, hover)
    # Hover on a known key: what it means.
    hover = await client.text_document_hover_async(
        T.HoverParams(text_document=doc_id(MAIN), position=pos(6, 2))
    )
    expect(hover is not None and "`_path`" in hover.contents.value, hover)

    # Document symbols: one per record, named by `_path`.
    symbols = await client.text_document_document_symbol_async(
        T.DocumentSymbolParams(text_document=doc_id(MAIN))
    )
    expect([s.name for s in symbols] == ["/\U0001F600/a%7e", "/b"], symbols)

    # A quick fix for one finding: the fix `check --fix` applies to it.
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            text_document=doc_id(MAIN),
            range=escape.range,
            context=T.CodeActionContext(diagnostics=[escape]),
        )
    )
    quick = [a for a in actions if a.kind == T.CodeActionKind.QuickFix]
    fix = next(a for a in quick if "(path-unneeded-escape)" in a.title)
    expect(fix.diagnostics[0].code == "path-unneeded-escape", fix)
    text = apply_whole(MAIN_TEXT, fix.edit.changes[main])
    expect("/a~\n" in text and "%7e" not in text, text)
    # A finding with no automatic fix gets one action: ignore it here,
    # with a suppression comment ending its line (docs/suppressions.md).
    name = "nofix.org.yaml"
    nofix_text = "---\ncname:\n- www.nofix.org\n---\n_path: /\ncontent-type: text/html\n"
    open_doc(client, name, nofix_text)
    nofix = await diagnostics_after(client, uri_of(name), 0)
    expect([d.code for d in nofix] == ["unknown-metadata-key"], nofix)
    only = await client.text_document_code_action_async(
        T.CodeActionParams(
            text_document=doc_id(name),
            range=nofix[0].range,
            context=T.CodeActionContext(diagnostics=nofix),
        )
    )
    expect([a.title for a in only] == ["Ignore `unknown-metadata-key` here"], only)
    ignored = apply_whole(nofix_text, only[0].edit.changes[uri_of(name)])
    expect(
        ignored == nofix_text.replace("cname:\n", "cname: # urldb: ignore[unknown-metadata-key]\n"),
        ignored,
    )
    count = published(client, uri_of(name))
    change_doc(client, name, 2, ignored)
    after = await diagnostics_after(client, uri_of(name), count)
    expect(after == [], f"excused after the action: {after}")

    count = published(client, main)
    change_doc(client, MAIN, 2, text)
    diagnostics = await diagnostics_after(client, main, count)
    expect("path-unneeded-escape" not in {d.code for d in diagnostics}, diagnostics)
    expect(got_diagnostics(diagnostics) == expected_diagnostics(MAIN, text, "utf-16"), "after")

    # Fix all: what `check --fix` writes; afterwards, no diagnostics.
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            text_document=doc_id(MAIN),
            range=T.Range(start=pos(0, 0), end=pos(0, 0)),
            context=T.CodeActionContext(
                diagnostics=[], only=["source.fixAll.urldb"]
            ),
        )
    )
    expect(len(actions) == 1, actions)
    fixed = apply_whole(text, actions[0].edit.changes[main])
    expect(fixed == cli("check", "--fix", "-q", "--stdin-filename", MAIN, stdin=text), fixed)
    count = published(client, main)
    # Sent as an incremental change covering the whole old text.
    lines = text.split("\n")
    change_doc(
        client,
        MAIN,
        3,
        fixed,
        T.Range(start=pos(0, 0), end=pos(len(lines) - 1, len(lines[-1]))),
    )
    diagnostics = await diagnostics_after(client, main, count)
    expect(diagnostics == [], f"cleared after fix all: {diagnostics}")

    # Formatting: `urldb fmt`'s output on the same text.
    name = "fmt.org.yaml"
    unformatted = "--- {}\n---\ncontent-type: text/html\n_path: /z\n---\n{_path: /a, content-type: text/html}\n"
    open_doc(client, name, unformatted)
    await diagnostics_after(client, uri_of(name), 0)
    edits = await client.text_document_formatting_async(
        T.DocumentFormattingParams(
            text_document=doc_id(name), options=T.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    formatted = apply_whole(unformatted, edits)
    expect(formatted == cli("fmt", "--stdin-filename", name, stdin=unformatted), formatted)
    expect(formatted != unformatted, "formatting changed something")
    count = published(client, uri_of(name))
    change_doc(client, name, 2, formatted)
    expect(await diagnostics_after(client, uri_of(name), count) == [], "formatted is clean")
    edits = await client.text_document_formatting_async(
        T.DocumentFormattingParams(
            text_document=doc_id(name), options=T.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    expect(not edits, f"nothing to format: {edits}")

    # Comments are formatted with their nodes, as `urldb fmt` does.
    name = "comment.org.yaml"
    commented = "---\n---\n# keep me\ncontent-type: text/html\n_path: /a # here\n"
    open_doc(client, name, commented)
    await diagnostics_after(client, uri_of(name), 0)
    edits = await client.text_document_formatting_async(
        T.DocumentFormattingParams(
            text_document=doc_id(name), options=T.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    formatted = apply_whole(commented, edits)
    expect(
        formatted == "---\n---\n_path: /a # here\n# keep me\ncontent-type: text/html\n",
        f"comments kept with their keys: {formatted!r}",
    )
    expect(formatted == cli("fmt", "--stdin-filename", name, stdin=commented), formatted)

    # A file that cannot be formatted: no edits, and a message says why.
    name = "anchor.org.yaml"
    anchored = "---\n---\n_path: &p /a\ncontent-type: text/html\n"
    open_doc(client, name, anchored)
    await diagnostics_after(client, uri_of(name), 0)
    edits = await client.text_document_formatting_async(
        T.DocumentFormattingParams(
            text_document=doc_id(name), options=T.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    expect(not edits, f"no edits for a blocked file: {edits}")
    await wait_for(client, lambda: any("yaml-alias" in m.message for m in client.messages))

    # Completion: record keys, metadata keys, categories (configured, in
    # the database on disk, in open buffers), content types in use.
    name = "complete.org.yaml"
    partial = "---\n\n---\n_path: /x\ncategories:\n- \ncontent-type: \n"
    open_doc(client, name, partial)
    await diagnostics_after(client, uri_of(name), 0)

    async def labels(line, character):
        result = await client.text_document_completion_async(
            T.CompletionParams(text_document=doc_id(name), position=pos(line, character))
        )
        items = result.items if hasattr(result, "items") else result
        return {i.label for i in items}

    expect({"cnames", "https", "case-sensitive-paths"} <= await labels(1, 0), "metadata keys")
    record_keys = await labels(3, 0)
    expect({"_path", "content-type", "categories"} <= record_keys, record_keys)
    categories = await labels(5, 2)
    # docs, news: urldb.toml; archive: a file on disk.
    expect({"docs", "news", "archive"} <= categories, categories)
    content_types = await labels(6, 14)
    expect({"application/pdf", "text/html"} <= content_types, content_types)

    # Excluded files are left alone: no diagnostics, though it has errors.
    name = "vendor/excluded.org.yaml"
    open_doc(client, name, "---\n---\n_path: nope\n")
    expect(await diagnostics_after(client, uri_of(name), 0) == [], "excluded")

    # Cross-file rules over the workspace database, the open buffers in
    # place of their files: a cname that has a domain file of its own on
    # disk (other.org.yaml) is a cname-conflict.
    name = "shop.org.yaml"
    shop_text = "---\ncnames:\n- other.org\n---\n_path: /\ncontent-type: text/html\n"
    open_doc(client, name, shop_text)
    shop = await diagnostics_after(client, uri_of(name), 0)
    conflict = [d for d in shop if d.code == "cname-conflict"]
    expect(len(conflict) == 1 and conflict[0].range.start.line == 2, shop)
    # The buffer counts, not the disk (where shop.org.yaml does not exist).
    count = published(client, uri_of(name))
    change_doc(client, name, 2, shop_text.replace("other.org", "www.shop.org"))
    shop = await diagnostics_after(client, uri_of(name), count)
    expect("cname-conflict" not in {d.code for d in shop}, shop)
    # Refreshed on save: a file written meanwhile is seen once one is saved.
    (WORK / "www.shop.org.yaml").write_text("---\n---\n_path: /\ncontent-type: text/html\n")
    count = published(client, uri_of(name))
    client.text_document_did_save(T.DidSaveTextDocumentParams(text_document=doc_id(MAIN)))
    shop = await diagnostics_after(client, uri_of(name), count)
    expect("cname-conflict" in {d.code for d in shop}, shop)

    # urldb.toml changed: reloaded on didChangeWatchedFiles.
    name = "cfg.org.yaml"
    open_doc(client, name, "---\n---\ncontent-type: text/html\n_path: /a\n")
    before = await diagnostics_after(client, uri_of(name), 0)
    expect("unsorted-keys" in {d.code for d in before}, before)
    config = WORK / "urldb.toml"
    config.write_text(config.read_text().replace('ignore = []', 'ignore = ["unsorted-keys"]'))
    count = published(client, uri_of(name))
    client.workspace_did_change_watched_files(
        T.DidChangeWatchedFilesParams(
            changes=[T.FileEvent(uri=file_uri(config), type=T.FileChangeType.Changed)]
        )
    )
    after = await diagnostics_after(client, uri_of(name), count)
    expect("unsorted-keys" not in {d.code for d in after}, after)

    # A urldb.toml that cannot be used: said once, with every mistake in
    # it ([verify]'s too) and the near name on a line of its own, its
    # files not checked.
    name = "badcfg/x.org.yaml"
    open_doc(client, name, "---\n---\n_path: nope\n")
    expect(await diagnostics_after(client, uri_of(name), 0) == [], "broken configuration")
    await wait_for(
        client,
        lambda: any(
            "unknown key `colour`" in m.message
            and "unknown key `roots`" in m.message
            and "\n  did you mean `root`?" in m.message
            and "verify.retries: 99 is too many" in m.message
            for m in client.messages
        ),
    )

    # Hostile input: malformed YAML, binary garbage, a buffer over
    # max-file-size, out-of-range positions, unknown documents.
    name = "broken.org.yaml"
    open_doc(client, name, "---\n---\n_path: [unclosed\n  - {\n")
    broken = await diagnostics_after(client, uri_of(name), 0)
    expect("yaml-syntax" in {d.code for d in broken}, broken)
    name = "garbage.org.yaml"
    open_doc(client, name, "\x00\x01\ufffd\ufffe---\n\x1b[31m: : :\n\t- ]]\n")
    await diagnostics_after(client, uri_of(name), 0)
    name = "big/huge.org.yaml"
    open_doc(client, name, "---\n---\n" + "_path: /x\n" * 300)
    huge = await diagnostics_after(client, uri_of(name), 0)
    expect([d.code for d in huge] == ["file-too-large"], huge)
    count = published(client, uri_of("broken.org.yaml"))
    change_doc(
        client,
        "broken.org.yaml",
        2,
        "X",
        T.Range(start=pos(9999, 9999), end=pos(1, 0)),
    )
    await diagnostics_after(client, uri_of("broken.org.yaml"), count)
    change_doc(client, "never-opened.org.yaml", 7, "---\n")
    hover = await client.text_document_hover_async(
        T.HoverParams(text_document=doc_id(MAIN), position=pos(99999, 99999))
    )
    expect(hover is None, hover)
    hover = await client.text_document_hover_async(
        T.HoverParams(text_document=doc_id("never-opened.org.yaml"), position=pos(0, 0))
    )
    expect(hover is None, hover)
    symbols = await client.text_document_document_symbol_async(
        T.DocumentSymbolParams(text_document=doc_id(MAIN))
    )
    expect(len(symbols) == 2, "still answering after hostile input")

    # Closing a document clears its diagnostics.
    count = published(client, uri_of("broken.org.yaml"))
    client.text_document_did_close(
        T.DidCloseTextDocumentParams(text_document=doc_id("broken.org.yaml"))
    )
    expect(await diagnostics_after(client, uri_of("broken.org.yaml"), count) == [], "closed")

    expect(getattr(client, "registrations", None), "watchers registered")

    # Shutdown; a request after it is refused; exit 0.
    await client.shutdown_async(None)
    try:
        await client.text_document_hover_async(
            T.HoverParams(text_document=doc_id(MAIN), position=pos(0, 0))
        )
        raise AssertionError("a request after shutdown was answered")
    except JsonRpcException:
        pass
    client.exit(None)
    code = await asyncio.wait_for(client._server.wait(), WAIT)
    stderr = (await client._server.stderr.read()).decode()
    await client.stop()
    expect(code == 0, f"exit code {code}: {stderr}")
    expect("internal error" not in stderr, stderr)


async def session_utf8():
    """A client that offers UTF-8 gets byte columns."""
    client = make_client()
    result = await start(client, ["utf-8", "utf-16"])
    expect(result.capabilities.position_encoding == "utf-8", result.capabilities)
    open_doc(client, MAIN, MAIN_TEXT)
    diagnostics = await diagnostics_after(client, uri_of(MAIN), 0)
    got = got_diagnostics(diagnostics)
    want = expected_diagnostics(MAIN, MAIN_TEXT, "utf-8")
    expect(got == want, f"utf-8 diagnostics\n got {got}\nwant {want}")
    escape = next(d for d in diagnostics if d.code == "path-unneeded-escape")
    expect((escape.range.start.character, escape.range.end.character) == (14, 17), escape)
    await client.shutdown_async(None)
    client.exit(None)
    code = await asyncio.wait_for(client._server.wait(), WAIT)
    await client.stop()
    expect(code == 0, f"exit code {code}")


async def session_exit_without_shutdown():
    """`exit` without `shutdown` first: exit code 1, as the protocol says."""
    client = make_client()
    await start(client, ["utf-16"])
    client.exit(None)
    code = await asyncio.wait_for(client._server.wait(), WAIT)
    await client.stop()
    expect(code == 1, f"exit code {code}")


async def main():
    await session_utf16()
    await session_utf8()
    await session_exit_without_shutdown()
    print("ok")


asyncio.run(main())
