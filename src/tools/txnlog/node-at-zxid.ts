/**
 * A node as it was once a given transaction was applied, rebuilt from the transaction log alone: its creation
 * (data, ACL, ephemeral or not), every setData and setACL, its deletion, up to and including that zxid. What the
 * logs do not hold (a node created before the oldest log, whose ACL then is only in a snapshot) is marked unknown
 * rather than guessed. Feed it every transaction in zxid order (the filter on the path is its own).
 */

import type { ACL } from '../../protocol/index.js';
import type { TxnEntry } from './txn-entry.js';
import type { TxnRecord } from './txn-records.js';

/** The node at the zxid: absent, or present with what the logs tell of it. */
export type NodeAtZxid =
  /** `seen` false: no transaction on the node up to the zxid (it may predate the logs: see a snapshot). */
  | { readonly exists: false; readonly seen: boolean; readonly lastZxid: bigint | undefined }
  | {
      readonly exists: true;
      /** undefined when neither its creation nor a setData is in the logs. */
      readonly data: Uint8Array | undefined;
      /** undefined when neither its creation nor a setACL is in the logs. */
      readonly acl: readonly ACL[] | undefined;
      readonly ephemeral: boolean | undefined;
      /** The zxid of the last transaction on the node at or before the zxid asked for. */
      readonly lastZxid: bigint;
    };

interface State {
  exists: boolean;
  data: Uint8Array | undefined;
  acl: readonly ACL[] | undefined;
  ephemeral: boolean | undefined;
}

/** Replays the transactions on one path up to one zxid. */
export class NodeReplay {
  #state: State | undefined;
  #last: bigint | undefined;

  constructor(
    readonly path: string,
    readonly zxid: bigint,
  ) {}

  add(entry: TxnEntry): void {
    if (entry.header.zxid > this.zxid) return;
    if (this.#apply(entry.record)) this.#last = entry.header.zxid;
  }

  /** Applies one record; true when it touched the node. */
  #apply(rec: TxnRecord): boolean {
    // Made on the first record that touches the node: before it, what the node held is unknown, not empty.
    const touch = (): State => (this.#state ??= { exists: true, data: undefined, acl: undefined, ephemeral: undefined });
    switch (rec.kind) {
      case 'create':
      case 'createContainer':
      case 'createTTL':
        if (rec.path !== this.path) return false;
        Object.assign(touch(), { exists: true, data: rec.data ?? new Uint8Array(0), acl: rec.acl ?? undefined, ephemeral: rec.kind === 'create' && rec.ephemeral });
        return true;
      case 'setData':
        if (rec.path !== this.path) return false;
        Object.assign(touch(), { exists: true, data: rec.data ?? new Uint8Array(0) });
        return true;
      case 'setACL':
        if (rec.path !== this.path) return false;
        Object.assign(touch(), { exists: true, acl: rec.acl ?? undefined });
        return true;
      case 'delete':
        if (rec.path !== this.path) return false;
        Object.assign(touch(), { exists: false, data: undefined, acl: undefined, ephemeral: undefined });
        return true;
      case 'closeSession':
        if (!(rec.paths ?? []).includes(this.path)) return false;
        Object.assign(touch(), { exists: false, data: undefined, acl: undefined, ephemeral: undefined });
        return true;
      case 'multi': {
        let touched = false;
        for (const t of rec.txns) touched = this.#apply(t.record) || touched;
        return touched;
      }
      default:
        return false;
    }
  }

  result(): NodeAtZxid {
    const s = this.#state;
    if (s === undefined || this.#last === undefined) return { exists: false, seen: false, lastZxid: undefined };
    if (!s.exists) return { exists: false, seen: true, lastZxid: this.#last };
    return { exists: true, data: s.data, acl: s.acl, ephemeral: s.ephemeral, lastZxid: this.#last };
  }
}
