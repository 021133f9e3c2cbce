/**
 * zoo.cfg contents for throwaway local servers (the CLI's "no --server given" path and the test harness).
 *
 * The base matches the golden captures (test/fixtures/golden/README.md): every 4lw enabled, TTL nodes enabled, no admin
 * HTTP server, tickTime 2000 (so session timeouts clamp to 4000..40000 ms). Two additions make it cheaper without
 * changing anything a client can see on the wire: no connection limit per IP (many clients share 127.0.0.1), and
 * no fsync per transaction (durability across an OS crash is irrelevant for a temp dir; a SIGKILLed JVM still leaves
 * its writes in the page cache, so kill/restart keeps the data).
 */
import { tlsOnlyEntries, type TestingServerTls } from './tls.js';

export interface ZkConfigOptions {
  tickTime?: number | undefined;
  /** Extra or overriding zoo.cfg keys, e.g. { minSessionTimeout: '1000' }. */
  extraConfig?: Record<string, string> | undefined;
}

export interface QuorumMember {
  id: number;
  quorumPort: number;
  electionPort: number;
  /**
   * Its client port, written into its server line too (`;127.0.0.1:port`): dynamic reconfiguration needs every
   * member's client address in the configuration it changes.
   */
  clientPort?: number;
}

export function standaloneConfig(opts: ZkConfigOptions, dataDir: string, clientPort: number): string {
  return render({ ...baseEntries(opts, dataDir, clientPort), ...opts.extraConfig });
}

/** A standalone server listening only on the TLS `securePort` (no plaintext clientPort at all). */
export function tlsOnlyStandaloneConfig(opts: ZkConfigOptions, dataDir: string, securePort: number, tls: TestingServerTls): string {
  const { clientPort: _plain, clientPortAddress: _address, ...rest } = baseEntries(opts, dataDir, securePort);
  return render({ ...rest, ...tlsOnlyEntries(tls, securePort), ...opts.extraConfig });
}

export function quorumConfig(
  opts: ZkConfigOptions,
  dataDir: string,
  clientPort: number,
  members: readonly QuorumMember[],
): string {
  const entries: Record<string, string> = {
    ...baseEntries(opts, dataDir, clientPort),
    // In ticks: how long followers may take to connect and sync to a new leader, and may lag behind it.
    initLimit: '10',
    syncLimit: '5',
  };
  for (const m of members) {
    entries[`server.${m.id}`] = `127.0.0.1:${m.quorumPort}:${m.electionPort}${m.clientPort === undefined ? '' : `;127.0.0.1:${m.clientPort}`}`;
  }
  return render({ ...entries, ...opts.extraConfig });
}

function baseEntries(opts: ZkConfigOptions, dataDir: string, clientPort: number): Record<string, string> {
  return {
    tickTime: String(opts.tickTime ?? 2000),
    dataDir,
    clientPort: String(clientPort),
    clientPortAddress: '127.0.0.1',
    '4lw.commands.whitelist': '*',
    extendedTypesEnabled: 'true',
    maxClientCnxns: '0',
    'admin.enableServer': 'false',
    forceSync: 'no',
  };
}

function render(entries: Record<string, string>): string {
  return (
    Object.entries(entries)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n') + '\n'
  );
}
