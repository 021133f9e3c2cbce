/**
 * `zkwire txnlog FILE|DIR...`: ZooKeeper's transaction logs as readable lines or JSON, filtered; a per-session
 * summary; and, with --path naming a node, that node's history (who created, changed and deleted it, when).
 * Decoding is src/tools/txnlog's (pure); this reads the files and picks the sinks.
 */

import { hexId, type JsonValue } from '../../protocol/describe.js';
import {
  DataFileError,
  damageText,
  decodeTxnLog,
  matchesTxn,
  NodeHistory,
  nodeEventText,
  NodeReplay,
  SessionSummaries,
  sessionSummaryText,
  txnJson,
  txnText,
  type SessionSummary,
  type TxnFilter,
} from '../../tools/txnlog/index.js';
import type { CliIo, Command } from '../types.js';
import { dataFiles, fileChunks } from './data-files.js';
import { parseCommandArgs, usageError } from './node-client.js';
import { printNodeAt, restoreNode } from './txnlog-restore.js';

const usage = `Usage: zkwire txnlog [options] FILE|DIR...

Decodes ZooKeeper transaction logs (log.<zxid>): a file, or a data directory (its version-2/ is found) whose logs
are read in zxid order. One line per transaction: time, session, cxid, zxid (hex, as ZooKeeper logs them), the
operation and its record; a multi lists its operations. With --json, one object per transaction
{file, offset, zxid, session, cxid, time, timeMs, op, ...the record's fields}.

Options:
  --path P          only transactions on P or below it (a multi or closed session that touches it counts);
                    then also the history of exactly P: who created, changed and deleted it, and when
                    (by session; \`zkwire analyze CAPTURE --data-dir DIR --path P\` adds each session's
                    client address from a capture of the same period)
  --session ID      only this session's (hex 0x... or decimal)
  --zxid FROM[-TO]  only zxids in this range (hex 0x... or decimal; TO optional)
  --since T         only transactions at or after T (ISO-8601 date/time, or ms since the epoch)
  --until T         only transactions at or before T
  --op NAME[,NAME]  only these operations (create, create2, createContainer, createTTL, delete, deleteContainer,
                    setData, setACL, check, multi, createSession, closeSession, error, reconfig); repeatable
  --summary         instead of the transactions: one summary per session (start, close, what it created,
                    changed and deleted)
  --at ZXID         with --path: instead of the transactions, what P held once transaction ZXID was applied
                    (data, ACL), rebuilt from the logs
  --restore         with --path and --at: write that value back to P (re-creating P if it was deleted since)
                    on the ensemble connected to, after showing the difference with what P holds now and asking
  --yes             with --restore: do not ask

A preallocated log's zero tail ends it quietly. A damaged entry (checksum, length, end marker) is reported on
stderr with its byte offset, and decoding resumes at the next entry that checks out.

Exit status: 0 when every file decoded cleanly, 1 when a file could not be read or had damage, 2 on usage errors.
`;

interface Options {
  filter: TxnFilter;
  summary: boolean;
  /** --at, and whether to --restore (--yes: without asking). */
  at?: { zxid: bigint; restore: boolean; yes: boolean };
}

function parseLong(v: string): bigint | undefined {
  try {
    return /^0x[0-9a-f]+$/i.test(v) || /^\d+$/.test(v) ? BigInt(v) : undefined;
  } catch {
    return undefined;
  }
}

