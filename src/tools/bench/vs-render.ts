/** The text report of `bench lock --vs curator` (and `npm run bench:peers`): one table of medians and ratios. */

import { fmtRate, fmtUs, renderTable } from '../shared/table.js';
import type { VsCuratorReport } from './vs-curator.js';
import type { VsFigure } from './vs-figures.js';

const cell = (f: VsFigure, v: number | null): string => (v === null ? '–' : f.unit === 'us' ? fmtUs(v) : fmtRate(v));

/** The comparison table; `targets` (figure → text, e.g. `≥ 1.5×`) adds a target column. */
export function renderVsTable(figures: readonly VsFigure[], targets?: Readonly<Record<string, string>>): string {
  const header = ['figure', 'zkwire', 'Curator', 'zkwire / Curator', ...(targets === undefined ? [] : ['target'])];
  const rows = figures.map((f) => [
    f.figure,
    cell(f, f.zkwire),
    cell(f, f.curator),
    f.ratio === null ? '–' : `${f.ratio.toFixed(2)}×`,
    ...(targets === undefined ? [] : [targets[f.figure] ?? '']),
  ]);
  return renderTable(header, rows);
}

/** The whole report: what was measured where, the table, and a note when it was interrupted. */
export function renderVsReport(report: VsCuratorReport, targets?: Readonly<Record<string, string>>): string {
  const { settings: s, server } = report;
  const lines = [
    `zkwire vs Apache Curator, one ZooKeeper ${server.version.split(/[-,\s]/)[0]} at ${server.connectString}, median of ${s.rounds} interleaved round(s) of ${s.seconds} s`,
    `load average at the end: ${report.environment.loadAverage.map((l) => l.toFixed(2)).join(' ')} on ${report.environment.cpus} CPUs`,
    'latencies: lower is better (ratio below 1×); acquisitions/s: higher is better (ratio above 1×)',
  ];
  if (report.interrupted) lines.unshift('INTERRUPTED: partial figures, the medians of the rounds that ran');
  return `${lines.join('\n')}\n\n${renderVsTable(report.figures, targets)}`;
}
