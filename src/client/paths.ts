/**
 * ZooKeeper's path rules (PathUtils.validatePath), checked before anything is sent so a bad path fails
 * with BAD_ARGUMENT naming the call instead of a round trip and a BADARGUMENTS from the server.
 */

import { clientError } from '../errors.js';

/** Why `path` is not a valid ZooKeeper path, or undefined when it is. */
export function pathProblem(path: string, sequential = false): string | undefined {
  if (typeof path !== 'string') return 'path must be a string';
  // A sequential create gets a numeric suffix appended by the server, so "/parent/" is a valid prefix.
  const p = sequential ? path + '1' : path;
  if (p.length === 0) return 'path must not be empty';
  if (p.charCodeAt(0) !== 0x2f) return 'path must start with "/"';
  if (p.length === 1) return undefined;
  if (p.charCodeAt(p.length - 1) === 0x2f) return 'path must not end with "/"';
  for (let i = 1; i < p.length; i++) {
    const c = p.charCodeAt(i);
    const prev = p.charCodeAt(i - 1);
    if (c === 0) return `null character at index ${i}`;
    if (c === 0x2f && prev === 0x2f) return `empty node name at index ${i}`;
    if (c === 0x2e) {
      const endOfName = i + 1 === p.length || p.charCodeAt(i + 1) === 0x2f;
      if (endOfName && prev === 0x2f) return `"." is not a valid node name (index ${i})`;
      if (endOfName && prev === 0x2e && p.charCodeAt(i - 2) === 0x2f) return `".." is not a valid node name (index ${i})`;
    }
    if (
      (c > 0x0000 && c <= 0x001f) ||
      (c >= 0x007f && c <= 0x009f) ||
      (c >= 0xd800 && c <= 0xf8ff) ||
      (c >= 0xfff0 && c <= 0xffff)
    ) {
      return `invalid character U+${c.toString(16).padStart(4, '0').toUpperCase()} at index ${i}`;
    }
  }
  return undefined;
}

/** Throws BAD_ARGUMENT (with op and path) unless `path` is valid. */
export function validatePath(path: string, op: string, sequential = false): void {
  const problem = pathProblem(path, sequential);
  if (problem !== undefined) throw clientError('BAD_ARGUMENT', problem, { op, path: String(path) });
}

/** The parent of a valid path ("/" has none). */
export function parentPath(path: string): string | undefined {
  if (path === '/') return undefined;
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Joins a parent path and a child name. */
export function joinPath(parent: string, child: string): string {
  return parent === '/' ? `/${child}` : `${parent}/${child}`;
}
