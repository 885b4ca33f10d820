import type { Operation } from './operation.ts';
import { banOperations } from './bans.ts';
import { memberOperations } from './members.ts';
import { channelModerationOperations } from './channel-moderation.ts';
import { channelSettingsOperations } from './channel-settings.ts';

export { type Operation, type Operations } from './operation.ts';
export { banOperations, memberOperations, channelModerationOperations, channelSettingsOperations };

/**
 * The catalogue: every operation each listener serves, by host. An operation served on both
 * hosts (publish, retract, history, roster, occupancy) is listed on each with that host's
 * credentials (and body); the OpenAPI document merges the two under one operationId.
 * test/unit/schemas.operations.test.ts holds the gateway's routes to it.
 */
export const OPERATIONS: { readonly control: readonly Operation[]; readonly realtime: readonly Operation[] } = {
  control: [banOperations, memberOperations, channelSettingsOperations].flatMap((group) => Object.values(group)),
  realtime: [channelModerationOperations].flatMap((group) => Object.values(group)),
};
