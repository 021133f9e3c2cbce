import { describe, expect, it } from 'vitest';
import {
  getsTheLock,
  mutexVerdict,
  lockSequence,
  parseSequence,
  readerGetsTheLock,
  readerVerdict,
  sortKey,
  sortLockChildren,
} from '../../src/recipes/locks/predicate.js';

const U1 = '0f8e6a52-7c1b-4c58-9a0e-3b1f2d4c5e6f';
const U2 = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
const U3 = 'ffffffff-0000-4000-8000-000000000000';
const p = (uuid: string, name: string) => `_c_${uuid}-${name}`;
const MUTEX = ['lock-'];
const RW = ['__READ__', '__WRIT__'];

describe('parseSequence', () => {
  it.each([
    ['0000000000', 0],
    ['0000000001', 1],
    ['0000012345', 12345],
    ['2147483647', 2147483647],
    ['-2147483648', -2147483648],
    ['-2147483647', -2147483647],
    ['-1000000000', -1000000000],
    ['-999999999', -999999999],
    ['-000000001', -1],
    ['-000012345', -12345],
  ])('%s is %d', (text, value) => {
    expect(parseSequence(text)).toBe(value);
  });

  it.each([
    '',
    '1',
    '000000001', // nine digits
    '00000000001', // eleven digits
    '2147483648', // positive beyond int
    '9999999999',
    '-2147483649', // negative beyond int
    '-0000000000',
    '-000000000', // zero is never written with a sign
    '-0999999999', // %010d never pads a negative to eleven characters
    '-00000001', // too short
    '+000000001',
    '00000000a1',
    ' 000000001',
    'lock-0000000001',
  ])('%j is not a sequence', (text) => {
    expect(parseSequence(text)).toBeUndefined();
  });
});

describe('sortKey and lockSequence', () => {
  it('skip the protection prefix like Curator does', () => {
    expect(sortKey(p(U1, 'lock-0000000007'), MUTEX)).toBe('0000000007');
    expect(lockSequence(p(U1, 'lock-0000000007'), MUTEX)).toBe(7);
  });
  it('handle a lock name that also occurs inside the uuid part', () => {
    // lastIndexOf: the final occurrence is the real one
    expect(sortKey('_c_x-lock-y-lock-0000000003', MUTEX)).toBe('0000000003');
  });
  it('strip both read/write names in turn', () => {
    expect(sortKey(p(U1, '__READ__0000000004'), RW)).toBe('0000000004');
    expect(sortKey(p(U2, '__WRIT__0000000005'), RW)).toBe('0000000005');
    expect(lockSequence(p(U2, '__WRIT__-2147483648'), RW)).toBe(-2147483648);
  });
  it('give no sequence to a child without the lock name or with a bad suffix', () => {
    expect(lockSequence('unrelated', MUTEX)).toBeUndefined();
    expect(lockSequence('0000000001', MUTEX)).toBeUndefined();
    expect(lockSequence('lock-abc', MUTEX)).toBeUndefined();
    expect(sortKey('unrelated', MUTEX)).toBe('unrelated');
  });
});

