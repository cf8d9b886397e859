#!/usr/bin/env node
// Generates tests/data/voice-kat/transport.json: known-answer vectors for the voice transport encryption
// (docs/voice-protocol.md, "Transport encryption": modes aead_aes256_gcm_rtpsize and
// aead_xchacha20_poly1305_rtpsize).
//
// Written from the documents only, never from the SDK's C++ code, so that both sides of the wire (the SDK and
// the emulator, which links the SDK's voice code) are checked against the platform's description:
//   - RTP packets are laid out from RFC 3550 section 5.1 (fixed header, CSRC list, header extension) and RFC 8285
//     section 4.2 (one-byte extension elements under the 0xBEDE profile);
//   - sealing follows docs/voice-protocol.md ("Transport encryption"): AAD = fixed header + CSRCs + (X set) the
//     4-byte extension preamble; the rest (extension body and payload) is encrypted; a u32 counter goes
//     big-endian into bytes 0..3 of a zeroed 12-byte (GCM) or 24-byte (XChaCha) nonce; the packet is
//     `clear part | ciphertext | tag | 4 nonce bytes`;
//   - AES-256-GCM and the IETF ChaCha20-Poly1305 come from node's crypto module; XChaCha20-Poly1305 is built
//     here from an HChaCha20 written in this file (draft-irtf-cfrg-xchacha-03 section 2.3).
// Before writing anything it checks those primitives against published answers (see kPublished) and stops if
// one differs. Dev-only: nothing at build or test time runs it.
//
// Usage: node tools/voice-kat/generate.mjs [output path]   (default: tests/data/voice-kat/transport.json)

