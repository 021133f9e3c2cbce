import { describe, expect, it } from 'vitest';
import { parseConnectString, shuffled } from '../../src/session/connect-string.js';
import { PendingQueue, XidCounter } from '../../src/session/pending.js';
import { StateMachine } from '../../src/session/state.js';
import { timingFor } from '../../src/session/timing.js';
import { setWatchesBatches, WatchRegistry, type WatchEvent } from '../../src/session/watches.js';
import { base64, sha1 } from '../../src/util/sha1.js';
import { pathProblem } from '../../src/protocol/paths.js';
import { Chroot } from '../../src/client/chroot.js';
import { createHash } from 'node:crypto';

describe('connect strings', () => {
  it('parses hosts, default ports, IPv6 literals and the chroot', () => {
    expect(parseConnectString('a:1,b,[::1]:3,[fe80::1],::1/app/x')).toEqual({
      hosts: [
        { host: 'a', port: 1 },
        { host: 'b', port: 2181 },
        { host: '::1', port: 3 },
        { host: 'fe80::1', port: 2181 },
        { host: '::1', port: 2181 },
      ],
      chroot: '/app/x',
    });
    expect(parseConnectString('h:2/').chroot).toBeUndefined();
  });

  it('refuses malformed entries with BAD_ARGUMENT', () => {
    for (const bad of ['', 'a:', 'a:x', 'a:70000', '[::1', '[]:1', 'a,,b', '/chroot', 'a:1/app/']) {
      expect(() => parseConnectString(bad), bad).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    }
  });

  it('shuffles without losing hosts', () => {
    const items = [1, 2, 3, 4, 5];
    expect(shuffled(items).sort()).toEqual(items);
    expect(shuffled(items, () => 0)).not.toEqual(items);
  });
});

describe('timing', () => {
  it('derives every timer from the session timeout', () => {
    expect(timingFor(30_000, 3)).toEqual({
      sessionTimeoutMs: 30_000,
      readTimeoutMs: 20_000,
      pingIntervalMs: 10_000,
      connectTimeoutMs: 10_000,
      clientExpiryMs: 40_000,
    });
  });
});

describe('xids and the pending FIFO', () => {
  it('wraps from 2^31-1 to 1, never producing reserved xids', () => {
    const xids = new XidCounter(0x7ffffffe);
    expect([xids.next(), xids.next(), xids.next()]).toEqual([0x7fffffff, 1, 2]);
  });

  it('keeps FIFO order across compaction and drains', () => {
    const q = new PendingQueue<{ xid: number; opcode: number }>();
    for (let i = 1; i <= 3000; i++) q.push({ xid: i, opcode: 4 });
    for (let i = 1; i <= 2500; i++) expect(q.shift()?.xid).toBe(i);
    expect(q.peek()?.xid).toBe(2501);
    expect(q.drain().map((x) => x.xid)).toEqual(Array.from({ length: 500 }, (_, i) => 2501 + i));
    expect(q.size).toBe(0);
  });
});

describe('state machine', () => {
  it('derives Curator-style events and absorbs terminal states', () => {
    const m = new StateMachine(() => 0);
    const events: (string | undefined)[] = [];
    m.subscribe((c) => events.push(c.event));
    m.change('connected');
    m.change('disconnected');
    m.change('connected');
    m.change('connected-read-only');
    m.change('expired');
    expect(m.change('connected')).toBe(false);
    expect(m.change('closed')).toBe(false);
    expect(m.state).toBe('expired');
    expect(events).toEqual(['CONNECTED', 'SUSPENDED', 'RECONNECTED', 'READ_ONLY', 'LOST']);
  });

  it('iterates changes until the terminal one', async () => {
    const m = new StateMachine(() => 0);
    const seen: string[] = [];
    const done = (async () => {
      for await (const c of m.changes()) seen.push(c.to);
    })();
    m.change('connected');
    m.change('disconnected');
    m.change('closed');
    await done;
    expect(seen).toEqual(['connected', 'disconnected', 'closed']);
  });
});

