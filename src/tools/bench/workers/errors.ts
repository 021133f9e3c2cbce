/** The error a multi-process bench run fails with: what went wrong, for scripts, and one line saying it for people. */

import { ToolError } from '../../shared/tool-error.js';

/**
 * Stable names: WORKERS_MISSING (not every worker arrived at the barrier before the deadline), WORKER_FAILED (a
 * worker this machine started exited before it arrived), RUN_NOT_FOUND (a worker found no run of that id),
 * RUN_EXISTS (a run of that id is already under way), RUN_FULL (the run has all the workers it asked for),
 * RUN_REMOVED (the run's znodes were removed while a worker took part: its coordinator stopped), BAD_RUN (a run's
 * or a worker's znode does not hold what a bench wrote), RESULT_TOO_LARGE (a result would not fit in a znode).
 */
export type BenchRunErrorCode = 'WORKERS_MISSING' | 'WORKER_FAILED' | 'RUN_NOT_FOUND' | 'RUN_EXISTS' | 'RUN_FULL' | 'RUN_REMOVED' | 'BAD_RUN' | 'RESULT_TOO_LARGE';

/** A multi-process bench run that failed. */
export class BenchRunError extends ToolError<BenchRunErrorCode> {
  override readonly name = 'BenchRunError';
}
