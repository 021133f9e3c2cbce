/** The terminal section of a multi-process lock report: the workers, who was lost, and the cross-process fencing check. */

import { renderTable } from '../../shared/table.js';
import type { ProcessesReport } from './processes-report.js';

export function renderProcesses(p: ProcessesReport): string {
  const n = p.workers.length;
  let out = `processes: ${n} worker${n === 1 ? '' : 's'} (${p.local} local, ${p.remote} remote), run ${p.run}; all through the barrier after ${p.barrierWaitMs} ms`;
  out += p.lost === 0 ? '; none lost\n' : `; ${p.lost} LOST (gone without a result; the report covers the others)\n`;
  out += renderTable(
    ['worker', 'host', 'pid', 'sessions', 'status', 'acquisitions', 'elapsed'],
    p.workers.map((w) => [w.name, w.host, String(w.pid), String(w.sessions), w.status === 'lost' && w.failure !== null ? `lost (${w.failure})` : w.status, String(w.acquisitions), `${(w.elapsedMs / 1000).toFixed(2)} s`]),
    2,
  );
  const f = p.fencing;
  const broken = f.versionConflicts + f.tokensBackwards;
  out += `fencing across processes: ${f.writes} tokens written with the lock held; `;
  out += broken === 0 ? '0 version conflicts, 0 tokens backwards (ok)' : `${f.versionConflicts} version conflicts, ${f.tokensBackwards} tokens backwards — VIOLATED`;
  const errors = Object.entries(p.errors);
  out += errors.length === 0 ? '\n' : `; errors: ${errors.map(([code, k]) => `${code} ${k}`).join(', ')}\n`;
  out += `(latencies are measured inside each worker and merged; hand-offs only between sessions of one worker)\n\n`;
  return out;
}
