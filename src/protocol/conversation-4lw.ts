/** How a four-letter-word connection's raw text chunks are described (split out of conversation.ts). */

import type { DescribedFrame, Direction } from './conversation.js';
import { utf8Decode } from './utf8.js';

const SUMMARY_CHARS = 60;

export function describeFourLetterFrame(dir: Direction, bytes: Uint8Array): DescribedFrame {
  const text = utf8Decode(bytes);
  const firstLine = text.split('\n', 1)[0] ?? '';
  const short = firstLine.length > SUMMARY_CHARS ? `${firstLine.slice(0, SUMMARY_CHARS)}…` : firstLine;
  const lines = text.split('\n').filter((l) => l !== '').length;
  return dir === 'c2s'
    ? { kind: '4lw-command', decoded: { text }, summary: `4lw command ${JSON.stringify(text)}` }
    : { kind: '4lw-response', decoded: { text }, summary: `4lw answer ${JSON.stringify(short)}${lines > 1 ? ` (+${lines - 1} line(s))` : ''}` };
}
