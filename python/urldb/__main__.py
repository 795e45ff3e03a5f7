"""`python -m urldb ARGS`: run the installed urldb binary with ARGS."""

import os
import subprocess
import sys

from urldb import find_urldb_bin


def main() -> None:
    try:
        urldb = find_urldb_bin()
    except FileNotFoundError:
        sys.stderr.write(
            "error: the urldb binary of the urldb-cli wheel is not installed beside this "
            "module; reinstall it: pip install --force-reinstall urldb-cli\n"
        )
        sys.exit(2)
    if sys.platform == "win32":
        sys.exit(subprocess.call([urldb, *sys.argv[1:]]))
    os.execvp(urldb, [urldb, *sys.argv[1:]])


if __name__ == "__main__":
    main()
