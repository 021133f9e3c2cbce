/**
 * Znode names, byte for byte as Apache Curator writes them, so a zkwire client and a Curator client on the same
 * path see one queue:
 *
 *   mutex            <path>/_c_<uuid>-lock-<seq>
 *   read/write lock  <path>/_c_<uuid>-__READ__<seq>   <path>/_c_<uuid>-__WRIT__<seq>
 *   semaphore (v2)   <path>/locks/_c_<uuid>-lock-<seq>   (a mutex serialising acquirers)
 *                    <path>/leases/_c_<uuid>-lease-<seq> (one per lease held)
 *
 * The `_c_<uuid>-` protection prefix is what makes a create safe to retry: when the reply to a sequential
 * create is lost, the node may or may not exist, and its name is unknown. Listing the parent and looking for our
 * uuid finds it (or proves it is absent) without leaving an orphan that would block the lock for the life of
 * our session.
 */

export const LOCK_NAME = 'lock-';
/** Both eight characters long; Curator's sorting relies on that and so do we (see predicate.ts). */
export const READ_LOCK_NAME = '__READ__';
/** The node name prefix of write-lock contenders, as Curator names them. */
export const WRITE_LOCK_NAME = '__WRIT__';
export const SEMAPHORE_LOCKS = 'locks';
export const SEMAPHORE_LEASES = 'leases';
/** The node name prefix of semaphore leases, as Curator names them. */
export const LEASE_NAME = 'lease-';
/** Written into a holder's lock node to ask it to release (Curator's Revoker does the same). */
export const REVOKE_MESSAGE = '__REVOKE__';

const PROTECTED_PREFIX = '_c_';
const UUID_LENGTH = 36;
/** `_c_` + 36-character uuid + `-`. */
const PROTECTED_PREFIX_LENGTH = PROTECTED_PREFIX.length + UUID_LENGTH + 1;
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A fresh protection id: a canonical lowercase uuid, as Java's UUID.toString() prints one. */
export function newProtectedId(): string {
  return crypto.randomUUID().toLowerCase();
}

/** `_c_<uuid>-` */
export function protectedPrefix(protectedId: string): string {
  return `${PROTECTED_PREFIX}${protectedId}-`;
}

/** `<parent>/_c_<uuid>-<name>`: the path to pass to a sequential create. */
export function protectedPath(parent: string, protectedId: string, name: string): string {
  return joinPath(parent, protectedPrefix(protectedId) + name);
}

/** True for a child name that starts with a well-formed protection prefix (Curator's test, same rules). */
export function isProtectedName(name: string): boolean {
  return (
    name.length > PROTECTED_PREFIX_LENGTH &&
    name.startsWith(PROTECTED_PREFIX) &&
    name.charAt(PROTECTED_PREFIX_LENGTH - 1) === '-' &&
    UUID_PATTERN.test(name.slice(PROTECTED_PREFIX.length, PROTECTED_PREFIX_LENGTH - 1))
  );
}

/** The uuid in a protected name, or undefined. */
export function protectedIdOf(name: string): string | undefined {
  return isProtectedName(name) ? name.slice(PROTECTED_PREFIX.length, PROTECTED_PREFIX_LENGTH - 1) : undefined;
}

/** A name without its protection prefix (`_c_<uuid>-lock-0000000001` → `lock-0000000001`). */
export function withoutProtection(name: string): string {
  return isProtectedName(name) ? name.slice(PROTECTED_PREFIX_LENGTH) : name;
}

/**
 * After a create whose outcome is unknown (CONNECTIONLOSS), the child we created, if any: the one whose name
 * starts with our prefix. A uuid is unique, so there is at most one.
 */
export function findProtectedChild(children: readonly string[], protectedId: string): string | undefined {
  const prefix = protectedPrefix(protectedId);
  return children.find((child) => child.startsWith(prefix));
}

/** `parent` + `/` + `child`, for any parent including the root. */
export function joinPath(parent: string, child: string): string {
  return parent.endsWith('/') ? parent + child : `${parent}/${child}`;
}

/** The last path segment. */
export function nodeName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The parent of a path (`/a/b` → `/a`, `/a` → `/`). */
export function parentPath(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

/**
 * Refuses lock paths ZooKeeper would refuse, before anything is sent: absolute, no empty segment, no trailing
 * slash (except the root), no `.`/`..` segments, no NUL.
 */
export function isValidLockPath(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\u0000')) return false;
  if (path === '/') return true;
  if (path.endsWith('/')) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment.length > 0 && segment !== '.' && segment !== '..');
}
