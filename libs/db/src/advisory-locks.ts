/**
 * Every Postgres advisory lock the service takes, in one registry, so no two subsystems can pick
 * the same key by accident. A lock is either one 64-bit key (`pg_advisory_*lock(key)`) or a pair
 * of 32-bit keys `(class, n)` where `n` is a partition number or `hashtext(<name>)`.
 * Keys are part of the on-disk protocol between processes of different versions during a rolling
 * upgrade: never renumber one, only add.
 */
export const ADVISORY_LOCKS = {
  /** Migrations (transaction lock): concurrent starters wait, then see the applied rows. */
  migrations: 7_351_001,
  /**
   * Taken by gateways of releases before the notification sweep became a dispatcher task (one
   * gateway swept at a time); unused now, listed so the number is never given to anything else.
   */
  notificationSweep: 7_351_005,
  /** Class of the per-key login throttle (transaction lock, `hashtext(key)`). */
  loginThrottle: 7_351_010,
  /** Class of account-name creation (transaction lock, `hashtext(name)`): one create per name. */
  accountName: 7_351_011,
  /** Class of e-mail code requests (transaction lock, `hashtext(key)`): one limit check per address and requester at a time. */
  emailCodes: 7_351_012,
  /** Class of dispatcher liveness (session lock, `hashtext(worker pool id)`): held while it lives. */
  dispatcherLiveness: 7_351_100,
  /** Class of channel-node numbers (session lock, try, `n`): a node's stable slot. */
  channelNodes: 735_110,
  /** Class of partition ownership (session lock, try, partition): the owner's fence. */
  partitions: 735_111,
  /** Class of dispatcher numbers (session lock, try, `n`): a dispatcher's stable slot. */
  dispatcherNodes: 735_120,
  /** Class of webhook partition ownership (session lock, try, partition): the owning dispatcher's fence. */
  webhookPartitions: 735_121,
} as const;
