/** Where the bench commands put a report file: stdout for `-`, else the file, saying so on stderr. */

import { writeFileSync } from 'node:fs';
import type { CliIo } from '../types.js';

/** Writes `text` to `file` (`-` is stdout) and tells stderr where `what` went. */
export function writeOut(io: CliIo, file: string, text: string, what: string): void {
  if (file === '-') io.out(text);
  else {
    writeFileSync(file, text);
    io.err(`${what} written to ${file}\n`);
  }
}
