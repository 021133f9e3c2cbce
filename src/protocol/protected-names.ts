/**
 * Curator's protection prefix, byte for byte (ProtectedUtils): a protected create names its node
 * `<parent>/_c_<uuid>-<name>`, so that when the reply is lost (the node may or may not exist, and a sequential
 * node's name is unknown) listing the parent and looking for the uuid finds it or proves it absent. Shared by
 * the client's `create(..., { protected: true })` and the recipes, which create through that option's pieces.
 */

import { joinPath, nodeName, parentPath } from './paths.js';

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

/** `path` with its last segment protected: `/a/b` → `/a/_c_<uuid>-b` (Curator's toProtectedZNodePath). */
export function protectPath(path: string, protectedId: string): string {
  return protectedPath(parentPath(path), protectedId, nodeName(path));
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
