// A game's bot as most of the platform's bots are written: discord.js, unmodified, pointed at
// platformpp-emulator with a bot token. Driven by tests/integration/interactions_interop_test.cpp: arguments
// `api_base bot_token guild_id`, one JSON event per stdout line; ends on SIGTERM. It registers /stats in the
// guild, answers it with a components v2 message (a Container with a Text Display and a button), answers the
// button with a modal (a Label around a Text Input), and the modal's submit with an ephemeral message and a
// follow-up. Then it works the channel's messages as bots do: sends one with a button, edits it, reads the
// channel's history, forwards the message and deletes the original. The emulator's CA comes in through
// NODE_EXTRA_CA_CERTS.
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  ContainerBuilder,
  Events,
  GatewayIntentBits,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  TextDisplayBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';

const [apiBase, token, guildId] = process.argv.slice(2);
const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const client = new Client({
  intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
  rest: { api: apiBase.replace(/\/v\d+$/, '') },
});

const step = (name, action) =>
  action.then(
    (value) => value,
    (e) => emit({ event: 'error', step: name, message: String(e?.stack ?? e), raw: e?.rawError ?? null }),
  );

client.once(Events.ClientReady, async (ready) => {
  emit({ event: 'ready', user: ready.user.id, application: ready.application.id });
  const command = await step(
    'register',
    ready.application.commands.create({ name: 'stats', description: 'Your race statistics' }, guildId),
  );
  if (command) emit({ event: 'registered', id: command.id, name: command.name });
});

client.on(Events.InteractionCreate, async (interaction) => {
  if (interaction.isChatInputCommand()) {
    const container = new ContainerBuilder()
      .setAccentColor(0x2b8a3e)
      .addTextDisplayComponents(new TextDisplayBuilder().setContent('## Season 3\nWins: 12, podiums: 30'))
      .addActionRowComponents((row) =>
        row.setComponents(
          new ButtonBuilder().setCustomId('report').setLabel('Report a problem').setStyle(ButtonStyle.Danger),
        ),
      );
    const reply = await step(
      'reply',
      interaction.reply({ flags: MessageFlags.IsComponentsV2, components: [container], withResponse: true }),
    );
    if (reply) emit({ event: 'replied', message: reply.resource?.message?.id ?? null });
  } else if (interaction.isButton()) {
    const modal = new ModalBuilder()
      .setCustomId('report_modal')
      .setTitle('Report a problem')
      .addLabelComponents(
        new LabelBuilder()
          .setLabel('What happened?')
          .setTextInputComponent(new TextInputBuilder().setCustomId('what').setStyle(TextInputStyle.Paragraph)),
      );
    if ((await step('modal', interaction.showModal(modal).then(() => true))) === true) {
      emit({ event: 'modal', customId: interaction.customId, message: interaction.message.id });
    }
  } else if (interaction.isModalSubmit()) {
    const what = interaction.fields.getTextInputValue('what');
    const replied = await step(
      'submit',
      interaction.reply({ content: `Thanks, we got it: ${what}`, flags: MessageFlags.Ephemeral }).then(() => true),
    );
    const followUp = replied && (await step('followup', interaction.followUp({ content: 'A moderator will look.' })));
    if (followUp) emit({ event: 'submitted', what, followUp: followUp.id, content: followUp.content });
    if (followUp) await channelMessages(interaction.channelId);
  }
});

// The channel routes through discord.js' own managers: send, edit, fetch, forward, delete.
async function channelMessages(channelId) {
  const channel = client.channels.cache.get(channelId) ?? (await step('channel', client.channels.fetch(channelId)));
  if (!channel) return;
  const row = new ActionRowBuilder().addComponents(
    new ButtonBuilder().setCustomId('join_final').setLabel("I'm racing").setStyle(ButtonStyle.Primary),
  );
  const sent = await step('send', channel.send({ content: 'Final at 20:00', components: [row] }));
  if (!sent) return;
  const edited = await step('edit', sent.edit({ content: 'Final at 20:30' }));
  const fetched = await step('fetch', channel.messages.fetch({ limit: 10, cache: false }));
  const forward = await step('forward', sent.forward(channel));
  const deleted = await step('delete', sent.delete().then(() => true));
  emit({
    event: 'channel',
    sent: sent.id,
    button: sent.components[0]?.components[0]?.customId ?? null,
    edited: edited?.content ?? null,
    fetched: fetched ? [...fetched.keys()] : null,
    forward: forward?.id ?? null,
    forwardType: forward?.reference?.type ?? null,
    snapshot: forward?.messageSnapshots.first()?.content ?? null,
    deleted: deleted === true,
  });
}

client.on(Events.Error, (e) => emit({ event: 'error', step: 'client', message: String(e) }));
process.on('SIGTERM', () => {
  client.destroy().finally(() => process.exit(0));
});
await step('login', client.login(token));
