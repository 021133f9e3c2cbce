/** The command registry: add a command by adding its module to this list. */

import type { Command } from '../types.js';
import { analyzeCommand } from './analyze.js';
import { benchCommand } from './bench.js';
import { decodeCommand } from './decode.js';
import { demoCommand } from './demo.js';
import { fourLetterCommand } from './fourlw.js';
import { lockCommand } from './lock.js';
import { srvrCommand } from './srvr.js';
import { traceCommand } from './trace.js';
import { createCommand } from './create.js';
import { getCommand } from './get.js';
import { lsCommand } from './ls.js';
import { rmCommand } from './rm.js';
import { setCommand } from './set.js';
import { statCommand } from './stat.js';
import { watchCommand } from './watch.js';
import { whoamiCommand } from './whoami.js';
import { getaclCommand } from './getacl.js';
import { setaclCommand } from './setacl.js';
import { configCommand } from './config.js';
import { reconfigCommand } from './reconfig.js';
import { snapshotCommand } from './snapshot.js';
import { txnlogCommand } from './txnlog.js';
import { shellCommand } from './shell.js';
import { servicesCommand } from './services.js';
import { registerCommand } from './register.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { findCommand } from './find.js';
import { cpCommand, mvCommand } from './cp.js';
import { adminServerCommand } from './admin.js';

export const commands: readonly Command[] = [decodeCommand, analyzeCommand, traceCommand, fourLetterCommand, srvrCommand, benchCommand, demoCommand, lockCommand, lsCommand, getCommand, setCommand, createCommand, rmCommand, statCommand, watchCommand, whoamiCommand, getaclCommand, setaclCommand, configCommand, reconfigCommand, txnlogCommand, snapshotCommand, servicesCommand, registerCommand, exportCommand, importCommand, findCommand, cpCommand, mvCommand, adminServerCommand, shellCommand(() => commands)];
