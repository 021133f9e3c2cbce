import { parseServerVersion } from './four-letter-client.js';
import { cliCleanup } from './cleanup.js';
import type { LocalServer } from './server-process.js';
import { startLocalServer, type LocalServerOptions } from './standalone.js';

/**
 * The CLI's "no --server given" path: commands that need a server run against `--server` when one is
 * given, else against a throwaway local ZooKeeper started for the command and stopped after it — and they say so on
 * stderr, so nobody mistakes a benchmark of a fresh local JVM for one of their ensemble.
 */
export interface ServerChoice {
  /** The connect string the command should use. */
  connectString: string;
  /** The throwaway server, when one was started (undefined when --server was given). */
  local: LocalServer | undefined;
  /** The local server's version from `srvr` (e.g. "3.8.0"), when known. */
  version: string | undefined;
}

export interface WithServerGlobals {
  server?: string;
}

export interface WithServerIo {
  err(text: string): void;
}

export async function withServer<T>(
  globals: WithServerGlobals,
  io: WithServerIo,
  fn: (server: ServerChoice) => Promise<T>,
  opts: LocalServerOptions = {},
): Promise<T> {
  if (globals.server !== undefined) return fn({ connectString: globals.server, local: undefined, version: undefined });
  const local = await startLocalServer({ purpose: 'cli', cleanup: cliCleanup, ...opts });
  try {
    let version: string | undefined;
    try {
      version = parseServerVersion(await local.fourLetter('srvr'));
    } catch {
      // it served a moment ago; the version is only for the message
    }
    io.err(`no --server given: started a throwaway ZooKeeper ${version ?? '(version unknown)'} at ${local.connectString}\n`);
    return await fn({ connectString: local.connectString, local, version });
  } finally {
    await local.stop();
  }
}
