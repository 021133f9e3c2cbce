/** The command registry: add a command by adding its module to this list. */

import type { Command } from '../types.js';
import { decodeCommand } from './decode.js';

export const commands: readonly Command[] = [decodeCommand];
