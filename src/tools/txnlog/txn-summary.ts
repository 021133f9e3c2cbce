/**
 * Sinks that answer questions over a stream of transactions: who changed a given node and when (NodeHistory), and
 * what each session did (SessionSummary): its start and close, the nodes it created, changed and deleted.
 */

import { hexId } from '../../protocol/describe.js';
import { opName } from '../../protocol/opcodes.js';
import type { TxnEntry } from './txn-entry.js';
import type { TxnRecord } from './txn-records.js';

/** What one transaction did to one node. */
export type NodeChange = 'created' | 'changed' | 'acl-changed' | 'deleted' | 'deleted-with-session';

/** One change of a node, the session that made it and when. */
export interface NodeEvent {
  readonly change: NodeChange;
  readonly path: string;
  readonly op: string;
  readonly session: bigint;
  readonly zxid: bigint;
  readonly time: number;
  /** The data version a setData/setACL asked for, or the TTL of a TTL node. */
  readonly detail?: string;
}

function changeOf(rec: TxnRecord): { change: NodeChange; path: string; detail?: string }[] {
  switch (rec.kind) {
    case 'create':
      return [{ change: 'created', path: rec.path, ...(rec.ephemeral ? { detail: 'ephemeral' } : {}) }];
    case 'createContainer':
      return [{ change: 'created', path: rec.path, detail: 'container' }];
    case 'createTTL':
      return [{ change: 'created', path: rec.path, detail: `ttl ${rec.ttl}ms` }];
    case 'setData':
      return [{ change: 'changed', path: rec.path }];
    case 'setACL':
      return [{ change: 'acl-changed', path: rec.path }];
    case 'delete':
      return [{ change: 'deleted', path: rec.path }];
    case 'closeSession':
      return (rec.paths ?? []).map((path) => ({ change: 'deleted-with-session' as const, path }));
    case 'multi':
      return rec.txns.flatMap((t) => changeOf(t.record).map((c) => ({ ...c, op: opName(t.type) })));
    default:
      return [];
  }
}

/** Every node change in one transaction (a multi's sub-ops each, a closed session's ephemerals each). */
export function nodeEvents(entry: TxnEntry): NodeEvent[] {
  const h = entry.header;
  return changeOf(entry.record).map((c) => ({
    op: entry.op,
    ...c,
    session: h.clientId,
    zxid: h.zxid,
    time: h.time,
  }));
}

const VERB: Record<NodeChange, string> = {
  created: 'created',
  changed: 'data changed',
  'acl-changed': 'ACL changed',
  deleted: 'deleted',
  'deleted-with-session': 'deleted with its session (closed or expired)',
};

export function nodeEventText(e: NodeEvent): string {
  return `${new Date(e.time).toISOString()} zxid ${hexId(e.zxid)} ${e.path} ${VERB[e.change]}${e.detail === undefined ? '' : ` (${e.detail})`} by session ${hexId(e.session)}${e.op === 'multi' ? ' in a multi' : ''}`;
}

/** Collects the history of exactly one node. */
export class NodeHistory {
  readonly events: NodeEvent[] = [];
  constructor(readonly path: string) {}

  add(entry: TxnEntry): void {
    for (const e of nodeEvents(entry)) if (e.path === this.path) this.events.push(e);
  }
}

/** The first paths kept per list: a session that created a million nodes should not cost a million strings. */
const KEPT = 20;

interface PathList {
  count: number;
  paths: string[];
}

export interface SessionSummary {
  readonly session: bigint;
  start?: { zxid: bigint; time: number; timeout: number };
  close?: { zxid: bigint; time: number; ephemerals: number };
  firstTime: number;
  lastTime: number;
  txns: number;
  /** Failed writes (error transactions): the request is not in the log, only that it failed. */
  failed: number;
  readonly created: PathList;
  readonly changed: PathList;
  readonly deleted: PathList;
}

function addPath(list: PathList, path: string): void {
  list.count++;
  if (list.paths.length < KEPT) list.paths.push(path);
}

/** Folds transactions into one summary per session, in order of first appearance. */
export class SessionSummaries {
  readonly #byId = new Map<bigint, SessionSummary>();

  add(entry: TxnEntry): void {
    const h = entry.header;
    let s = this.#byId.get(h.clientId);
    if (s === undefined) {
      s = { session: h.clientId, firstTime: h.time, lastTime: h.time, txns: 0, failed: 0, created: { count: 0, paths: [] }, changed: { count: 0, paths: [] }, deleted: { count: 0, paths: [] } };
      this.#byId.set(h.clientId, s);
    }
    s.txns++;
    s.lastTime = h.time;
    const rec = entry.record;
    if (rec.kind === 'createSession') s.start = { zxid: h.zxid, time: h.time, timeout: rec.timeout };
    else if (rec.kind === 'closeSession') s.close = { zxid: h.zxid, time: h.time, ephemerals: rec.paths?.length ?? 0 };
    else if (rec.kind === 'error' || (rec.kind === 'multi' && rec.txns.some((t) => t.record.kind === 'error'))) s.failed++;
    for (const e of nodeEvents(entry)) {
      if (e.change === 'created') addPath(s.created, e.path);
      else if (e.change === 'changed' || e.change === 'acl-changed') addPath(s.changed, e.path);
      else addPath(s.deleted, e.path);
    }
  }

  get sessions(): SessionSummary[] {
    return [...this.#byId.values()];
  }
}

function listText(name: string, l: PathList): string {
  if (l.count === 0) return '';
  return `\n  ${name} ${l.count}: ${l.paths.join(', ')}${l.count > l.paths.length ? `, …+${l.count - l.paths.length}` : ''}`;
}

export function sessionSummaryText(s: SessionSummary): string {
  const iso = (t: number): string => new Date(t).toISOString();
  const start = s.start === undefined ? `first seen ${iso(s.firstTime)} (started before these logs)` : `started ${iso(s.start.time)} zxid ${hexId(s.start.zxid)} timeout ${s.start.timeout}ms`;
  const close = s.close === undefined ? `last seen ${iso(s.lastTime)} (not closed in these logs)` : `closed ${iso(s.close.time)} zxid ${hexId(s.close.zxid)}, ${s.close.ephemerals} ephemeral(s) deleted`;
  return `session ${hexId(s.session)}: ${start}; ${close}; ${s.txns} txn(s)${s.failed > 0 ? `, ${s.failed} failed` : ''}${listText('created', s.created)}${listText('changed', s.changed)}${listText('deleted', s.deleted)}`;
}
