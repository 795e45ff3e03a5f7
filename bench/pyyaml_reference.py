#!/usr/bin/env python3
"""The reference tool's formatting check, for side-by-side benchmarks.

usage: bench/pyyaml_reference.py DIR

For every *.yaml file under DIR: load all documents and dump them back the
way the reference tool (wwturldb) wrote them, `yaml.dump_all(docs,
explicit_start=True, sort_keys=True)`, and compare with the file's text.
Exit 1 if any file differs (its name is printed), 0 otherwise.

This runs pure-Python PyYAML on purpose (`yaml.SafeLoader` and
`yaml.SafeDumper`, not the libyaml-based `CSafeLoader`): the reference tool
used `yaml.load_all` / `yaml.dump_all` with the pure-Python classes, and
that is the speed its users know. `width` is made huge so that long scalars
are not folded (urldb never folds them), and an empty metadata document is
compared in urldb's bare `---` form (both are deliberate urldb choices,
docs/format.md); everything else is PyYAML's own decision.

Needs PyYAML (pip install pyyaml==6.0.3).
"""
import os
import sys

import yaml


def canonical(text):
    docs = list(yaml.load_all(text, Loader=yaml.SafeLoader))
    bare = bool(docs) and docs[0] is None
    if bare:
        docs[0] = {}
    out = yaml.dump_all(
        docs, Dumper=yaml.SafeDumper, explicit_start=True, sort_keys=True, width=10**9
    )
    if bare and out.startswith("--- {}\n"):
        out = "---\n" + out[len("--- {}\n"):]
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = argv[1]
    checked = differ = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.endswith(".yaml"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", newline="") as fh:
                text = fh.read()
            checked += 1
            try:
                same = canonical(text) == text
            except yaml.YAMLError as e:
                print(f"{path}: {e}".replace("\n", " "))
                same = False
            if not same:
                differ += 1
                print(f"would reformat {path}")
    print(f"{checked} files checked, {differ} would be reformatted", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
