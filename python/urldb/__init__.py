"""The urldb command-line tool, installed as a binary by the `urldb-cli`
wheel. `find_urldb_bin()` says where it is; `python -m urldb` runs it."""

import os
import sys
import sysconfig


def find_urldb_bin() -> str:
    """The path of the `urldb` binary this distribution installed."""
    exe = "urldb" + (sysconfig.get_config_var("EXE") or "")
    schemes = [sysconfig.get_default_scheme()]
    if sys.version_info >= (3, 10):
        schemes.append(sysconfig.get_preferred_scheme("user"))
    for scheme in schemes:
        path = os.path.join(sysconfig.get_path("scripts", scheme=scheme), exe)
        if os.path.isfile(path):
            return path
    # A --target or --prefix install: the scripts directory beside the package.
    here = os.path.dirname(os.path.abspath(__file__))
    for scripts in ("bin", "Scripts"):
        path = os.path.normpath(os.path.join(here, "..", "..", "..", "..", scripts, exe))
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(exe)
