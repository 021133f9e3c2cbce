/**
 * `zkwire config` and `zkwire reconfig`, run as users run them (the built CLI, one process per command) against a
 * real 3-member ensemble with dynamic reconfiguration enabled and a superuser (superDigest), as ZooKeeper's
 * reconfig guide sets it up: remove a member and add it back (incrementally and in bulk), a stale --from-config
 * refused with BADVERSION, NOAUTH without the superuser's --auth, and usage errors before connecting.
 */

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReconfigEnsemble } from '../harness/reconfig-ensemble.js';
import type { ZkEnsemble } from '../harness/zookeeper.js';

const MAIN = join(process.cwd(), 'dist/cli/main.js');
const SUPER = 'super:reconfig-cli-secret';
const AUTH = ['--auth', `digest:${SUPER}`];

interface Result {
  code: number | null;
  out: string;
  err: string;
}

function zkwire(args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

interface ConfigJson {
  members: { id: string; spec: string }[];
  version: string;
  text: string;
}

let ensemble: ZkEnsemble;
/** The member the tests remove and add back: a follower, so no election interrupts the commands. */
let leaving: number;
/** The other two members: the CLI talks to them only, so removing `leaving` never cuts a command's session. */
let staying: string;

beforeAll(async () => {
  ensemble = await startReconfigEnsemble(SUPER);
  const leader = await ensemble.leaderIndex();
  const follower = [0, 1, 2].find((i) => i !== leader)!;
  leaving = follower + 1; // member i has server id i + 1
  staying = ensemble.servers.filter((_, i) => i !== follower).map((s) => s.connectString).join(',');
}, 120_000);

afterAll(async () => {
  await ensemble?.close();
});

async function config(): Promise<ConfigJson> {
  const r = await zkwire(['config', '--server', staying, '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as ConfigJson;
}

const ids = (c: ConfigJson): string[] => c.members.map((m) => m.id).sort();

describe('zkwire config', () => {
  it('prints the members and the version as the server holds them', async () => {
    const c = await config();
    expect(ids(c)).toEqual(['1', '2', '3']);
    expect(c.version).toMatch(/^[0-9a-f]+$/);
    for (const m of c.members) expect(m.spec).toMatch(new RegExp(`^server\\.${m.id}=127\\.0\\.0\\.1:\\d+:\\d+:participant;`));
    const text = await zkwire(['config', '--server', staying]);
    expect(text.code).toBe(0);
    expect(text.out).toBe(`${c.text.replace(/\n+$/, '')}\n`);
    expect(text.out).toContain(`version=${c.version}\n`);
  });
});

describe('zkwire reconfig', () => {
  it('removes a member and adds it back; a stale --from-config is BADVERSION and changes nothing', async () => {
    const start = await config();
    const line = start.members.find((m) => m.id === String(leaving))!.spec;

    const removed = await zkwire(['reconfig', '--remove', String(leaving), ...AUTH, '--server', staying, '--json']);
    expect(removed.err).toBe('');
    expect(removed.code).toBe(0);
    const afterRemove = JSON.parse(removed.out) as ConfigJson;
    expect(ids(afterRemove)).toEqual(['1', '2', '3'].filter((id) => id !== String(leaving)));
    expect(afterRemove.version).not.toBe(start.version);
    expect(await config()).toEqual(afterRemove);

    const stale = await zkwire(['reconfig', '--add', line, '--from-config', start.version, ...AUTH, '--server', staying]);
    expect(stale.code).toBe(1);
    expect(stale.out).toBe('');
    expect(stale.err).toMatch(/^zkwire reconfig: BADVERSION: reconfig\b.*\n$/);
    expect(await config()).toEqual(afterRemove);

    const back = await zkwire(['reconfig', '--add', line, '--from-config', afterRemove.version, ...AUTH, '--server', staying]);
    expect(back.err).toBe('');
    expect(back.code).toBe(0);
    expect(back.out.split('\n')).toContain(line);
    const now = await config();
    expect(ids(now)).toEqual(['1', '2', '3']);
    expect(now.members.find((m) => m.id === String(leaving))!.spec).toBe(line);
    expect(back.out).toBe(`${now.text.replace(/\n+$/, '')}\n`);
  });

  it('in bulk: --members sets the whole membership', async () => {
    const start = await config();
    const others = start.members.filter((m) => m.id !== String(leaving)).map((m) => m.spec);
    const two = await zkwire(['reconfig', '--members', others.join(','), ...AUTH, '--server', staying, '--json']);
    expect(two.err).toBe('');
    expect(two.code).toBe(0);
    expect((JSON.parse(two.out) as ConfigJson).members.map((m) => m.spec).sort()).toEqual([...others].sort());
    const all = start.members.map((m) => m.spec);
    const three = await zkwire(['reconfig', '--members', all.join(','), ...AUTH, '--server', staying, '--json']);
    expect(three.code).toBe(0);
    expect((JSON.parse(three.out) as ConfigJson).members.map((m) => m.spec).sort()).toEqual([...all].sort());
    expect(ids(await config())).toEqual(['1', '2', '3']);
  });

  it('without the superuser it is NOAUTH, exit 1 (as text and as JSON on stderr), and nothing changes', async () => {
    const before = await config();
    const text = await zkwire(['reconfig', '--remove', String(leaving), '--server', staying]);
    expect(text.code).toBe(1);
    expect(text.out).toBe('');
    expect(text.err).toMatch(/^zkwire reconfig: NOAUTH: reconfig\b.*\n$/);
    const json = await zkwire(['reconfig', '--remove', String(leaving), '--server', staying, '--json']);
    expect(json.code).toBe(1);
    expect(json.out).toBe('');
    expect((JSON.parse(json.err) as { error: { code: string } }).error.code).toBe('NOAUTH');
    expect(await config()).toEqual(before);
  });

  it('usage errors exit 2 before connecting', async () => {
    const cases: [string[], RegExp][] = [
      [[], /give --add, --remove or --members/],
      [['--remove', 'three'], /--remove takes server ids/],
      [['--members', 'server.1=127.0.0.1:1:2;3', '--remove', '2'], /not both/],
      [['--remove', '2', '--from-config', 'zz'], /--from-config takes a hex/],
      [['--add'], /--add needs a value/],
      [['--bogus'], /unknown option --bogus/],
    ];
    for (const [args, message] of cases) {
      // --server points at a port nothing listens on: a usage error must come before any connection attempt.
      const r = await zkwire(['reconfig', ...args, '--server', '127.0.0.1:1']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).toContain('Usage: zkwire reconfig');
      expect(r.out).toBe('');
    }
    const extra = await zkwire(['config', 'extra', '--server', '127.0.0.1:1']);
    expect(extra.code).toBe(2);
    expect(extra.err).toMatch(/unexpected argument extra/);
  });
});
