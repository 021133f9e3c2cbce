/**
 * Znode names every recipe shares, byte for byte as Apache Curator writes them: the `_c_<uuid>-` protection prefix
 * (Curator's protection mode).
 *
 * The protection prefix is what makes a sequential create safe to retry: when the reply is lost, the node may or may
 * not exist, and its name is unknown. Listing the parent and looking for our uuid finds it (or proves it absent)
 * without leaving an orphan behind.
 */

import { pathProblem } from '../../protocol/paths.js';

// One path toolkit for the whole library (protocol/paths.ts), and the protection prefix the client's protected
// create uses too (protocol/protected-names.ts); the recipes take them through here.
export { joinPath, nodeName, parentPath } from '../../protocol/paths.js';
export {
  findProtectedChild,
  isProtectedName,
  newProtectedId,
  protectedIdOf,
  protectedPath,
  protectedPrefix,
  withoutProtection,
} from '../../protocol/protected-names.js';

/** Refuses paths ZooKeeper would refuse, before anything is sent: the client's own rules (`pathProblem`). */
export function isValidNodePath(path: string): boolean {
  return pathProblem(path) === undefined;
}
