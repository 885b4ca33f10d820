export { OwnerClient, type CommandDone, type OwnerClientOptions } from './owner-client.ts';
export { startAsk, RESEND_AFTER_MS, type AskDone, type AskOptions, type Submit } from './ask-owner.ts';
export {
  OwnerBatcher,
  packRequests,
  packBundles,
  MAX_PER_REQUEST,
  NotSentError,
  ConnectionLostError,
  type ReplyWaiter,
  type OwnerBatcherDeps,
} from './owner-batcher.ts';
