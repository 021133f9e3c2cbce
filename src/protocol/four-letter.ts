/**
 * Four-letter words: plain-text admin commands sent instead of a ConnectRequest on a fresh
 * connection. This file knows the command set, recognises a 4lw connection from its first four bytes, and turns
 * the text of the common answers (srvr, stat, mntr, wchs, cons) into structured objects.
 */

export const FOUR_LETTER_WORDS = [
  'conf',
  'cons',
  'crst',
  'dirs',
  'dump',
  'envi',
  'gtmk',
  'ruok',
  'stmk',
  'srvr',
  'srst',
  'stat',
  'wchc',
  'wchp',
  'wchs',
  'mntr',
  'isro',
  'hash',
] as const;

/** One of the four-letter admin commands ZooKeeper answers (`ruok`, `srvr`, `mntr`, ...). */
export type FourLetterWord = (typeof FOUR_LETTER_WORDS)[number];

const WORDS = new Set<string>(FOUR_LETTER_WORDS);

/** Whether `s` is a four-letter word zkwire knows. */
export function isFourLetterWord(s: string): s is FourLetterWord {
  return WORDS.has(s);
}

/**
 * The command a connection starts with, if its first four bytes spell one. A real frame can never start like
 * this: as a length prefix those bytes would be ~1.6–2 GB, far beyond any frame limit, which is also how the
 * server tells them apart.
 */
export function detectFourLetterWord(firstBytes: Uint8Array): FourLetterWord | undefined {
  if (firstBytes.length < 4) return undefined;
  const s = String.fromCharCode(firstBytes[0]!, firstBytes[1]!, firstBytes[2]!, firstBytes[3]!);
  return isFourLetterWord(s) ? s : undefined;
}

/** One client connection line of `cons` and of stat's "Clients:" section. */
export interface ConnectionInfo {
  /** The peer, e.g. "127.0.0.1:47906" (leading slash removed). */
  address: string;
  /** Selector interest ops in brackets. */
  interestOps: number;
  /** Every key=value in the parentheses as given (queued, recved, sent, sid, lop, est, to, lcxid, ...). */
  stats: Record<string, string>;
}

/** srvr / stat. Fields missing from the text (other server versions) are absent. */
export interface ServerStats {
  version?: string;
  latencyMin?: number;
  latencyAvg?: number;
  latencyMax?: number;
  received?: number;
  sent?: number;
  connections?: number;
  outstanding?: number;
  /** As printed, e.g. "0xaf". */
  zxid?: string;
  mode?: string;
  nodeCount?: number;
  /** stat only. */
  clients?: ConnectionInfo[];
  /** Every "Key: value" line as given, including those without a named field above. */
  fields: Record<string, string>;
}

/** The `wchs` answer: how many connections watch how many paths. */
export interface WatchSummary {
  connections: number;
  paths: number;
  totalWatches: number;
}

function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s.trim());
  return Number.isFinite(n) ? n : undefined;
}

function setIf<K extends keyof ServerStats>(out: ServerStats, key: K, value: ServerStats[K] | undefined): void {
  if (value !== undefined) out[key] = value as ServerStats[K];
}

const CONNECTION_LINE = /^\/?(.*)\[(\d+)\]\((.*)\)$/;

/** Parses one line of the `cons` answer; undefined if it is not a connection line. */
export function parseConnectionLine(line: string): ConnectionInfo | undefined {
  const m = CONNECTION_LINE.exec(line.trim());
  if (m === null) return undefined;
  const stats: Record<string, string> = {};
  for (const part of m[3]!.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) stats[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return { address: m[1]!, interestOps: Number(m[2]), stats };
}

/** cons: one line per connection, blank lines between sections. */
export function parseCons(text: string): ConnectionInfo[] {
  const out: ConnectionInfo[] = [];
  for (const line of text.split('\n')) {
    const c = parseConnectionLine(line);
    if (c !== undefined) out.push(c);
  }
  return out;
}

/** srvr and stat (stat adds a "Clients:" section of connection lines). */
export function parseSrvr(text: string): ServerStats {
  const out: ServerStats = { fields: {} };
  let inClients = false;
  for (const line of text.split('\n')) {
    if (line === 'Clients:') {
      inClients = true;
      out.clients = [];
      continue;
    }
    if (inClients) {
      if (line.trim() === '') {
        inClients = false;
        continue;
      }
      const c = parseConnectionLine(line);
      if (c !== undefined) out.clients!.push(c);
      continue;
    }
    const colon = line.indexOf(': ');
    if (colon <= 0) continue;
    const key = line.slice(0, colon);
    const value = line.slice(colon + 2);
    out.fields[key] = value;
    switch (key) {
      case 'Zookeeper version':
        out.version = value;
        break;
      case 'Latency min/avg/max': {
        const [min, avg, max] = value.split('/');
        setIf(out, 'latencyMin', num(min));
        setIf(out, 'latencyAvg', num(avg));
        setIf(out, 'latencyMax', num(max));
        break;
      }
      case 'Received':
        setIf(out, 'received', num(value));
        break;
      case 'Sent':
        setIf(out, 'sent', num(value));
        break;
      case 'Connections':
        setIf(out, 'connections', num(value));
        break;
      case 'Outstanding':
        setIf(out, 'outstanding', num(value));
        break;
      case 'Zxid':
        out.zxid = value;
        break;
      case 'Mode':
        out.mode = value;
        break;
      case 'Node count':
        setIf(out, 'nodeCount', num(value));
        break;
    }
  }
  return out;
}

/** Parses the `stat` answer: the `srvr` fields plus the connection lines of its "Clients:" section (`clients`). */
export const parseStat = parseSrvr;

/** mntr: `key<TAB>value` lines; numeric values become numbers, the rest stay strings. */
export function parseMntr(text: string): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const key = line.slice(0, tab);
    const value = line.slice(tab + 1);
    out[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** wchs: "N connections watching M paths" / "Total watches:K". */
export function parseWchs(text: string): WatchSummary | undefined {
  const a = /(\d+) connections watching (\d+) paths/.exec(text);
  const b = /Total watches:\s*(\d+)/.exec(text);
  if (a === null || b === null) return undefined;
  return { connections: Number(a[1]), paths: Number(a[2]), totalWatches: Number(b[1]) };
}
