/**
 * `zkwire txnlog DIR --path P --at ZXID [--restore]`: what node P held once transaction ZXID was applied, rebuilt
 * from the logs (src/tools/txnlog/node-at-zxid.ts), and with --restore that value written back: after a diff
 * against what P holds now and a yes from the user (or --yes). A node deleted since is re-created (with its ACL
 * from the logs); a present one gets its old data by a setData conditional on the version just shown, so a write
 * made in between is not overwritten unseen.
 */

import { isCode } from '../../errors.js';
import { hexId } from '../../protocol/describe.js';
import { Perms, type ACL, type ZooKeeperClient } from '../../node.js';
import type { NodeAtZxid } from '../../tools/txnlog/index.js';
import { aclEntryText } from './getacl.js';
import type { CliIo } from '../types.js';
import { dataToJson, runWithClient } from './node-client.js';

const OPEN_ACL: readonly ACL[] = [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }];

function dataLines(bytes: Uint8Array): string[] {
  const d = dataToJson(bytes);
  return d.encoding === 'utf8' ? d.data.split('\n') : [`(binary, hex) ${d.data}`];
}

/** `--at` without --restore: the node as it was, as text or one JSON line. */
export function printNodeAt(io: CliIo, path: string, zxid: bigint, at: NodeAtZxid): void {
  if (io.globals.json) {
    const body = at.exists
      ? { exists: true, data: at.data === undefined ? null : dataToJson(at.data), acl: at.acl?.map(aclEntryText) ?? null, ephemeral: at.ephemeral ?? null, lastZxid: hexId(at.lastZxid) }
      : { exists: false, seen: at.seen, lastZxid: at.lastZxid === undefined ? null : hexId(at.lastZxid) };
    io.out(`${JSON.stringify({ path, at: hexId(zxid), ...body })}\n`);
    return;
  }
  io.out(`${describeAt(path, zxid, at)}\n`);
  if (at.exists && at.data !== undefined) io.out(`${dataLines(at.data).join('\n')}\n`);
}

function describeAt(path: string, zxid: bigint, at: NodeAtZxid): string {
  const when = `at zxid ${hexId(zxid)}`;
  if (!at.exists) {
    return at.seen ? `${path} did not exist ${when} (deleted at ${hexId(at.lastZxid!)})` : `${path}: no transaction on it up to ${hexId(zxid)} in these logs (it did not exist, or predates the oldest log: see \`zkwire snapshot\`)`;
  }
  const acl = at.acl === undefined ? 'ACL not in these logs' : `ACL ${at.acl.map(aclEntryText).join(', ')}`;
  const data = at.data === undefined ? 'data not in these logs' : `${at.data.length} byte(s)`;
  return `${path} ${when} (last changed at ${hexId(at.lastZxid)}${at.ephemeral === true ? ', ephemeral' : ''}): ${data}; ${acl}`;
}

/** Reads one line of the user's answer from standard input; undefined at its end. */
async function answer(io: CliIo): Promise<string | undefined> {
  let text = '';
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    if (text.includes('\n')) return text.slice(0, text.indexOf('\n'));
  }
  return text === '' ? undefined : text;
}

/** --restore: the diff, the question, the write. Exit 0 written (or nothing to write), 1 refused or declined. */
export async function restoreNode(io: CliIo, path: string, zxid: bigint, at: NodeAtZxid, yes: boolean): Promise<number> {
  const refuse = (why: string): number => {
    io.err(`zkwire txnlog: --restore: ${why}; nothing written\n`);
    return 1;
  };
  if (!at.exists) return refuse(describeAt(path, zxid, at));
  if (at.ephemeral === true) return refuse(`${path} was an ephemeral node at zxid ${hexId(zxid)}, owned by a session; it is not re-created`);
  const data = at.data;
  if (data === undefined) return refuse(`the logs hold no data of ${path} up to ${hexId(zxid)} (it was set before the oldest log)`);
  return runWithClient('txnlog', io, async (client: ZooKeeperClient, signal) => {
    const now = await client.getData(path, { signal }).catch((e: unknown) => (isCode(e, 'NONODE') ? null : Promise.reject(e)));
    const old = dataLines(data);
    if (now !== null && Buffer.compare(Buffer.from(now.data), Buffer.from(data)) === 0) {
      io.out(`${path} already holds its value at zxid ${hexId(zxid)}; nothing to write\n`);
      return 0;
    }
    const acl = at.acl ?? OPEN_ACL;
    if (now === null) {
      io.out(`--- ${path} now: does not exist\n+++ ${path} at zxid ${hexId(zxid)}: re-created with ACL ${acl.map(aclEntryText).join(', ')}${at.acl === undefined ? ' (its ACL is not in these logs)' : ''}\n`);
      io.out(`${old.map((l) => `+${l}`).join('\n')}\n`);
    } else {
      io.out(`--- ${path} now (version ${now.stat.version})\n+++ ${path} at zxid ${hexId(zxid)}\n`);
      io.out(`${[...dataLines(now.data).map((l) => `-${l}`), ...old.map((l) => `+${l}`)].join('\n')}\n`);
    }
    if (!yes) {
      io.err(`Write ${path}? [y/N] `);
      const reply = await answer(io);
      if (reply === undefined || !/^y(es)?$/i.test(reply.trim())) {
        io.err(`zkwire txnlog: not written${reply === undefined ? ' (no answer on standard input; --yes writes without asking)' : ''}\n`);
        return 1;
      }
    }
    if (now === null) await client.create(path, data, { acl, signal });
    else await client.setData(path, data, { version: now.stat.version, signal });
    io.out(`${now === null ? 're-created' : 'restored'} ${path} to its value at zxid ${hexId(zxid)}\n`);
    return 0;
  });
}
