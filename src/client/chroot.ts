/**
 * Chroot mapping, purely client-side: every path sent gets the chroot prepended (client "/" is the
 * chroot itself) and every path the server returns — create results, multi results, notifications,
 * getEphemerals — gets it stripped. Unlike the 3.8 Java client we map getEphemerals and multi create
 * results too, so a chrooted client never sees a server path.
 */

export class Chroot {
  constructor(readonly root: string | undefined) {}

  /** Client path → server path. */
  toServer(path: string): string {
    if (this.root === undefined) return path;
    return path === '/' ? this.root : this.root + path;
  }

  /** Server path → client path; a path outside the chroot is returned unchanged. */
  toClient(path: string): string {
    const root = this.root;
    if (root === undefined) return path;
    if (path === root) return '/';
    if (path.startsWith(root) && path.charCodeAt(root.length) === 0x2f) return path.slice(root.length);
    return path;
  }

  /** Whether a server path lies inside the chroot (getEphemerals may report paths outside it). */
  contains(path: string): boolean {
    const root = this.root;
    return root === undefined || path === root || (path.startsWith(root) && path.charCodeAt(root.length) === 0x2f);
  }
}
