/**
 * Paths checked before anything is sent, so a bad path fails with BAD_ARGUMENT naming the call instead of a round
 * trip and a BADARGUMENTS from the server. The rules are protocol/paths.ts's.
 */

import { clientError } from '../errors.js';
import { pathProblem } from '../protocol/paths.js';

/** Throws BAD_ARGUMENT (with op and path) unless `path` is valid. */
export function validatePath(path: string, op: string, sequential = false): void {
  const problem = pathProblem(path, sequential);
  if (problem !== undefined) throw clientError('BAD_ARGUMENT', problem, { op, path: String(path) });
}
