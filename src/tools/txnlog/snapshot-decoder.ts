/**
 * A streaming decoder of ZooKeeper snapshot files (`version-2/snapshot.<zxid>`, after decompression), fed chunks of
 * any size. Layout (FileSnap.serialize, SerializeUtils.serializeSnapshot, DataTree.serialize):
 *
 *   FileHeader (magic "ZKSN", version 2, dbid)
 *   int count · count × (long sessionId, int timeout)                      the live sessions
 *   int count · count × (long ref, vector<ACL>)                            the ACL cache (nodes refer to ACLs by ref)
 *   (ustring path, buffer data, long aclRef, StatPersisted)…  ustring "/"  the nodes; the root's path is ""
 *   seal: long Adler-32 of every byte so far · ustring "/"
 *   3.6+: ZxidDigest (long zxid, int version, long digest) · seal      (zookeeper.digest.enabled)
 *   3.9+: long lastProcessedZxid · seal                              (zookeeper.serializeLastProcessedZxid.enabled)
 *
 * Each record is parsed from the buffered bytes; when they run out mid-record the decoder waits for the next chunk
 * (JuteReader's `short`), so memory holds one record plus one chunk. A record that cannot parse, a seal whose
 * checksum is wrong, or a file that ends before the first seal is a DataFileError (CORRUPT_SNAPSHOT) — after the
 * records before it have been handed out.
 */

import { JuteDecodeError, JuteReader } from '../../protocol/jute.js';
import { decodeACLVector, type ACL } from '../../protocol/records/acl.js';
import { ChunkBuffer } from '../shared/chunk-buffer.js';
import { Adler32 } from './adler32.js';
import { DataFileError } from './errors.js';
import { decodeFileHeader, describeMagic, FILE_HEADER_SIZE, SNAP_MAGIC, type FileHeader } from './file-header.js';

/** A node's persisted metadata (zookeeper.jute StatPersisted): a Stat without dataLength and numChildren. */
export interface StatPersisted {
  readonly czxid: bigint;
  readonly mzxid: bigint;
  readonly ctime: bigint;
  readonly mtime: bigint;
  readonly version: number;
  readonly cversion: number;
  readonly aversion: number;
  /** The owning session of an ephemeral node; 0 for others (TTL and container nodes mark it with high bits). */
  readonly ephemeralOwner: bigint;
  readonly pzxid: bigint;
}

export type SnapshotEvent =
  | { readonly type: 'header'; readonly header: FileHeader }
  | { readonly type: 'session'; readonly id: bigint; readonly timeout: number }
  | { readonly type: 'acl'; readonly ref: bigint; readonly acl: readonly ACL[] }
  | {
      readonly type: 'node';
      /** "/" for the root (stored as ""). */
      readonly path: string;
      readonly data: Uint8Array | null;
      readonly aclRef: bigint;
      readonly stat: StatPersisted;
      readonly offset: number;
    }
  /** The tree digest recorded with the snapshot (3.6+); zxid 0 when the server had none yet. */
  | { readonly type: 'digest'; readonly zxid: bigint; readonly version: number; readonly digest: bigint }
  | { readonly type: 'lastZxid'; readonly zxid: bigint }
  | { readonly type: 'end'; readonly sessions: number; readonly acls: number; readonly nodes: number; readonly seals: number };

type State = 'header' | 'sessionCount' | 'sessions' | 'aclCount' | 'acls' | 'nodes' | 'seal' | 'trailer';

function decodeStatPersisted(r: JuteReader): StatPersisted {
  return {
    czxid: r.readLong('StatPersisted.czxid'),
    mzxid: r.readLong('StatPersisted.mzxid'),
    ctime: r.readLong('StatPersisted.ctime'),
    mtime: r.readLong('StatPersisted.mtime'),
    version: r.readInt('StatPersisted.version'),
    cversion: r.readInt('StatPersisted.cversion'),
    aversion: r.readInt('StatPersisted.aversion'),
    ephemeralOwner: r.readLong('StatPersisted.ephemeralOwner'),
    pzxid: r.readLong('StatPersisted.pzxid'),
  };
}

