/**
 * The interactive shell over one open client: reads lines with node:readline, runs each as the CLI command of that
 * name on the shell's session (the same code as `zkwire CMD`, see io.session), one at a time in the order typed.
 * `watch` runs in the background and its events print above the prompt. The prompt shows the server and the
 * session's state, redrawn on every change. Ctrl-C cancels the running command (or the background watches, or
 * clears the line); Ctrl-C at an empty prompt, Ctrl-D, `quit` or SIGTERM/SIGHUP leave: running commands are
 * cancelled and wound down (a held lock released), then the session is closed.
 */

import { createInterface } from 'node:readline';
import { ZooKeeperError, type SessionState, type StateChange, type ZooKeeperClient } from '../../node.js';
import { parseArgs } from '../args.js';
import { describeError } from '../commands/node-client.js';
import { STEP_LIMIT_MS } from '../interrupt.js';
import type { CliIo, Command, GlobalOptions } from '../types.js';
import { completeLine, type CompletableCommand } from './complete.js';
import { loadHistory, saveHistory, HISTORY_SIZE } from './history.js';
import { splitLine } from './line.js';
import { Screen } from './screen.js';

/** Commands that run on the shell's session. */
/** A command that needs the session waits for it: read-only counts as connected (the server answers reads). */
function connected(state: SessionState): boolean {
  return state === 'connected' || state === 'connected-read-only';
}

const SESSION_COMMANDS = new Set(['ls', 'get', 'set', 'create', 'rm', 'stat', 'getacl', 'setacl', 'watch', 'whoami', 'lock', 'config', 'reconfig']);
/** Commands that need no session: the four-letter words (sent to the shell's server) and the file readers. */
const OTHER_COMMANDS = new Set(['srvr', '4lw', 'txnlog', 'snapshot', 'analyze']);

/** The shell's own commands: name and what it does. */
const BUILTINS: readonly (readonly [string, string])[] = [
  ['help', 'this list; help CMD (or CMD --help) for one command'],
  ['watches', 'the watches running in the background'],
  ['unwatch', 'unwatch [N]: stop background watch N, or all of them'],
  ['quit', 'leave the shell (also exit, Ctrl-D, Ctrl-C at an empty prompt)'],
];

/** How long completion waits for the server's list of children. */
const COMPLETION_LIMIT_MS = 2000;

export interface ShellOptions {
  /** The connect string, shown in the prompt until a server is connected, and the four-letter words' target. */
  readonly connectString: string;
  readonly client: ZooKeeperClient;
  /** The shell's own global options (session timeout, auth...): each command gets them, with its own --json. */
  readonly globals: GlobalOptions;
  readonly input: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Where history is kept (undefined: not kept). */
  readonly historyFile: string | undefined;
  /** The CLI's commands, the shell's own included (given, not imported: the list is what names the shell). */
  readonly commands: readonly Command[];
}

interface BackgroundWatch {
  readonly line: string;
  readonly controller: AbortController;
  readonly done: Promise<number>;
}

/** Standard input belongs to the shell's terminal: a command asking for it (`set /n -`) is told so. */
const NO_STDIN: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]() {
    return {
      next: () => Promise.reject(new Error("standard input is the shell's terminal: give the data as an argument, or with --file F")),
    };
  },
};

