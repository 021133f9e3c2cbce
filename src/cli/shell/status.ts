/**
 * The shell's `status`: the ensemble at a glance, one row per member (mode, last zxid, connections, outstanding
 * requests, latency min/avg/max, node count) from each member's `srvr` answer (the one four-letter word every
 * server allows), redrawn in place every interval until a key is pressed. The members are the ensemble's dynamic
 * configuration when the server has one (3.5+ with reconfig data), else the shell's connect string.
 */

import { parseConnectString, type ZooKeeperClient } from '../../node.js';
import { parseSrvr } from '../../protocol/index.js';
import { fourLetterWord } from '../../testing/local-server/four-letter-client.js';
import { renderTable } from '../../tools/shared/table.js';

/** One member as `srvr` shows it, or why it did not answer. */
export interface MemberStatus {
  readonly server: string;
  readonly mode?: string | undefined;
  readonly zxid?: string | undefined;
  readonly connections?: number | undefined;
  readonly outstanding?: number | undefined;
  readonly latency?: string | undefined;
  readonly nodeCount?: number | undefined;
  readonly error?: string | undefined;
}

export interface Member {
  readonly host: string;
  readonly port: number;
}

/** How long one member may take to answer before its row says so. */
export const PROBE_TIMEOUT_MS = 2000;

/** How often the view is redrawn. */
export const REFRESH_MS = 1000;

const address = (m: Member): string => (m.host.includes(':') ? `[${m.host}]:${m.port}` : `${m.host}:${m.port}`);

/**
 * The client addresses in a dynamic configuration's `server.ID=host:quorum:election[:role];[clientHost:]clientPort`
 * lines; a wildcard client host (0.0.0.0, ::) is reached at the member's quorum host.
 */
export function membersOfConfig(text: string): Member[] {
  const out: Member[] = [];
  for (const line of text.split('\n')) {
    const m = /^server\.\d+=(\[[^\]]+\]|[^:;]+):[^;]*;(?:(.+):)?(\d+)\s*$/.exec(line.trim());
    if (m === null) continue;
    const quorumHost = m[1]!.replace(/^\[|\]$/g, '');
    const clientHost = m[2]?.replace(/^\[|\]$/g, '');
    const host = clientHost === undefined || clientHost === '0.0.0.0' || clientHost === '::' ? quorumHost : clientHost;
    out.push({ host, port: Number(m[3]) });
  }
  return out;
}

/** The members to show: the dynamic configuration's, else the connect string's hosts. */
export async function ensembleMembers(client: ZooKeeperClient, connectString: string, signal: AbortSignal): Promise<Member[]> {
  // status is for when things are wrong too: with no connection (or a slow one) the connect string is used at once.
  if (client.state !== 'connected' && client.state !== 'connected-read-only') return hostsOf(connectString);
  try {
    const { data } = await client.getConfig({ signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]) });
    const members = membersOfConfig(new TextDecoder().decode(data));
    if (members.length > 0) return members;
  } catch {
    // No configuration node (3.4, or not readable): the connect string is what we know.
  }
  return hostsOf(connectString);
}

const hostsOf = (connectString: string): Member[] => parseConnectString(connectString).hosts.map(({ host, port }) => ({ host, port }));

/** One member's row, from its `srvr` answer. */
export async function probeMember(member: Member, timeoutMs = PROBE_TIMEOUT_MS): Promise<MemberStatus> {
  const server = address(member);
  try {
    const s = parseSrvr(await fourLetterWord(member.host, member.port, 'srvr', timeoutMs));
    if (s.mode === undefined) return { server, error: 'no mode in its srvr answer (not serving yet?)' };
    const latency = s.latencyAvg === undefined ? undefined : `${s.latencyMin ?? '?'}/${Math.round(s.latencyAvg * 10) / 10}/${s.latencyMax ?? '?'}`;
    return { server, mode: s.mode, zxid: s.zxid, connections: s.connections, outstanding: s.outstanding, latency, nodeCount: s.nodeCount };
  } catch (e) {
    return { server, error: e instanceof Error ? e.message : String(e) };
  }
}

const cell = (v: string | number | undefined): string => (v === undefined ? '–' : String(v));

/** The view as text: a title line with the time, the table, and a line per member that did not answer. */
export function renderStatus(rows: readonly MemberStatus[], at: Date, live: boolean): string {
  const table = renderTable(
    ['server', 'mode', 'zxid', 'connections', 'outstanding', 'latency min/avg/max ms', 'nodes'],
    rows.map((r) => [r.server, r.error === undefined ? cell(r.mode) : 'DOWN', cell(r.zxid), cell(r.connections), cell(r.outstanding), cell(r.latency), cell(r.nodeCount)]),
    2,
  );
  const errors = rows.filter((r) => r.error !== undefined).map((r) => `${r.server}: ${r.error}`);
  const title = `ensemble status at ${at.toISOString().slice(11, 19)} UTC${live ? ' (refreshed every second; press any key to stop)' : ''}`;
  return [title, table.trimEnd(), ...errors].join('\n') + '\n';
}

export interface StatusLoop {
  /** The members' rows, asked afresh each time. */
  readonly probe: () => Promise<MemberStatus[]>;
  readonly write: (text: string) => void;
  /** Aborted by the key press (or Ctrl-C, or leaving): the loop ends. */
  readonly signal: AbortSignal;
  /** Redraw in place until `signal`; false: draw once (output that is not a terminal). */
  readonly live: boolean;
  readonly intervalMs?: number;
  readonly now?: () => Date;
}

/** Draws the view, then (live) redraws it in place every interval until `signal` aborts. */
export async function runStatus(loop: StatusLoop): Promise<void> {
  const now = loop.now ?? ((): Date => new Date());
  let shownLines = 0;
  while (!loop.signal.aborted) {
    const text = renderStatus(await loop.probe(), now(), loop.live);
    if (loop.signal.aborted) break;
    // Back to the first line of the previous drawing and clear from there down: the table is redrawn in place.
    loop.write(shownLines > 0 ? `\x1b[${shownLines}F\x1b[0J${text}` : text);
    shownLines = text.split('\n').length - 1;
    if (!loop.live) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, loop.intervalMs ?? REFRESH_MS);
      function done(): void {
        clearTimeout(timer);
        loop.signal.removeEventListener('abort', done);
        resolve();
      }
      loop.signal.addEventListener('abort', done, { once: true });
    });
  }
}
