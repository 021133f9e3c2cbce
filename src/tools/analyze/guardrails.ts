/**
 * Guardrails: the things in a conversation that are not errors yet but go wrong in production — payloads close to
 * the server's jute.maxbuffer (beyond it the server drops the connection), huge children lists, replies out of
 * xid order (the server answers a connection in request order; anything else is a broken server or proxy),
 * requests sent after closeSession, requests never answered, slow replies, and holes in the capture itself.
 */

import { BoundedList } from './bounded-list.js';
import type { GuardrailFinding, GuardrailKind, GuardrailsReport } from './report.js';

/** A payload at or above this share of jute.maxbuffer is reported. */
export const NEAR_MAX_BUFFER = 0.8;
/** A children list at least this long is reported. */
export const HUGE_CHILDREN = 10_000;

const MAX_FINDINGS = 2000;

export class Guardrails {
  readonly #counts = new Map<GuardrailKind, number>();
  readonly #findings = new BoundedList<GuardrailFinding>(MAX_FINDINGS);

  add(f: GuardrailFinding): void {
    this.#counts.set(f.kind, (this.#counts.get(f.kind) ?? 0) + 1);
    this.#findings.push(f);
  }

  /** A copy to add end-of-capture findings to without touching the running totals. */
  clone(): Guardrails {
    const g = new Guardrails();
    for (const [k, n] of this.#counts) g.#counts.set(k, n);
    for (const f of this.#findings.items) g.#findings.push(f);
    g.#findings.omitted = this.#findings.omitted;
    return g;
  }

  report(): GuardrailsReport {
    return {
      counts: Object.fromEntries([...this.#counts].sort(([a], [b]) => a.localeCompare(b))),
      findings: [...this.#findings.items].sort((a, b) => a.atMs - b.atMs),
      omitted: this.#findings.omitted,
    };
  }
}
