export { UserId, ChannelId, ErrorBody, QuotaRefusal, IsoTime, jsonSize } from './common.ts';
export {
  CreateTokenBody,
  CreateAnonymousTokenBody,
  TokenResponse,
  TTL_DEFAULT_SECONDS,
  RevokeTokenBody,
  RevokedToken,
  RevokedUserTokens,
  SigningKeyInfo,
  SigningKeyList,
  RotateSigningKeyBody,
  RotatedSigningKey,
  TokenKeyParams,
  PutTokenKeyBody,
  TokenKey,
  TokenKeyList,
  PutJwksBody,
  JwksSetting,
} from './tokens.ts';
export {
  MemberRole,
  ChannelAccess,
  ChannelParams,
  ChannelUserParams,
  UserParams,
  PutMemberBody,
  Membership,
  ChannelSettingsBody,
  ChannelSettings,
  BanBody,
  Ban,
  Roster,
  RosterQuery,
  Occupancy,
  ROSTER_PAGE_MAX,
} from './members.ts';
export {
  MAX_NOTIFICATION_USERS,
  MAX_NOTIFICATION_PAYLOAD_BYTES,
  NOTIFICATION_TYPE_DEFAULT,
  CreateNotificationsBody,
  CreateNotificationsResponse,
  Notification,
  InboxQuery,
  InboxPage,
  InboxSocketQuery,
} from './notifications.ts';
export { LOGS_TOKEN_TTL_DEFAULT_SECONDS, EnvironmentParams, LogsTokenBody, LogsTokenResponse, LogsSocketQuery } from './logs.ts';
export * from './channels.ts';
export * from './stats.ts';
export * from './message-changes.ts';
export { DeployConfigBody, PatchConfigBody, ActiveConfig, ConfigDeployment, LimitOverrides, EffectiveLimits } from './config.ts';
export { QuotaResponse } from './quota.ts';
export {
  DeliveryStatus,
  DeliveryId,
  DELIVERY_ID_PATTERN,
  WebhookSecretResponse,
  DeliveriesQuery,
  DeliveryRow,
  DeliveryList,
  DeliveryAttempt,
  DeliveryDetail,
  DeliveryParams,
} from './webhooks.ts';
export {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_TYPE_NAMES,
  WebhookEventTypeName,
  DEFAULT_ENDPOINT_EVENT_TYPES,
  OPERATIONAL_EVENT_TYPES,
  OPT_IN_EVENT_TYPES,
  PRESENCE_EVENT_MEMBERS_MAX,
  webhookEventCatalogue,
  type WebhookEventType,
} from './webhook-events.ts';
export {
  ENDPOINT_ID_PATTERN,
  TASK_ID_PATTERN,
  ChannelPattern,
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookEndpoint,
  CreatedWebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointsQuery,
  WebhookEndpointParams,
  TestEventBody,
  TestEventResponse,
  RecoverBody,
  WebhookTask,
  WebhookTaskAccepted,
  WebhookTaskParams,
  WebhookEventTypeList,
} from './webhook-endpoints.ts';
export { MAX_JSON_DEPTH, JsonTextError, NOT_STORABLE, checkJsonText, parseJsonText, isStorableText } from './json-text.ts';
export { type Span, rootSpan, valueSpan, elementSpans, jsonObjectProblem } from './json-span.ts';
export { FRAMED_VERSION, encodeCommand, frameRequest, isFramed, unframeRequest, type FramedCommand, type Unframed } from './command-codec.ts';
export { REWIND_MAX_COUNT, REWIND_MAX_SECONDS, REWIND_TEXT_MAX, RewindText, RewindValue, parseRewind, type Rewind } from './rewind.ts';
export { ConnectFrame, ConnectQuery, ConnectServerFrame, SERVER_FRAMES } from './connect.ts';
export * from './dashboard.ts';
export { ErasureJobParams, ErasureJob, DeletedChannel } from './erasure.ts';
export * from './operations/index.ts';
