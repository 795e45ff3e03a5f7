#!/usr/bin/env python3
"""Write a database as the reference tool would (PyYAML), for measurements.

usage: bench/gen_pyyaml_db.py DIR [FILES] [RECORDS_PER_FILE] [SEED]
Deterministic for a given seed. Needs PyYAML (pip install pyyaml==6.0.3).
"""
import hashlib
import os
import random
import sys

import yaml

out = sys.argv[1]
files = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
per_file = int(sys.argv[3]) if len(sys.argv) > 3 else 100
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
os.makedirs(out, exist_ok=True)
cats = ["coreapp", "frontend", "graphics", "deprecated", "redirect-ok", "static", "api"]
types = ["text/html", "text/html; charset=utf-8", "application/json", "image/png", "X-301-Redirect"]
for f in range(files):
    records = {}
    for i in range(per_file):
        path = "/section-%d/page-%05d%s" % (rng.randrange(20), i, rng.choice(["", ".html", "?q=%d&x=y" % i]))
        r = {"_path": path, "content-type": rng.choice(types)}
        if rng.random() < 0.6:
            r["categories"] = sorted(rng.sample(cats, rng.randint(1, 3)))
        if rng.random() < 0.2:
            r["content-length"] = rng.randrange(10**7)
            r["content-sha256"] = hashlib.sha256(str(rng.random()).encode()).hexdigest()
        records[path] = r
    meta = {"cnames": ["www.site%04d.example" % f]} if f % 2 else {"https": True}
    docs = [meta] + [records[p] for p in sorted(records)]
    with open(os.path.join(out, "site%04d.example.yaml" % f), "w") as fh:
        fh.write(yaml.dump_all(docs, explicit_start=True, sort_keys=True, width=10**9))