describe('sortLockChildren', () => {
  it('orders by sequence, ignoring the uuid in the prefix', () => {
    const children = [p(U1, 'lock-0000000003'), p(U3, 'lock-0000000001'), p(U2, 'lock-0000000002')];
    expect(sortLockChildren(children, MUTEX)).toEqual([
      p(U3, 'lock-0000000001'),
      p(U2, 'lock-0000000002'),
      p(U1, 'lock-0000000003'),
    ]);
  });

  it('agrees with Curator (text order of the key) whenever the counter has not wrapped', () => {
    const seqs = [5, 0, 2147483647, 99, 1000000000, 123456789, 42];
    const children = seqs.map((s, i) => p(i % 2 ? U1 : U2, `lock-${String(s).padStart(10, '0')}`));
    const curator = [...children].sort((a, b) => {
      const ka = sortKey(a, MUTEX);
      const kb = sortKey(b, MUTEX);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    expect(sortLockChildren(children, MUTEX)).toEqual(curator);
  });

  it('keeps creation order across the signed wrap (2147483647 then -2147483648 then -2147483647)', () => {
    const children = [p(U1, 'lock--2147483647'), p(U2, 'lock-2147483646'), p(U3, 'lock--2147483648'), p(U1, 'lock-2147483647')];
    expect(sortLockChildren(children, MUTEX)).toEqual([
      p(U2, 'lock-2147483646'),
      p(U1, 'lock-2147483647'),
      p(U3, 'lock--2147483648'),
      p(U1, 'lock--2147483647'),
    ]);
  });

  it('keeps creation order across the unsigned wrap (-1 then 0)', () => {
    const children = [p(U1, 'lock-0000000001'), p(U2, 'lock--000000001'), p(U3, 'lock-0000000000'), p(U1, 'lock--000000002')];
    expect(sortLockChildren(children, MUTEX)).toEqual([
      p(U1, 'lock--000000002'),
      p(U2, 'lock--000000001'),
      p(U3, 'lock-0000000000'),
      p(U1, 'lock-0000000001'),
    ]);
  });

  it('orders negative sequences among themselves by value (-999999999 before -000000001)', () => {
    const children = [p(U1, 'lock--000000001'), p(U2, 'lock--999999999'), p(U3, 'lock--1000000000')];
    expect(sortLockChildren(children, MUTEX)).toEqual([
      p(U3, 'lock--1000000000'),
      p(U2, 'lock--999999999'),
      p(U1, 'lock--000000001'),
    ]);
  });

  it('puts children that are not lock nodes last, in text order', () => {
    const children = ['zeta', p(U1, 'lock-0000000002'), 'alpha', p(U2, 'lock-0000000001')];
    expect(sortLockChildren(children, MUTEX)).toEqual([p(U2, 'lock-0000000001'), p(U1, 'lock-0000000002'), 'alpha', 'zeta']);
  });

  it('interleaves readers and writers by sequence', () => {
    const children = [p(U1, '__WRIT__0000000002'), p(U2, '__READ__0000000003'), p(U3, '__READ__0000000001')];
    expect(sortLockChildren(children, RW)).toEqual([
      p(U3, '__READ__0000000001'),
      p(U1, '__WRIT__0000000002'),
      p(U2, '__READ__0000000003'),
    ]);
  });

  it('does not modify its input and handles empty and single lists', () => {
    const children = [p(U1, 'lock-0000000002'), p(U2, 'lock-0000000001')];
    const copy = [...children];
    sortLockChildren(children, MUTEX);
    expect(children).toEqual(copy);
    expect(sortLockChildren([], MUTEX)).toEqual([]);
    expect(sortLockChildren([p(U1, 'lock-0000000009')], MUTEX)).toEqual([p(U1, 'lock-0000000009')]);
  });
});

describe('getsTheLock (mutex and semaphore-style leases)', () => {
  const a = p(U1, 'lock-0000000001');
  const b = p(U2, 'lock-0000000002');
  const c = p(U3, 'lock-0000000003');
  const d = p(U1, 'lock-0000000004');
  it.each([
    { name: 'first node holds a mutex', children: [a, b, c], ours: a, max: 1, want: { acquired: true } },
    { name: 'second node watches the first, the one node keeping it out', children: [a, b, c], ours: b, max: 1, want: { acquired: false, watchPath: a, blockers: [a] } },
    { name: 'third node watches only its predecessor; both nodes ahead block it', children: [a, b, c], ours: c, max: 1, want: { acquired: false, watchPath: b, blockers: [a, b] } },
    { name: 'two leases: second holds', children: [a, b, c, d], ours: b, max: 2, want: { acquired: true } },
    { name: 'two leases: third watches the first', children: [a, b, c, d], ours: c, max: 2, want: { acquired: false, watchPath: a } },
    { name: 'two leases: fourth watches the second', children: [a, b, c, d], ours: d, max: 2, want: { acquired: false, watchPath: b } },
    { name: 'unbounded leases (readers) hold at once', children: [a, b, c, d], ours: d, max: 0x7fffffff, want: { acquired: true } },
    { name: 'our node is gone', children: [a, c], ours: b, max: 1, want: { acquired: false, missing: true } },
    { name: 'empty directory', children: [], ours: a, max: 1, want: { acquired: false, missing: true } },
  ])('$name', ({ children, ours, max, want }) => {
    expect(getsTheLock(children, ours, max)).toEqual(want);
  });

  it('a writer is a mutex over readers and writers alike', () => {
    const r1 = p(U1, '__READ__0000000001');
    const w2 = p(U2, '__WRIT__0000000002');
    expect(getsTheLock([r1, w2], w2, 1)).toEqual({ acquired: false, watchPath: r1, blockers: [r1] });
    expect(getsTheLock([w2], w2, 1)).toEqual({ acquired: true });
  });
});

describe('readerGetsTheLock', () => {
  const r1 = p(U1, '__READ__0000000001');
  const r2 = p(U2, '__READ__0000000002');
  const w3 = p(U3, '__WRIT__0000000003');
  const r4 = p(U1, '__READ__0000000004');
  const w5 = p(U2, '__WRIT__0000000005');
  const r6 = p(U3, '__READ__0000000006');
  it.each([
    { name: 'readers before any writer share', children: [r1, r2, w3, r4], ours: r2, own: undefined, want: { acquired: true } },
    { name: 'a reader behind one writer watches that writer, the one node keeping it out', children: [r1, r2, w3, r4], ours: r4, own: undefined, want: { acquired: false, watchPath: w3, blockers: [w3] } },
    { name: 'behind two writers it watches the first; both block it', children: [w3, r4, w5, r6], ours: r6, own: undefined, want: { acquired: false, watchPath: w3, blockers: [w3, w5] } },
    { name: 'a writer after us does not matter', children: [r1, w3], ours: r1, own: undefined, want: { acquired: true } },
    { name: 'downgrade: the writer ahead is our own held write lock', children: [w3, r4], ours: r4, own: w3, want: { acquired: true } },
    { name: 'downgrade with another writer queued between', children: [w3, w5, r6], ours: r6, own: w3, want: { acquired: true } },
    { name: 'our own write node is not the first writer', children: [w3, w5, r6], ours: r6, own: w5, want: { acquired: false, watchPath: w3 } },
    { name: 'our node is gone', children: [r1, w3], ours: r2, own: undefined, want: { acquired: false, missing: true } },
  ])('$name', ({ children, ours, own, want }) => {
    expect(readerGetsTheLock(children, ours, '__WRIT__', own)).toEqual(want);
  });
});

describe('mutexVerdict and readerVerdict (one pass, no sort)', () => {
  const uuids = [U1, U2, U3];
  /** A seeded generator, so a failure names the case that broke. */
  const rng = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const seqText = (n: number): string => (n < 0 ? `-${String(-n).padStart(n > -1_000_000_000 ? 9 : 10, '0')}` : String(n).padStart(10, '0'));
  const sameAs = (got: ReturnType<typeof getsTheLock>, want: ReturnType<typeof getsTheLock>, limit: number): void => {
    const norm = (r: ReturnType<typeof getsTheLock>) =>
      r.acquired || 'missing' in r
        ? r
        : { ...r, blockers: r.blockers === undefined || r.blockers.length > limit ? undefined : r.blockers };
    expect(norm(got)).toEqual(norm(want));
  };

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('agree with the sorted predicates on random listings (seed %i), wrapped or not', (seed) => {
    const random = rng(seed);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 14);
      // sometimes start just below the signed wrap, so the listing crosses it
      const base = random() < 0.3 ? 2147483647 - Math.floor(random() * 8) : Math.floor(random() * 1000);
      let next = base;
      // distinct, increasing sequence numbers, as one parent's counter hands them out
      const children = Array.from({ length: n }, (_, i) => {
        const u = next >>> 0;
        next += 1 + Math.floor(random() * 3);
        const signed = u > 0x7fffffff ? u - 2 ** 32 : u;
        const kind = random() < 0.4 ? '__WRIT__' : '__READ__';
        return p(uuids[i % 3] as string, kind + seqText(signed));
      });
      if (random() < 0.2) children.push('not-a-lock-node');
      const shuffled = [...children].sort(() => random() - 0.5);
      const ours = children[Math.floor(random() * n)] as string;
      const limit = Math.floor(random() * 6);
      const sorted = sortLockChildren(children, RW);
      sameAs(mutexVerdict(shuffled, ours, RW, limit), getsTheLock(sorted, ours, 1), limit);
      const ownWrite = random() < 0.2 ? children.find((c) => c.includes('__WRIT__')) : undefined;
      const wantReader = readerGetsTheLock(sorted, ours, '__WRIT__', ownWrite);
      sameAs(readerVerdict(shuffled, ours, RW, '__WRIT__', ownWrite, limit), wantReader, limit);
      const gone = p(U1, '__READ__0000099999');
      expect(mutexVerdict(shuffled, gone, RW, limit)).toEqual({ acquired: false, missing: true });
    }
  });
});
