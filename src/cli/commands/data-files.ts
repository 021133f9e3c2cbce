/**
 * Finding and reading ZooKeeper's data files for `zkwire txnlog` and `zkwire snapshot`: a file as given, or a data
 * directory (dataDir or dataLogDir, or its `version-2/`) whose `log.<zxid>` / `snapshot.<zxid>` files are taken in
 * zxid order (the hex suffix), as ZooKeeper itself orders them. The decoders are pure; the file reading is here.
 */

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export type DataFileKind = 'log' | 'snapshot';

/** `log.1a` → 0x1a; `snapshot.1a.gz` → 0x1a; undefined for other names. */
export function zxidOfName(name: string, kind: DataFileKind): bigint | undefined {
  const m = new RegExp(`^${kind}\\.([0-9a-fA-F]+)(?:\\.(?:gz|snappy))?$`).exec(name);
  return m === null ? undefined : BigInt(`0x${m[1]!}`);
}

/** The files an argument names, or the problem with it. */
export async function dataFiles(arg: string, kind: DataFileKind): Promise<string[] | string> {
  let s;
  try {
    s = await stat(arg);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${arg}: no such file or directory` : `cannot read ${arg}: ${(e as Error).message}`;
  }
  if (!s.isDirectory()) return [arg];
  let dir = arg;
  const sub = path.join(arg, 'version-2');
  try {
    if ((await stat(sub)).isDirectory()) dir = sub;
  } catch {
    // no version-2/: the directory itself holds the files
  }
  const found: { file: string; zxid: bigint }[] = [];
  for (const name of await readdir(dir)) {
    const zxid = zxidOfName(name, kind);
    if (zxid !== undefined) found.push({ file: path.join(dir, name), zxid });
  }
  if (found.length === 0) return `${arg}: no ${kind}.<zxid> files${dir === arg ? '' : ` in ${dir}`}`;
  found.sort((a, b) => (a.zxid < b.zxid ? -1 : a.zxid > b.zxid ? 1 : 0));
  return found.map((f) => f.file);
}

/** The file's bytes in 1 MiB chunks: the decoders keep only what a chunk leaves unfinished. */
export function fileChunks(file: string): AsyncIterable<Uint8Array> {
  return createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Uint8Array>;
}
