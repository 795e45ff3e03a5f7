/*
 * hold-open.exe [--share-delete | --lock] FILE
 *
 * Open FILE as another Windows program would, print "open", and keep it
 * so until standard input ends. Only for the Windows run of the tests
 * (tools/windows-tests, docs/dev/windows.md; tests/it/systems/): the
 * holder must be a Windows program for Wine to apply Windows' rules to
 * it, since a Linux process has neither share modes nor Windows locks.
 *
 *   (default)        read, sharing reading and writing but not deletion,
 *                    as most programs open a file (C's fopen, Python's
 *                    open, many editors): on Windows no rename can
 *                    replace the file meanwhile, which is how urldb writes
 *                    (crates/urldb-store/src/write.rs)
 *   --share-delete   read, sharing deletion too, as Rust's std and .NET's
 *                    FileShare.Delete open: a rename may replace the file
 *   --lock           read and write, sharing everything, with an exclusive
 *                    lock on the whole file (LockFileEx): how a urldb
 *                    writer holds FILE.lock
 */
#include <stdio.h>
#include <wchar.h>
#include <windows.h>

int wmain(int argc, wchar_t **argv)
{
    DWORD access = GENERIC_READ;
    DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE;
    int lock = 0;
    if (argc == 3 && wcscmp(argv[1], L"--share-delete") == 0) {
        share |= FILE_SHARE_DELETE;
    } else if (argc == 3 && wcscmp(argv[1], L"--lock") == 0) {
        access |= GENERIC_WRITE;
        share |= FILE_SHARE_DELETE;
        lock = 1;
    } else if (argc != 2) {
        fputs("usage: hold-open [--share-delete | --lock] FILE\n", stderr);
        return 2;
    }
    HANDLE file = CreateFileW(argv[argc - 1], access, share, NULL,
                              OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE) {
        fprintf(stderr, "hold-open: cannot open the file (error %lu)\n",
                GetLastError());
        return 1;
    }
    if (lock) {
        OVERLAPPED whole = {0};
        if (!LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY,
                        0, MAXDWORD, MAXDWORD, &whole)) {
            fprintf(stderr, "hold-open: cannot lock the file (error %lu)\n",
                    GetLastError());
            return 1;
        }
    }
    puts("open");
    fflush(stdout);
    /* Until the test closes our standard input. */
    char buffer[64];
    while (fread(buffer, 1, sizeof buffer, stdin) > 0) {
    }
    CloseHandle(file);
    return 0;
}