import { createCipheriv, createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const fromHex = (text) => Buffer.from(text.replace(/\s+/g, ""), "hex");
const toHex = (bytes) => Buffer.from(bytes).toString("hex");

// ---- HChaCha20 (RFC 8439 section 2.1-2.3 state and rounds; draft-irtf-cfrg-xchacha-03 section 2.2) ----

const rotl32 = (v, n) => ((v << n) | (v >>> (32 - n))) >>> 0;

function quarterRound(s, a, b, c, d) {
  s[a] = (s[a] + s[b]) >>> 0;
  s[d] = rotl32(s[d] ^ s[a], 16);
  s[c] = (s[c] + s[d]) >>> 0;
  s[b] = rotl32(s[b] ^ s[c], 12);
  s[a] = (s[a] + s[b]) >>> 0;
  s[d] = rotl32(s[d] ^ s[a], 8);
  s[c] = (s[c] + s[d]) >>> 0;
  s[b] = rotl32(s[b] ^ s[c], 7);
}

// key: 32 bytes; input: 16 bytes. Returns the 32-byte subkey: state words 0..3 and 12..15 after the 20 rounds,
// with no feed-forward addition (that is what distinguishes HChaCha20 from the ChaCha20 block function).
function hchacha20(key, input) {
  if (key.length !== 32 || input.length !== 16) throw new Error("hchacha20: bad sizes");
  const state = new Uint32Array(16);
  state[0] = 0x61707865; // "expa"
  state[1] = 0x3320646e; // "nd 3"
  state[2] = 0x79622d32; // "2-by"
  state[3] = 0x6b206574; // "te k"
  for (let i = 0; i < 8; ++i) state[4 + i] = key.readUInt32LE(4 * i);
  for (let i = 0; i < 4; ++i) state[12 + i] = input.readUInt32LE(4 * i);
  for (let round = 0; round < 10; ++round) {
    quarterRound(state, 0, 4, 8, 12); // columns
    quarterRound(state, 1, 5, 9, 13);
    quarterRound(state, 2, 6, 10, 14);
    quarterRound(state, 3, 7, 11, 15);
    quarterRound(state, 0, 5, 10, 15); // diagonals
    quarterRound(state, 1, 6, 11, 12);
    quarterRound(state, 2, 7, 8, 13);
    quarterRound(state, 3, 4, 9, 14);
  }
  const out = Buffer.alloc(32);
  [0, 1, 2, 3, 12, 13, 14, 15].forEach((word, i) => out.writeUInt32LE(state[word], 4 * i));
  return out;
}

// ---- the AEADs: {ciphertext, tag} ----

function sealWith(cipherName, key, nonce, aad, plain) {
  const cipher = createCipheriv(cipherName, key, nonce, { authTagLength: 16 });
  cipher.setAAD(aad, { plaintextLength: plain.length });
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { ciphertext, tag: cipher.getAuthTag() };
}

const aes256GcmSeal = (key, nonce12, aad, plain) => sealWith("aes-256-gcm", key, nonce12, aad, plain);
const chacha20Poly1305Seal = (key, nonce12, aad, plain) => sealWith("chacha20-poly1305", key, nonce12, aad, plain);

// draft-irtf-cfrg-xchacha-03 section 2.3: subkey = HChaCha20(key, nonce[0..16]); then the IETF AEAD with the
// subkey and the 12-byte nonce `4 zero bytes | nonce[16..24]`.
function xchacha20Poly1305Seal(key, nonce24, aad, plain) {
  if (nonce24.length !== 24) throw new Error("xchacha: the nonce is 24 bytes");
  const subkey = hchacha20(key, nonce24.subarray(0, 16));
  const ietfNonce = Buffer.concat([Buffer.alloc(4), nonce24.subarray(16, 24)]);
  return chacha20Poly1305Seal(subkey, ietfNonce, aad, plain);
}

// ---- published answers the primitives must reproduce before anything is generated ----

const kSunscreen = Buffer.from(
  "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.",
  "ascii",
);
const range = (first, count) => Buffer.from(Array.from({ length: count }, (_, i) => first + i));

const kPublished = [
  {
    source: "draft-irtf-cfrg-xchacha-03 section 2.2.1 (HChaCha20)",
    run: () => toHex(hchacha20(range(0x00, 32), fromHex("000000090000004a0000000031415927"))),
    expect: "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc",
  },
  {
    source: "draft-irtf-cfrg-xchacha-03 appendix A.3.1 (AEAD_XChaCha20_Poly1305)",
    run: () => {
      const { ciphertext, tag } = xchacha20Poly1305Seal(range(0x80, 32), range(0x40, 24),
        fromHex("50515253c0c1c2c3c4c5c6c7"), kSunscreen);
      return toHex(ciphertext) + toHex(tag);
    },
    expect:
      "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb" +
      "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452" +
      "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9" +
      "21f9664c97637da9768812f615c68b13b52e" +
      "c0875924c1c7987947deafd8780acf49",
  },
  {
    source: "RFC 8439 section 2.8.2 (AEAD_CHACHA20_POLY1305)",
    run: () => {
      const { ciphertext, tag } = chacha20Poly1305Seal(range(0x80, 32), fromHex("070000004041424344454647"),
        fromHex("50515253c0c1c2c3c4c5c6c7"), kSunscreen);
      return toHex(ciphertext) + toHex(tag);
    },
    expect:
      "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b" +
      "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc" +
      "3ff4def08e4b7a9de576d26586cec64b6116" +
      "1ae10b594f09e26a7e902ecbd0600691",
  },
  {
    source: "The Galois/Counter Mode of Operation (McGrew, Viega), test case 16 (AES-256, 96-bit IV, AAD)",
    run: () => {
      const { ciphertext, tag } = aes256GcmSeal(
        fromHex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"),
        fromHex("cafebabefacedbaddecaf888"), fromHex("feedfacedeadbeeffeedfacedeadbeefabaddad2"),
        fromHex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" +
          "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"));
      return toHex(ciphertext) + toHex(tag);
    },
    expect:
      "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa" +
      "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662" +
      "76fc6ece0f4e1768cddf8853bb2d551b",
  },
];

for (const check of kPublished) {
  const got = check.run();
  if (got !== check.expect) {
    console.error(`self-check FAILED: ${check.source}\n  got    ${got}\n  expect ${check.expect}`);
    process.exit(1);
  }
  console.error(`self-check ok: ${check.source}`);
}

// ---- RTP (RFC 3550 section 5.1, RFC 8285 section 4.2) ----

