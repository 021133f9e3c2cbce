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

export {
  findProtectedChild,
  isProtectedName,
  isValidNodePath as isValidLockPath,
  joinPath,
  newProtectedId,
  nodeName,
  parentPath,
  protectedIdOf,
  protectedPath,
  protectedPrefix,
  withoutProtection,
} from '../common/znode-names.js';
