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
    const value = current;
    const attempts = [
      () => String(value),
      () => JSON.stringify(toJsonValue(value)),
      () => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '',
      () => inspect(value, { depth: 8, showHidden: true }),
    ];
    for (const attempt of attempts) {
      try {
        out.push(attempt());
      } catch {
        // Cyclic objects (a client) cannot become JSON; then nobody can log them that way either.
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/**
 * The forms a secret takes in text: as is, as hex and base64 of its UTF-8 bytes, and as the decimal byte list
 * util.inspect prints for a Uint8Array (compared with whitespace removed, since inspect wraps long lists).
 */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('hex'), bytes.toString('base64'), [...bytes].join(',')];
}

/** Where a rendering of `value` contains any form of `secret`: a short excerpt around each hit (empty when none). */
export function leaksOf(value: unknown, secret: string): string[] {
  const forms = secretForms(secret).map((f) => f.toLowerCase());
  const hits: string[] = [];
  for (const text of renderings(value)) {
    const flat = text.replace(/\s+/g, '').toLowerCase();
    for (const form of forms) {
      const at = flat.indexOf(form);
      if (at >= 0) hits.push(`…${flat.slice(Math.max(0, at - 80), at + form.length + 20)}…`);
    }
  }
  return hits;
}

/** True when `haystack` holds the UTF-8 bytes of `secret` anywhere. */
export function bytesContain(haystack: Uint8Array, secret: string): boolean {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).includes(Buffer.from(secret, 'utf8'));
}
