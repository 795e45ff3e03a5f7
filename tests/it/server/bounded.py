"""Bounded work per request in `urldb server`, through a real LSP client
(pygls's LanguageClient). See docs/editors.md, "Code actions" and
"Cancellation".

Usage: bounded.py URLDB WORKDIR (actions | cancel) N

`actions`: a file of N records, each with a fixable finding; a client that
resolves code actions gets a capped list without edits, one "ignore" per
code and line, and each edit on `codeAction/resolve`; a client that does
not gets a short list, each action with its edit. `cancel`: a heavy code
action request cancelled while the server works on it is answered
RequestCancelled, and a hover sent after the cancel is answered.

Every expectation the command line can answer comes from it. Prints `ok`
at the end; any failed expectation raises.
"""

import asyncio
import json
import pathlib
import sys

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
import lsp_session
from lsp_session import WAIT, expect

URLDB = sys.argv[1]
WORK = pathlib.Path(sys.argv[2])
MODE = sys.argv[3]
N = int(sys.argv[4])

# docs/editors.md: at most this many actions per request, and this many
# edits built per request for a client that cannot resolve them.
MAX_ACTIONS = 100
EAGER_EDITS = 8

# LSP error codes.
REQUEST_CANCELLED = -32800
CONTENT_MODIFIED = -32801

NAME = "example.com.yaml"
URI = (WORK / NAME).as_uri()
TEXT = "---\n" + "".join(
    f"---\n_path: /page/{i:07d}\ncontent-type: text/HTML\n" for i in range(N)
)
LINES = TEXT.count("\n")
# Two findings of one code on one line: categories this database does not
# know (urldb.toml lists `docs`).
TWICE = "---\n---\n_path: /a\ncategories: [x, y]\ncontent-type: text/html\n"


def cli(*args, stdin=None):
    return lsp_session.cli(URLDB, WORK, *args, stdin=stdin)


def codes(text, name=NAME):
    """The codes `urldb check` reports on `text`, with their counts."""
    report = json.loads(
        cli("check", "--format", "json", "--exit-zero", "--stdin-filename", name, stdin=text)
    )
    counts = {}
    for f in report:
        counts[f["code"]] = counts.get(f["code"], 0) + 1
    return counts


async def start(resolves):
    client = lsp_session.Client("urldb-bounded-test-client")

    code_action = (
        T.CodeActionClientCapabilities(
            data_support=True,
            resolve_support=T.ClientCodeActionResolveOptions(properties=["edit"]),
        )
        if resolves
        else None
    )
    await client.start_io(URLDB, "server", cwd=str(WORK))
    result = await client.initialize_async(
        T.InitializeParams(
            process_id=None,
            root_uri=WORK.as_uri(),
            capabilities=T.ClientCapabilities(
                text_document=T.TextDocumentClientCapabilities(code_action=code_action)
            ),
        )
    )
    expect(result.capabilities.code_action_provider.resolve_provider, result.capabilities)
    client.initialized(T.InitializedParams())
    return client


async def opened(client, name, text, version=1):
    """Open `name` and wait for the diagnostics of `version`."""
    uri = (WORK / name).as_uri()
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)
        )
    )
    return await diagnostics_of(client, uri, version)


async def diagnostics_of(client, uri, version):
    def there():
        return any(p.version == version for p in client.published.get(uri, []))

    async def waiting():
        async with client.changed:
            await client.changed.wait_for(there)

    await asyncio.wait_for(waiting(), WAIT)
    return next(p for p in client.published[uri] if p.version == version).diagnostics


def whole(uri=URI, lines=LINES):
    return T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri),
        range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=lines, character=0)),
        context=T.CodeActionContext(diagnostics=[]),
    )


def applied(action, uri=URI):
    edits = action.edit.changes[uri]
    expect(len(edits) == 1 and edits[0].range.start.line == 0, edits)
    return edits[0].new_text


async def stop(client):
    await client.shutdown_async(None)
    client.exit(None)
    code = await asyncio.wait_for(client._server.wait(), WAIT)
    await client.stop()
    expect(code == 0, f"exit code {code}")


