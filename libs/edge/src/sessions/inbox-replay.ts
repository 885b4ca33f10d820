/**
 * One reader of one user's inbox on one socket, replayed then live, shared by the inbox socket
 * (`/inbox`) and the multiplexed socket's `subscribe-inbox`:
 *
 *   listen()        subscribes to the user's subject and waits until NATS has it (live
 *                   notifications are held from now on);
 *   replay(since)   sends every retained notification with id > since from Postgres, ascending,
 *                   500 per page, at the client's pace, each page within the user's
 *                   userInboxReadsPerSecond;
 *   live()          sends the held notifications not already replayed, then every later one.
 * Anything committed before the replay's query is in it; anything after reaches the subscription;
 * a notification in both is sent once (replayed ids are remembered for a while after the hand-off,
 * since one committed just before the query may still be on its way through NATS).
 */
import type { EdgeDeps } from '../edge-deps.ts';
import { historyUnits } from '@rtm/limits';
import { readInbox, type NotificationFrame } from '@rtm/db';
import type { SubjectFeed } from './subject-feed.ts';
import type { Link } from './link.ts';

const REPLAY_PAGE = 500;
/** How long replayed ids are remembered after going live: longer than any NATS delivery delay. */
const REMEMBER_MS = 10_000;

/** The user's subject, the retained notifications (Postgres, NOTIFICATION_RETENTION), the page admission and the user's inbox limit. */
export type InboxReplayDeps = Pick<EdgeDeps, 'config' | 'limits' | 'pool' | 'sessions' | 'subjects'>;

export class InboxReplay {
  private readonly deps: InboxReplayDeps;
  private readonly feed: SubjectFeed;
  private readonly link: Link;
  private readonly environmentId: string;
  private readonly userId: string;
  private held: NotificationFrame[] | null = [];
  private replayed: Set<string> | null = new Set();
  private since: string | undefined;
  private subject: string | undefined;
  private stopped = false;

  constructor(deps: InboxReplayDeps, feed: SubjectFeed, link: Link, environmentId: string, userId: string) {
    this.deps = deps;
    this.feed = feed;
    this.link = link;
    this.environmentId = environmentId;
    this.userId = userId;
  }

  async listen(): Promise<void> {
    this.subject = this.deps.subjects.user(this.environmentId, this.userId);
    this.feed.subscribe(this.subject, this.onFrame);
    await this.feed.flush();
  }

  private readonly onFrame = (frame: Record<string, unknown>): void => {
    if (frame.op !== 'notification' || this.stopped) return;
    if (this.held) this.held.push(frame as unknown as NotificationFrame);
    // as an object: an event stream's link reads the id into its event ids (sse-link.ts)
    else if (!this.replayed?.has(frame.id as string)) this.link.send(frame);
  };

  /** False when stopped or the socket closed meanwhile. */
  async replay(since: string | undefined): Promise<boolean> {
    this.since = since;
    let after = since;
    for (;;) {
      if (this.done) return false;
      const from = after;
      // each page counts against the user's inbox limit as a GET /v1/inbox of its size would: one
      // unit before it is read (so a refused replay reads nothing), the rest once its size is known;
      // over the limit this throws 429 rate_limited (the socket closes 4429, /v1/connect answers an error frame)
      const auth = { environmentId: this.environmentId, userId: this.userId };
      await this.deps.limits.admitEdge(auth, 'inbox');
      if (this.done) return false;
      // each page read waits its environment's turn, like a channel replay's (sessions.admission)
      const page = await this.deps.sessions.admission.run(this.environmentId, () =>
        readInbox(this.deps.pool, {
          environmentId: this.environmentId,
          userId: this.userId,
          retentionMs: this.deps.config.NOTIFICATION_RETENTION,
          limit: REPLAY_PAGE,
          // without `since`, everything retained: ids all start with a letter above '0'
          after: from ?? '0',
        }),
      );
      const rest = historyUnits(page.notifications.length) - 1;
      if (rest > 0) await this.deps.limits.admitEdge(auth, 'inbox', rest);
      for (const frame of page.notifications) {
        this.replayed?.add(frame.id);
        await this.link.drained();
        if (this.done) return false;
        this.link.send(frame);
      }
      if (!page.hasMore) return !this.done;
      after = page.notifications.at(-1)!.id;
    }
  }

  live(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const frame of held) {
      if (this.replayed?.has(frame.id) || (this.since !== undefined && frame.id <= this.since)) continue;
      this.link.send(frame);
    }
    setTimeout(() => {
      this.replayed = null;
    }, REMEMBER_MS).unref();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.held = null;
    if (this.subject) this.feed.unsubscribe(this.subject, this.onFrame);
  }

  private get done(): boolean {
    return this.stopped || this.link.closed;
  }
}
