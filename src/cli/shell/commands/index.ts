/** The commands that exist only inside the shell (zkCli.sh's, on the shell's session). */

import type { Command } from '../../types.js';
import { addauthCommand } from './addauth.js';
import { getAllChildrenNumberCommand } from './children-number.js';
import { getEphemeralsCommand } from './ephemerals.js';
import { lsrCommand } from './lsr.js';
import { delquotaCommand, listquotaCommand, setquotaCommand } from './quota.js';
import { removewatchesCommand } from './remove-watches.js';
import { syncCommand } from './sync.js';

export const SHELL_ONLY_COMMANDS: readonly Command[] = [
  addauthCommand,
  syncCommand,
  lsrCommand,
  getEphemeralsCommand,
  getAllChildrenNumberCommand,
  removewatchesCommand,
  setquotaCommand,
  listquotaCommand,
  delquotaCommand,
];
