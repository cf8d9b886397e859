// The discord-api-types (v10) types that tools/gateway-schemas/generate.mjs turns into JSON Schema.
// Copied to the temporary install directory and type-checked there with tsc before generation.
//
// ts-json-schema-generator cannot handle three of the dispatch types as the package writes them, so they are
// restated here in a form it can, and the `Equals` checks below make tsc prove each restatement identical to
// the package's own type (the generation stops if a new package version changes them):
// - GatewayRateLimitedDispatchData<Opcode>: `meta: GatewayOpcodeRateLimitMetadataMap[Opcode]` (an indexed access
//   by an enum member) makes the generator throw; the RequestGuildMembers instance is written out.
// - GatewayChannelModifyDispatchData = APIChannel & {type: Exclude<...>; guild_id}: the generator distributes the
//   intersection over APIChannel's union wrongly (every branch gets `type: {enum: []}`); generate.mjs emits it
//   as allOf [APIChannel, GatewayChannelModifyDispatchDataMembers], which is what the intersection means.
// - GatewayGuildCreateDispatchData: its `channels` and `threads` are arrays of the same kind of intersection
//   (APIChannel & {type: Exclude<GuildChannelType, ThreadChannelType>}, APIChannel & {type: ThreadChannelType}).
//   GatewayGuildCreateDispatchDataExpanded restates it with the items named (GatewayGuildCreateChannel,
//   GatewayGuildCreateThread); generate.mjs replaces the generator's schema of each of those two aliases by
//   allOf [APIChannel, its ...Members] (discord-api-types-events.json, all_of_definitions).
// - APIMessageSnapshotFields = Pick<APIMessage, ...> (a forward's message_snapshots[].message): the generator
//   gives every picked member an impossible schema (`not: {}`) and requires all of them.
//   APIMessageSnapshotFieldsExpanded writes the members out; generate.mjs uses its schema for that definition
//   (discord-api-types-events.json, restated_definitions).

import type {
  APIAttachment,
  APIChannel,
  APIEmbed,
  APIMessageSnapshotFields,
  APIMessageTopLevelComponent,
  APIRole,
  APISticker,
  APIStickerItem,
  APIUser,
  GatewayChannelCreateDispatchData,
  GatewayChannelDeleteDispatchData,
  GatewayChannelModifyDispatchData,
  GatewayChannelUpdateDispatchData,
  GatewayGuildCreateDispatchData,
  GatewayOpcodes,
  GatewayRateLimitedRequestGuildMembersDispatchData,
  GatewayRequestGuildMemberRateLimitMetadata,
  GatewayResumedDispatch,
  GuildChannelType,
  MessageFlags,
  MessageType,
  Snowflake,
  ThreadChannelType,
} from 'discord-api-types/v10';

export type {
  GatewayAutoModerationActionExecutionDispatchData,
  GatewayAutoModerationRuleCreateDispatchData,
  GatewayAutoModerationRuleDeleteDispatchData,
  GatewayAutoModerationRuleUpdateDispatchData,
  APIChannel,
  GatewayChannelInfoDispatchData,
  GatewayChannelPinsUpdateDispatchData,
  GatewayEntitlementCreateDispatchData,
  GatewayEntitlementDeleteDispatchData,
  GatewayEntitlementUpdateDispatchData,
  GatewayGuildAuditLogEntryCreateDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMembersChunkDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayGuildRoleCreateDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleUpdateDispatchData,
  GatewayGuildSoundboardSoundCreateDispatchData,
  GatewayGuildSoundboardSoundDeleteDispatchData,
  GatewayGuildSoundboardSoundUpdateDispatchData,
  GatewayInviteCreateDispatchData,
  GatewayInviteDeleteDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteDispatchData,
  GatewayMessageUpdateDispatchData,
  GatewayPresenceUpdateDispatchData,
  GatewayReadyDispatchData,
  GatewaySoundboardSoundsDispatchData,
  GatewaySubscriptionCreateDispatchData,
  GatewaySubscriptionUpdateDispatchData,
  GatewayUserUpdateDispatchData,
  GatewayVoiceChannelEffectSendDispatchData,
  GatewayVoiceChannelStartTimeUpdateDispatchData,
  GatewayVoiceChannelStatusUpdateDispatchData,
  GatewayVoiceServerUpdateDispatchData,
  GatewayVoiceStateUpdateDispatchData,
} from 'discord-api-types/v10';

