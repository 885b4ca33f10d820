export {
  EDGE_LIMITS,
  EDGE_TOTAL_LIMIT,
  HISTORY_MESSAGES_PER_UNIT,
  MENTIONS_PER_UNIT,
  historyUnits,
  publishUnits,
  type EdgeOperation,
} from './weights.ts';
export { WINDOW_MS, windowOf, msLeftInWindow, grantLease, localShare, LocalWindow } from './window-lease.ts';
export { KvCasStore, MemoryCasStore, type CasStore, type CasEntry } from './cas-store.ts';
export { RateLimiter, type RateLimiterOptions } from './rate-limiter.ts';
export {
  SocketQuota,
  REFRESH_MS,
  BELIEVED_MS,
  othersTotal,
  withCount,
  parseQuotaDoc,
  type QuotaDoc,
  type SocketQuotaOptions,
  type IsLive,
} from './socket-quota.ts';
export { LiveGateways } from './live-gateways.ts';
export { EnvironmentLimits, cleanOverrides, readLimitOverrides, deployLimits } from './environment-limits.ts';
export { encodeInvalidation, decodeInvalidation } from './invalidation.ts';
export { clientAddressKey, IPV6_CLIENT_PREFIX } from './client-address-key.ts';
export { readQuotaState, type QuotaState } from './quota-usage.ts';
