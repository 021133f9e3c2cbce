/** Shared bits of the security tests: waiting for session states, and searching anything printable for a secret. */

import { inspect } from 'node:util';
import { toJsonValue } from '../../src/protocol/index.js';
import type { ZooKeeperClient } from '../../src/node.js';
import type { SessionState, StateChange } from '../../src/session/state.js';

export { codeOf, connectShared, errorOf, uniquePath } from '../client/helpers.js';

/** Resolves with the first state change (from now on) that `accept` matches. */
export function nextChange(client: ZooKeeperClient, accept: (change: StateChange) => boolean): Promise<StateChange> {
  return new Promise((resolve) => {
    const unsubscribe = client.onStateChange((change) => {
      if (!accept(change)) return;
      unsubscribe();
      resolve(change);
    });
  });
}

export const reaches =
  (state: SessionState) =>
  (change: StateChange): boolean =>
    change.to === state;

/** The host and port of a "host:port[,…]" connect string's first member. */
export function firstEndpoint(connectString: string): { host: string; port: number } {
  const first = connectString.split(',')[0] ?? '';
  const i = first.lastIndexOf(':');
  return { host: first.slice(0, i), port: Number(first.slice(i + 1).split('/')[0]) };
}

/**
 * Every way a value is likely to end up in a log: String(), JSON (bigint and bytes made printable, as the
 * describer does), util.inspect with hidden properties, and the same for each `cause` down the chain.
 */
export function renderings(value: unknown): string[] {
  const out: string[] = [];
  let current: unknown = value;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    out.push(String(current));
    out.push(JSON.stringify(toJsonValue(current)));
    out.push(JSON.stringify(current, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '');
    out.push(inspect(current, { depth: 8, showHidden: true }));
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** The forms a secret takes in text: as is, as hex of its UTF-8 bytes, and as base64. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('hex'), bytes.toString('base64')];
}

/** The renderings of `value` that contain any form of `secret` (empty when none does). */
export function leaksOf(value: unknown, secret: string): string[] {
  const forms = secretForms(secret);
  return renderings(value).filter((text) => forms.some((form) => text.toLowerCase().includes(form.toLowerCase())));
}

/** True when `haystack` holds the UTF-8 bytes of `secret` anywhere. */
export function bytesContain(haystack: Uint8Array, secret: string): boolean {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).includes(Buffer.from(secret, 'utf8'));
}
