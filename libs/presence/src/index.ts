/**
 * @rtm/presence: channel presence as the presence bucket holds it, without the sockets that make
 * it. The record keys and values every gateway shares (record-codec.ts), one gateway's part of a
 * record and its write pacing (record-shard.ts), the index of every gateway's records
 * (record-index.ts), arrival and departure decisions (decide.ts), the bucket itself
 * (presence-store.ts, presence-kv.ts), coalescing of changes into frames (coalesce.ts),
 * occupancy frames (occupancy-frames.ts), and the presence webhook events: transitions decided
 * once per cluster (hook-tracker.ts) and gathered per window (hook-window.ts). The gateway keeps the sockets and the fan-out
 * (libs/edge/src/presence/presence.ts).
 */
export {
  ENTRIES_KEY,
  PRESENCE_DATA_MAX,
  RECORD_SHARDS,
  decodeEntries,
  decodeRecord,
  encodeRecord,
  entriesOf,
  serializeData,
  parseRecord,
  recordChannel,
  recordKey,
  shardOf,
  splitRecordKey,
  type RecordEntries,
  type RecordUsers,
} from './record-codec.ts';
export { RECORD_BURST, RECORD_ENTRY_BYTES_MAX, RECORD_SPACING_MS, RETRY_MS, RecordShard, type EntryChange, type ShardWrite } from './record-shard.ts';
export { PresenceRecordIndex, type AppliedWrite, type ExpiredRecord, type IndexedEntry, type IndexedRecord } from './record-index.ts';
export { decideFromIndex, decideFromRecords, type Decision, type EntryNews, type StoredRecord, type WriteChanges } from './decide.ts';
export { KV_CONCURRENCY, KV_DEADLINE_MS, Slots, listKeys, openBucket, withDeadline } from './presence-kv.ts';
export { INDEX_WAIT_MS, PresenceStore, type PresenceStoreOptions } from './presence-store.ts';
export {
  PRESENCE_WINDOW_MS,
  PresenceWindow,
  changesOf,
  presenceFrame,
  type EntryData,
  type EntryNote,
  type PresenceBatch,
  type PresenceChange,
} from './coalesce.ts';
export {
  HookTracker,
  type HookCounts,
  type HookInterest,
  type HookSource,
  type HookTrackerOptions,
  type HookTransition,
  type Stamp,
} from './hook-tracker.ts';
export { HOOK_MEMBERS_MAX, HOOK_WINDOW_MS, HookWindow, type HookEvent, type HookEventType, type HookMember } from './hook-window.ts';
export { OCCUPANCY_PERIOD_MS, OccupancyFrames, presenceOff, type Counts, type OccupancyWatcher } from './occupancy-frames.ts';
