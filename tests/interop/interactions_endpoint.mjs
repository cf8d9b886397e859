// A game server's interactions endpoint as the platform's own JS helper verifies it: discord-interactions'
// verifyKey over the raw body, X-Signature-Ed25519 and X-Signature-Timestamp with the application's public key,
// unmodified, on a plain Node.js HTTP server at 127.0.0.1. Driven by
// tests/integration/interactions_interop_test.cpp: argument `public_key_hex`; prints {event: "listening",
// port}, then one JSON event per request (verified or refused, the interaction's type and name); answers PING
// with PONG and a command with a message naming the invoking user; ends on SIGTERM.
import http from 'node:http';
import { InteractionResponseType, InteractionType, verifyKey } from 'discord-interactions';

const [publicKey] = process.argv.slice(2);
const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    const body = Buffer.concat(chunks);
    const signature = request.headers['x-signature-ed25519'];
    const timestamp = request.headers['x-signature-timestamp'];
    const valid = Boolean(signature && timestamp) && (await verifyKey(body, signature, timestamp, publicKey));
    if (!valid) {
      emit({ event: 'refused' });
      response.writeHead(401).end('invalid request signature');
      return;
    }
    const interaction = JSON.parse(body.toString('utf8'));
    emit({ event: 'verified', type: interaction.type, name: interaction.data?.name ?? null });
    let answer;
    if (interaction.type === InteractionType.PING) {
      answer = { type: InteractionResponseType.PONG };
    } else if (interaction.type === InteractionType.APPLICATION_COMMAND) {
      const user = interaction.member?.user ?? interaction.user;
      answer = {
        type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
        data: { content: `Hello ${user.username}, from the interactions endpoint` },
      };
    } else {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  });
});
server.listen(0, '127.0.0.1', () => emit({ event: 'listening', port: server.address().port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