function parseTime(v: string): number | undefined {
  if (/^\d+$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

const OP_NAMES = new Set(['create', 'create2', 'createContainer', 'createTTL', 'delete', 'deleteContainer', 'setData', 'setACL', 'check', 'multi', 'createSession', 'closeSession', 'error', 'reconfig']);

function parseOptions(args: string[]): { opts: Options; files: string[] } | string {
  const parsed = parseCommandArgs(args, { flags: ['--summary', '--restore', '--yes'], valued: ['--path', '--session', '--zxid', '--since', '--until', '--op', '--at'], positionals: ['FILE'], required: 1, variadic: true });
  if (typeof parsed === 'string') return parsed;
  const f: { -readonly [K in keyof TxnFilter]: TxnFilter[K] } = {};
  const path = parsed.values.get('--path');
  if (path !== undefined) {
    if (!path.startsWith('/')) return `--path needs an absolute path, got ${path}`;
    f.path = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  }
  const session = parsed.values.get('--session');
  if (session !== undefined) {
    const id = parseLong(session);
    if (id === undefined) return `--session needs a session id (0x... or decimal), got ${session}`;
    f.session = id;
  }
  const zxid = parsed.values.get('--zxid');
  if (zxid !== undefined) {
    const [from, to, extra] = zxid.split('-');
    const a = from === undefined || from === '' ? undefined : parseLong(from);
    const b = to === undefined || to === '' ? undefined : parseLong(to);
    if (extra !== undefined || (from !== '' && a === undefined) || (to !== undefined && to !== '' && b === undefined)) return `--zxid needs FROM[-TO] (hex 0x... or decimal), got ${zxid}`;
    if (a !== undefined) f.zxidFrom = a;
    if (b !== undefined) f.zxidTo = b;
  }
  for (const name of ['--since', '--until'] as const) {
    const v = parsed.values.get(name);
    if (v === undefined) continue;
    const t = parseTime(v);
    if (t === undefined) return `${name} needs an ISO-8601 time or ms since the epoch, got ${v}`;
    if (name === '--since') f.since = t;
    else f.until = t;
  }
  const ops = (parsed.repeated.get('--op') ?? []).flatMap((v) => v.split(',')).filter((v) => v !== '');
  for (const op of ops) if (!OP_NAMES.has(op)) return `--op: unknown operation ${op} (one of ${[...OP_NAMES].join(', ')})`;
  if (ops.length > 0) f.ops = new Set(ops);
  const opts: Options = { filter: f, summary: parsed.flags.has('--summary') };
  const at = parsed.values.get('--at');
  const restore = parsed.flags.has('--restore');
  if (at === undefined && (restore || parsed.flags.has('--yes'))) return `${restore ? '--restore' : '--yes'} needs --at ZXID`;
  if (at !== undefined) {
    const zxid = parseLong(at);
    if (zxid === undefined) return `--at needs a zxid (hex 0x... or decimal), got ${at}`;
    if (f.path === undefined) return '--at needs --path P (the node to rebuild)';
    if (parsed.flags.has('--yes') && !restore) return '--yes goes with --restore';
    opts.at = { zxid, restore, yes: parsed.flags.has('--yes') };
  }
  return { opts, files: parsed.positionals };
}

export const txnlogCommand: Command = {
  name: 'txnlog',
  summary: 'decode ZooKeeper transaction logs: who created, changed, deleted what, and when',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseOptions(args);
    if (typeof parsed === 'string') return usageError('txnlog', parsed, usage, io);
    const { opts } = parsed;
    if (opts.at?.restore === true && io.globals.server === undefined && io.session === undefined) {
      return usageError('txnlog', '--restore needs --server HOSTS (the ensemble to write to)', usage, io);
    }
    const replay = opts.at === undefined ? undefined : new NodeReplay(opts.filter.path!, opts.at.zxid);
    const json = io.globals.json;
    const files: string[] = [];
    let failed = 0;
    for (const arg of parsed.files) {
      const found = await dataFiles(arg, 'log');
      if (typeof found === 'string') {
        io.err(`zkwire txnlog: ${found}\n`);
        failed++;
      } else files.push(...found);
    }
    const history = opts.filter.path === undefined ? undefined : new NodeHistory(opts.filter.path);
    const summaries = opts.summary ? new SessionSummaries() : undefined;
    let decoded = 0;
    for (const file of files) {
      let damaged = false;
      try {
        for await (const batch of decodeTxnLog(fileChunks(file))) {
          let text = '';
          for (const e of batch) {
            if (e.type === 'header') {
              if (!json && summaries === undefined && replay === undefined) text += `# ${file}: transaction log, format version ${e.header.version}, dbid ${e.header.dbid}\n`;
            } else if (e.type === 'damage') {
              damaged = true;
              io.err(json ? `${JSON.stringify({ file, damage: e.code, offset: e.offset, message: e.message, resumedAt: e.resumedAt ?? null })}\n` : `zkwire txnlog: ${file}: ${damageText(e)}\n`);
            } else if (e.type === 'txn') {
              decoded++;
              if (replay !== undefined) {
                replay.add(e.entry);
                continue;
              }
              if (!matchesTxn(e.entry, opts.filter)) continue;
              history?.add(e.entry);
              if (summaries !== undefined) summaries.add(e.entry);
              else if (json) text += `${JSON.stringify({ file, offset: e.offset, ...txnJson(e.entry) })}\n`;
              else text += `${txnText(e.entry)}\n`;
            }
          }
          if (text !== '') io.out(text);
        }
      } catch (err) {
        const message = err instanceof DataFileError ? err.message : `cannot read: ${err instanceof Error ? err.message : String(err)}`;
        io.err(json ? `${JSON.stringify({ error: { code: err instanceof DataFileError ? err.code : 'ERROR', message: `${file}: ${message}` } })}\n` : `zkwire txnlog: ${file}: ${message}\n`);
        failed++;
        continue;
      }
      if (damaged) failed++;
    }
    if (summaries !== undefined) {
      for (const s of summaries.sessions) {
        io.out(json ? `${JSON.stringify(summaryJson(s))}\n` : `${sessionSummaryText(s)}\n`);
      }
    }
    if (replay !== undefined && opts.at !== undefined) {
      if (failed > 0) {
        io.err(`zkwire txnlog: ${opts.at.restore ? 'nothing restored' : 'the value shown may be incomplete'}: a log could not be read whole\n`);
        if (opts.at.restore) return 1;
      }
      if (!opts.at.restore) printNodeAt(io, replay.path, opts.at.zxid, replay.result());
      else return restoreNode(io, replay.path, opts.at.zxid, replay.result(), opts.at.yes);
    } else if (history !== undefined) printHistory(io, history);
    if (files.length > 0 && decoded === 0 && failed === 0) io.err(`zkwire txnlog: no transactions in ${files.length} file(s)\n`);
    return failed === 0 ? 0 : 1;
  },
};

function summaryJson(s: SessionSummary): JsonValue {
  return {
    session: hexId(s.session),
    start: s.start === undefined ? null : { zxid: hexId(s.start.zxid), time: new Date(s.start.time).toISOString(), timeout: s.start.timeout },
    close: s.close === undefined ? null : { zxid: hexId(s.close.zxid), time: new Date(s.close.time).toISOString(), ephemerals: s.close.ephemerals },
    firstTime: new Date(s.firstTime).toISOString(),
    lastTime: new Date(s.lastTime).toISOString(),
    txns: s.txns,
    failed: s.failed,
    created: { count: s.created.count, paths: s.created.paths },
    changed: { count: s.changed.count, paths: s.changed.paths },
    deleted: { count: s.deleted.count, paths: s.deleted.paths },
  };
}

function printHistory(io: CliIo, h: NodeHistory): void {
  if (io.globals.json) {
    const events = h.events.map((e) => ({ change: e.change, op: e.op, session: hexId(e.session), zxid: hexId(e.zxid), time: new Date(e.time).toISOString(), ...(e.detail === undefined ? {} : { detail: e.detail }) }));
    io.out(`${JSON.stringify({ history: { path: h.path, events } })}\n`);
    return;
  }
  if (h.events.length === 0) {
    io.out(`\nHistory of ${h.path}: no create, change or delete of exactly this node in these logs\n`);
    return;
  }
  io.out(`\nHistory of ${h.path}:\n${h.events.map((e) => `  ${nodeEventText(e)}`).join('\n')}\n`);
}
