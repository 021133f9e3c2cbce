/**
 * Leader elections, read off the lock tracker's holders: an election is a lock whose holder is the leader.
 *
 *   Curator / zkwire LeaderLatch  `<path>/_c_<uuid>-latch-<seq>`: the lowest sequence leads (basis `latch`).
 *   Curator LeaderSelector        an InterProcessMutex on its path (`_c_<uuid>-lock-<seq>`), and
 *   kazoo Election                a kazoo Lock (`<uuid>__lock__<seq>`): the same nodes as the mutex. A lock is
 *                                 no election, so a mutex is reported as one (basis `mutex`) only when its
 *                                 path says so: a segment naming a leader, an election or a master.
 *
 * A term runs from when the candidate learned it led (the listing that showed its node first) to what ended it;
 * a gap is the time from one term's end to the next term's start, or to the end of the capture.
 */

import type { LeaderGap, LeaderReport, LeaderTerm, LockReport, SessionReport } from './report.js';

/** The lock tracker's end reasons, as they read for a leader. */
function endedText(how: string | null): string | null {
  if (how === null) return null;
  if (how === 'released (node deleted)') return 'node deleted (the candidate closed or let go)';
  return how;
}

/** The client address of `session`'s connection at `atMs` (the last one opened by then). */
export function clientAt(sessions: ReadonlyMap<string, SessionReport>, session: string, atMs: number): string | null {
  const conns = sessions.get(session)?.connections ?? [];
  let client: string | null = null;
  for (const c of conns) if (c.fromMs <= atMs || client === null) client = c.client;
  return client;
}

function recipeOf(l: LockReport): string {
  if (l.kind === 'leader-latch') return l.recipe;
  return l.recipe.startsWith('kazoo') ? 'kazoo Election (or a kazoo Lock: the same nodes)' : 'Curator LeaderSelector (or an InterProcessMutex: the same nodes)';
}

/**
 * A mutex whose path names an election (`/app/leader`, `/elections/payments`, `/service/master-lock`): what
 * LeaderSelector and kazoo Election users call their paths. Any other mutex is a lock, reported only as one.
 */
const ELECTION_PATH = /\/[^/]*(?:leader|election|master)[^/]*(?:\/|$)/i;

/** Leader reports for the latch directories and the election-named mutexes among `locks`, in the order given. */
export function leaderReports(locks: readonly LockReport[], sessions: readonly SessionReport[]): LeaderReport[] {
  const bySession = new Map(sessions.map((s) => [s.id, s]));
  const out: LeaderReport[] = [];
  for (const l of locks) {
    // A semaphore's internal mutex (`<dir>/locks`) is no election, nor a mutex whose path does not name one.
    if (l.kind !== 'leader-latch' && (l.kind !== 'mutex' || l.dir.endsWith('/locks') || !ELECTION_PATH.test(l.dir))) continue;
    const terms: LeaderTerm[] = [...l.holders]
      .sort((a, b) => a.fromMs - b.fromMs)
      .map((h) => ({ node: h.node, session: h.session, client: clientAt(bySession, h.session, h.fromMs), fromMs: h.fromMs, toMs: h.toMs, ended: endedText(h.how) }));
    const gaps: LeaderGap[] = [];
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i]!;
      if (t.toMs === null) continue;
      const next = terms.slice(i + 1).find((n) => n.fromMs >= t.toMs!);
      // Only the latest end before the next start opens a gap (overlapping terms are reported as overlaps).
      if (terms.some((o, j) => j !== i && o.fromMs <= t.toMs! && (o.toMs === null || o.toMs > t.toMs!))) continue;
      gaps.push({ fromMs: t.toMs, toMs: next?.fromMs ?? null, after: t.session, before: next?.session ?? null });
    }
    out.push({ path: l.dir, basis: l.kind === 'leader-latch' ? 'latch' : 'mutex', recipe: recipeOf(l), candidates: l.contenders, terms, gaps, overlaps: l.violations });
  }
  return out;
}
