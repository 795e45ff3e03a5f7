"""Every code action `urldb server` offers works, through a real LSP
client that resolves edits (pygls's LanguageClient with `resolveSupport`),
and completion offers words: see docs/editors.md, "Code actions".

Usage: way_out.py URLDB WORKDIR

- A gate finding (`duplicate-key`, `missing-content-type`) gets no
  "Ignore ... here": nothing excuses it, and resolving one failed with
  -32803, an error popup in VS Code and Neovim. Every action offered
  resolves, and its edit does what it says by the command line's count.
- Two findings of one rule on one line with the same fix are one quick
  fix, which fixes both.
- Completion never offers an empty label (a value being typed).

Prints `ok` at the end; any failed expectation raises.
"""

import asyncio
import json
import pathlib
import sys

from lsprotocol import types as T
import lsp_session
from lsp_session import WAIT, expect

URLDB = sys.argv[1]
WORK = pathlib.Path(sys.argv[2])

NAME = "example.com.yaml"
URI = (WORK / NAME).as_uri()
# Gate findings (a duplicate key, an empty content type) beside findings
# that may be excused or fixed (two lowercase escapes on one line, trailing
# whitespace).
TEXT = (
    "---\n---\n_path: /%2a%2b\ncontent-type: \n"
    "---\n_path: /x\n_path: /y\ncontent-type: text/html \n"
)
# No gate finding: the file is parsed, and the fixes are offered.
FIXABLE = "---\n---\n_path: /%2a%2b\ncontent-type: text/html \n"


def cli(*args, stdin=None):
    return lsp_session.cli(URLDB, WORK, *args, stdin=stdin)


def codes(text, *extra):
    """The codes `urldb check` reports on `text`, with their counts."""
    report = json.loads(
        cli("check", "--format", "json", "--exit-zero", *extra, "--stdin-filename", NAME, stdin=text)
    )
    counts = {}
    for f in report:
        counts[f["code"]] = counts.get(f["code"], 0) + 1
    return counts


def gate_codes(text):
    """The codes of `text`'s gate findings: those `--ignore` cannot turn off."""
    return {code for code in codes(text) if code in codes(text, "--ignore", code)}


async def start():
    client = lsp_session.Client("urldb-way-out-test-client")

    await client.start_io(URLDB, "server", cwd=str(WORK))
    await client.initialize_async(
        T.InitializeParams(
            process_id=None,
            root_uri=WORK.as_uri(),
            capabilities=T.ClientCapabilities(
                text_document=T.TextDocumentClientCapabilities(
                    code_action=T.CodeActionClientCapabilities(
                        data_support=True,
                        resolve_support=T.ClientCodeActionResolveOptions(properties=["edit"]),
                    )
                )
            ),
        )
    )
    client.initialized(T.InitializedParams())
    return client


async def show(client, text, version):
    """Open (version 1) or replace the buffer, and wait for its diagnostics."""
    if version == 1:
        client.text_document_did_open(
            T.DidOpenTextDocumentParams(
                text_document=T.TextDocumentItem(uri=URI, language_id="yaml", version=1, text=text)
            )
        )
    else:
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=URI, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def there():
        return any(p.version == version for p in client.published.get(URI, []))

    async def waiting():
        async with client.changed:
            await client.changed.wait_for(there)

    await asyncio.wait_for(waiting(), WAIT)
    return next(p for p in client.published[URI] if p.version == version).diagnostics


async def actions_of(client, lines):
    return await asyncio.wait_for(
        client.text_document_code_action_async(
            T.CodeActionParams(
                text_document=T.TextDocumentIdentifier(uri=URI),
                range=T.Range(
                    start=T.Position(line=0, character=0), end=T.Position(line=lines, character=0)
                ),
                context=T.CodeActionContext(diagnostics=[]),
            )
        ),
        WAIT,
    )


def applied(action):
    edits = action.edit.changes[URI]
    expect(len(edits) == 1 and edits[0].range.start.line == 0, edits)
    return edits[0].new_text


async def main():
    gate = gate_codes(TEXT)
    expect({"duplicate-key", "missing-content-type"} <= gate, gate)
    client = await start()
    found = await show(client, TEXT, 1)
    expect({d.code for d in found} >= gate | {"path-escape-case"}, found)

    listed = await actions_of(client, TEXT.count("\n"))
    ignores = [a for a in listed if a.title.startswith("Ignore ")]
    for code in gate:
        expect(all(f"`{code}`" not in a.title for a in ignores), [a.title for a in listed])
    expect(any("`path-escape-case`" in a.title for a in ignores), [a.title for a in listed])
    # Every action offered resolves (no -32803) and excuses the findings
    # it names, by the command line's count.
    before = codes(TEXT)
    for action in listed:
        resolved = await client.code_action_resolve_async(action)
        text = applied(resolved)
        code = action.title.split("`")[1]
        after = codes(text).get(code, 0)
        expect(after == before[code] - len(action.diagnostics), (action.title, codes(text)))

    # Two escapes of one `_path`: one fix, for both findings, that fixes both.
    await show(client, FIXABLE, 2)
    listed = await actions_of(client, FIXABLE.count("\n"))
    fixes = [a for a in listed if a.title.endswith("(path-escape-case)")]
    expect(len(fixes) == 1, [a.title for a in listed])
    expect(len(fixes[0].diagnostics) == 2, fixes[0].diagnostics)
    text = applied(await client.code_action_resolve_async(fixes[0]))
    expect("path-escape-case" not in codes(text), codes(text))
    expect("_path: /%2A%2B\n" in text, text)
    titles = [a.title for a in listed]
    expect(len(titles) == len(set(titles)), titles)

    # Completion where a value is being typed: the words the database uses,
    # never an empty label.
    await show(client, "---\n---\n_path: /\ncontent-type: \n---\n_path: /b\ncategories:\n- \ncontent-type: text/html\n", 3)
    for line, character in [(3, 14), (7, 2)]:
        answer = await client.text_document_completion_async(
            T.CompletionParams(
                text_document=T.TextDocumentIdentifier(uri=URI),
                position=T.Position(line=line, character=character),
            )
        )
        items = answer if isinstance(answer, list) else answer.items
        labels = [i.label for i in items]
        expect(all(label.strip() for label in labels), labels)
        if line == 3:
            expect(labels == ["text/html"], labels)

    await client.shutdown_async(None)
    client.exit(None)
    code = await asyncio.wait_for(client._server.wait(), WAIT)
    await client.stop()
    expect(code == 0, f"exit code {code}")


asyncio.run(main())
print("ok")