async def actions():
    expect(codes(TEXT) == {"content-type-case": N}, codes(TEXT))

    # A client that resolves: the actions without their edits.
    client = await start(resolves=True)
    found = await opened(client, NAME, TEXT)
    expect(len(found) == N, len(found))
    listed = await asyncio.wait_for(client.text_document_code_action_async(whole()), WAIT)
    fixes = [a for a in listed if a.kind == T.CodeActionKind.QuickFix and "(content-type-case)" in a.title]
    ignores = [a for a in listed if a.title.startswith("Ignore ")]
    fix_all = [a for a in listed if a.kind == "source.fixAll.urldb"]
    expect(len(fixes) + len(ignores) == MAX_ACTIONS, f"{len(fixes)} + {len(ignores)}")
    expect(len(fix_all) == 1, fix_all)
    expect(all(a.edit is None and a.data is not None for a in listed), listed[0])

    # Each resolved on demand: the fix `check --fix` makes to that record,
    # the comment that excuses that finding, the text `check --fix` writes.
    fix = await client.code_action_resolve_async(fixes[3])
    text = applied(fix)
    expect(codes(text) == {"content-type-case": N - 1}, codes(text))
    line = fixes[3].diagnostics[0].range.start.line
    expect(text.splitlines()[line] == "content-type: text/html", text.splitlines()[line])
    ignore = await client.code_action_resolve_async(ignores[0])
    text = applied(ignore)
    expect(codes(text) == {"content-type-case": N - 1}, codes(text))
    expect("# urldb: ignore[content-type-case]" in text, "a suppression comment")
    everything = await client.code_action_resolve_async(fix_all[0])
    expect(
        applied(everything) == cli("check", "--fix", "-q", "--stdin-filename", NAME, stdin=TEXT),
        "fix all is `check --fix`",
    )

    # One "ignore" per code and line, for every finding of it there.
    twice_uri = (WORK / "twice.org.yaml").as_uri()
    twice = await opened(client, "twice.org.yaml", TWICE)
    unknown = [d for d in twice if d.code == "unknown-category"]
    expect([d.range.start.line for d in unknown] == [3, 3], twice)
    listed = await client.text_document_code_action_async(whole(twice_uri, 5))
    ignores = [a for a in listed if a.title == "Ignore `unknown-category` here"]
    expect(len(ignores) == 1 and len(ignores[0].diagnostics) == 2, listed)
    text = applied(await client.code_action_resolve_async(ignores[0]), twice_uri)
    expect("unknown-category" not in codes(text, "twice.org.yaml"), text)

    # An action offered for an older version of the buffer is not
    # resolved on the newer one.
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text="---\n" + TEXT)],
        )
    )
    await diagnostics_of(client, URI, 2)
    try:
        await client.code_action_resolve_async(fixes[0])
        raise AssertionError("an action of version 1 was resolved on version 2")
    except JsonRpcException as e:
        expect(e.code == CONTENT_MODIFIED, e)
    await stop(client)

    # A client that does not resolve: a short list, each with its edit.
    client = await start(resolves=False)
    await opened(client, NAME, TEXT)
    listed = await asyncio.wait_for(client.text_document_code_action_async(whole()), WAIT)
    per_finding = [a for a in listed if a.kind == T.CodeActionKind.QuickFix]
    expect(len(per_finding) == EAGER_EDITS, [a.title for a in listed])
    expect(all(a.edit is not None for a in listed), "every action with its edit")
    for action in per_finding:
        expect(codes(applied(action)) == {"content-type-case": N - 1}, action.title)
    await stop(client)


async def cancel():
    client = await start(resolves=False)
    found = await opened(client, NAME, TEXT)
    expect(len(found) == N, len(found))
    # The server is idle: the heavy request is taken alone, and the cancel
    # comes while it is worked on.
    heavy = client.protocol.send_request_async(
        T.TEXT_DOCUMENT_CODE_ACTION, whole(), msg_id="heavy"
    )
    await asyncio.sleep(0.3)
    client.protocol.notify(T.CANCEL_REQUEST, T.CancelParams(id="heavy"))
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            T.HoverParams(
                text_document=T.TextDocumentIdentifier(uri=URI),
                position=T.Position(line=3, character=16),
            )
        ),
        WAIT,
    )
    expect(hover is not None and "content-type-case" in hover.contents.value, hover)
    try:
        answer = await asyncio.wait_for(heavy, WAIT)
        raise AssertionError(f"the cancelled request was answered: {len(answer)} actions")
    except JsonRpcException as e:
        expect(e.code == REQUEST_CANCELLED, e)
    # The server goes on: the same request, not cancelled, is answered.
    listed = await asyncio.wait_for(client.text_document_code_action_async(whole()), WAIT)
    expect(len(listed) > 0, listed)
    await stop(client)


asyncio.run({"actions": actions, "cancel": cancel}[MODE]())
print("ok")
