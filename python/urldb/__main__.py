"""`python -m urldb ARGS`: run the installed urldb binary with ARGS."""

import os
import subprocess
import sys

from urldb import find_urldb_bin


def main() -> None:
    urldb = find_urldb_bin()
    if sys.platform == "win32":
        sys.exit(subprocess.call([urldb, *sys.argv[1:]]))
    os.execvp(urldb, [urldb, *sys.argv[1:]])


if __name__ == "__main__":
    main()
