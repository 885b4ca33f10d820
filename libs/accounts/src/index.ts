export { Accounts, DEFAULT_EMAIL_CODE_RULES, type AccountsOptions } from './accounts.ts';
export { EmailCodes, newEmailCode, typedCode, hashEmailCode, CODE_DIGITS, type CodePurpose, type EmailCodeRules } from './email-codes.ts';
export { Recovery, codeMail } from './recovery.ts';
export { LogMailSender, builtInMailSender, MAIL_SENDERS, type MailSender, type MailMessage, type MailLog, type MailSenderName } from './mail.ts';
export { AccessControl, type Access, type Scope } from './access.ts';
export { auditedChange, type Change } from './audited-change.ts';
export { SignIn } from './sign-in.ts';
export { HashGate } from './hash-gate.ts';
export { CheckTimes } from './check-times.ts';
export { Organizations, type Membership, type OrganizationView, type MemberView } from './organizations.ts';
export { Invitations, hashInvitationToken, type InvitationView } from './invitations.ts';
export { Projects, environmentIdsOfOrganization, type ProjectView, type EnvironmentView } from './projects.ts';
export { Credentials, type KeyView, type OriginView } from './credentials.ts';
export { recordAudit, recordEnvironmentAudit, listAudit, CLI_ACTOR, AUDIT_ID_PATTERN, type Actor, type AuditEntry, type AuditRecord } from './audit.ts';
export { csrfTokenFor, csrfTokenMatches, judgeOrigin, originOf, servedOrigin, type OriginVerdict } from './csrf.ts';
export {
  PASSWORD_PARAMS,
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  HashingBusyError,
  hashPassword,
  verifyPassword,
  hashingFull,
  type HashLane,
  needsRehash,
  parsePasswordHash,
  passwordProblem,
  generatePassword,
  type PasswordParams,
} from './password.ts';
export { ROLES, RIGHTS, ROLE_DESCRIPTIONS, LOGS_RIGHT, allows, isLowerRole, rightsOf, isRole, type Role, type Right } from './roles.ts';
export { SessionLogsTokens, endedSessionsIntervalMs, type SessionLogsToken } from './session-logs-tokens.ts';
export {
  SessionStore,
  judgeSession,
  newSessionToken,
  hashSessionToken,
  isSessionTokenFormat,
  touchIntervalMs,
  type Session,
  type SessionRules,
  type SessionVerdict,
} from './sessions.ts';
export {
  LoginThrottle,
  throttleVerdict,
  retryAfterSeconds,
  slowdownDelayMs,
  slowdownSample,
  slowdownVerdict,
  loginVerdict,
  addressIsClean,
  loginKeys,
  type ThrottleRule,
  type ThrottleVerdict,
  type SlowdownRule,
  type LoginRules,
  type LoginFailures,
  type LoginScope,
  type LoginVerdict,
  type AttemptStart,
} from './throttle.ts';
export { normaliseAllowedOrigin, normaliseOrigin, type OriginCheck } from './origins.ts';
export { normaliseEmail, isEmail, findUserByEmail, findUserById, insertUser, setPasswordHash, EMAIL_MAX_LENGTH, type UserRecord } from './users.ts';
