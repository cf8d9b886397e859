// A game server's bot as a common third-party library of the platform writes it: discord.js's Gateway library
// (@discordjs/ws, which asks @discordjs/rest for GET /gateway/bot first) pointed at platformpp-emulator with a
// bot token. Driven by tests/integration/gateway_library_interop_test.cpp: arguments `api_base bot_token`, one
// JSON event per stdout line (ready, closed, resumed, error); ends on SIGTERM. The emulator's CA comes in
// through NODE_EXTRA_CA_CERTS.
import { REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';

const [apiBase, token] = process.argv.slice(2);
const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const rest = new REST({ api: apiBase.replace(/\/v\d+$/, ''), version: '10' }).setToken(token);
const manager = new WebSocketManager({ token, intents: 0, rest });
manager.on(WebSocketShardEvents.Ready, (payload) =>
  emit({ event: 'ready', sessionId: payload?.data?.session_id ?? payload?.session_id ?? null }),
);
manager.on(WebSocketShardEvents.Closed, (code) => emit({ event: 'closed', code }));
manager.on(WebSocketShardEvents.Resumed, () => emit({ event: 'resumed' }));
manager.on(WebSocketShardEvents.Error, (e) => emit({ event: 'error', message: String(e?.error ?? e) }));
process.on('SIGTERM', () => {
  manager.destroy().finally(() => process.exit(0));
});
try {
  const shards = await manager.getShardCount();
  emit({ event: 'gateway_bot', shards });
  await manager.connect();
} catch (e) {
  emit({ event: 'error', message: String(e) });
  process.exit(1);
}
