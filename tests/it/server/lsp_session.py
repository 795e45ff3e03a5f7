"""What the LSP test clients (client.py, bounded.py, way_out.py,
governed.py) share: a pygls client that records what `urldb server`
publishes and shows, the command line run on the same text, and a check
that raises.

Each client is run as a script, so this file, beside it, is importable.
"""

import asyncio
import subprocess

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

# The generous bound on any wait: a guard against hanging, not a timing.
WAIT = 120


class Client(LanguageClient):
    """A client that keeps every diagnostics notification per URI, in
    order (`published`), and every message shown (`messages`), waking
    whoever waits on `changed`."""

    def __init__(self, name):
        super().__init__(name, "1")
        self.published = {}  # uri -> list of PublishDiagnosticsParams
        self.messages = []  # ShowMessageParams
        self.changed = asyncio.Condition()

        @self.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def on_diagnostics(params: T.PublishDiagnosticsParams):
            async with self.changed:
                self.published.setdefault(params.uri, []).append(params)
                self.changed.notify_all()

        @self.feature(T.WINDOW_SHOW_MESSAGE)
        async def on_message(params: T.ShowMessageParams):
            async with self.changed:
                self.messages.append(params)
                self.changed.notify_all()


def cli(urldb, work, *args, stdin=None):
    """What `urldb ARGS` prints in `work`, with `stdin` as its input."""
    out = subprocess.run(
        [urldb, *args],
        input=stdin.encode() if stdin is not None else None,
        cwd=work,
        capture_output=True,
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
    )
    return out.stdout.decode()


def expect(condition, what):
    if not condition:
        raise AssertionError(what)