/** A seal is a long checksum and the string "/" (4-byte length + 1 byte). */
const SEAL_SIZE = 13;
/** lastProcessedZxid and its seal. */
const LAST_ZXID_TRAILER = 8 + SEAL_SIZE;

export class SnapshotDecoder {
  readonly #buf = new ChunkBuffer();
  readonly #sum = new Adler32();
  #state: State = 'header';
  #seen = 0;
  #left = 0;
  #counts = { sessions: 0, acls: 0, nodes: 0, seals: 0 };

  /** Bytes held (for tests that check memory stays flat). */
  get buffered(): number {
    return this.#buf.available;
  }

  push(chunk: Uint8Array): SnapshotEvent[] {
    this.#seen += chunk.length;
    this.#buf.append(chunk);
    const out: SnapshotEvent[] = [];
    while (this.#state !== 'trailer' && this.#step(out));
    return out;
  }

  end(): SnapshotEvent[] {
    const b = this.#buf;
    if (this.#seen === 0) throw new DataFileError('EMPTY_FILE', 'the file is empty', 0);
    if (this.#state === 'header') {
      throw new DataFileError('NOT_A_SNAPSHOT', `${this.#seen} byte(s) are too few for a snapshot header (16): ${describeMagic(b.buf.subarray(b.pos))}`, 0);
    }
    if (this.#state !== 'trailer') {
      throw new DataFileError('CORRUPT_SNAPSHOT', `the snapshot ends inside its ${this.#where()} (truncated?)`, b.offset);
    }
    const out: SnapshotEvent[] = [];
    this.#trailer(out);
    out.push({ type: 'end', ...this.#counts });
    return out;
  }

  #where(): string {
    switch (this.#state) {
      case 'sessionCount':
      case 'sessions':
        return 'session list';
      case 'aclCount':
      case 'acls':
        return 'ACL cache';
      case 'nodes':
        return `node list (after ${this.#counts.nodes} node(s))`;
      default:
        return 'checksum seal';
    }
  }

  /** Parses one record; false when the buffered bytes end inside it. */
  #step(out: SnapshotEvent[]): boolean {
    const b = this.#buf;
    if (this.#state === 'header') {
      if (b.available >= 4 && b.view.getUint32(b.pos) !== SNAP_MAGIC) {
        throw new DataFileError('NOT_A_SNAPSHOT', `not a ZooKeeper snapshot (magic ZKSN): ${describeMagic(b.buf.subarray(b.pos, b.pos + 8))}`, 0);
      }
      if (b.available < FILE_HEADER_SIZE) return false;
    }
    const start = b.pos;
    const r = new JuteReader(b.buf, start, b.buf.length);
    try {
      this.#parse(r, out);
    } catch (e) {
      if (!(e instanceof JuteDecodeError)) throw e;
      if (e.reason === 'short') return false;
      throw new DataFileError('CORRUPT_SNAPSHOT', `bad ${this.#where()}: ${e.message}`, b.base + e.offset);
    }
    this.#sum.update(b.buf, start, r.offset);
    b.pos = r.offset;
    return true;
  }

  /** One record of the current state; the state moves on only once the record is whole. */
  #parse(r: JuteReader, out: SnapshotEvent[]): void {
    switch (this.#state) {
      case 'header':
        // The magic was checked in #step; the 16 bytes are whole (checked there too).
        out.push({ type: 'header', header: decodeFileHeader(r.bytes, r.offset) });
        r.readInt('FileHeader.magic');
        r.readInt('FileHeader.version');
        r.readLong('FileHeader.dbid');
        this.#state = 'sessionCount';
        return;
      case 'sessionCount':
        this.#left = count(r, 'session count');
        this.#state = this.#left > 0 ? 'sessions' : 'aclCount';
        return;
      case 'sessions': {
        const id = r.readLong('session id');
        const timeout = r.readInt('session timeout');
        out.push({ type: 'session', id, timeout });
        this.#counts.sessions++;
        if (--this.#left === 0) this.#state = 'aclCount';
        return;
      }
      case 'aclCount':
        this.#left = count(r, 'ACL cache size');
        this.#state = this.#left > 0 ? 'acls' : 'nodes';
        return;
      case 'acls': {
        const ref = r.readLong('ACL cache key');
        const acl = decodeACLVector(r) ?? [];
        out.push({ type: 'acl', ref, acl });
        this.#counts.acls++;
        if (--this.#left === 0) this.#state = 'nodes';
        return;
      }
      case 'nodes': {
        const offset = this.#buf.base + r.offset;
        const path = r.readString('node path');
        if (path === '/') {
          this.#state = 'seal';
          return;
        }
        if (path === null) throw new JuteDecodeError('corrupt', 'null node path', r.offset);
        const data = r.readBuffer('node data');
        const aclRef = r.readLong('node ACL ref');
        const stat = decodeStatPersisted(r);
        out.push({ type: 'node', path: path === '' ? '/' : path, data, aclRef, stat, offset });
        this.#counts.nodes++;
        return;
      }
      case 'seal':
        this.#seal(r);
        this.#state = 'trailer';
        return;
      case 'trailer':
        return;
    }
  }

  /**
   * A seal: the checksum of everything before it, then "/". Its own bytes count towards the next seal's checksum
   * (one CheckedInputStream runs over the whole file); the caller adds them, as it adds every record's.
   */
  #seal(r: JuteReader): void {
    const at = r.offset;
    const stored = r.readLong('seal checksum');
    const slash = r.readString('seal path');
    if (slash !== '/') throw new JuteDecodeError('corrupt', `seal ends with ${JSON.stringify(slash)}, not "/"`, at);
    const computed = BigInt(this.#sum.value);
    if (stored !== computed) {
      throw new DataFileError(
        'CORRUPT_SNAPSHOT',
        `checksum mismatch: the seal says 0x${BigInt.asUintN(64, stored).toString(16)}, the bytes before it sum to 0x${computed.toString(16)}`,
        this.#buf.base + at,
      );
    }
    this.#counts.seals++;
  }

  /** What follows the first seal, told apart by its size (each part is optional, both have fixed sizes). */
  #trailer(out: SnapshotEvent[]): void {
    const b = this.#buf;
    const r = new JuteReader(b.buf, b.pos, b.buf.length);
    let from = r.offset;
    const seal = (): void => {
      this.#sum.update(b.buf, from, r.offset);
      from = r.offset;
      this.#seal(r);
      this.#sum.update(b.buf, from, r.offset);
      from = r.offset;
    };
    try {
      if (r.remaining > 0 && r.remaining !== LAST_ZXID_TRAILER) {
        const zxid = r.readLong('digest zxid');
        const version = r.readInt('digest version');
        // Digest version 1 (3.6.0) wrote the digest as a hex string.
        const digest = version < 2 ? BigInt(`0x${r.readString('digest') ?? '0'}`) : r.readLong('digest');
        out.push({ type: 'digest', zxid, version, digest });
        seal();
      }
      if (r.remaining >= LAST_ZXID_TRAILER) {
        out.push({ type: 'lastZxid', zxid: r.readLong('lastProcessedZxid') });
        seal();
      }
    } catch (e) {
      if (!(e instanceof JuteDecodeError) && !(e instanceof SyntaxError)) throw e;
      throw new DataFileError('CORRUPT_SNAPSHOT', `bad digest trailer: ${e.message}`, b.base + r.offset);
    }
    if (r.remaining > 0) throw new DataFileError('CORRUPT_SNAPSHOT', `${r.remaining} unexpected byte(s) after the last seal`, b.base + r.offset);
  }
}

function count(r: JuteReader, what: string): number {
  const at = r.offset;
  const n = r.readInt(what);
  if (n < 0) throw new JuteDecodeError('corrupt', `${what} ${n} is negative`, at);
  return n;
}

/** The events of one (decompressed) snapshot, a batch per chunk. */
export async function* decodeSnapshot(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SnapshotEvent[]> {
  const decoder = new SnapshotDecoder();
  for await (const chunk of chunks) {
    const events = decoder.push(chunk);
    if (events.length > 0) yield events;
  }
  yield decoder.end();
}