// One-byte-header extension elements: each `ID (4 bits) | L = length - 1 (4 bits) | data`, then zero padding
// to a multiple of 4 bytes.
function oneByteExtensionBody(elements) {
  const parts = [];
  for (const { id, data } of elements) {
    if (id < 1 || id > 14 || data.length < 1 || data.length > 16) throw new Error("bad one-byte element");
    parts.push(Buffer.from([(id << 4) | (data.length - 1)]), data);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, Buffer.alloc((4 - (body.length % 4)) % 4)]);
}

// Returns {packet, clearSize, extensionBodySize, header}: the whole RTP packet, per docs/voice-protocol.md
// ("Transport encryption") how much of it is the clear (authenticated) part, and the header's fields as the
// vectors record them.
function rtpPacket({ marker = false, payloadType = 0x78, sequence, timestamp, ssrc, csrcs = [], extension,
  payload }) {
  if (csrcs.length > 15) throw new Error("at most 15 CSRCs");
  const fixed = Buffer.alloc(12);
  fixed[0] = (2 << 6) | (0 << 5) | ((extension ? 1 : 0) << 4) | csrcs.length; // V=2, P=0, X, CC
  fixed[1] = ((marker ? 1 : 0) << 7) | payloadType;
  fixed.writeUInt16BE(sequence, 2);
  fixed.writeUInt32BE(timestamp, 4);
  fixed.writeUInt32BE(ssrc, 8);
  const csrcList = Buffer.alloc(4 * csrcs.length);
  csrcs.forEach((csrc, i) => csrcList.writeUInt32BE(csrc, 4 * i));
  let preamble = Buffer.alloc(0);
  let extensionBody = Buffer.alloc(0);
  if (extension) {
    extensionBody = extension.body;
    if (extensionBody.length % 4 !== 0) throw new Error("an extension body is whole 32-bit words");
    preamble = Buffer.alloc(4);
    preamble.writeUInt16BE(extension.profile, 0);
    preamble.writeUInt16BE(extensionBody.length / 4, 2);
  }
  const clear = Buffer.concat([fixed, csrcList, preamble]);
  const header = { marker, payload_type: payloadType, sequence, timestamp, ssrc, csrcs, extension: !!extension };
  if (extension) header.extension_profile = extension.profile;
  header.clear_size = clear.length;
  header.extension_body_size = extensionBody.length;
  return {
    packet: Buffer.concat([clear, extensionBody, payload]),
    clearSize: clear.length,
    extensionBodySize: extensionBody.length,
    header,
  };
}

// ---- sealing as docs/voice-protocol.md describes the rtpsize modes ----

const kModes = {
  aead_aes256_gcm_rtpsize: { nonceSize: 12, seal: aes256GcmSeal },
  aead_xchacha20_poly1305_rtpsize: { nonceSize: 24, seal: xchacha20Poly1305Seal },
};

function sealRtpsize(modeName, key, counter, rtp) {
  const mode = kModes[modeName];
  const nonce = Buffer.alloc(mode.nonceSize); // zeroed
  nonce.writeUInt32BE(counter, 0); // the counter, big-endian, in bytes 0..3
  const aad = rtp.packet.subarray(0, rtp.clearSize);
  const plain = rtp.packet.subarray(rtp.clearSize); // extension body and payload
  const { ciphertext, tag } = mode.seal(key, nonce, aad, plain);
  const suffix = nonce.subarray(0, 4);
  return { nonce, sealed: Buffer.concat([aad, ciphertext, tag, suffix]) };
}

// ---- the vectors ----

// Deterministic bytes: SHA-256 in counter mode over a label, so anyone can recompute them.
function labelledBytes(label, length) {
  const out = [];
  for (let block = 0; out.length * 32 < length; ++block)
    out.push(createHash("sha256").update(`${label}#${block}`).digest());
  return Buffer.concat(out).subarray(0, length);
}

// An Opus-looking payload: TOC 0xFC (config 31: CELT fullband 20 ms, stereo, one frame), then filler.
const opusPayload = (label, length) => Buffer.concat([Buffer.from([0xfc]), labelledBytes(label, length - 1)]);
const kSilence = Buffer.from([0xf8, 0xff, 0xfe]);

const kSsrc = 0x0001e240; // 123456

