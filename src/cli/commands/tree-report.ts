/**
 * How import, cp and mv report a plan (src/tools/tree/import-plan.ts): one line per node that was (or, on a dry
 * run, would be) created or changed, or was left or skipped, then a count of each; with --json one object.
 */

import type { PlanStep } from '../../tools/tree/index.js';
import type { CliIo } from '../types.js';

export interface PlanReport {
  readonly dryRun: boolean;
  /** The create and update steps actually written (on a dry run: all of them). */
  readonly written: readonly PlanStep[];
}

/** "3 created, 1 changed" for the written steps alone. */
export function reportCounts(written: readonly PlanStep[]): string {
  const created = written.filter((s) => s.action === 'create').length;
  const changed = written.filter((s) => s.action === 'update').length;
  return `${created} created, ${changed} changed`;
}

function line(step: PlanStep, dryRun: boolean): string | undefined {
  switch (step.action) {
    case 'create':
      return `${dryRun ? 'would create' : 'created'} ${step.path}`;
    case 'update':
      return `${dryRun ? 'would change' : 'changed'} ${step.path} (${step.differs.filter((d) => d !== 'kind').join(', ')})`;
    case 'left': {
      const kind = step.differs.includes('kind') ? '; its kind differs and cannot be changed' : '';
      const rest = step.differs.filter((d) => d !== 'kind');
      return `left ${step.path}: differs${rest.length > 0 ? ` (${rest.join(', ')}); --overwrite replaces it` : ''}${kind}`;
    }
    case 'skipped':
      return `skipped ${step.path}: ${step.reason}`;
    case 'unchanged':
      return undefined;
  }
}

/** Prints the report of `plan` for `command` (see the file comment). */
export function printPlan(io: CliIo, command: string, plan: readonly PlanStep[], report: PlanReport): void {
  const written = new Set(report.written);
  const shown = plan.filter((s) => (s.action === 'create' || s.action === 'update' ? written.has(s) : true));
  const paths = (action: PlanStep['action']): string[] => shown.filter((s) => s.action === action).map((s) => s.path);
  const unchanged = plan.filter((s) => s.action === 'unchanged').length;
  if (io.globals.json) {
    io.out(`${JSON.stringify({ created: paths('create'), changed: paths('update'), left: paths('left'), skipped: paths('skipped'), unchanged, dryRun: report.dryRun })}\n`);
    return;
  }
  const lines = shown.map((s) => line(s, report.dryRun)).filter((l): l is string => l !== undefined);
  const verb = report.dryRun ? ' (dry run: nothing written)' : '';
  const summary = `${command}: ${paths('create').length} ${report.dryRun ? 'to create' : 'created'}, ${paths('update').length} ${report.dryRun ? 'to change' : 'changed'}, ${unchanged} unchanged, ${paths('left').length} left as they were, ${paths('skipped').length} skipped${verb}`;
  io.out(`${[...lines, summary].join('\n')}\n`);
}

/** Progress on stderr for a write of several batches (one batch says nothing: its report follows at once). */
export function batchProgress(command: string, io: CliIo): (done: number, total: number) => void {
  return (done, total) => {
    if (total > 1) io.err(`zkwire ${command}: batch ${done} of ${total} written\n`);
  };
}
