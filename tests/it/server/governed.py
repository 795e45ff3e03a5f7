"""Open documents in `urldb server` with a real LSP client (pygls) and say
what the server made of each: the codes of its diagnostics, and the
messages it showed.

Usage: governed.py URLDB WORKDIR NAME...

Each NAME (relative to WORKDIR, the workspace folder and the server's
working directory) is opened with its text on disk; the first diagnostics
published for each are kept. Prints one JSON object:
{"diagnostics": {NAME: [CODE, ...]}, "messages": [TEXT, ...],
 "places": {NAME: [[CODE, LINE, CHARACTER], ...]}} (0-based, sorted).
"""

import asyncio
import json
import pathlib
import sys

from lsprotocol import types as T
import lsp_session
from lsp_session import WAIT

URLDB = sys.argv[1]
WORK = pathlib.Path(sys.argv[2])
NAMES = sys.argv[3:]


async def main():
    client = lsp_session.Client("urldb-governed-client")
    await client.start_io(URLDB, "server", cwd=str(WORK))
    await client.initialize_async(
        T.InitializeParams(
            process_id=None, root_uri=WORK.as_uri(), capabilities=T.ClientCapabilities()
        )
    )
    client.initialized(T.InitializedParams())
    uris = {}
    for name in NAMES:
        uri = (WORK / name).as_uri()
        uris[name] = uri
        client.text_document_did_open(
            T.DidOpenTextDocumentParams(
                text_document=T.TextDocumentItem(
                    uri=uri,
                    language_id="yaml",
                    version=1,
                    text=(WORK / name).read_text(),
                )
            )
        )

    async def all_published():
        async with client.changed:
            await client.changed.wait_for(
                lambda: all(u in client.published for u in uris.values())
            )

    await asyncio.wait_for(all_published(), WAIT)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    print(
        json.dumps(
            {
                "diagnostics": {
                    name: sorted(str(d.code) for d in client.published[uri][0].diagnostics)
                    for name, uri in uris.items()
                },
                "messages": [m.message for m in client.messages],
                "places": {
                    name: sorted(
                        [str(d.code), d.range.start.line, d.range.start.character]
                        for d in client.published[uri][0].diagnostics
                    )
                    for name, uri in uris.items()
                },
            }
        )
    )


asyncio.run(main())
