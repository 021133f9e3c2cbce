/**
 * The unavailability window around a fault, from completion times alone. Pure, so it is tested without a server.
 *
 * For one session it is the gap from its last acquisition completed at or before the fault to its first completed
 * after it. Over all sessions that literal gap can mislead: replies already on their way when a leader is killed
 * still arrive a few milliseconds after the fault, and only then does everything stop. So the overall window is
 * the longest gap between consecutive completions from the last one before the fault until the lock has recovered:
 * until every session that completed anything has completed an acquisition after the fault.
 */

export interface Window {
  /** The last completion at or before the fault, ms; null when there was none. */
  lastBeforeMs: number | null;
  /** The first completion after the fault, ms; null when none came before the run ended. */
  firstAfterMs: number | null;
  /** The longest stall: no acquisition completed from `stallFromMs` to `stallToMs`. Null when it had not ended. */
  stallFromMs: number | null;
  stallToMs: number | null;
  /** stallTo − stallFrom: how long the lock was unavailable; null when it had not recovered by the end of the run. */
  windowMs: number | null;
  /** When every session had acquired again, ms after the fault; null when some never did. */
  recoveredAfterMs: number | null;
  /** When the run ended before recovery: the longest stall so far, counting the one at the end (a lower bound). */
  atLeastMs: number | null;
}

const round = (v: number): number => Math.round(v * 10) / 10;

function lastAtOrBefore(times: readonly number[], t: number): number | null {
  let found: number | null = null;
  for (const x of times) {
    if (x > t) break;
    found = x;
  }
  return found;
}

function firstAfter(times: readonly number[], t: number): number | null {
  for (const x of times) if (x > t) return x;
  return null;
}

/**
 * The window of each session (`bySession[i]`: its completion times, ascending, ms) and of all of them together,
 * around `faultMs`, in a run that ended at `endMs`.
 */
export function windowsAround(bySession: readonly (readonly number[])[], faultMs: number, endMs: number): { overall: Window; perSession: Window[] } {
  const perSession = bySession.map((times) => gapWindow([...times], faultMs, endMs, firstAfter(times, faultMs)));
  const all = bySession.flat().sort((a, b) => a - b);
  const active = bySession.filter((times) => times.length > 0);
  const backs = active.map((times) => firstAfter(times, faultMs));
  const recovered = backs.length > 0 && backs.every((t) => t !== null) ? Math.max(...(backs as number[])) : null;
  return { overall: gapWindow(all, faultMs, endMs, recovered), perSession };
}

/** The longest gap in `times` from the last completion before the fault up to `recoveredAt` (or the run's end). */
function gapWindow(times: readonly number[], faultMs: number, endMs: number, recoveredAt: number | null): Window {
  const before = lastAtOrBefore(times, faultMs);
  const after = firstAfter(times, faultMs);
  const from = before ?? faultMs;
  let stall: [number, number] | null = null;
  let prev = from;
  const horizon = recoveredAt ?? endMs;
  for (const t of times) {
    if (t <= from) continue;
    if (t > horizon) break;
    if (stall === null || t - prev > stall[1] - stall[0]) stall = [prev, t];
    prev = t;
  }
  const base = { lastBeforeMs: before === null ? null : round(before), firstAfterMs: after === null ? null : round(after) };
  if (recoveredAt === null) {
    const longest = Math.max(stall === null ? 0 : stall[1] - stall[0], endMs - prev);
    return { ...base, stallFromMs: null, stallToMs: null, windowMs: null, recoveredAfterMs: null, atLeastMs: round(Math.max(0, longest)) };
  }
  const [a, b] = stall ?? [from, recoveredAt];
  return { ...base, stallFromMs: round(a), stallToMs: round(b), windowMs: round(b - a), recoveredAfterMs: round(recoveredAt - faultMs), atLeastMs: null };
}