const packets = [
  {
    name: "plain",
    about: "fixed header only (V=2, PT 120), a 40-byte Opus payload, the first nonce",
    counter: 0x00000000,
    rtp: { sequence: 1, timestamp: 960, ssrc: kSsrc, payload: opusPayload("plain", 40) },
  },
  {
    name: "silence",
    about: "the silence frame F8 FF FE after speech",
    counter: 0x00000001,
    rtp: { sequence: 0x1234, timestamp: 0x00123400, ssrc: kSsrc, payload: kSilence },
  },
  {
    name: "csrc",
    about: "marker set, two CSRCs in the clear part, a 100-byte payload (more than one ChaCha20 block)",
    counter: 0x00010000,
    rtp: {
      marker: true, sequence: 0x8000, timestamp: 0x01000000, ssrc: kSsrc, csrcs: [0xcafebabe, 0x0badf00d],
      payload: opusPayload("csrc", 100),
    },
  },
  {
    name: "extension",
    about: "X set, 0xBEDE preamble in the clear part, a 2-word one-byte-element body encrypted with the payload",
    counter: 0x7fffffff,
    rtp: {
      sequence: 0x00ff, timestamp: 0x000f0000, ssrc: kSsrc,
      extension: {
        profile: 0xbede,
        body: oneByteExtensionBody([
          { id: 1, data: Buffer.from([0x9e]) }, // e.g. RFC 6464 audio level: V=1, level 30
          { id: 5, data: Buffer.from([0x12, 0x34]) },
        ]),
      },
      payload: opusPayload("extension", 32),
    },
  },
  {
    name: "extension_empty_body",
    about: "X set with a zero-length extension (only the preamble, all of it clear)",
    counter: 0x00000100,
    rtp: {
      sequence: 7, timestamp: 6720, ssrc: kSsrc, extension: { profile: 0xbede, body: Buffer.alloc(0) },
      payload: opusPayload("extension_empty_body", 20),
    },
  },
  {
    name: "csrc_extension_near_wrap",
    about: "one CSRC and an extension, marker set; nonce 0xFFFFFFFE, two before the counter wraps",
    counter: 0xfffffffe,
    rtp: {
      marker: true, sequence: 0xfffe, timestamp: 0xfffff880, ssrc: 0xfedcba98, csrcs: [0x00000001],
      extension: {
        profile: 0xbede,
        body: oneByteExtensionBody([{ id: 3, data: Buffer.from([0x01, 0x02, 0x03]) }]),
      },
      payload: opusPayload("csrc_extension_near_wrap", 64),
    },
  },
  {
    name: "last_nonce",
    about: "fixed header only; nonce 0xFFFFFFFF, the last before the counter wraps (follows the previous one)",
    counter: 0xffffffff,
    rtp: { sequence: 0xffff, timestamp: 0xfffffc40, ssrc: 0xfedcba98, payload: opusPayload("last_nonce", 20) },
  },
];

const kKeys = {
  aead_aes256_gcm_rtpsize: createHash("sha256").update("platformpp voice-kat aead_aes256_gcm_rtpsize key").digest(),
  aead_xchacha20_poly1305_rtpsize: createHash("sha256")
    .update("platformpp voice-kat aead_xchacha20_poly1305_rtpsize key")
    .digest(),
};

const vectors = [];
for (const mode of Object.keys(kModes)) {
  for (const spec of packets) {
    const rtp = rtpPacket(spec.rtp);
    const { nonce, sealed } = sealRtpsize(mode, kKeys[mode], spec.counter, rtp);
    vectors.push({
      name: `${mode}/${spec.name}`,
      about: spec.about,
      mode,
      key: toHex(kKeys[mode]),
      counter: spec.counter,
      nonce: toHex(nonce),
      header: rtp.header,
      rtp: toHex(rtp.packet),
      sealed: toHex(sealed),
    });
  }
}

const here = dirname(fileURLToPath(import.meta.url));
const output = process.argv[2] ?? resolve(here, "../../tests/data/voice-kat/transport.json");
const document = {
  generator: "tools/voice-kat/generate.mjs",
  published_checks: kPublished.map((check) => check.source),
  vectors,
};
writeFileSync(output, JSON.stringify(document, null, 2) + "\n");
console.error(`wrote ${vectors.length} vectors to ${output}`);
