/** The ops tables: count, errors by code name and request → reply latency, per op, path prefix, session and client. */

import { errName } from '../../protocol/index.js';
import { coarseBuckets, msHistogram } from '../shared/latency.js';
import { OpTotalsTable as Table, replied, type Totals } from '../shared/op-totals.js';
import type { OpsReport } from './report.js';

/** `/a/b/c` rolled up to `depth` segments: `/a/b` for depth 2; the root stays `/`. Scans, no split: hot path. */
export function rollUpPath(path: string, depth: number): string {
  if (!path.startsWith('/')) return path;
  let end = path.length;
  let seen = 0;
  for (let i = 1; i < path.length; i++) {
    if (path.charCodeAt(i) !== 47 /* '/' */) continue;
    // A doubled or trailing slash is not a segment boundary worth keeping.
    if (i === path.length - 1 || path.charCodeAt(i - 1) === 47) continue;
    if (++seen === depth) {
      end = i;
      break;
    }
  }
  const out = path.slice(0, end);
  return out.length > 1 && out.endsWith('/') ? out.slice(0, -1) : out;
}

/** Full paths whose per-path row is remembered; past this the memo starts over (it only saves work). */
const PATH_MEMO = 20_000;

export class OpStats {
  readonly #depth: number;
  readonly #byOp = new Table(1000);
  readonly #byPath = new Table(5000);
  readonly #bySession = new Table(10000);
  readonly #byClient = new Table(10000);
  readonly #all = msHistogram();
  /**
   * Full path → its rolled-up row: every request and reply names a path, and rolling it up builds a string. A row,
   * once chosen for a key (even the "(other)" row), never changes, so remembering it is exact.
   */
  readonly #pathRows = new Map<string, Totals>();

  constructor(depth: number) {
    this.#depth = depth;}

  /** A request of `op` on `path` by `session` (undefined before the handshake) from host `client`. */
  request(op: string, path: string | undefined, session: string | undefined, client: string): void {
    this.#byOp.row(op).requests++;
    if (path !== undefined) this.#pathRow(path).requests++;
    if (session !== undefined) this.#bySession.row(session).requests++;
    this.#byClient.row(client).requests++;
  }

  /** The reply to such a request, with its error code and latency (undefined when its request is not known). */
  reply(op: string, path: string | undefined, session: string | undefined, client: string, err: number, latencyMs: number | undefined): void {
    const name = err === 0 ? undefined : errName(err);
    replied(this.#byOp.row(op), name, latencyMs);
    if (path !== undefined) replied(this.#pathRow(path), name, latencyMs);
    if (session !== undefined) replied(this.#bySession.row(session), name, latencyMs);
    replied(this.#byClient.row(client), name, latencyMs);
    if (latencyMs !== undefined) this.#all.record(latencyMs);
  }

  #pathRow(path: string): Totals {
    let t = this.#pathRows.get(path);
    if (t === undefined) {
      if (this.#pathRows.size >= PATH_MEMO) this.#pathRows.clear();
      t = this.#byPath.row(rollUpPath(path, this.#depth));
      this.#pathRows.set(path, t);
    }
    return t;
  }

  report(): OpsReport {
    return {
      byOp: this.#byOp.report('key', true),
      byPath: this.#byPath.report('requests'),
      depth: this.#depth,
      bySession: this.#bySession.report('requests'),
      byClient: this.#byClient.report('requests'),
      histogram: coarseBuckets(this.#all),
    };
  }
}
