#!/usr/bin/env python3
"""didChange -> publishDiagnostics latency of `urldb server` on one big
domain file (a benchmark, never a test: the numbers depend on the machine).

usage: python3 bench/lsp_latency.py [URLDB] [--records N] [--edits N]
                                    [--open N] [--open-records N] [--note N]

URLDB defaults to target/release/urldb (`cargo build --release` first).
--note N gives each record a last key `z-note` of N characters (default
none): longer records, for a large buffer under the 200,000-document limit
(190,000 records with --note 230 make about 50 MB).

Writes a canonical domain file of N records (default 10,000) to a temporary
database, opens it in the server, then makes N edits (default 50), one at a
time: each changes one record's media type (alternately to uppercase, which
is a finding, and back), sent as an incremental change, and waits for
the diagnostics of that version. Prints the median and the maximum time
from sending the change to receiving its diagnostics. Then opens --open N
more domain files (default 100, of --open-records records each, default
1,000) and prints the server's peak memory (VmHWM) with them all open.

Speaks the protocol over stdio itself (Content-Length framing, JSON-RPC):
no client library, nothing between the measurement and the server.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]


def option(name, default):
    if name in args:
        i = args.index(name)
        value = int(args[i + 1])
        del args[i : i + 2]
        return value
    return default


records = option("--records", 10_000)
edits = option("--edits", 50)
open_files = option("--open", 100)
open_records = option("--open-records", 1_000)
note = option("--note", 0)
urldb = os.path.abspath(args[0]) if args else os.path.join(os.path.dirname(__file__), "..", "target/release/urldb")

work = tempfile.mkdtemp(prefix="urldb-lsp-bench-")
with open(os.path.join(work, "urldb.toml"), "w") as f:
    f.write("")
lines = ["---\n"]
note_line = f"z-note: {'x' * note}\n" if note else ""
for i in range(records):
    lines.append(f"---\n_path: /page/{i:07d}\ncontent-type: text/html\n{note_line}")
text = "".join(lines)
path = os.path.join(work, "example.com.yaml")
with open(path, "w") as f:
    f.write(text)
uri = "file://" + path

server = subprocess.Popen(
    [urldb, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=work
)


def send(message):
    body = json.dumps(message).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()


def receive():
    length = None
    while True:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(server.stdout.read(length))


def diagnostics_of(version):
    while True:
        message = receive()
        if (
            message.get("method") == "textDocument/publishDiagnostics"
            and message["params"].get("version") == version
        ):
            return message["params"]["diagnostics"]


send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"processId": None, "rootUri": "file://" + work, "capabilities": {}}})
while receive().get("id") != 1:
    pass
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
start = time.perf_counter()
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
opened = diagnostics_of(1)
print(f"open: {len(text)} bytes, {records} records, {len(opened)} diagnostics, "
      f"{(time.perf_counter() - start) * 1000:.1f} ms")

latencies = []
for n in range(edits):
    version = n + 2
    # Even edits uppercase one record's media type (`content-type-case`),
    # odd ones undo the edit before.
    record = (n // 2 * 7919) % records
    line = 3 + record * (4 if note else 3)  # its `content-type: text/html` line (0-based)
    change = {"range": {"start": {"line": line, "character": 19},
                        "end": {"line": line, "character": 23}},
              "text": "HTML" if n % 2 == 0 else "html"}
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": version},
                     "contentChanges": [change]}})
    found = diagnostics_of(version)
    latencies.append((time.perf_counter() - start) * 1000)
    expected = 1 if n % 2 == 0 else 0
    if len(found) != expected:
        raise SystemExit(f"edit {n}: expected {expected} diagnostics, got {found}")

# Many open documents: what the server keeps for each.
for k in range(open_files):
    body = "---\n" + "".join(
        f"---\n_path: /doc/{i:06d}\ncontent-type: text/html\n" for i in range(open_records)
    )
    other = os.path.join(work, f"site{k:03d}.example.org.yaml")
    with open(other, "w") as f:
        f.write(body)
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
          "params": {"textDocument": {"uri": "file://" + other, "languageId": "yaml",
                                      "version": 1, "text": body}}})
    while True:
        message = receive()
        if (message.get("method") == "textDocument/publishDiagnostics"
                and message["params"]["uri"] == "file://" + other):
            break
with open(f"/proc/{server.pid}/status") as f:
    peak = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
print(f"peak memory (VmHWM) with {open_files + 1} open documents "
      f"({open_files} of {open_records} records and the one above): {int(peak) / 1024:.1f} MiB")

send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
while receive().get("id") != 2:
    pass
send({"jsonrpc": "2.0", "method": "exit", "params": None})
server.wait()
shutil.rmtree(work)
print(f"didChange -> publishDiagnostics over {edits} edits: "
      f"median {statistics.median(latencies):.1f} ms, max {max(latencies):.1f} ms "
      f"(min {min(latencies):.1f} ms); server exit code {server.returncode}")
