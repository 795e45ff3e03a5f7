#!/usr/bin/env python3
"""A small, fast HTTP/1.1 server for the `urldb verify` benchmark.

Keep-alive, one event loop, no logging: every path answers 200 text/html
with a short body, except `/big/N`, which streams N bytes of
application/octet-stream (generated, never held whole in memory) so the
client's memory can be measured against the body size.

    python3 bench/verify_server.py PORT
"""

import asyncio
import sys

BODY = b"<p>ok</p>"
SMALL = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "
    + str(len(BODY)).encode()
    + b"\r\n\r\n"
    + BODY
)
CHUNK = bytes(i % 251 for i in range(65536))


async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            target = head.split(b" ", 2)[1]
            if target.startswith(b"/big/"):
                size = int(target[5:])
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                    b"Content-Length: " + str(size).encode() + b"\r\n\r\n"
                )
                left = size
                while left:
                    n = min(left, len(CHUNK))
                    writer.write(CHUNK[:n])
                    left -= n
                    await writer.drain()
            else:
                writer.write(SMALL)
                await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def main(port):
    server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
