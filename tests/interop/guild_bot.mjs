// A guild's bot as most of the platform's bots are written: discord.js, unmodified, pointed at
// platformpp-emulator with a bot token. Driven by tests/integration/guild_interop_test.cpp: arguments
// `api_base bot_token guild_id member_id voice_channel_id target_user_ids` (the last comma-separated), one JSON
// event per stdout line, the last a `summary` (or an `error`); ends on SIGTERM. Through discord.js's own managers
// it manages the guild: a role created and edited, given to a member and taken back, a text channel with
// slowmode and an overwrite, a message sent, pinned and the pins listed, an invite for target users (discord.js
// 14.28 sends `targetUsersFile` itself, as multipart), the voice channel's status (discord.js has no method for
// it: the documented route through client.rest), and the audit log all of that left, each call with a reason.
// The emulator's CA comes in through NODE_EXTRA_CA_CERTS.
import { ChannelType, Client, Events, GatewayIntentBits, PermissionFlagsBits, Routes } from 'discord.js';

const [apiBase, token, guildId, memberId, voiceChannelId, targetUsers] = process.argv.slice(2);
const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const client = new Client({
  intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
  rest: { api: apiBase.replace(/\/v\d+$/, '') },
});

// Runs one step; a failure is reported (with the platform's error body) and ends the run.
class StepFailed extends Error {}
const step = async (name, action) => {
  try {
    return await action();
  } catch (e) {
    emit({ event: 'error', step: name, message: String(e?.stack ?? e), raw: e?.rawError ?? null });
    throw new StepFailed(name);
  }
};

async function manageGuild() {
  const guild = client.guilds.cache.get(guildId) ?? (await step('guild', () => client.guilds.fetch(guildId)));
  const summary = { event: 'summary', guild: guild.id };

  // Roles: create, edit; a member gets it and loses it again.
  const role = await step('role_create', () =>
    guild.roles.create({
      name: 'Racers',
      colors: { primaryColor: 0x2b8a3e },
      permissions: [PermissionFlagsBits.SendMessages],
      reason: 'season 3 racers',
    }),
  );
  const edited = await step('role_edit', () =>
    role.edit({ name: 'Podium', hoist: true, mentionable: true, reason: 'renamed for the final' }),
  );
  summary.role = { id: role.id, name: edited.name, color: edited.colors.primaryColor, hoist: edited.hoist };
  const member = await step('member_fetch', () => guild.members.fetch({ user: memberId, force: true }));
  const withRole = await step('role_add', () => member.roles.add(role, 'qualified for the final'));
  summary.memberRolesAfterAdd = [...withRole.roles.cache.keys()];
  const withoutRole = await step('role_remove', () => member.roles.remove(role, 'missed the final'));
  summary.memberRolesAfterRemove = [...withoutRole.roles.cache.keys()];

  // A text channel with slowmode, @everyone unable to send and the role able to.
  const channel = await step('channel_create', () =>
    guild.channels.create({
      name: 'race-control',
      type: ChannelType.GuildText,
      rateLimitPerUser: 30,
      permissionOverwrites: [
        { id: guild.roles.everyone.id, deny: [PermissionFlagsBits.SendMessages] },
        { id: role.id, allow: [PermissionFlagsBits.SendMessages] },
      ],
      reason: 'a channel for the stewards',
    }),
  );
  summary.channel = {
    id: channel.id,
    type: channel.type,
    slowmode: channel.rateLimitPerUser,
    overwrites: channel.permissionOverwrites.cache.map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow.bitfield.toString(),
      deny: o.deny.bitfield.toString(),
    })),
  };

  // A message, pinned; the pins listed.
  const message = await step('send', () => channel.send({ content: 'Final at 20:00' }));
  await step('pin', () => message.pin('the schedule'));
  const pins = await step('fetch_pins', () => channel.messages.fetchPins());
  summary.pins = { message: message.id, listed: pins.items.map((item) => item.message.id), hasMore: pins.hasMore };

  // An invite for two target users: discord.js uploads them as the target_users_file CSV.
  const invite = await step('invite_create', () =>
    channel.createInvite({
      maxAge: 3600,
      maxUses: 10,
      unique: true,
      targetUsersFile: targetUsers.split(','),
      reason: 'the finalists',
    }),
  );
  const job = await step('invite_job', () => invite.fetchTargetUsersJobStatus());
  emit({ event: 'invite', code: invite.code, jobStatus: job.status });
  // The job runs on the emulator's clock (the test moves it on): asked again until it is no longer PROCESSING.
  let done = job;
  for (let tries = 0; done.status === 1 && tries < 100; ++tries) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    done = await step('invite_job', () => invite.fetchTargetUsersJobStatus());
  }
  const csv = await step('invite_target_users', () => invite.fetchTargetUsers());
  summary.invite = {
    code: invite.code,
    channel: invite.channelId,
    maxAge: invite.maxAge,
    maxUses: invite.maxUses,
    firstJobStatus: job.status,
    jobStatus: done.status,
    jobTotal: done.totalUsers,
    jobProcessed: done.processedUsers,
    jobCompleted: done.completedAt !== null,
    targetUsersCsv: csv.toString('utf8'),
  };

  // The voice channel's status: the documented route through discord.js's REST client.
  await step('voice_status', () =>
    client.rest.put(Routes.channelVoiceStatus(voiceChannelId), {
      body: { status: 'Final: lap 3 of 20' },
      reason: 'race in progress',
    }),
  );
  summary.voiceStatus = true;

  // The audit log the bot's calls left, the newest first.
  const logs = await step('audit_log', () => guild.fetchAuditLogs({ limit: 50 }));
  summary.audit = logs.entries.map((entry) => ({
    action: entry.action,
    reason: entry.reason,
    executor: entry.executorId,
    target: entry.targetId,
  }));
  const filtered = await step('audit_log_filtered', () => guild.fetchAuditLogs({ type: 25, user: client.user }));
  summary.auditMemberRoleUpdates = filtered.entries.size;
  emit(summary);
}

client.once(Events.ClientReady, async (ready) => {
  emit({ event: 'ready', user: ready.user.id });
  try {
    await manageGuild();
  } catch (e) {
    if (!(e instanceof StepFailed)) emit({ event: 'error', step: 'script', message: String(e?.stack ?? e) });
  }
});

client.on(Events.Error, (e) => emit({ event: 'error', step: 'client', message: String(e) }));
process.on('SIGTERM', () => {
  client.destroy().finally(() => process.exit(0));
});
try {
  await client.login(token);
} catch (e) {
  emit({ event: 'error', step: 'login', message: String(e?.stack ?? e), raw: e?.rawError ?? null });
}
