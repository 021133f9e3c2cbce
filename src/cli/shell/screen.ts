/**
 * The shell's terminal output. While the prompt is showing, text that arrives (a watch's event, a state change)
 * goes above it: the prompt line is cleared, the text written, and the prompt redrawn with what the user had
 * typed and the cursor where it was. While a command runs there is no prompt, and text is written as it comes.
 */

import { clearLine, cursorTo, type Interface } from 'node:readline';

export class Screen {
  readonly #stderr: NodeJS.WritableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #rl: Interface;
  /** True while the prompt is on screen (no command running). */
  #promptShown = false;
  /** Whether the last text written ended a line. */
  #atLineStart = true;

  constructor(
    rl: Interface,
    stdout: NodeJS.WritableStream,
    stderr: NodeJS.WritableStream,
  ) {
    this.#stderr = stderr;
    this.#stdout = stdout;
    this.#rl = rl;}

  out(text: string | Uint8Array): void {
    this.#write(this.#stdout, text);
  }

  err(text: string): void {
    this.#write(this.#stderr, text);
  }

  /** Shows `prompt` (on a line of its own), keeping nothing typed before. */
  prompt(prompt: string): void {
    if (!this.#atLineStart) this.#stdout.write('\n');
    this.#atLineStart = true;
    this.#rl.setPrompt(prompt);
    this.#rl.prompt();
    this.#promptShown = true;
  }

  /** Redraws the prompt as `prompt` if it is showing (the typed text and cursor stay); else only remembers it. */
  updatePrompt(prompt: string): void {
    this.#rl.setPrompt(prompt);
    if (!this.#promptShown) return;
    clearLine(this.#stdout, 0);
    cursorTo(this.#stdout, 0);
    this.#rl.prompt(true);
  }

  /** Leaving: a prompt on screen is ended with a newline, so what comes after starts on a line of its own. */
  end(): void {
    if (this.#promptShown) this.#stdout.write('\n');
    this.busy();
  }

  /** The prompt is gone: a command runs now (the user's Enter ended the prompt's line). */
  busy(): void {
    this.#promptShown = false;
    this.#atLineStart = true;
  }

  #write(stream: NodeJS.WritableStream, text: string | Uint8Array): void {
    if (text.length === 0) return;
    if (this.#promptShown) {
      clearLine(this.#stdout, 0);
      cursorTo(this.#stdout, 0);
    }
    stream.write(text);
    const last = typeof text === 'string' ? text.charCodeAt(text.length - 1) : text[text.length - 1];
    this.#atLineStart = last === 10;
    if (this.#promptShown) {
      if (!this.#atLineStart) this.#stdout.write('\n');
      this.#atLineStart = true;
      this.#rl.prompt(true);
    }
  }
}
