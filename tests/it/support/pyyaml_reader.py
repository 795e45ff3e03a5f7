"""What the reference tool reads of a file: PyYAML, one long-lived process.

The reference tool opens a domain file in text mode and hands it to
`yaml.safe_load_all`. This script does exactly that for each file it is
sent (the bytes decoded as Python's text mode decodes them on a UTF-8
locale: strict UTF-8, universal newlines), and answers with

- `decoded`: text mode could decode the bytes;
- `loads`: `yaml.safe_load_all` (the pure-Python `SafeLoader`) loaded
  every document;
- `tree`: `yaml.compose_all`'s node tree, or null when composing failed:
  each document a node, each node `["s", tag, text]` (a scalar with its
  resolved tag), `["q", [items]]` (a sequence) or `["m", [[key, value],
  ...]]` (a mapping, keys in order);
- `error`: why it failed, for the report.

Protocol: one JSON object per line on stdin (`{"hex": ...}`, the bytes in hex), one JSON
object per line on stdout, in order. Used by `tests/it/support/reader_oracle.rs`.
"""

import io
import json
import sys

import yaml


def text(value):
    # A lone surrogate (from `"\\uD800"`) is no Unicode scalar value: JSON
    # readers refuse it, and no Rust string can hold it. Named instead.
    if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        return "".join(
            "<surrogate U+%04X>" % ord(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in value
        )
    return value


def node(n):
    if isinstance(n, yaml.ScalarNode):
        return ["s", n.tag, text(n.value)]
    if isinstance(n, yaml.SequenceNode):
        return ["q", [node(i) for i in n.value]]
    return ["m", [[node(k), node(v)] for k, v in n.value]]


def text_mode(raw):
    # What `open(path)` gives on a UTF-8 locale: strict decoding, and
    # `\r\n` and a lone `\r` read as `\n` (universal newlines).
    return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", newline=None)


def answer(raw):
    out = {"decoded": True, "loads": False, "tree": None, "error": None}
    try:
        text_mode(raw).read()
    except UnicodeDecodeError as e:
        out["decoded"] = False
        out["error"] = "UnicodeDecodeError: %s" % e
        return out
    try:
        out["tree"] = [node(d) for d in yaml.compose_all(text_mode(raw), Loader=yaml.SafeLoader)]
    except Exception as e:  # noqa: BLE001 - every refusal is an answer
        out["error"] = "%s: %s" % (type(e).__name__, e)
        return out
    try:
        list(yaml.safe_load_all(text_mode(raw)))
        out["loads"] = True
    except Exception as e:  # noqa: BLE001
        out["error"] = "%s: %s" % (type(e).__name__, e)
    return out


def main():
    sys.setrecursionlimit(10000)
    for line in sys.stdin:
        request = json.loads(line)
        raw = bytes.fromhex(request["hex"])
        sys.stdout.write(json.dumps(answer(raw)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
