import { describe, expect, it } from 'vitest';
import {
  findProtectedChild,
  isProtectedName,
  isValidLockPath,
  joinPath,
  newProtectedId,
  nodeName,
  parentPath,
  protectedIdOf,
  protectedPath,
  withoutProtection,
} from '../../src/recipes/locks/naming.js';

const ID = '53345f98-9423-4e0c-a7b5-9f819e3ec2e1';

describe('protected names', () => {
  it('are written as Curator writes them', () => {
    expect(protectedPath('/locks/a', ID, 'lock-')).toBe(`/locks/a/_c_${ID}-lock-`);
    expect(protectedPath('/', ID, '__READ__')).toBe(`/_c_${ID}-__READ__`);
    expect(protectedPath('/s/leases', ID, 'lease-')).toBe(`/s/leases/_c_${ID}-lease-`);
  });

  it('use a fresh canonical lowercase uuid each time', () => {
    const a = newProtectedId();
    const b = newProtectedId();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });

  it('are recognised, split and stripped', () => {
    const name = `_c_${ID}-lock-0000000001`;
    expect(isProtectedName(name)).toBe(true);
    expect(protectedIdOf(name)).toBe(ID);
    expect(withoutProtection(name)).toBe('lock-0000000001');
  });

  it.each([
    'lock-0000000001',
    `_c_${ID}-`, // nothing after the prefix
    `_c_${ID}xlock-0000000001`, // wrong separator
    `_c_${ID.replace('-', 'x')}-lock-0000000001`, // not a uuid
    `c_${ID}-lock-0000000001`,
  ])('%s is not protected', (name) => {
    expect(isProtectedName(name)).toBe(false);
    expect(protectedIdOf(name)).toBeUndefined();
    expect(withoutProtection(name)).toBe(name);
  });

  it('find our own child after a lost create reply, and only ours', () => {
    const other = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
    const children = [`_c_${other}-lock-0000000001`, `_c_${ID}-lock-0000000002`, 'lock-0000000003'];
    expect(findProtectedChild(children, ID)).toBe(`_c_${ID}-lock-0000000002`);
    expect(findProtectedChild(children.slice(0, 1), ID)).toBeUndefined();
    expect(findProtectedChild([], ID)).toBeUndefined();
  });
});

describe('paths', () => {
  it('join, split and name', () => {
    expect(joinPath('/a', 'b')).toBe('/a/b');
    expect(joinPath('/', 'b')).toBe('/b');
    expect(nodeName('/a/b/c')).toBe('c');
    expect(parentPath('/a/b/c')).toBe('/a/b');
    expect(parentPath('/a')).toBe('/');
  });

  it.each([
    ['/', true],
    ['/a', true],
    ['/a/b-c/_d', true],
    ['', false],
    ['a', false],
    ['/a/', false],
    ['//a', false],
    ['/a//b', false],
    ['/a/./b', false],
    ['/a/..', false],
    ['/a\u0000b', false],
  ])('%j valid: %s', (path, valid) => {
    expect(isValidLockPath(path)).toBe(valid);
  });
});
