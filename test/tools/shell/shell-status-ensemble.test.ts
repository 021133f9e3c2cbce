/**
 * The shell's `status` over a real three-member ensemble: a row per member with its mode (one leader, two
 * followers), and a member that is down said so, without the view failing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestingCluster } from '../../../src/testing/cluster.js';
import { startEnsemble } from '../../harness/zookeeper.js';
import { runShellLines } from './run-shell.js';

let ensemble: TestingCluster;

beforeAll(async () => {
  ensemble = await startEnsemble(3);
}, 120_000);

afterAll(async () => {
  await ensemble?.close();
});

const row = (address: string, mode: string): RegExp => new RegExp(`^\\| ${address.replace(/[.[\]]/g, '\\$&')} +\\| ${mode} +\\| +0x[0-9a-f]+ \\|`, 'm');

describe('status on an ensemble', () => {
  it("shows each member's mode, and a member that is down", async () => {
    const members = ensemble.servers.map((m) => m.connectString);
    const up = await runShellLines(ensemble.connectString, ['status']);
    expect(members.map((m) => [row(m, 'leader').test(up.output), row(m, 'follower').test(up.output)])).toEqual(
      expect.arrayContaining([[true, false], [false, true]]),
    );
    expect(up.output.match(/\| leader /g)).toHaveLength(1);
    expect(up.output.match(/\| follower /g)).toHaveLength(2);

    const down = members.findIndex((m) => row(m, 'follower').test(up.output));
    await ensemble.stop(down);
    const after = await runShellLines(ensemble.connectString, ['status']);
    expect(after.output).toMatch(new RegExp(`^\\| ${members[down]!.replace(/\./g, '\\.')} +\\| DOWN +\\|`, 'm'));
    expect(after.output).toMatch(new RegExp(`^${members[down]!.replace(/\./g, '\\.')}: `, 'm'));
    expect(after.output.match(/\| (leader|follower) /g)).toHaveLength(2);
  }, 60_000);
});
