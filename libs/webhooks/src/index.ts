export {
  enqueueParameters,
  webhookBody,
  enqueueSql,
  logSql,
  logParameters,
  logDeliveryIdSql,
  enqueueWebhookEvents,
  recordWebhookEvents,
  endpointTakesSql,
  environmentHookedSql,
  type WebhookEventInput,
  type WebhookEventType,
} from './enqueue.ts';
export {
  WEBHOOK_ID_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  standardHeaders,
  standardSignature,
  standardKey,
  verifyStandardWebhook,
} from './standard-webhooks.ts';
export { redactWebhookUrl, withRedactedUrl, REDACTED } from './url-redaction.ts';
export {
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  generateWebhookSecret,
  computeSignature,
  signatureHeader,
  verifyWebhookSignature,
  type VerifyOptions,
  type VerifyResult,
} from './signature.ts';
export { SETTINGS_COLUMNS, type StoredSecrets } from './endpoint-settings.ts';
export {
  PUSHED_SQL,
  LOGGED_SQL,
  committedDeliveries,
  loggedDeliveries,
  loggedRow,
  pushNotices,
  readNotice,
  withdrawnEntries,
  type NoticeDelivery,
  type PushedRow,
  type LoggedPosition,
} from './push-notice.ts';
export { MESSAGE_RETRACTED, REDACT_SQL, redactMessageDeliveries, type WithdrawnDelivery } from './redaction.ts';
export {
  DELIVER_BATCH_TASK,
  DELIVER_ONE_TASK,
  PRUNE_TASK,
  deliverOneJobSql,
  deliverBatchJobSql,
  type DeliverBatchPayload,
  type DeliverOnePayload,
} from './jobs.ts';
export { listDeliveries, getDelivery, retryDelivery, requeueWaitingDeliveries, type DeliveryStatus } from './delivery-ledger.ts';
export {
  createSecretKeyring,
  encryptSecret,
  decryptSecret,
  encryptionKeyId,
  parseEncryptionKey,
  storedKeyId,
  storedFormat,
  isCurrentForm,
  secretAad,
  SecretKeyError,
  type SecretKeyring,
  type SecretSlot,
  type SecretColumn,
} from './secret-box.ts';
export {
  DEV_KEY_FILE,
  loadSecretKeyring,
  ensureDevEncryptionKey,
  createWebhookSecret,
  readWebhookSecret,
  hasWebhookSecret,
  rotateWebhookSecret,
  reencryptWebhookSecrets,
  type SecretKeySettings,
} from './secret-store.ts';
export {
  classifyError,
  statusFailure,
  FAILURE_CLASSES,
  type FailureClass,
} from './failure-class.ts';
export {
  MAX_ENDPOINTS_PER_ENVIRONMENT,
  createEndpoint,
  listEndpoints,
  getEndpoint,
  updateEndpoint,
  deleteEndpoint,
  readEndpointSecret,
  rotateEndpointSecret,
  failingEndpointIds,
  disableFailingEndpoint,
  type FailingEndpoint,
  type EndpointInput,
  type EndpointView,
  type EndpointAudit,
} from './endpoints.ts';
export { recordEvent, sendTestEvent } from './events.ts';
export { RECOVER_TASK, startRecovery, getWebhookTask, runRecovery, failWebhookTask } from './webhook-tasks.ts';
export { endpointTakes, readPresenceEndpoints, type PresenceEndpoint } from './presence-interest.ts';
export { QuotaThresholds, recordThresholds, type QuotaCount } from './usage-threshold.ts';
