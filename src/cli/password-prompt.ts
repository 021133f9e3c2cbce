/**
 * Asking for a password at the terminal without echoing it: the one way besides a file or the environment that a
 * SASL password reaches the CLI (never argv, which every user of the machine can read in the process list).
 */

import * as readline from 'node:readline';
import { Writable } from 'node:stream';

/** True when a prompt can be answered: standard input is a terminal. */
export function canPrompt(): boolean {
  return process.stdin.isTTY === true;
}

/** Writes `question` to stderr and reads one line from the terminal with echo off. */
export function promptHidden(question: string): Promise<string> {
  // readline echoes what it reads to `output`: give it one that shows nothing.
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  // The terminal goes raw (its own echo off) here, before the question shows: a user (or a test typing into tmux)
  // answering the moment the question appears must not have the password echoed by the terminal driver meanwhile.
  const rl = readline.createInterface({ input: process.stdin, output: muted, terminal: true });
  process.stderr.write(question);
  return new Promise<string>((resolve, reject) => {
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      process.stderr.write('\n');
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) reject(new Error('no password given (standard input closed)'));
    });
    rl.once('SIGINT', () => rl.close());
  });
}
