/**
 * The channel store: what the gateway and the back office read and change of channels, their
 * messages and their members. The channel-node is the single writer of messages and seqs
 * (apps/channel-node); everything else about channels goes through here.
 */
export {
  MESSAGE_COLUMNS,
  envelopeOfRow,
  envelopeTextOfRow,
  readMessages,
  readVersions,
  readChanges,
  changeFrameText,
  type StoredChange,
  type ChangeRange,
  readLastSeq,
  type MessageRow,
  type ReadRange,
  type StoredMessage,
} from './messages.ts';
export { rewindSince, type RewindTo, type RewindRange } from './rewind.ts';
export { listChannels, browseMessages, findMessage, type ChannelSummary, type BrowsedRow, type BrowseFilter } from './browse.ts';
export { memberPage, bannedAmong, setChannelAccess } from './members.ts';
export { standingsOf, standingRowOf, type StandingRow } from './standings.ts';
export {
  ENVIRONMENT_WIDE,
  upsertMember,
  deleteMember,
  listMembers,
  upsertBan,
  deleteBan,
  findBan,
  listBans,
  environmentBansOf,
  type Audit,
  type MemberView,
  type BanView,
} from './moderation-store.ts';
