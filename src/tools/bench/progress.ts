/**
 * The live progress line on stderr. On a terminal it rewrites one line in place; into a file or a pipe it
 * writes a plain line about once a second so a log stays readable.
 */

import type { LockProgress } from './lock-bench.js';

export interface ProgressSink {
  write(text: string): void;
  /** True when the sink is a terminal (carriage returns rewrite the line). */
  isTTY: boolean;
}

export function lockProgressPrinter(sink: ProgressSink): { update(p: LockProgress): void; finish(): void } {
  let lastPlain = -Infinity;
  let open = false;
  return {
    update(p: LockProgress): void {
      let line: string;
      if (p.phase === 'floor') line = 'measuring the floor (ping, create, delete, delete+getChildren, hand-off on bare sockets)…';
      else if (p.phase === 'connecting') line = 'opening sessions…';
      else if (p.phase === 'done') line = `done: ${p.acquisitions} acquisitions, ${p.overlaps} overlaps`;
      else line = `${(p.elapsedMs / 1000).toFixed(1).padStart(5)} s  ${String(p.acquisitions).padStart(7)} acquisitions  ${p.perSec.toFixed(0).padStart(6)}/s  overlaps ${p.overlaps}`;
      if (sink.isTTY) {
        sink.write(`\r\x1b[2K${line}`);
        open = true;
      } else if (p.phase !== 'contending' || p.elapsedMs - lastPlain >= 1000) {
        lastPlain = p.elapsedMs;
        sink.write(`${line}\n`);
      }
    },
    finish(): void {
      if (open) sink.write('\n');
      open = false;
    },
  };
}
