"""The urldb command-line tool, installed as a binary by the `urldb-cli`
wheel. `find_urldb_bin()` says where it is; `python -m urldb` runs it.

The wheel declares Python 3.8 and newer: nothing here may use what only a
newer Python has (`sysconfig.get_default_scheme` and
`get_preferred_scheme` are 3.10's).
"""

import os
import sys
import sysconfig


def _user_scheme() -> str:
    """The install scheme of `pip install --user` on this Python."""
    if sys.version_info >= (3, 10):
        return sysconfig.get_preferred_scheme("user")
    if os.name == "nt":
        return "nt_user"
    if sys.platform == "darwin" and getattr(sys, "_framework", None):
        return "osx_framework_user"
    return os.name + "_user"


def _candidates(exe: str):
    """Where pip may have put the binary, most likely first."""
    # A virtual environment or the interpreter's own prefix (the default
    # scheme on every Python).
    yield os.path.join(sysconfig.get_path("scripts"), exe)
    # `pip install --user`.
    try:
        yield os.path.join(sysconfig.get_path("scripts", scheme=_user_scheme()), exe)
    except KeyError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    for scripts in ("bin", "Scripts"):
        # `pip install --target DIR`: DIR/urldb/ and DIR/bin/.
        yield os.path.join(os.path.dirname(here), scripts, exe)
        # `pip install --prefix DIR`: DIR/lib/pythonX.Y/site-packages/urldb/
        # and DIR/bin/.
        yield os.path.normpath(os.path.join(here, "..", "..", "..", "..", scripts, exe))


def find_urldb_bin() -> str:
    """The path of the `urldb` binary this distribution installed."""
    exe = "urldb" + (sysconfig.get_config_var("EXE") or "")
    for path in _candidates(exe):
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(exe)
