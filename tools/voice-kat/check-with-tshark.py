#!/usr/bin/env python3
"""Has Wireshark's RTP/RTCP dissectors read the packets of tests/data/voice-kat (dev-only).

The RTP vectors of rtp.json were laid out by hand from RFC 3550 and RFC 8285; the plaintext packets of
transport.json were laid out by generate.mjs. This script wraps each in a UDP datagram (text2pcap), decodes it
with tshark as RTP (or RTCP for the RFC 3550 section 6 packets) and compares every header field tshark reports
with the fields the vector states, and the clear part's size (docs/voice-protocol.md, "Transport encryption":
fixed header + CSRCs + the extension preamble) with what those fields imply. Runts, wrong versions and the cases
that rest on docs/voice-protocol.md alone are not dissected. Needs the Debian package tshark (it brings
text2pcap).

Usage: python3 tools/voice-kat/check-with-tshark.py
"""
import json
import pathlib
import subprocess
import sys
import tempfile

DATA = pathlib.Path(__file__).resolve().parent / "../../tests/data/voice-kat"
RTP_FIELDS = ["rtp.version", "rtp.ext", "rtp.cc", "rtp.marker", "rtp.p_type", "rtp.seq", "rtp.timestamp",
              "rtp.ssrc", "rtp.csrc.item", "rtp.ext.profile", "rtp.ext.len"]
RTCP_FIELDS = ["rtcp.version", "rtcp.pt", "rtcp.length", "rtcp.senderssrc"]


def dissect(packet: bytes, protocol: str, fields: list[str]) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        text = pathlib.Path(tmp, "packet.txt")
        pcap = pathlib.Path(tmp, "packet.pcap")
        text.write_text("0000 " + " ".join("%02x" % b for b in packet) + "\n")
        subprocess.run(["text2pcap", "-q", "-u", "5004,5004", str(text), str(pcap)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        args = ["tshark", "-r", str(pcap), "-d", f"udp.port==5004,{protocol}", "-T", "fields",
                "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,"]
        for field in fields:
            args += ["-e", field]
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()
    return dict(zip(fields, out.split("|")))


def check_rtp(name: str, packet: bytes, expect: dict) -> list[str]:
    got = dissect(packet, "rtp", RTP_FIELDS)
    ext = got["rtp.ext"] in ("1", "True")
    wanted = {
        "rtp.version": "2",
        "rtp.cc": str(len(expect["csrcs"])),
        "rtp.marker": "1" if expect["marker"] else "0",
        "rtp.p_type": str(expect["payload_type"]),
        "rtp.seq": str(expect["sequence"]),
        "rtp.timestamp": str(expect["timestamp"]),
        "rtp.ssrc": "0x%08x" % expect["ssrc"],
        "rtp.csrc.item": ",".join("0x%08x" % c for c in expect["csrcs"]),
    }
    problems = [f"{name}: {k} is {got.get(k)!r}, the vector says {v!r}" for k, v in wanted.items() if got.get(k) != v]
    if ext != expect["extension"]:
        problems.append(f"{name}: extension bit {ext}")
    words = int(got["rtp.ext.len"]) if ext else 0
    if ext and int(got["rtp.ext.profile"], 16) != expect.get("extension_profile"):
        problems.append(f"{name}: profile {got['rtp.ext.profile']}")
    clear = 12 + 4 * int(got["rtp.cc"]) + (4 if ext else 0)
    if clear != expect["clear_size"] or 4 * words != expect["extension_body_size"]:
        problems.append(f"{name}: clear {clear} / body {4 * words} from tshark's fields")
    return problems


def main() -> int:
    problems, checked = [], 0
    for entry in json.loads((DATA / "rtp.json").read_text())["packets"]:
        packet = bytes.fromhex(entry["hex"].replace(" ", ""))
        if entry["expect"] and entry["source"].startswith("RFC"):
            problems += check_rtp(entry["name"], packet, entry["expect"])
            checked += 1
        elif entry["rtcp"] and entry["source"].startswith("RFC 3550 6"):
            got = dissect(packet, "rtcp", RTCP_FIELDS)
            if got["rtcp.version"] != "2" or int(got["rtcp.pt"]) != 200 + (packet[1] & 0x7F) - 72 or \
                    int(got["rtcp.length"]) != len(packet) // 4 - 1:
                problems.append(f"{entry['name']}: tshark reads {got}")
            checked += 1
    for vector in json.loads((DATA / "transport.json").read_text())["vectors"]:
        packet = bytes.fromhex(vector["rtp"])
        problems += check_rtp(vector["name"], packet, vector["header"])
        checked += 1
    for problem in problems:
        print(problem)
    print(f"{checked} packets dissected, {len(problems)} disagreement(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