describe('watch registry', () => {
  it('selects watchers like ZooKeeper: one-shot removed, persistent kept, recursive for descendants', () => {
    const r = new WatchRegistry();
    const got: string[] = [];
    const w = (name: string) => (e: WatchEvent) => got.push(`${name}:${e.type}:${e.path}`);
    r.add('data', '/a', w('data'));
    r.add('exist', '/a/b', w('exist'));
    r.add('child', '/a', w('child'));
    r.add('persistent', '/a', w('p'));
    r.add('persistentRecursive', '/', w('rec'));
    r.dispatch({ type: 'NodeChildrenChanged', state: 'SyncConnected', path: '/a' });
    r.dispatch({ type: 'NodeCreated', state: 'SyncConnected', path: '/a/b' });
    r.dispatch({ type: 'NodeDataChanged', state: 'SyncConnected', path: '/a' });
    r.dispatch({ type: 'NodeDataChanged', state: 'SyncConnected', path: '/a' });
    expect(got).toEqual([
      'child:NodeChildrenChanged:/a',
      'p:NodeChildrenChanged:/a',
      'exist:NodeCreated:/a/b',
      'rec:NodeCreated:/a/b',
      'data:NodeDataChanged:/a',
      'p:NodeDataChanged:/a',
      'rec:NodeDataChanged:/a',
      'p:NodeDataChanged:/a',
      'rec:NodeDataChanged:/a',
    ]);
    got.length = 0;
    r.closeAll('Closed');
    expect(got).toEqual(['p:None:undefined', 'rec:None:undefined']);
    expect(r.size).toBe(0);
  });

  it('batches setWatches at ~128 KB and uses 105 only with persistent watches', () => {
    const long = (i: number) => `/${'x'.repeat(1000)}/${i}`;
    const lists = { data: Array.from({ length: 200 }, (_, i) => long(i)), exist: ['/e'], child: [], persistent: [], persistentRecursive: ['/r'] };
    const batches = setWatchesBatches(lists);
    expect(batches.length).toBe(2);
    expect(batches[0]?.opcode).toBe(101);
    // A batch closes once its path text reaches 128 KiB (the last path may overshoot).
    const first = batches[0]!.lists.data;
    const chars = first.reduce((n, p) => n + p.length, 0);
    expect(chars).toBeGreaterThanOrEqual(128 * 1024);
    expect(chars - first[first.length - 1]!.length).toBeLessThan(128 * 1024);
    expect(batches[1]?.lists.data.length).toBe(200 - first.length);
    expect(batches[1]?.opcode).toBe(105);
    expect(batches[1]?.lists).toMatchObject({ exist: ['/e'], persistentRecursive: ['/r'] });
    expect(setWatchesBatches({ data: [], exist: [], child: [], persistent: [], persistentRecursive: [] })).toEqual([]);
  });
});

describe('client pieces', () => {
  it('sha1 and base64 match node:crypto', () => {
    for (const text of ['', 'a', 'alice:secret', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é'.repeat(300)]) {
      const bytes = new TextEncoder().encode(text);
      expect(base64(sha1(bytes))).toBe(createHash('sha1').update(bytes).digest('base64'));
    }
    expect(base64(new Uint8Array([1]))).toBe('AQ==');
    expect(base64(new Uint8Array([1, 2]))).toBe('AQI=');
  });

  it('validates paths like PathUtils', () => {
    for (const ok of ['/', '/a', '/a/b', '/a.b', '/..a', '/a..', '/zookeeper', '/ü']) expect(pathProblem(ok), ok).toBeUndefined();
    for (const bad of ['', 'a', '/a/', '//', '/a//b', '/.', '/..', '/a/./b', '/a/..', '/\u0000', '/\u001f', '/\u007f', '/\ud800', '/\uffff']) {
      expect(pathProblem(bad), JSON.stringify(bad)).toBeDefined();
    }
    expect(pathProblem('/a/', true)).toBeUndefined();
  });

  it('maps chroot paths both ways', () => {
    const c = new Chroot('/app');
    expect(c.toServer('/')).toBe('/app');
    expect(c.toServer('/x')).toBe('/app/x');
    expect(c.toClient('/app')).toBe('/');
    expect(c.toClient('/app/x')).toBe('/app/x'.slice(4));
    expect(c.contains('/apple')).toBe(false);
    expect(c.toClient('/apple')).toBe('/apple');
  });
});
