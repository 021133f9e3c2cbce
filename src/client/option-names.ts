/**
 * The run-time check of option objects' keys. Plain JavaScript callers get no compile error for a misspelt or
 * misplaced option, and an ignored one fails far from its cause (an ignored `tls` meant a plaintext client waiting
 * out its deadline at a TLS port), so an unknown key is a BAD_ARGUMENT naming the nearest known one.
 */

import { clientError } from '../errors.js';

/**
 * Throws BAD_ARGUMENT if `options` has an own key outside `known`; `what` names the object in the message
 * (`options`, `options.tls`).
 */
export function checkKnownKeys(
  options: object,
  known: readonly string[],
  what: string,
  op: string,
  /** Names other libraries use for one of ours (`ssl` for `tls`): meant, though not near in spelling. */
  aliases: Readonly<Record<string, string>> = {},
): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const nearest = Object.hasOwn(aliases, key) ? aliases[key] : nearestName(key, known);
    const hint = nearest === undefined ? `known: ${known.join(', ')}` : `did you mean ${nearest}?`;
    throw clientError('BAD_ARGUMENT', `${what} has no option "${key}": ${hint}`, { op });
  }
}

/** The name in `names` closest to `word` (case-insensitive edit distance), if one is close enough to be meant. */
export function nearestName(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = editDistance(word.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  // More than half the word changed: a guess, not a correction.
  return bestDistance <= Math.max(2, Math.floor(word.length / 2)) ? best : undefined;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}
