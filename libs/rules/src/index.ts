/**
 * The rules every layer shares, with no storage and no dependency on another package: who may do
 * what on a channel (`permissions.ts`), the rate limits and monthly quotas with their defaults
 * (`limit-table.ts`, `quota-table.ts`), and where the service may send a request on a tenant's
 * behalf (`url-policy.ts`, and `host-resolver.ts`, the name resolution that applies that policy
 * to every address a host resolves to). The schemas, auth, limits and webhooks build on them.
 */
export {
  CAPABILITY_OPS,
  MAX_CAPABILITY_PATTERNS,
  MAX_CAPABILITY_BYTES,
  capabilitiesProblem,
  encodeCapabilities,
  decodeCapabilities,
  matchesPattern,
  capabilityAllows,
  PRESENCE_DEFAULT,
  JOIN_LEAVE_DEFAULT,
  DELTA_DEFAULT,
  PRESENCE_WEBHOOKS_DEFAULT,
  NO_NAMESPACE,
  MAX_NAMESPACES,
  namespacesProblem,
  resolveNamespace,
  effectiveAccess,
  CHANNEL_ROLES,
  CHANNEL_OPS,
  decide,
  type CapabilityOp,
  type Capabilities,
  type CapabilityClaim,
  type ChannelAccessMode,
  type Namespace,
  type PresenceDefaults,
  type ResolvedNamespace,
  type ChannelRole,
  type ChannelOp,
  type ChannelFacts,
  type Decision,
} from './permissions.ts';
export {
  DEFAULT_LIMITS,
  LIMIT_NAMES,
  effectiveLimits,
  type Limits,
  type LimitName,
  type LimitOverrides,
} from './limit-table.ts';
export {
  QUOTA_NAMES,
  QUOTA_MAX,
  QUOTA_THRESHOLDS,
  cleanQuotas,
  effectiveQuotas,
  quotaPeriod,
  periodStartText,
  PERIOD_START_SQL,
  quotaLimitSql,
  thresholdsReached,
  quotaReasonText,
  type QuotaName,
  type Quotas,
  type QuotaOverrides,
  type QuotaThreshold,
  type QuotaRefusal,
} from './quota-table.ts';
export {
  addressRefusal,
  isLoopbackAddress,
  isNamedLocalHost,
  checkWebhookUrl,
  type UrlVerdict,
  type UrlPolicyOptions,
} from './url-policy.ts';
export {
  BLOCKED_ADDRESS_CODE,
  DNS_FAILURE_CODE,
  HostResolver,
  vettedLookup,
  type HostResolverOptions,
} from './host-resolver.ts';
export { USAGE_UNITS, truncateTo, addUnits, ceilTo, intervalSeconds, rowBounds, type UsageUnit } from './usage-intervals.ts';
