/**
 * One path toolkit: the client, the recipes and the in-memory server judge a path by the same rules and do the same
 * arithmetic on it.
 */

import { describe, expect, it } from 'vitest';
import { joinPath, nodeName, parentPath, pathProblem } from '../../src/protocol/paths.js';
import { isValidNodePath } from '../../src/recipes/common/znode-names.js';

const VALID = ['/', '/a', '/a/b', '/a.b', '/..a', '/zookeeper/config', '/a/\u00e9'];
const INVALID = ['', 'a', '/a/', '//a', '/a//b', '/.', '/a/..', '/a\u0000b', '/a\u0001b', '/a\u007fb', '/a\ud800b', '/a\ufff0b'];

describe('the path toolkit', () => {
  it('tells valid paths from invalid ones, with a reason', () => {
    for (const p of VALID) expect(pathProblem(p), p).toBeUndefined();
    for (const p of INVALID) expect(pathProblem(p), JSON.stringify(p)).toMatch(/./);
    expect(pathProblem('/a/', true)).toBeUndefined();
  });

  it('is the rule the recipes check paths with (a control character was let through to the server before)', () => {
    for (const p of [...VALID, ...INVALID]) expect(isValidNodePath(p), JSON.stringify(p)).toBe(pathProblem(p) === undefined);
  });

  it('does parent, join and name arithmetic on valid paths', () => {
    expect(parentPath('/a/b/c')).toBe('/a/b');
    expect(parentPath('/a')).toBe('/');
    expect(parentPath('/')).toBe('/');
    expect(joinPath('/', 'a')).toBe('/a');
    expect(joinPath('/p', 'a')).toBe('/p/a');
    expect(nodeName('/a/b')).toBe('b');
    for (const p of ['/a', '/a/b/c']) expect(joinPath(parentPath(p), nodeName(p))).toBe(p);
  });
});
