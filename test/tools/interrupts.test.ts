/**
 * The long-running commands stopped by a signal, as users stop them: the built CLI in its own process, against a
 * server of this file's own (so "nothing left" can be checked server-wide). Each signal gives exit 128 + its number,
 * a partial report where there is one, and nothing left on the server: no bench nodes, no ephemerals (mntr).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { parseMntr } from '../../src/protocol/index.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { runCliProcess as run } from './cli-process.js';

let server: ZkServer;
beforeAll(async () => {
  server = await startZooKeeper();
});
afterAll(async () => {
  await server?.stop();
});

/** What the server still holds: children of the bench roots, the ephemeral count and the other open sessions. */
async function leftovers(): Promise<{ bench: string[]; raw: string[]; ephemerals: number; sessions: number }> {
  await using zk = await ZooKeeperClient.connect(server.connectString);
  const bench = await zk.getChildren('/zkwire-bench').catch(() => [] as string[]);
  const raw = (await zk.getChildren('/')).filter((n) => n.startsWith('zkwire-bench-raw-'));
  const mntr = parseMntr(await server.fourLetter('mntr'));
  // every session the server tracks but this one
  return { bench, raw, ephemerals: Number(mntr['zk_ephemerals_count']), sessions: Number(mntr['zk_global_sessions']) - 1 };
}

const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const;

describe('bench lock interrupted', () => {
  it.each(SIGNALS)('%s while contending: partial report, exit %i, nothing left on the server', async (sig, code) => {
    // 10 floor samples, not the default 1000: the contention, not the floor, is what the signal must interrupt here
    const p = run(['bench', 'lock', '--server', server.connectString, '--clients', '4', '--duration', '600', '--hold', '1', '--floor-samples', '10']);
    await p.until(/ [1-9]\d* acquisitions /);
    p.child.kill(sig);
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain(`${sig}: stopping`);
    expect(r.stderr).toMatch(/waiting for the floor connections and 5 session\(s\) to close/);
    expect(r.stdout).toContain('INTERRUPTED: partial figures');
    expect(r.stdout).toMatch(/acquisitions: [1-9]\d* in /);
    expect(r.stdout).toMatch(/mutual exclusion: 0 overlaps/);
    expect(await leftovers()).toEqual({ bench: [], raw: [], ephemerals: 0, sessions: 0 });
  });

  it('SIGTERM during an open-loop run: exit 143, the partial report judges only the slots due before the stop', async () => {
    const p = run(['bench', 'lock', '--server', server.connectString, '--clients', '2', '--duration', '600', '--rate', '50', '--floor-samples', '10']);
    await p.until(/ [1-9]\d* acquisitions /);
    p.child.kill('SIGTERM');
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toContain('INTERRUPTED: partial figures');
    expect(r.stdout).toMatch(/open loop: asked 50\/s, achieved \d+\/s \(held; \d+ of \d+ scheduled acquisitions\)/);
    expect(r.stdout).not.toContain('of 30000 scheduled');
    expect(await leftovers()).toEqual({ bench: [], raw: [], ephemerals: 0, sessions: 0 });
  });

  it('SIGINT while measuring the floor: exit 130, the floor nodes and directory gone', async () => {
    const p = run(['bench', 'lock', '--server', server.connectString, '--clients', '2', '--duration', '600']);
    await p.until(/measuring the floor/);
    p.child.kill('SIGINT');
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toContain('INTERRUPTED');
    expect(await leftovers()).toEqual({ bench: [], raw: [], ephemerals: 0, sessions: 0 });
  });
});

describe('bench raw and demo interrupted', () => {
  it('bench raw on SIGTERM: no report, exit 143, its nodes removed', async () => {
    const p = run(['bench', 'raw', '--server', server.connectString, '--samples', '200000', '--rounds', '2', '--sessions', '0']);
    await p.until(/sequential round 1/);
    p.child.kill('SIGTERM');
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no report');
    expect(await leftovers()).toEqual({ bench: [], raw: [], ephemerals: 0, sessions: 0 });
  });

  it('bench raw on SIGTERM while its idle sessions are open: exit 143, every one of them closed before it exits', async () => {
    const p = run(['bench', 'raw', '--server', server.connectString, '--samples', '200', '--rounds', '1', '--pipeline', '1000', '--pipeline-rounds', '1', '--sessions', '3000']);
    await p.until(/idle sessions open: [1-9]/);
    p.child.kill('SIGTERM');
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no report');
    expect(await leftovers()).toEqual({ bench: [], raw: [], ephemerals: 0, sessions: 0 });
  });

  it('demo on SIGHUP: the report so far, exit 129, nothing left', async () => {
    const p = run(['demo', '--server', server.connectString]);
    await p.until(/ [1-9]\d* acquisitions /);
    p.child.kill('SIGHUP');
    const r = await p.exit;
    expect(r.code, r.stderr).toBe(129);
    expect(r.stdout).toContain('INTERRUPTED: partial figures');
    expect(r.stdout).not.toContain('More: zkwire bench lock --help'); // the closing line of a finished demo
    expect(await leftovers()).toEqual({ bench: [], raw: [], ephemerals: 0, sessions: 0 });
  });
});
