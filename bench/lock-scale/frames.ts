/**
 * Counts what the lock recipes put on the wire, through the client's `onFrame` tracing: requests by operation,
 * watch notifications, frames both ways. One counter is shared by every session of a run (each session passes
 * `describeFrames(counter.listener)` as its onFrame; the listener is a plain function and JavaScript runs one at a time), and it only counts while `counting` is on, so a report can
 * say "during the hand-off chain" and mean exactly that.
 *
 * It also keeps one count that runs all the time: successful getData replies, which in a lock queue are the
 * waiters' watches on their predecessors. Setup uses it to know that a waiter has finished queueing.
 */

import type { DescribedFrameTrace } from '../../src/session/describe-frames.js';

export interface FrameCounts {
  /** Requests sent, by operation name (pings counted apart). */
  requests: Record<string, number>;
  /** Watch notifications received (xid -1), by event summary type (NodeDeleted, NodeChildrenChanged, …). */
  notifications: Record<string, number>;
  notificationsTotal: number;
  /** Distinct node paths notified about, and the most notifications any one path caused (a herd shows here). */
  notifiedPaths: number;
  maxNotificationsPerPath: number;
  /** Frames sent and received, pings and their replies excluded. */
  framesSent: number;
  framesReceived: number;
  pings: number;
}

export class FrameCounter {
  counting = false;
  private requests = new Map<string, number>();
  private notifications = new Map<string, number>();
  private notificationsTotal = 0;
  private perPath = new Map<string, number>();
  private sent = 0;
  private received = 0;
  private pings = 0;
  private watchedReads = 0;
  private waiters: { target: number; resolve: () => void }[] = [];

  /** Pass as `onFrame: describeFrames(counter.listener)` to every traced client. */
  readonly listener = (t: DescribedFrameTrace): void => this.see(t);

  private see(t: DescribedFrameTrace): void {
    const f = t.frame;
    if (f.kind === 'reply' && f.op === 'getData' && f.err === 0) this.sawWatchedRead();
    if (!this.counting) return;
    if (f.op === 'ping') {
      if (t.dir === 'c2s') this.pings++;
      return;
    }
    if (t.dir === 'c2s') {
      this.sent++;
      if (f.kind === 'request') bump(this.requests, f.op ?? 'unknown');
      return;
    }
    this.received++;
    if (f.kind === 'notification') {
      this.notificationsTotal++;
      // The summary starts with the event type name ("NodeDeleted /path").
      bump(this.notifications, f.summary.split(' ')[0] ?? 'unknown');
      bump(this.perPath, f.path ?? '');
    }
  }

  private sawWatchedRead(): void {
    this.watchedReads++;
    const due = this.waiters.filter((w) => w.target <= this.watchedReads);
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.target > this.watchedReads);
    for (const w of due) w.resolve();
  }

  /** Successful getData replies seen so far (all sessions, counting or not). */
  get getDataReplies(): number {
    return this.watchedReads;
  }

  /** Resolves once `n` successful getData replies have been seen in total. */
  untilGetDataReplies(n: number): Promise<void> {
    if (this.watchedReads >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ target: n, resolve }));
  }

  /** Zeroes the counts (not the getData tally) and starts counting. */
  start(): void {
    this.requests.clear();
    this.notifications.clear();
    this.notificationsTotal = 0;
    this.perPath.clear();
    this.sent = 0;
    this.received = 0;
    this.pings = 0;
    this.counting = true;
  }

  /** Stops counting and returns what was counted since start(). */
  stop(): FrameCounts {
    this.counting = false;
    return {
      requests: Object.fromEntries([...this.requests].sort(([a], [b]) => a.localeCompare(b))),
      notifications: Object.fromEntries(this.notifications),
      notificationsTotal: this.notificationsTotal,
      notifiedPaths: this.perPath.size,
      maxNotificationsPerPath: Math.max(0, ...this.perPath.values()),
      framesSent: this.sent,
      framesReceived: this.received,
      pings: this.pings,
    };
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Requests of the getChildren family (getChildren and getChildren2). */
export function getChildrenCalls(c: FrameCounts): number {
  return (c.requests['getChildren'] ?? 0) + (c.requests['getChildren2'] ?? 0);
}
