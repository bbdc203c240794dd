#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""seal_ref.py VECTORS - the commitment and the bit stream of sealed draws,
implemented again from Documentation/userspace-api/fairdie.rst alone, in
another language: Python's hashlib for SHA-256 and ChaCha20 written out
from its description (RFC 7539 section 2.3, with DJB's original layout: a
64-bit block counter from 0 in words 12-13 and a 64-bit nonce of zeros).
Checks every vector's commitment, stream key and stream prefix; prints
"N vectors agree", exit 0, or names the first that does not, exit 1.
A test of the specification, not part of the tool."""

import hashlib
import struct
import sys

MASK = 0xFFFFFFFF


def rotl(v, c):
    return ((v << c) & MASK) | (v >> (32 - c))


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK
    s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK
    s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK
    s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK
    s[b] = rotl(s[b] ^ s[c], 7)


def chacha20_block(key, counter):
    state = ([0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] +
             list(struct.unpack("<8I", key)) +
             [counter & MASK, counter >> 32, 0, 0])
    w = state[:]
    for _ in range(10):
        quarter(w, 0, 4, 8, 12)
        quarter(w, 1, 5, 9, 13)
        quarter(w, 2, 6, 10, 14)
        quarter(w, 3, 7, 11, 15)
        quarter(w, 0, 5, 10, 15)
        quarter(w, 1, 6, 11, 12)
        quarter(w, 2, 7, 8, 13)
        quarter(w, 3, 4, 9, 14)
    return struct.pack("<16I", *[(x + y) & MASK for x, y in zip(w, state)])


def field(b):
    """A string of bytes, its length first (8 bytes, big-endian)."""
    return struct.pack(">Q", len(b)) + b


def request(args, data):
    r = struct.pack(">Q", len(args)) + b"".join(field(a.encode()) for a in args)
    if data is None:
        return r + struct.pack(">Q", 0)
    return r + struct.pack(">Q", 1) + field(data)


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    n = 0
    for vec in text.strip().split("\n\n"):
        f, inputs = {}, []
        for line in vec.split("\n"):
            k, _, v = line.partition(": ")
            if k == "input":
                inputs.append(v + "\n")
            elif k != "outcome":
                f[k] = v
        args = f["request"].split(" ")
        data = "".join(inputs).encode() if inputs else None
        secret = bytes.fromhex(f["secret"])
        req = request(args, data)
        commit = hashlib.sha256(field(b"fairdie commit v1") + field(secret) +
                                field(f["public"].encode()) + req).hexdigest()
        key = hashlib.sha256(field(b"fairdie stream v1") + field(secret) +
                             field(f.get("value", "").encode()) + req).digest()
        nbytes = len(f["stream"]) // 2
        stream = b"".join(chacha20_block(key, i)
                          for i in range((nbytes + 63) // 64))[:nbytes]
        for name, got in (("commitment", commit), ("stream_key", key.hex()),
                          ("stream", stream.hex())):
            if got != f[name]:
                print("vector %d (%s): %s differs" % (n + 1, f["request"], name))
                return 1
        n += 1
    print("%d vectors agree" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