/** Settles when `work` does or after `ms`, whichever is first; true if `work` settled. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true, () => true), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the shell until the user leaves; resolves with the exit status (0). Closes `client` before resolving. */
export function runShell(opts: ShellOptions): Promise<number> {
  const { client, connectString, commands } = opts;
  const terminal = (opts.input as { isTTY?: boolean }).isTTY === true && (opts.stdout as { isTTY?: boolean }).isTTY === true;
  const completable: CompletableCommand[] = [
    ...commands
      .filter((c) => SESSION_COMMANDS.has(c.name) || OTHER_COMMANDS.has(c.name))
      .map((c) => ({ name: c.name, options: [...(c.spec?.flags ?? []), ...(c.spec?.valued ?? []), '--json', '--help'] })),
    ...BUILTINS.map(([name]) => ({ name, options: [] })),
    { name: 'exit', options: [] },
  ];
  const children = async (path: string): Promise<readonly string[]> => {
    if (!connected(client.state)) return [];
    try {
      return await client.getChildren(path, { signal: AbortSignal.timeout(COMPLETION_LIMIT_MS) });
    } catch {
      return [];
    }
  };
  const rl = createInterface({
    input: opts.input,
    output: opts.stdout,
    terminal,
    history: loadHistory(opts.historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string, callback: (err: Error | null, result: [string[], string]) => void) => {
      completeLine(line, completable, children).then(
        (result) => callback(null, result),
        () => callback(null, [[], line]),
      );
    },
  });
  const screen = new Screen(rl, opts.stdout, opts.stderr);
  let historyProblem: string | undefined;
  rl.on('history', (history: string[]) => {
    const problem = saveHistory(opts.historyFile, history);
    if (problem !== undefined && historyProblem === undefined) screen.err(`zkwire shell: history not saved: ${problem}\n`);
    historyProblem = problem;
  });

  let count = 0;
  const promptText = (): string => `[zk: ${client.connectedServer ?? connectString}(${client.state}) ${count}] `;

  // ---- state changes ------------------------------------------------------------------------------------
  const sayChange = (c: StateChange): void => {
    const why = c.reason === undefined ? '' : ` (${describeError(c.reason)})`;
    if (c.event === 'SUSPENDED') screen.err(`zkwire shell: connection lost${why}; reconnecting, commands fail until then\n`);
    else if (c.event === 'LOST') screen.err(`zkwire shell: session expired${why}; opening a new one (the old session's ephemeral nodes are gone)\n`);
    else if (c.event === 'RECONNECTED') {
      screen.err(c.newSession ? `zkwire shell: new session ${client.sessionIdHex} on ${client.connectedServer ?? connectString}\n` : `zkwire shell: reconnected to ${client.connectedServer ?? connectString}\n`);
    }
  };
  const offState = client.onStateChange((c) => {
    sayChange(c);
    screen.updatePrompt(promptText());
  });

  // ---- running commands ---------------------------------------------------------------------------------
  let foreground: AbortController | undefined;
  const running = new Set<Promise<unknown>>();
  const kept = new Map<Promise<unknown>, string>();
  const watches = new Map<number, BackgroundWatch>();
  let watchIds = 0;

  const keep = (what: string, work: Promise<unknown>): void => {
    const tracked = work.then(
      () => undefined,
      (e: unknown) => screen.err(`zkwire shell: ${what} failed: ${describeError(e)}\n`),
    );
    kept.set(tracked, what);
    void tracked.finally(() => kept.delete(tracked));
  };

  const commandIo = (globals: GlobalOptions, signal: AbortSignal): CliIo => ({
    out: (t) => screen.out(t),
    write: (b) => screen.out(b),
    err: (t) => screen.err(t),
    stdin: NO_STDIN,
    globals,
    session: { client, signal, keep },
  });

  const help = (): void => {
    const shown = commands.filter((c) => SESSION_COMMANDS.has(c.name) || OTHER_COMMANDS.has(c.name));
    const width = Math.max(...[...shown.map((c) => c.name), ...BUILTINS.map(([n]) => n)].map((n) => n.length));
    const lines = [...shown.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`), ...BUILTINS.map(([n, s]) => `  ${n.padEnd(width)}  ${s}`)];
    screen.out(`Commands (each as \`zkwire CMD\`, on this shell's session; add --json for JSON):\n${lines.join('\n')}\n`);
  };

  const stopWatches = (ids: Iterable<number>): number => {
    let n = 0;
    for (const id of ids) {
      const w = watches.get(id);
      if (w === undefined) continue;
      w.controller.abort(new ZooKeeperError('ABORTED', 'watch stopped'));
      watches.delete(id);
      n++;
    }
    return n;
  };

  const startWatch = (cmd: Command, rest: string[], globals: GlobalOptions, line: string): void => {
    const id = ++watchIds;
    const controller = new AbortController();
    const done = cmd.run(rest, commandIo(globals, controller.signal));
    watches.set(id, { line, controller, done });
    running.add(done);
    void done.then((code) => {
      running.delete(done);
      if (watches.delete(id) && code !== 2) screen.err(`zkwire shell: [${id}] ${line}: ended\n`);
    });
    screen.err(`[${id}] ${line} (in the background: "unwatch ${id}" or Ctrl-C stops it)\n`);
  };

  const runLine = async (line: string): Promise<void> => {
    const words = splitLine(line);
    if (!Array.isArray(words)) {
      screen.err(`zkwire shell: ${words.error}\n`);
      return;
    }
    if (words.length === 0) return;
    count++;
    const name = words[0]!;
    switch (name) {
      case 'quit':
      case 'exit':
        void leave();
        return;
      case 'help':
        if (words.length === 1) return help();
        break; // help CMD: the command's usage, below
      case 'watches':
        if (watches.size === 0) screen.out('no watches running\n');
        for (const [id, w] of watches) screen.out(`[${id}] ${w.line}\n`);
        return;
      case 'unwatch': {
        const arg = words[1];
        const ids = arg === undefined ? [...watches.keys()] : [Number(arg)];
        const n = stopWatches(ids);
        if (arg !== undefined && n === 0) screen.err(`zkwire shell: no watch ${arg} (see "watches")\n`);
        else screen.err(`stopped ${n} watch${n === 1 ? '' : 'es'}\n`);
        return;
      }
    }
    const parsed = parseArgs(name === 'help' ? [...words.slice(1), '--help'] : words);
    const cmd = commands.find((c) => c.name === parsed.command);
    if (cmd === undefined || !(SESSION_COMMANDS.has(cmd.name) || OTHER_COMMANDS.has(cmd.name))) {
      const why = cmd === undefined ? 'unknown command' : `not available in the shell (run it as \`zkwire ${cmd.name}\`)`;
      screen.err(`zkwire shell: ${parsed.command ?? name}: ${why}; "help" lists the commands\n`);
      return;
    }
    if (parsed.help) return screen.out(cmd.usage);
    if (parsed.error !== undefined) return screen.err(`zkwire ${cmd.name}: ${parsed.error}\n`);
    const { json, ...given } = parsed.globals;
    if (Object.keys(given).length > 0) {
      const names = Object.keys(given).map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
      return screen.err(`zkwire ${cmd.name}: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} the shell's: give ${names.length === 1 ? 'it' : 'them'} to \`zkwire shell\`\n`);
    }
    const globals: GlobalOptions = { ...opts.globals, json, ...(OTHER_COMMANDS.has(cmd.name) ? { server: connectString } : {}) };
    if (SESSION_COMMANDS.has(cmd.name) && !connected(client.state)) {
      const message = `not connected (the session is ${client.state}); nothing was sent. The shell reconnects by itself: try again once the prompt says connected`;
      screen.err(json ? `${JSON.stringify({ error: { code: 'CONNECTIONLOSS', message } })}\n` : `zkwire ${cmd.name}: CONNECTIONLOSS: ${message}\n`);
      return;
    }
    if (cmd.name === 'watch') return startWatch(cmd, parsed.rest, globals, line.trim());
    const controller = new AbortController();
    foreground = controller;
    const run = cmd.run(parsed.rest, commandIo(globals, controller.signal));
    running.add(run);
    try {
      await run;
    } catch (e) {
      // A command reports its own failures; one that throws anyway is reported here, and the shell goes on.
      screen.err(`zkwire ${cmd.name}: ${describeError(e)}\n`);
    } finally {
      running.delete(run);
      foreground = undefined;
    }
    if (controller.signal.aborted) screen.err(`zkwire ${cmd.name}: cancelled\n`);
  };

  // ---- the loop -----------------------------------------------------------------------------------------
  const queue: string[] = [];
  let draining: Promise<void> | undefined;
  let leaving: Promise<void> | undefined;
  const drain = (): Promise<void> => (draining ??= drainQueue());
  const drainQueue = async (): Promise<void> => {
    screen.busy();
    while (queue.length > 0 && leaving === undefined) await runLine(queue.shift()!);
    draining = undefined;
    if (leaving === undefined) screen.prompt(promptText());
  };
  rl.on('line', (line: string) => {
    queue.push(line);
    void drain();
  });

  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const leave = (): Promise<void> => {
    leaving ??= (async () => {
      screen.end();
      foreground?.abort(new ZooKeeperError('ABORTED', 'leaving the shell'));
      stopWatches([...watches.keys()]);
      for (const sig of PROCESS_SIGNALS) process.off(sig, onSignal);
      if (!(await within(Promise.all(running), STEP_LIMIT_MS))) screen.err(`zkwire shell: gave up waiting for running commands after ${STEP_LIMIT_MS} ms\n`);
      if (kept.size > 0) {
        screen.err(`zkwire shell: waiting for ${[...kept.values()].join(', ')} (at most ${STEP_LIMIT_MS} ms)\n`);
        await within(Promise.all(kept.keys()), STEP_LIMIT_MS);
      }
      offState();
      if (!(await within(client.close(), STEP_LIMIT_MS))) screen.err(`zkwire shell: the session did not close within ${STEP_LIMIT_MS} ms\n`);
      rl.close();
      finish(0);
    })();
    return leaving;
  };

  rl.on('SIGINT', () => {
    if (foreground !== undefined) {
      screen.err('^C\n');
      foreground.abort(new ZooKeeperError('ABORTED', 'cancelled by Ctrl-C'));
    } else if (rl.line !== '') {
      rl.write(null, { ctrl: true, name: 'e' });
      rl.write(null, { ctrl: true, name: 'u' });
      screen.busy();
      screen.out('^C\n');
      screen.prompt(promptText());
    } else if (watches.size > 0) {
      const n = stopWatches([...watches.keys()]);
      screen.err(`^C stopped ${n} watch${n === 1 ? '' : 'es'}\n`);
    } else void leave();
  });
  // Ctrl-D leaves at once (cancelling what runs); the end of piped input leaves once the lines read are done.
  rl.on('close', () => void (terminal ? leave() : (draining ?? Promise.resolve()).then(leave)));
  const PROCESS_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
  const onSignal = (): void => void leave();
  for (const sig of PROCESS_SIGNALS) process.on(sig, onSignal);

  screen.err(`Connected to ${client.connectedServer ?? connectString}, session ${client.sessionIdHex}. "help" lists the commands; Ctrl-D leaves.\n`);
  screen.prompt(promptText());
  return finished;
}
