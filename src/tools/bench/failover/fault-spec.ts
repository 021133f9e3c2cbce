/**
 * The faults a bench run can cause on its own ensemble, as given on the command line: `--kill-leader AT`,
 * `--pause-leader AT[:FOR]`, `--partition-leader AT[:FOR]`. AT is a time into the contention (`5s`, `1500ms`, a
 * bare number is seconds); FOR how long a pause or partition lasts (default: to the end of the contention).
 */

/** What is done to the leader: SIGKILL, SIGSTOP (SIGCONT after FOR), or its client links held (released after FOR). */
export type FaultKind = 'kill-leader' | 'pause-leader' | 'partition-leader';
export const FAULT_KINDS: readonly FaultKind[] = ['kill-leader', 'pause-leader', 'partition-leader'];

/** One fault to inject. */
export interface FaultSpec {
  kind: FaultKind;
  /** When, ms after contention starts. */
  atMs: number;
  /** How long a pause or partition lasts, ms; undefined: to the end of the contention (always for a kill). */
  forMs?: number | undefined;
}

/** A duration: `5s`, `1.5s`, `800ms`, or a bare number of seconds. Throws RangeError on anything else. */
export function parseDurationMs(text: string, what: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (m === null) throw new RangeError(`${what} needs a time such as 5s, 1.5s or 800ms, got ${text === '' ? 'nothing' : text}`);
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : n * 1000;
}

/** Parses the value of `--<kind> AT[:FOR]`; a kill takes no FOR. */
export function parseFaultSpec(kind: FaultKind, value: string): FaultSpec {
  const [at, length, ...rest] = value.split(':');
  const option = `--${kind}`;
  if (rest.length > 0 || at === undefined) throw new RangeError(`${option} takes AT or AT:FOR, got ${value}`);
  const spec: FaultSpec = { kind, atMs: parseDurationMs(at, option) };
  if (length === undefined) return spec;
  if (kind === 'kill-leader') throw new RangeError(`${option} takes only AT (a killed member stays down), got ${value}`);
  const forMs = parseDurationMs(length, `${option} FOR`);
  if (forMs <= 0) throw new RangeError(`${option} FOR must be more than 0, got ${length}`);
  return { ...spec, forMs };
}