/** The members GatewayChannelModifyDispatchData adds to APIChannel. */
export interface GatewayChannelModifyDispatchDataMembers {
  type: Exclude<GuildChannelType, ThreadChannelType>;
  guild_id: Snowflake;
}

/** The member GatewayGuildCreateDispatchData's `channels` items add to APIChannel. */
export interface GatewayGuildCreateChannelMembers {
  type: Exclude<GuildChannelType, ThreadChannelType>;
}

/** The member GatewayGuildCreateDispatchData's `threads` items add to APIChannel. */
export interface GatewayGuildCreateThreadMembers {
  type: ThreadChannelType;
}

/** An item of GatewayGuildCreateDispatchData's `channels` (generate.mjs: allOf of the two). */
export type GatewayGuildCreateChannel = APIChannel & GatewayGuildCreateChannelMembers;

/** An item of GatewayGuildCreateDispatchData's `threads` (generate.mjs: allOf of the two). */
export type GatewayGuildCreateThread = APIChannel & GatewayGuildCreateThreadMembers;

/** GatewayGuildCreateDispatchData with the items of `channels` and `threads` named. */
export interface GatewayGuildCreateDispatchDataExpanded
  extends Omit<GatewayGuildCreateDispatchData, 'channels' | 'threads'> {
  channels: GatewayGuildCreateChannel[];
  threads: GatewayGuildCreateThread[];
}

/** GatewayRateLimitedDispatchData<GatewayOpcodes.RequestGuildMembers>, written out. */
export interface GatewayRateLimitedRequestGuildMembersDispatchDataExpanded {
  opcode: GatewayOpcodes.RequestGuildMembers;
  retry_after: number;
  meta: GatewayRequestGuildMemberRateLimitMetadata;
}

/** APIMessageSnapshotFields, written out. */
export interface APIMessageSnapshotFieldsExpanded {
  attachments: APIAttachment[];
  components?: APIMessageTopLevelComponent[];
  content: string;
  edited_timestamp: string | null;
  embeds: APIEmbed[];
  flags?: MessageFlags;
  mention_roles: APIRole['id'][];
  mentions: APIUser[];
  sticker_items?: APIStickerItem[];
  stickers?: APISticker[];
  timestamp: string;
  type: MessageType;
}

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export const rateLimitedIsTheSame: Equals<
  GatewayRateLimitedRequestGuildMembersDispatchDataExpanded,
  GatewayRateLimitedRequestGuildMembersDispatchData
> = true;
export const channelModifyIsTheSame: Equals<
  APIChannel & GatewayChannelModifyDispatchDataMembers,
  GatewayChannelModifyDispatchData
> = true;
export const channelCreateIsModify: Equals<GatewayChannelCreateDispatchData, GatewayChannelModifyDispatchData> = true;
export const channelUpdateIsModify: Equals<GatewayChannelUpdateDispatchData, GatewayChannelModifyDispatchData> = true;
export const channelDeleteIsModify: Equals<GatewayChannelDeleteDispatchData, GatewayChannelModifyDispatchData> = true;
export const guildCreateIsTheSame: Equals<GatewayGuildCreateDispatchDataExpanded, GatewayGuildCreateDispatchData> =
  true;
export const guildCreateChannelIsTheSame: Equals<
  GatewayGuildCreateChannel[],
  GatewayGuildCreateDispatchData['channels']
> = true;
export const guildCreateThreadIsTheSame: Equals<
  GatewayGuildCreateThread[],
  GatewayGuildCreateDispatchData['threads']
> = true;
export const messageSnapshotFieldsIsTheSame: Equals<APIMessageSnapshotFieldsExpanded, APIMessageSnapshotFields> =
  true;
// RESUMED: the package types its `d` as undefined; on the wire that is `"d": null`.
export const resumedHasNoData: Equals<GatewayResumedDispatch['d'], undefined> = true;
