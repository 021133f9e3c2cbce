/**
 * The command registry: each command's name and how to load it. A command's module, and everything it imports (the
 * analyzer, the benches, the capture readers, the server launcher...), is loaded only when that command runs, so
 * `zkwire ls` starts without loading `zkwire bench`; the main help and the shell load them all. Add a command by
 * adding its entry here (test/tools/cli-registry.test.ts checks each entry's name against its module's).
 */

import type { Command } from '../types.js';

/** A command before it is loaded. */
export interface CommandEntry {
  readonly name: string;
  load(): Promise<Command>;
}

const entry = (name: string, load: () => Promise<Command>): CommandEntry => ({ name, load });

export const commandEntries: readonly CommandEntry[] = [
  entry('decode', async () => (await import('./decode.js')).decodeCommand),
  entry('analyze', async () => (await import('./analyze.js')).analyzeCommand),
  entry('trace', async () => (await import('./trace.js')).traceCommand),
  entry('4lw', async () => (await import('./fourlw.js')).fourLetterCommand),
  entry('srvr', async () => (await import('./srvr.js')).srvrCommand),
  entry('bench', async () => (await import('./bench.js')).benchCommand),
  entry('demo', async () => (await import('./demo.js')).demoCommand),
  entry('lock', async () => (await import('./lock.js')).lockCommand),
  entry('ls', async () => (await import('./ls.js')).lsCommand),
  entry('get', async () => (await import('./get.js')).getCommand),
  entry('set', async () => (await import('./set.js')).setCommand),
  entry('create', async () => (await import('./create.js')).createCommand),
  entry('rm', async () => (await import('./rm.js')).rmCommand),
  entry('stat', async () => (await import('./stat.js')).statCommand),
  entry('watch', async () => (await import('./watch.js')).watchCommand),
  entry('whoami', async () => (await import('./whoami.js')).whoamiCommand),
  entry('getacl', async () => (await import('./getacl.js')).getaclCommand),
  entry('setacl', async () => (await import('./setacl.js')).setaclCommand),
  entry('config', async () => (await import('./config.js')).configCommand),
  entry('reconfig', async () => (await import('./reconfig.js')).reconfigCommand),
  entry('txnlog', async () => (await import('./txnlog.js')).txnlogCommand),
  entry('snapshot', async () => (await import('./snapshot.js')).snapshotCommand),
  entry('services', async () => (await import('./services.js')).servicesCommand),
  entry('register', async () => (await import('./register.js')).registerCommand),
  entry('export', async () => (await import('./export.js')).exportCommand),
  entry('import', async () => (await import('./import.js')).importCommand),
  entry('find', async () => (await import('./find.js')).findCommand),
  entry('cp', async () => (await import('./cp.js')).cpCommand),
  entry('mv', async () => (await import('./cp.js')).mvCommand),
  entry('admin', async () => (await import('./admin.js')).adminServerCommand),
  entry('shell', async () => (await import('./shell.js')).shellCommand(loadCommands)),
];

/** The command called `name`, loaded; undefined when there is none. */
export function loadCommand(name: string): Promise<Command | undefined> {
  return commandEntries.find((e) => e.name === name)?.load() ?? Promise.resolve(undefined);
}

/** Every command, loaded, in the registry's order (the main help's and the shell's list). */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(commandEntries.map((e) => e.load()));
}
