/**
 * How the CLI connects: the client options the global flags ask for, and a connect that says what is happening.
 * The client keeps retrying a host that refuses or does not resolve until the connect deadline (the session
 * timeout, 30 s by default) — right for a service riding out a restart, 30 s of silence for someone at a shell.
 * So the CLI watches the attempts through its transport: once every host has failed in a way that waiting will
 * not fix (refused, unknown host, unreachable network), it gives up at once with that reason. A host that does
 * not answer at all (a blackhole) keeps the full wait, but stderr says that it is waiting and for how long.
 */

import {
  ZooKeeperError,
  DEFAULT_SESSION_TIMEOUT_MS,
  nodeTransport,
  parseConnectString,
  systemClock,
  ZooKeeperClient,
  type ClientOptions,
  type Transport,
} from '../node.js';
import { securityOptions } from './connection.js';
import type { CliIo, GlobalOptions } from './types.js';

/** Socket errors that another attempt a moment later will meet again. */
const HOPELESS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** How long a connect may be silent before stderr says it is waiting. */
export const SAY_WAITING_AFTER_MS = 2000;

/** The client options the global flags ask for, plus the command's interrupt. */
export function clientOptions(globals: GlobalOptions, signal?: AbortSignal): ClientOptions {
  return {
    ...(globals.sessionTimeout === undefined ? {} : { sessionTimeoutMs: globals.sessionTimeout }),
    ...(globals.connectTimeout === undefined ? {} : { connectTimeoutMs: globals.connectTimeout }),
    ...(globals.maxFrameSize === undefined ? {} : { maxFrameSize: globals.maxFrameSize }),
    ...(globals.auth === undefined || globals.auth.length === 0 ? {} : { authInfo: globals.auth }),
    ...(signal === undefined ? {} : { signal }),
  };
}

/**
 * Connects for `command` with the global flags: fails fast (CONNECTIONLOSS naming each host's reason) when every
 * host refused or did not resolve, and tells stderr when the connect has been silent for a while.
 */
export async function connectForCli(command: string, connectString: string, io: Pick<CliIo, 'err' | 'globals'>, signal?: AbortSignal): Promise<ZooKeeperClient> {
  const hosts = parseConnectString(connectString).hosts.map((h) => `${h.host}:${h.port}`);
  const hopeless = new Map<string, string>();
  const giveUp = new AbortController();
  // The TLS settings go to the transport this function watches (it has no withTls of its own to take `tls` later).
  const { tls, ...security } = await securityOptions(io.globals.security);
  const inner = tls === undefined || tls === false ? nodeTransport() : nodeTransport().withTls!(tls);
  const transport: Transport = {
    async connect(endpoint, handlers, options) {
      try {
        return await inner.connect(endpoint, handlers, options);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== undefined && HOPELESS.has(code)) {
          hopeless.set(`${endpoint.host}:${endpoint.port}`, e instanceof Error ? e.message : String(code));
          if (hosts.every((h) => hopeless.has(h))) {
            const reasons = hosts.map((h) => `${h}: ${hopeless.get(h)!}`).join('; ');
            giveUp.abort(new ZooKeeperError('CONNECTIONLOSS', `connect: cannot connect: ${reasons}`, { op: 'connect' }));
          }
        }
        throw e;
      }
    },
  };
  const options = clientOptions(io.globals, signal === undefined ? giveUp.signal : AbortSignal.any([signal, giveUp.signal]));
  const limit = options.connectTimeoutMs ?? options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const waiting = systemClock.setTimeout(
    () => io.err(`zkwire ${command}: waiting for a session with ${connectString} (no answer yet; giving up after ${limit} ms)\n`),
    SAY_WAITING_AFTER_MS,
  );
  try {
    return await ZooKeeperClient.connect(connectString, { ...options, ...security, transport });
  } catch (e) {
    if (giveUp.signal.aborted) throw giveUp.signal.reason;
    throw e;
  } finally {
    systemClock.clearTimeout(waiting);
  }
}
