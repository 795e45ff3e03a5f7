#!/usr/bin/env python3
"""Import circles between the modules of one crate.

Reads every `crate::a::b` and `super::…` path in a crate's src/ (in `use`
lines and in code, the whole file; only the items marked `#[cfg(test)]`
are left out, wherever they stand),
maps each to the module file it names, and prints the strongly connected
components of that graph: groups of modules that import each other,
directly or around a circle. A module and its own children may know each
other (a parent declares its children, children use the parent's
prelude); any other circle means a helper lives in the wrong layer.

Circles between crates cannot happen: Cargo refuses them.

Usage: python3 tools/import_cycles.py [SRC_DIR]   (exit 1 if a circle)
"""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
src = os.path.normpath(src)

modules = {}  # "a::b" -> file
for root, _, files in os.walk(src):
    for f in files:
        if not f.endswith(".rs"):
            continue
        rel = os.path.relpath(os.path.join(root, f), src)[:-3].split(os.sep)
        if rel[-1] == "mod":
            rel = rel[:-1]
        if rel in (["lib"], ["main"]):
            continue
        modules["::".join(rel)] = os.path.join(root, f)


def target(path):
    """The longest module prefix of `a::b::c`."""
    parts = path.split("::")
    while parts:
        name = "::".join(parts)
        if name in modules:
            return name
        parts.pop()
    return None


def expand(text):
    """`crate::a::{b, c::d}` -> ["a::b", "a::c::d"] (one level of braces)."""
    out = []
    for m in re.finditer(r"crate::([A-Za-z0-9_:]*)(\{[^}]*\})?", text):
        head = m.group(1).rstrip(":")
        if m.group(2):
            for item in m.group(2)[1:-1].split(","):
                item = item.strip().split(" as ")[0].strip()
                if item and item != "self":
                    out.append(f"{head}::{item}" if head else item)
        if head:
            out.append(head)
    return out


def skip_literal(text, i):
    """The index after the string, raw string or char literal at `i`, or
    `i` itself when none starts there (a lifetime `'a` is no literal)."""
    m = re.match(r'b?r(#*)"', text[i:])
    if m:
        end = text.find('"' + m.group(1), i + m.end())
        return len(text) if end < 0 else end + 1 + len(m.group(1))
    if text.startswith('"', i) or text.startswith('b"', i):
        j = i + (2 if text[i] == "b" else 1)
        while j < len(text) and text[j] != '"':
            j += 2 if text[j] == "\\" else 1
        return j + 1
    m = re.match(r"b?'(\\.[^']*|[^\\'])'", text[i:])
    if m:
        return i + m.end()
    return i


def item_end(text, i):
    """The index after the item that starts at `i`: its braced body's
    closing brace, or its `;` when a `;` comes before any brace."""
    depth = 0
    while i < len(text):
        if text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return len(text)
            continue
        j = skip_literal(text, i)
        if j != i:
            i = j
            continue
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == ";" and depth == 0:
            return i + 1
        i += 1
    return len(text)


def without_tests(text):
    """`text` without its `#[cfg(test)]` items (unit tests may use
    anything), the code after them kept."""
    out = []
    at = 0
    for m in re.finditer(r"#\[cfg\(test\)\]", text):
        if m.start() < at:
            continue
        out.append(text[at : m.start()])
        at = item_end(text, m.end())
    out.append(text[at:])
    return "".join(out)


edges = {m: set() for m in modules}
for mod, path in modules.items():
    text = open(path, encoding="utf-8").read()
    # Comments name modules without importing them.
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    text = without_tests(text)
    for used in expand(text):
        t = target(used)
        if t and t != mod:
            edges[mod].add(t)
    # `super::a::b` from `x::y` names `x::a::b` (a sibling, not the
    # parent): resolve each `super::` against the module's own path.
    for m in re.finditer(r"\b((?:super::)+)([A-Za-z0-9_:]*)", text):
        ups = m.group(1).count("super::")
        base = mod.split("::")[:-ups] if ups <= mod.count("::") + 1 else []
        rest = m.group(2).rstrip(":")
        name = "::".join(base + ([rest] if rest else []))
        t = target(name) if name else None
        if t and t != mod:
            edges[mod].add(t)
    # A parent uses the children it declares.
    for child in re.findall(r"^\s*(?:pub(?:\([a-z]+\))? )?mod (\w+);", text, re.M):
        name = f"{mod}::{child}"
        if name in modules:
            edges[mod].add(name)


def family(a, b):
    return a.startswith(b + "::") or b.startswith(a + "::")


# A module and its ancestors may know each other (a parent declares its
# children, children use the parent's helpers): those edges are left out,
# so that a circle between siblings is not hidden behind their parent.
edges = {v: {w for w in ws if not family(v, w)} for v, ws in edges.items()}


# Tarjan's strongly connected components.
index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(sorted(comp))


for v in sorted(modules):
    if v not in index:
        visit(v)

circles = [comp for comp in sccs if len(comp) >= 2]

for comp in sorted(circles, key=len, reverse=True):
    print(f"circle of {len(comp)} modules: {', '.join(comp)}")
print(f"{len(modules)} modules, {len(circles)} circle(s) beyond a module and its children")
sys.exit(1 if circles else 0)
