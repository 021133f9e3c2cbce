/**
 * ZooKeeper's path rules (PathUtils.validatePath) and the path arithmetic every floor does, with one contract: the
 * client validates with `pathProblem` before sending, the recipes and the in-memory server with the same rules, and
 * `parentPath`/`joinPath`/`nodeName` take valid paths.
 */

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

/** The parent of a valid path (`/a/b` → `/a`, `/a` → `/`); the root is its own parent. */
export function parentPath(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

/** A valid parent path and a child name joined (`/` and `a` → `/a`, `/p` and `a` → `/p/a`). */
export function joinPath(parent: string, child: string): string {
  return parent.endsWith('/') ? parent + child : `${parent}/${child}`;
}

/** The last segment of a path (`/a/b` → `b`). */
export function nodeName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
