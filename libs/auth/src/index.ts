export { generateKey, hashKey, keyKindOf, keyHint, type KeyKind } from './keys.ts';
export {
  signToken,
  verifyToken,
  TokenError,
  USER_TOKEN_ALG,
  USER_TOKEN_AUDIENCE,
  LOGS_TOKEN_AUDIENCE,
  type UserClaims,
  type SigningKey,
} from './user-token.ts';
export { CredentialStore, type ApiKeyRecord, type LookupObserver } from './credential-store.ts';
export { SharedLoads } from './shared-loads.ts';
export { createEnvironment, createEnvironmentIn, insertEnvironment, insertKey, insertKeyRow, type CreatedEnvironment } from './tenancy.ts';
export { KeyUsage } from './key-usage.ts';
export { liveBanSql, bansBarringSql, namespaceOfSql, userReadsChannelSql } from './channel-sql.ts';
export { MAX_TOKEN_LIFETIME_SECONDS, issuedAtMsOf } from './user-token.ts';
export { TokenRevocations, encodeRevocation, decodeRevocation, refuses, type Revocation } from './revocations.ts';
export {
  rotateSigningKey,
  listSigningKeys,
  DEFAULT_SIGNING_KEY_GRACE_SECONDS,
  MAX_SIGNING_KEY_GRACE_SECONDS,
  type SigningKeyInfo,
} from './signing-keys.ts';
export { verifyTenantToken, jwkRefusal, isTenantAlg, TENANT_TOKEN_ALGS, MAX_TOKEN_BYTES, type TenantKey, type TenantTokenAlg } from './tenant-token.ts';
export { TenantKeys, putTokenKey, listTokenKeys, deleteTokenKey, setJwksUrl, type RegisteredKey } from './tenant-keys.ts';
