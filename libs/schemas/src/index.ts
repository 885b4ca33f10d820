export { UserId, ChannelId, ErrorBody, IsoTime, jsonSize } from './common.ts';
export { CreateTokenBody, CreateAnonymousTokenBody, TokenResponse, TTL_DEFAULT_SECONDS } from './tokens.ts';
