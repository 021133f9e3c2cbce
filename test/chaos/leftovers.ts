/**
 * What the run leaves on the server: lock and lease nodes under the chaos root (read with a fresh client straight
 * to the ensemble, not through the proxies) and watches per member (the `wchs` / `wchc` four-letter words).
 */

import type { ZooKeeperClient } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import { fourLetterWord } from '../../src/testing/local-server/four-letter-client.js';

export interface LockNode {
  readonly path: string;
  /** The owning session as 0x… (lower case). */
  readonly owner: string;
}

/** Every ephemeral node below `root` (lock and lease nodes are the only ephemerals the run creates). */
export async function lockNodesUnder(client: ZooKeeperClient, root: string): Promise<LockNode[]> {
  const found: LockNode[] = [];
  const walk = async (path: string): Promise<void> => {
    let children: string[];
    try {
      children = await client.getChildren(path);
    } catch (err) {
      if (err instanceof ZooKeeperError && err.code === 'NONODE') return;
      throw err;
    }
    await Promise.all(
      children.map(async (name) => {
        const child = `${path}/${name}`;
        const stat = await client.exists(child);
        if (stat === null) return;
        if (stat.ephemeralOwner !== 0n) found.push({ path: child, owner: `0x${BigInt.asUintN(64, stat.ephemeralOwner).toString(16)}` });
        else await walk(child);
      }),
    );
  };
  await walk(root);
  return found;
}

export interface Member {
  readonly host: string;
  readonly port: number;
}

/** `Total watches:` of `wchs` on each member. */
export async function watchTotals(members: readonly Member[]): Promise<number[]> {
  return Promise.all(
    members.map(async (m) => {
      const text = await fourLetterWord(m.host, m.port, 'wchs');
      const match = /Total watches:\s*(\d+)/.exec(text);
      if (match === null) throw new Error(`unexpected wchs answer from ${m.host}:${m.port}: ${text.slice(0, 200)}`);
      return Number(match[1]);
    }),
  );
}

/** Watched paths per session (`wchc`), merged over every member; session ids as 0x… lower case. */
export async function watchesBySession(members: readonly Member[]): Promise<Map<string, string[]>> {
  const bySession = new Map<string, string[]>();
  for (const m of members) {
    const text = await fourLetterWord(m.host, m.port, 'wchc');
    let current: string | undefined;
    for (const line of text.split('\n')) {
      const trimmed = line.trim();
      if (/^0x[0-9a-f]+$/i.test(trimmed)) current = trimmed.toLowerCase();
      else if (current !== undefined && trimmed.startsWith('/')) {
        const list = bySession.get(current) ?? [];
        list.push(trimmed);
        bySession.set(current, list);
      }
    }
  }
  return bySession;
}

/**
 * Whether any member still knows the session (0x…): `dump` lists every live session on the leader (its session
 * tracker) and, on every member, the sessions that own ephemeral nodes. A member that does not answer (killed, or
 * electing) is skipped; when none answers, the session counts as known, so a caller waits rather than guesses.
 */
export async function sessionKnown(members: readonly Member[], session: string): Promise<boolean> {
  const pattern = new RegExp(`\\b${session.toLowerCase()}\\b`);
  const answers = await Promise.all(members.map((m) => fourLetterWord(m.host, m.port, 'dump').catch(() => undefined)));
  const heard = answers.filter((a): a is string => a !== undefined && a.includes('dump'));
  return heard.length === 0 || heard.some((text) => pattern.test(text.toLowerCase()));
}
