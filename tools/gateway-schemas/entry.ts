// The discord-api-types (v10) types that tools/gateway-schemas/generate.mjs turns into JSON Schema.
// Copied to the temporary install directory and type-checked there with tsc before generation.
//
// ts-json-schema-generator cannot handle two of the dispatch types as the package writes them, so they are
// restated here in a form it can, and the `Equals` checks below make tsc prove each restatement identical to
// the package's own type (the generation stops if a new package version changes them):
// - GatewayRateLimitedDispatchData<Opcode>: `meta: GatewayOpcodeRateLimitMetadataMap[Opcode]` (an indexed access
//   by an enum member) makes the generator throw; the RequestGuildMembers instance is written out.
// - GatewayChannelModifyDispatchData = APIChannel & {type: Exclude<...>; guild_id}: the generator distributes the
//   intersection over APIChannel's union wrongly (every branch gets `type: {enum: []}`); generate.mjs emits it
//   as allOf [APIChannel, GatewayChannelModifyDispatchDataMembers], which is what the intersection means.

import type {
  APIChannel,
  GatewayChannelCreateDispatchData,
  GatewayChannelDeleteDispatchData,
  GatewayChannelModifyDispatchData,
  GatewayChannelUpdateDispatchData,
  GatewayOpcodes,
  GatewayRateLimitedRequestGuildMembersDispatchData,
  GatewayRequestGuildMemberRateLimitMetadata,
  GatewayResumedDispatch,
  GuildChannelType,
  Snowflake,
  ThreadChannelType,
} from 'discord-api-types/v10';

export type {
  APIChannel,
  GatewayGuildMembersChunkDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteDispatchData,
  GatewayMessageUpdateDispatchData,
  GatewayPresenceUpdateDispatchData,
  GatewayReadyDispatchData,
  GatewayUserUpdateDispatchData,
} from 'discord-api-types/v10';

/** The members GatewayChannelModifyDispatchData adds to APIChannel. */
export interface GatewayChannelModifyDispatchDataMembers {
  type: Exclude<GuildChannelType, ThreadChannelType>;
  guild_id: Snowflake;
}

/** GatewayRateLimitedDispatchData<GatewayOpcodes.RequestGuildMembers>, written out. */
export interface GatewayRateLimitedRequestGuildMembersDispatchDataExpanded {
  opcode: GatewayOpcodes.RequestGuildMembers;
  retry_after: number;
  meta: GatewayRequestGuildMemberRateLimitMetadata;
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
// RESUMED: the package types its `d` as undefined; on the wire that is `"d": null`.
export const resumedHasNoData: Equals<GatewayResumedDispatch['d'], undefined> = true;
