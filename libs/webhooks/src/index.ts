export { enqueueWebhookEvents, type WebhookEventInput, type WebhookEventType } from './enqueue.ts';
export { checkWebhookUrl, addressRefusal, isLoopbackAddress, isNamedLocalHost, type UrlVerdict } from './url-policy.ts';
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
export { webhookSecrets, PREVIOUS_SECRET_GRACE_MS, type WebhookSecrets } from './secrets.ts';
export { DELIVER_BATCH_TASK, DELIVER_ONE_TASK, PRUNE_TASK, deliveryJobKey, type DeliverBatchPayload, type DeliverOnePayload } from './jobs.ts';
