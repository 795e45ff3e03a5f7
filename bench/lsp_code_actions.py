#!/usr/bin/env python3
"""The language server's work per request on a file full of findings (a
benchmark, never a test: the numbers depend on the machine).

usage: python3 bench/lsp_code_actions.py [URLDB] [--findings N ...] [--cancel-only]

URLDB defaults to target/release/urldb (`cargo build --release` first).
For each N (default 1000 and 3000) writes a domain file of N records, each
with one finding that has a fix (`content-type: text/HTML`,
`content-type-case`), opens it in the server and measures, as whole
requests over stdio:

- a code action over the whole file from a client that cannot resolve
  code actions (every action comes with its edit): time and actions;
- the same from a client that can (`codeAction/resolve` for `edit`):
  time and actions, then the time to resolve one of them;
- a heavy request (the whole-file code action of the first kind), then,
  0.3 s later (the server has taken it up alone, not in one batch with
  what follows), `$/cancelRequest` for it and a hover: how the heavy
  request is answered, and the time from the cancel to the hover's
  answer. `--cancel-only` measures this alone.

Speaks the protocol over stdio itself (Content-Length framing, JSON-RPC),
as bench/lsp_latency.py does: nothing between the measurement and the
server.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
cancel_only = "--cancel-only" in args
if cancel_only:
    args.remove("--cancel-only")
sizes = []
while "--findings" in args:
    i = args.index("--findings")
    sizes.append(int(args[i + 1]))
    del args[i : i + 2]
sizes = sizes or [1000, 3000]
urldb = os.path.abspath(args[0]) if args else os.path.join(
    os.path.dirname(__file__), "..", "target/release/urldb"
)


class Server:
    def __init__(self, work, capabilities):
        self.process = subprocess.Popen(
            [urldb, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=work
        )
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"processId": None, "rootUri": "file://" + work,
                              "capabilities": capabilities}})
        self.answer(0)
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def answer(self, id_):
        while True:
            message = self.receive()
            if message.get("id") == id_ and "method" not in message:
                return message

    def diagnostics(self, uri):
        while True:
            message = self.receive()
            if (message.get("method") == "textDocument/publishDiagnostics"
                    and message["params"]["uri"] == uri):
                return message["params"]["diagnostics"]

    def close(self):
        self.send({"jsonrpc": "2.0", "id": 999999, "method": "shutdown", "params": None})
        self.answer(999999)
        self.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        self.process.wait()


RESOLVE = {"textDocument": {"codeAction": {
    "dataSupport": True, "resolveSupport": {"properties": ["edit"]},
    "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}},
}}}


def whole_file_action(server, id_, uri, lines):
    server.send({"jsonrpc": "2.0", "id": id_, "method": "textDocument/codeAction", "params": {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}},
        "context": {"diagnostics": []}}})


def measure(n):
    work = tempfile.mkdtemp(prefix="urldb-code-action-bench-")
    with open(os.path.join(work, "urldb.toml"), "w") as f:
        f.write("")
    text = "---\n" + "".join(
        f"---\n_path: /page/{i:07d}\ncontent-type: text/HTML\n" for i in range(n)
    )
    path = os.path.join(work, "example.com.yaml")
    with open(path, "w") as f:
        f.write(text)
    uri = "file://" + path
    lines = text.count("\n")
    opened = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}
    print(f"{n} findings ({len(text)} bytes):")

    for label, capabilities in [] if cancel_only else [("no resolve", {}), ("resolve", RESOLVE)]:
        server = Server(work, capabilities)
        server.send(opened)
        found = server.diagnostics(uri)
        start = time.perf_counter()
        whole_file_action(server, 1, uri, lines)
        actions = server.answer(1).get("result") or []
        took = time.perf_counter() - start
        with_edit = sum(1 for a in actions if "edit" in a)
        print(f"  whole-file code action, {label}: {took * 1000:.0f} ms, "
              f"{len(actions)} actions ({with_edit} with their edit), "
              f"{len(found)} diagnostics")
        lazy = [a for a in actions if "edit" not in a and "data" in a]
        if lazy:
            start = time.perf_counter()
            server.send({"jsonrpc": "2.0", "id": 2, "method": "codeAction/resolve",
                         "params": lazy[len(lazy) // 2]})
            resolved = server.answer(2).get("result") or {}
            took = time.perf_counter() - start
            print(f"  codeAction/resolve of one: {took * 1000:.0f} ms, "
                  f"edit {'present' if resolved.get('edit') else 'MISSING'}")
        server.close()

    server = Server(work, {})
    server.send(opened)
    server.diagnostics(uri)
    whole_file_action(server, 3, uri, lines)
    time.sleep(0.3)
    start = time.perf_counter()
    server.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 3}})
    server.send({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": 3, "character": 2}}})
    heavy = hover = None
    while heavy is None or hover is None:
        message = server.receive()
        if message.get("id") == 3:
            heavy = message
        elif message.get("id") == 4:
            hover = message
            hover_at = time.perf_counter() - start
    outcome = (f"error {heavy['error']['code']}" if "error" in heavy
               else f"{len(heavy.get('result') or [])} actions")
    print(f"  cancelled whole-file code action: answered {outcome}; "
          f"hover answered {hover_at * 1000:.0f} ms after the cancel")
    server.close()
    shutil.rmtree(work)


for n in sizes:
    measure(n)
