/**
 * A program in a real terminal: a tmux server of its own (its own socket, so nothing else's sessions are touched)
 * running one command in a fixed-size window, keys sent with send-keys and the screen read with capture-pane.
 * `waitFor` polls the screen until it shows what is expected, within a bound: no fixed sleeps.
 */

import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const POLL_MS = 25;

export class TmuxTerminal {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Starts `command` (one sh command line) in a 200×50 terminal; the pane stays after it exits, showing its status. */
  static start(command: string): TmuxTerminal {
    const t = new TmuxTerminal(join(tmpdir(), `zkw-tmux-${randomUUID().slice(0, 8)}`));
    const shown = `${command}; echo "[exited $?]"`;
    t.#tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '200', '-y', '50', shown, ';', 'set-option', '-g', 'remain-on-exit', 'on');
    return t;
  }

  #tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.#socket, ...args], { encoding: 'utf8' });
  }

  /** The screen's text, wrapped lines joined. */
  screen(): string {
    return this.#tmux('capture-pane', '-p', '-J', '-t', 'main');
  }

  /** Types `text` literally. */
  type(text: string): void {
    this.#tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Sends keys by tmux's names: Enter, Tab, Up, C-c, C-d. */
  keys(...keys: string[]): void {
    this.#tmux('send-keys', '-t', 'main', ...keys);
  }

  /**
   * The program's exit status once it has exited, else undefined. The terminal prints it (`start` runs the
   * command followed by an echo of `$?`): tmux's own #{pane_dead_status} is sometimes empty for a dead pane.
   */
  exitStatus(): number | undefined {
    const m = /^\[exited (\d+)\]$/m.exec(this.screen());
    return m === null ? undefined : Number(m[1]);
  }

  /** Resolves with the screen once `check` holds for it; fails after `limitMs` showing the screen. */
  async waitFor(what: string, check: RegExp | ((screen: string) => boolean), limitMs = 10_000): Promise<string> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const screen = this.screen();
      if (typeof check === 'function' ? check(screen) : check.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`no ${what} on screen within ${limitMs} ms; the screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Resolves with the exit status once the program has exited; fails after `limitMs`. */
  async exited(limitMs = 10_000): Promise<number> {
    await this.waitFor('exit', () => this.exitStatus() !== undefined, limitMs);
    return this.exitStatus()!;
  }

  /** Ends the terminal and the program in it, and removes the socket (tmux leaves it behind). */
  close(): void {
    try {
      this.#tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(this.#socket, { force: true });
  }
}
