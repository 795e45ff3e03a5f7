/*
 * bcryptprimitives.dll for Wine 8, which lacks it: only for running the
 * Windows build of urldb under Wine in this repository's tests
 * (tools/windows-tests, docs/dev/windows.md). Never shipped.
 *
 * Rust's standard library (1.78 and later) gets its random bytes from
 * ProcessPrng in bcryptprimitives.dll, which Windows 10 and later have and
 * Wine 8.0 does not: without this file beside urldb.exe, Wine stops the
 * program at load with "bcryptprimitives.dll not found". ProcessPrng fills
 * a buffer with random bytes and always returns TRUE; RtlGenRandom
 * (advapi32's SystemFunction036) does the same job, so this forwards to it.
 * The functions of the random generator only seed the hash maps' keys;
 * nothing in urldb depends on them beyond that.
 *
 * Built by tools/windows-tests with the mingw compiler that links urldb:
 *   x86_64-w64-mingw32-gcc -shared -o bcryptprimitives.dll \
 *       bcryptprimitives.c bcryptprimitives.def -ladvapi32
 */
#include <windows.h>

/* RtlGenRandom: declared here, since <ntsecapi.h> names it only by macro. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* SystemFunction036 takes a ULONG: fill a larger buffer in pieces. */
    while (length > 0) {
        ULONG piece = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
