// A DAVE call member built on an independent implementation of the protocol (@snazzah/davey: Rust, OpenMLS),
// speaking the platform's wire protocols to platformpp-emulator by itself: the Gateway (Identify, a lobby
// join by secret over HTTP, op 4), the voice gateway v8 (Identify with max_dave_protocol_version 1, IP
// discovery, Select Protocol, heartbeats, DAVE opcodes 21-31) and RTP over UDP with aead_aes256_gcm_rtpsize.
// It sends the Opus frames it is given, end-to-end encrypted by davey, and decrypts what the others send.
//
// Driven by tests/integration/dave_interop_test.cpp: one JSON argument, one JSON event per stdout line, and it
// ends on SIGTERM or after `durationMs`.
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import https from 'node:https';
import { createRequire } from 'node:module';
import WebSocket from 'ws';

const require = createRequire(import.meta.url);
const davey = require('@snazzah/davey');

const args = JSON.parse(process.argv[2]);
const ca = fs.readFileSync(args.caFile);
const frames = fs
  .readFileSync(args.framesFile, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => Buffer.from(line, 'hex'));

const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const fail = (message) => {
  emit({ event: 'error', message: String(message) });
  process.exit(1);
};
process.on('uncaughtException', (e) => fail(e.stack || e));

const stats = { decrypted: 0, decryptFailures: 0, sent: 0, received: 0 };
let session = null;
const recognized = new Set([args.userId]);
const ssrcToUser = new Map();

