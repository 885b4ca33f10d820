/**
 * Names for the types of docs/openapi.json (generated into schema.d.ts), so callers need not
 * spell `components['schemas'][…]`.
 */
import type { components, operations } from './schema.d.ts';

type Schemas = components['schemas'];
type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON request body of an operation (by operationId). */
export type RequestBody<Id extends keyof operations> = JsonContent<NonNullable<operations[Id]['requestBody']>>;
/** The query parameters of an operation (by operationId). */
export type QueryOf<Id extends keyof operations> = NonNullable<operations[Id]['parameters']['query']>;

export type UserToken = Schemas['UserToken'];
export type PublishedMessage = Schemas['PublishedMessage'];
export type EphemeralMessage = Schemas['EphemeralMessage'];
export type RetractedMessage = Schemas['RetractedMessage'];
export type EditedMessage = Schemas['EditedMessage'];
export type Reaction = Schemas['Reaction'];
export type ReactionSummary = Schemas['ReactionSummary'];
export type MessageVersions = Schemas['MessageVersions'];
export type MessageVersion = MessageVersions['versions'][number];
export type MessageEnvelope = Schemas['MessageEnvelope'];
export type History = Schemas['History'];
export type Membership = Schemas['Membership'];
export type Roster = Schemas['Roster'];
export type Occupancy = Schemas['Occupancy'];
export type ChannelSettings = Schemas['ChannelSettings'];
export type Ban = Schemas['Ban'];
export type NotificationsCreated = Schemas['NotificationsCreated'];
export type ConfigDeployment = Schemas['ConfigDeployment'];
export type Quota = Schemas['Quota'];
export type WebhookSecret = Schemas['WebhookSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookDeliveryList = Schemas['WebhookDeliveryList'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type CreatedWebhookEndpoint = Schemas['CreatedWebhookEndpoint'];
export type WebhookEndpointList = Schemas['WebhookEndpointList'];
export type WebhookTask = Schemas['WebhookTask'];
export type WebhookTestEvent = Schemas['WebhookTestEvent'];
export type WebhookEventTypeList = Schemas['WebhookEventTypeList'];
export type LogsToken = Schemas['LogsToken'];
export type RevokedToken = Schemas['RevokedToken'];
export type RevokedUserTokens = Schemas['RevokedUserTokens'];
export type SigningKey = Schemas['SigningKey'];
export type SigningKeyList = Schemas['SigningKeyList'];
export type RotatedSigningKey = Schemas['RotatedSigningKey'];
export type TokenKey = Schemas['TokenKey'];
export type TokenKeyList = Schemas['TokenKeyList'];
export type ErasureJob = Schemas['ErasureJob'];
export type DeletedChannel = Schemas['DeletedChannel'];

export type MintTokenInput = RequestBody<'mintToken'>;
export type MintAnonymousTokenInput = RequestBody<'mintAnonymousToken'>;
export type PublishInput = RequestBody<'publishMessage'>;
export type BatchPublishInput = RequestBody<'publishBatch'>['messages'];
export type BatchPublishResult = Schemas['BatchPublishResults']['results'][number];
export type RetractInput = RequestBody<'retractMessage'>;
export type EditMessageInput = RequestBody<'editMessage'>;
export type HistoryQuery = QueryOf<'listMessages'>;
export type RosterQuery = QueryOf<'getRoster'>;
export type PutMemberInput = RequestBody<'putMember'>;
export type MemberRole = NonNullable<PutMemberInput['role']>;
export type ChannelAccess = RequestBody<'setChannelAccess'>['access'];
export type BanInput = RequestBody<'banFromChannel'>;
export type NotifyInput = RequestBody<'sendNotifications'>;
export type DeployConfigInput = RequestBody<'deployConfig'>;
export type PatchConfigInput = RequestBody<'patchConfig'>;
export type DeliveriesQuery = QueryOf<'listDeliveries'>;
/** GET /v1/stats's query; `start` and `end` also as a Date or epoch milliseconds. */
export type StatsQuery = Omit<QueryOf<'getStats'>, 'start' | 'end'> & { start?: string | number | Date; end?: string | number | Date };
export type StatsEntry = Schemas['StatsEntry'];
export type StatsList = Schemas['StatsList'];
export type DeliveryStatus = NonNullable<DeliveriesQuery['status']>;
export type LogsTokenInput = RequestBody<'mintLogsToken'>;
export type RotateSigningKeyInput = RequestBody<'rotateSigningKey'>;
export type PutTokenKeyInput = RequestBody<'putTokenKey'>;
export type CreateWebhookEndpointInput = RequestBody<'createWebhookEndpoint'>;
export type UpdateWebhookEndpointInput = RequestBody<'updateWebhookEndpoint'>;
export type WebhookEndpointsQuery = QueryOf<'listWebhookEndpoints'>;
export type WebhookTestInput = RequestBody<'testWebhookEndpoint'>;
