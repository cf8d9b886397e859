#!/usr/bin/env python3
"""Recomputes every sealed packet of tests/data/voice-kat/transport.json a second way (dev-only).

Independent of generate.mjs in its code path: Python's `cryptography` package (its wheel carries its own
OpenSSL build) seals with AES-256-GCM and the IETF ChaCha20-Poly1305, and HChaCha20 is taken from that
package's raw ChaCha20 keystream (a ChaCha20 block is the permuted state plus the input state, so subtracting
the input words 0..3 and 12..15 leaves HChaCha20's output) instead of from a second hand-written permutation.
The packet split (clear part, nonce layout, suffix) is re-derived from the RTP bytes per docs/voice-protocol.md,
"Transport encryption".

Usage: python3 tools/voice-kat/crosscheck.py [transport.json]
"""
import json
import pathlib
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

SIGMA = struct.unpack("<4I", b"expand 32-byte k")


def hchacha20(key: bytes, block_input: bytes) -> bytes:
    # cryptography's ChaCha20 takes 16 bytes: the initial state words 12..15 (counter and nonce).
    keystream = Cipher(algorithms.ChaCha20(key, block_input), mode=None).encryptor().update(bytes(64))
    words = struct.unpack("<16I", keystream)
    initial = list(SIGMA) + list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", block_input))
    picked = [(words[i] - initial[i]) & 0xFFFFFFFF for i in (0, 1, 2, 3, 12, 13, 14, 15)]
    return struct.pack("<8I", *picked)


def clear_size(rtp: bytes) -> int:
    # RFC 3550 5.1 layout; docs/voice-protocol.md, "Transport encryption": fixed header + CSRCs + (X set) the
    # 4-byte extension preamble.
    size = 12 + 4 * (rtp[0] & 0x0F)
    if rtp[0] & 0x10:
        size += 4
    return size


def seal(mode: str, key: bytes, counter: int, rtp: bytes) -> bytes:
    split = clear_size(rtp)
    aad, plain = rtp[:split], rtp[split:]
    prefix = struct.pack(">I", counter)
    if mode == "aead_aes256_gcm_rtpsize":
        body = AESGCM(key).encrypt(prefix + bytes(8), plain, aad)
    elif mode == "aead_xchacha20_poly1305_rtpsize":
        nonce = prefix + bytes(20)
        body = ChaCha20Poly1305(hchacha20(key, nonce[:16])).encrypt(bytes(4) + nonce[16:], plain, aad)
    else:
        raise ValueError(mode)
    return aad + body + prefix


def main() -> int:
    here = pathlib.Path(__file__).resolve().parent
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "../../tests/data/voice-kat/transport.json"
    # draft-irtf-cfrg-xchacha-03 section 2.2.1, so that the keystream trick above is itself checked.
    assert hchacha20(bytes(range(32)), bytes.fromhex("000000090000004a0000000031415927")).hex() == (
        "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc")
    vectors = json.loads(path.read_text())["vectors"]
    failed = 0
    for v in vectors:
        rtp = bytes.fromhex(v["rtp"])
        ok = (seal(v["mode"], bytes.fromhex(v["key"]), v["counter"], rtp).hex() == v["sealed"]
              and clear_size(rtp) == v["header"]["clear_size"])
        failed += not ok
        print(("ok   " if ok else "FAIL ") + v["name"])
    print(f"{len(vectors) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