// ---- HTTP: join the lobby by its secret, as a game would -----------------------------------------------
function request(method, url, body) {
  return new Promise((resolve, reject) => {
    const data = body ? Buffer.from(JSON.stringify(body)) : null;
    const req = https.request(
      url,
      {
        method,
        ca,
        headers: {
          Authorization: `Bearer ${args.token}`,
          'Content-Type': 'application/json',
          ...(data ? { 'Content-Length': data.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

// ---- the voice gateway ----------------------------------------------------------------------------------
function connectVoice({ endpoint, token }, gatewaySessionId) {
  const ws = new WebSocket(`wss://${endpoint}/?v=8`, { ca });
  const udp = dgram.createSocket('udp4');
  let seqAck = -1;
  let ssrc = 0;
  let secretKey = null;
  let server = null;
  let nonce = 0;
  let rtpSeq = 0;
  let timestamp = 0;
  let sender = null;
  let externalSender = null; // op 25 comes once per voice session; a new group (op 24) needs it again
  const sendJson = (op, d) => ws.send(JSON.stringify({ op, d }));
  const sendBinary = (op, payload) => ws.send(Buffer.concat([Buffer.from([op]), payload]));
  const announce = (transitionId) => {
    if (!session || !session.ready) return;
    emit({
      event: 'e2ee',
      transitionId,
      epoch: Number(session.epoch),
      privacyCode: session.voicePrivacyCode,
      users: session.getUserIds(),
    });
    if (session.getUserIds().includes(args.watchUserId)) {
      session.getVerificationCode(args.watchUserId).then((code) =>
        emit({ event: 'verification', userId: args.watchUserId, code }),
      );
    }
  };
  const newSession = () => {
    if (session) session.reinit(1, args.userId, args.lobbyId);
    else session = new davey.DAVESession(1, args.userId, args.lobbyId);
  };

  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      const seq = data.readUInt16BE(0);
      seqAck = seq;
      const op = data[2];
      const payload = data.subarray(3);
      if (op === 25) {
        externalSender = Buffer.from(payload);
        session.setExternalSender(payload);
        sendBinary(26, session.getSerializedKeyPackage());
      } else if (op === 27) {
        const { commit, welcome } = session.processProposals(payload[0], payload.subarray(1), [...recognized]);
        if (commit) sendBinary(28, welcome ? Buffer.concat([commit, welcome]) : commit);
      } else if (op === 29 || op === 30) {
        const transitionId = payload.readUInt16BE(0);
        try {
          if (op === 29) session.processCommit(payload.subarray(2));
          else session.processWelcome(payload.subarray(2));
        } catch (e) {
          emit({ event: 'invalid', op, message: String(e) });
          sendJson(31, { transition_id: transitionId });
          newSession();
          sendBinary(26, session.getSerializedKeyPackage());
          return;
        }
        if (transitionId === 0) announce(0);
        else sendJson(23, { transition_id: transitionId });
      }
      return;
    }
    const message = JSON.parse(data.toString());
    if (typeof message.seq === 'number') seqAck = message.seq;
    const d = message.d;
    switch (message.op) {
      case 8:
        setInterval(() => sendJson(3, { t: Date.now(), seq_ack: seqAck }), d.heartbeat_interval).unref();
        sendJson(0, {
          server_id: args.lobbyId,
          user_id: args.userId,
          session_id: gatewaySessionId,
          token,
          max_dave_protocol_version: davey.DAVE_PROTOCOL_VERSION,
        });
        break;
      case 2: {
        ssrc = d.ssrc;
        server = { address: d.ip, port: d.port };
        // IP discovery: type 1, length 70, our SSRC, then zeros.
        const discovery = Buffer.alloc(74);
        discovery.writeUInt16BE(1, 0);
        discovery.writeUInt16BE(70, 2);
        discovery.writeUInt32BE(ssrc, 4);
        udp.once('message', (answer) => {
          const address = answer.subarray(8, answer.indexOf(0, 8)).toString();
          const port = answer.readUInt16BE(answer.length - 2);
          udp.on('message', onMedia);
          sendJson(1, { protocol: 'udp', data: { address, port, mode: 'aead_aes256_gcm_rtpsize' } });
        });
        udp.send(discovery, server.port, server.address);
        break;
      }
      case 4:
        secretKey = Buffer.from(d.secret_key);
        if (d.dave_protocol_version !== 1) fail(`the call is not end-to-end encrypted (${d.dave_protocol_version})`);
        newSession();
        emit({ event: 'joined', ssrc });
        sendJson(5, { speaking: 1, delay: 0, ssrc });
        sender = setInterval(sendFrame, 20);
        break;
      case 5:
        ssrcToUser.set(d.ssrc, d.user_id);
        break;
      case 11:
        for (const id of d.user_ids) recognized.add(id);
        break;
      case 13:
        recognized.delete(d.user_id);
        break;
      case 21:
        if (d.protocol_version === 0) session.setPassthroughMode(true, 10);
        if (d.transition_id === 0) announce(0);
        else sendJson(23, { transition_id: d.transition_id });
        break;
      case 22:
        announce(d.transition_id);
        break;
      case 24:
        if (d.epoch === 1) {
          newSession();
          if (externalSender) session.setExternalSender(externalSender);
          sendBinary(26, session.getSerializedKeyPackage());
        }
        break;
      default:
        break;
    }
  });
  ws.on('close', (code) => {
    if (!stopping) fail(`voice gateway closed with ${code}`);
  });
  ws.on('error', fail);

  function sendFrame() {
    if (!session || !session.ready) return; // E2EE required: nothing leaves before the group
    const opus = frames[stats.sent % frames.length];
    const payload = session.encryptOpus(opus);
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header[1] = 0x78;
    header.writeUInt16BE(rtpSeq++ & 0xffff, 2);
    header.writeUInt32BE(timestamp >>> 0, 4);
    timestamp = (timestamp + 960) >>> 0;
    header.writeUInt32BE(ssrc, 8);
    const iv = Buffer.alloc(12);
    iv.writeUInt32BE(nonce >>> 0, 0);
    const cipher = crypto.createCipheriv('aes-256-gcm', secretKey, iv);
    cipher.setAAD(header);
    const sealed = Buffer.concat([cipher.update(payload), cipher.final()]);
    const packet = Buffer.concat([header, sealed, cipher.getAuthTag(), iv.subarray(0, 4)]);
    nonce = (nonce + 1) >>> 0;
    udp.send(packet, server.port, server.address);
    stats.sent++;
  }

  function onMedia(packet) {
    if (packet.length < 12 + 16 + 4 || (packet[1] & 0x7f) !== 0x78) return;
    const csrcs = packet[0] & 0x0f;
    const extension = (packet[0] & 0x10) !== 0;
    const aadSize = 12 + 4 * csrcs + (extension ? 4 : 0);
    const aad = packet.subarray(0, aadSize);
    const iv = Buffer.alloc(12);
    packet.copy(iv, 0, packet.length - 4);
    const tag = packet.subarray(packet.length - 20, packet.length - 4);
    const decipher = crypto.createDecipheriv('aes-256-gcm', secretKey, iv);
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    let plain = Buffer.concat([decipher.update(packet.subarray(aadSize, packet.length - 20)), decipher.final()]);
    if (extension) {
      const words = packet.readUInt16BE(12 + 4 * csrcs + 2);
      plain = plain.subarray(4 * words);
    }
    stats.received++;
    if (plain.length === 3 && plain[0] === 0xf8 && plain[1] === 0xff && plain[2] === 0xfe) return;
    const user = ssrcToUser.get(packet.readUInt32BE(8));
    if (!user || !session) return;
    try {
      const opus = session.decrypt(user, 0 /* audio */, plain);
      if (opus.length > 0) stats.decrypted++;
    } catch {
      stats.decryptFailures++;
    }
  }
  return { ws, udp };
}

// ---- the Gateway ------------------------------------------------------------------------------------------
let stopping = false;
const gatewayUrl = args.gatewayUrl.includes('?') ? args.gatewayUrl : `${args.gatewayUrl}/?v=10&encoding=json`;
const gateway = new WebSocket(gatewayUrl, { ca });
let gatewaySeq = null;
let voice = null;
gateway.on('message', async (data) => {
  const message = JSON.parse(data.toString());
  if (typeof message.s === 'number') gatewaySeq = message.s;
  if (message.op === 10) {
    setInterval(() => gateway.send(JSON.stringify({ op: 1, d: gatewaySeq })), message.d.heartbeat_interval).unref();
    gateway.send(JSON.stringify({ op: 2, d: { token: `Bearer ${args.token}`, properties: {}, intents: 0 } }));
    return;
  }
  if (message.op !== 0) return;
  if (message.t === 'READY') {
    const sessionId = message.d.session_id;
    const joined = await request('PUT', `${args.apiBase}/lobbies`, { secret: args.lobbySecret });
    if (joined.status !== 200) fail(`lobby join: ${joined.status} ${joined.body}`);
    args.lobbyId = JSON.parse(joined.body).id;
    gateway.sessionId = sessionId;
    gateway.send(
      JSON.stringify({
        op: 4,
        d: { lobby_id: args.lobbyId, channel_id: args.lobbyId, self_mute: false, self_deaf: false },
      }),
    );
  } else if (message.t === 'LOBBY_VOICE_SERVER_UPDATE' && !voice) {
    voice = connectVoice(message.d, gateway.sessionId);
  }
});
gateway.on('error', fail);

const report = setInterval(() => emit({ event: 'stats', ...stats }), 500);
const stop = () => {
  stopping = true;
  clearInterval(report);
  emit({ event: 'stats', ...stats });
  emit({ event: 'done' });
  process.exit(0);
};
process.on('SIGTERM', stop);
setTimeout(stop, args.durationMs ?? 60000);
