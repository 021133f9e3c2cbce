/**
 * `zkwire 4lw <cmd> --json`: the answers that are tabular, as JSON. srvr/stat/mntr/cons/wchs use the codec's
 * parsers (src/protocol/four-letter.ts); conf and envi are key=value lines; ruok and isro are one word. Answers with
 * no table in them (dump, wchc, wchp, dirs, ...) are returned as {text}.
 */

import { parseCons, parseMntr, parseSrvr, parseWchs, type JsonValue } from '../protocol/index.js';

/** Commands whose --json output has a shape of its own (the rest give {text}). */
export const TABULAR_FOUR_LETTER_WORDS = ['ruok', 'isro', 'srvr', 'stat', 'mntr', 'cons', 'wchs', 'conf', 'envi'] as const;

/** The "not enabled" answer of a server whose 4lw.commands.whitelist leaves the command out. */
const NOT_WHITELISTED = /is not executed because it is not in the whitelist/;

/** True when the answer is the server refusing the word (its 4lw.commands.whitelist leaves it out). */
export function isNotWhitelisted(text: string): boolean {
  return NOT_WHITELISTED.test(text);
}

export function fourLetterJson(command: string, text: string): JsonValue {
  if (NOT_WHITELISTED.test(text)) return { error: 'NOT_WHITELISTED', text: text.trim() };
  switch (command) {
    case 'ruok':
      return { ok: text.trim() === 'imok', text };
    case 'isro':
      return { readOnly: text.trim() === 'ro', text };
    case 'srvr':
    case 'stat':
      return toJson(parseSrvr(text));
    case 'mntr':
      return parseMntr(text);
    case 'cons':
      return { connections: toJson(parseCons(text)) };
    case 'wchs':
      return toJson(parseWchs(text) ?? { text });
    case 'conf':
      return parseKeyValues(text);
    case 'envi':
      // envi starts with an "Environment:" header line, then key=value lines
      return parseKeyValues(text);
    default:
      return { text };
  }
}

/** `key=value` lines (first `=` splits; values may contain more). Other lines are ignored. */
export function parseKeyValues(text: string): { [key: string]: string } {
  const out: { [key: string]: string } = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/** The parsers return plain data (strings, numbers, arrays, records); this only narrows the type. */
function toJson(v: unknown): JsonValue {
  return JSON.parse(JSON.stringify(v)) as JsonValue;
}
