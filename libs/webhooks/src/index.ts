export { enqueueWebhookEvents, type WebhookEventInput, type WebhookEventType } from './enqueue.ts';
