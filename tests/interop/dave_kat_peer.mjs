// The independent side of the DAVE known-answer vectors (tests/data/dave-kat): one member of a DAVE group on
// @snazzah/davey (Rust, OpenMLS), driven by tests/interop/dave_kat_generator.cpp through stdin and stdout, one
// JSON object a line each way, binary values in hex. It makes the group's first commit (adding the generator's
// member), encrypts Opus frames with its sender key ratchet, and reports what the group shows (epoch
// authenticator, privacy code, the pairwise verification code). The vectors are its answers.
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const davey = require('@snazzah/davey');
const version = require('@snazzah/davey/package.json').version;

let session = null;
const hex = (buffer) => Buffer.from(buffer).toString('hex');
const bytes = (text) => Buffer.from(text, 'hex');
const reply = (value) => process.stdout.write(JSON.stringify(value) + '\n');

const commands = {
  init({ user, channel, externalSender }) {
    session = new davey.DAVESession(davey.DAVE_PROTOCOL_VERSION, user, channel);
    session.setExternalSender(bytes(externalSender));
    return { version, protocolVersion: davey.DAVE_PROTOCOL_VERSION, keyPackage: hex(session.getSerializedKeyPackage()) };
  },
  proposals({ payload, users }) {
    const data = bytes(payload);
    const { commit, welcome } = session.processProposals(data[0], data.subarray(1), users);
    return { commit: commit ? hex(commit) : null, welcome: welcome ? hex(welcome) : null };
  },
  commit({ commit }) {
    session.processCommit(bytes(commit));
    return {
      epoch: Number(session.epoch),
      ready: session.ready,
      epochAuthenticator: hex(session.getEpochAuthenticator()),
      privacyCode: session.voicePrivacyCode,
    };
  },
  // Encrypts `frames` (hex Opus payloads), after first encrypting `skip` throwaway frames: the sender's nonce
  // counts every frame, so a skip of 2^24 reaches the key ratchet's next generation.
  encrypt({ frames, skip }) {
    const filler = Buffer.from([0xf8, 0xff, 0xfe, 0x01]);
    for (let i = 0; i < (skip || 0); ++i) session.encryptOpus(filler);
    return { encrypted: frames.map((frame) => hex(session.encryptOpus(bytes(frame)))) };
  },
  async verification({ user }) {
    return { code: await session.getVerificationCode(user) };
  },
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const request = JSON.parse(line);
  try {
    reply({ ok: true, ...(await commands[request.cmd](request)) });
  } catch (e) {
    reply({ ok: false, error: String(e && e.stack ? e.stack : e) });
  }
}
