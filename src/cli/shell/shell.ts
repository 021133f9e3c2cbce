/**
 * The interactive shell over one open client: reads lines with node:readline, runs each as the CLI command of that
 * name on the shell's session (the same code as `zkwire CMD`, see io.session), one at a time in the order typed.
 * `watch` runs in the background and its events print above the prompt. The prompt shows the server and the
 * session's state, redrawn on every change. Ctrl-C cancels the running command (or the background watches, or
 * clears the line); Ctrl-C at an empty prompt, Ctrl-D, `quit` or SIGTERM/SIGHUP leave: running commands are
 * cancelled and wound down (a held lock released), then the session is closed. zkCli.sh's spellings are rewritten
 * (zkcli.ts) into the commands that do the same; its own commands are SHELL_ONLY_COMMANDS, and `connect`, `close`
 * and `status` are built in here, since they change or look past the shell's session.
 */

import { createInterface } from 'node:readline';
import { ZooKeeperError, type SessionState, type StateChange, type ZooKeeperClient } from '../../node.js';
import { parseArgs } from '../args.js';
import { describeError } from '../commands/node-client.js';
import { STEP_LIMIT_MS } from '../interrupt.js';
import type { CliIo, Command, GlobalOptions } from '../types.js';
import { SHELL_ONLY_COMMANDS } from './commands/index.js';
import { completeLine, type CompletableCommand } from './complete.js';
import { loadHistory, saveHistory, HISTORY_SIZE } from './history.js';
import { splitLine } from './line.js';
import { Screen } from './screen.js';
import { ensembleMembers, probeMember, runStatus } from './status.js';
import { nearest } from './suggest.js';
import { shellUsage } from './usage.js';
import { isZkCliLine, rewriteZkCli, ZKCLI_HELP, ZKCLI_NAMES } from './zkcli.js';

/** A command that needs the session waits for it: read-only counts as connected (the server answers reads). */
function connected(state: SessionState): boolean {
  return state === 'connected' || state === 'connected-read-only';
}

/** Commands that run on the shell's session (with the shell's own, SHELL_ONLY_COMMANDS). */
const SESSION_COMMANDS = new Set(['ls', 'get', 'set', 'create', 'rm', 'stat', 'getacl', 'setacl', 'watch', 'whoami', 'lock', 'config', 'reconfig', ...SHELL_ONLY_COMMANDS.map((c) => c.name)]);
/** Commands that need no session: the four-letter words (sent to the shell's server) and the file readers. */
const OTHER_COMMANDS = new Set(['srvr', '4lw', 'txnlog', 'snapshot', 'analyze']);

/** The shell's own commands: name and what it does. */
const BUILTINS: readonly (readonly [string, string])[] = [
  ['help', 'this list; help CMD (or CMD --help) for one command'],
  ['watches', 'the watches running in the background'],
  ['unwatch', 'unwatch [N]: stop background watch N, or all of them'],
  ['status', 'the ensemble: each member\'s mode, zxid, connections, latency; redrawn until a key is pressed'],
  ['connect', 'connect HOST:PORT[,...]: a session on other servers (the current one closed once it is open)'],
  ['close', "close the shell's session (\"connect\" opens another)"],
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
  /** Opens a session on another connect string (the `connect` command); absent: `connect` is refused. */
  readonly connect?: (connectString: string, signal: AbortSignal) => Promise<ZooKeeperClient>;
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
  // `connect` replaces both; everything below reads them when it runs.
  let client = opts.client;
  let connectString = opts.connectString;
  const terminal = (opts.input as { isTTY?: boolean }).isTTY === true && (opts.stdout as { isTTY?: boolean }).isTTY === true;
  /** The commands typed in the shell: the CLI's that make sense on one session, and the shell's own. */
  const available: readonly Command[] = [...opts.commands.filter((c) => SESSION_COMMANDS.has(c.name) || OTHER_COMMANDS.has(c.name)), ...SHELL_ONLY_COMMANDS];
  const completable: CompletableCommand[] = [
    ...available.map((c) => ({ name: c.name, options: [...(c.spec?.flags ?? []), ...(c.spec?.valued ?? []), '--json', '--help'] })),
    ...BUILTINS.map(([name]) => ({ name, options: [] })),
    { name: 'exit', options: [] },
  ];
  /** Every name a line may start with, for "did you mean". */
  const knownNames = [...completable.map((c) => c.name), ...ZKCLI_NAMES];
  const children = async (path: string): Promise<readonly string[]> => {
    if (!connected(client.state)) return [];
    try {
      return await client.getChildren(path, { signal: AbortSignal.timeout(COMPLETION_LIMIT_MS) });
    } catch {
      return [];
    }
  };
  const hasChildren = async (path: string): Promise<boolean> => {
    if (!connected(client.state)) return false;
    try {
      return ((await client.exists(path, { signal: AbortSignal.timeout(COMPLETION_LIMIT_MS) }))?.numChildren ?? 0) > 0;
    } catch {
      return false;
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
      completeLine(line, completable, children, hasChildren).then(
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
  const follow = (c: ZooKeeperClient): (() => void) =>
    c.onStateChange((change) => {
      sayChange(change);
      screen.updatePrompt(promptText());
    });
  let offState = follow(client);

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
    const width = Math.max(...[...available.map((c) => c.name), ...BUILTINS.map(([n]) => n)].map((n) => n.length));
    const lines = [...available.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`), ...BUILTINS.map(([n, s]) => `  ${n.padEnd(width)}  ${s}`)];
    screen.out(
      `Commands (on this shell's session; "help CMD" for one; add --json for JSON):\n${lines.join('\n')}\n` +
        `zkCli.sh's spellings work too: delete, deleteall, create -e/-s/-c/-t, ls -R/-s, get -s, set -v, getAcl, setAcl, addWatch.\n`,
    );
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

  /** Runs `work` as the foreground command: Ctrl-C aborts its signal. */
  const inForeground = async (name: string, work: (signal: AbortSignal) => Promise<unknown>): Promise<void> => {
    const controller = new AbortController();
    foreground = controller;
    const run = work(controller.signal);
    running.add(run);
    try {
      await run;
    } catch (e) {
      // A command reports its own failures; one that throws anyway is reported here, and the shell goes on.
      screen.err(`zkwire ${name}: ${describeError(e)}\n`);
    } finally {
      running.delete(run);
      foreground = undefined;
    }
    if (controller.signal.aborted) screen.err(`zkwire ${name}: cancelled\n`);
  };

  /** Closes the current session, bounded; its background watches are stopped first. */
  const closeSession = async (): Promise<void> => {
    stopWatches([...watches.keys()]);
    offState();
    if (!(await within(client.close(), STEP_LIMIT_MS))) screen.err(`zkwire shell: the session did not close within ${STEP_LIMIT_MS} ms\n`);
  };

  /** `connect HOST:PORT[,...]`: the new session first; only once it is open is the old one closed. */
  const connectTo = async (args: readonly string[]): Promise<void> => {
    if (args.length !== 1) return screen.err('zkwire connect: give HOST:PORT[,HOST:PORT...][/chroot]\n');
    if (opts.connect === undefined) return screen.err('zkwire connect: this shell cannot open other sessions\n');
    const target = args[0]!;
    await inForeground('connect', async (signal) => {
      const next = await opts.connect!(target, signal);
      if (signal.aborted) return void (await next.close());
      await closeSession();
      client = next;
      connectString = target;
      offState = follow(client);
      screen.err(`Connected to ${client.connectedServer ?? connectString}, session ${client.sessionIdHex}.\n`);
    });
  };

  const status = async (args: readonly string[]): Promise<void> => {
    if (args.length > 0) return screen.err('zkwire status: takes no arguments\n');
    await inForeground('status', async (signal) => {
      const members = await ensembleMembers(client, connectString, signal);
      // Any key stops the view (and is not taken as typed text); Ctrl-C too, as for every command.
      const stop = new AbortController();
      const onKey = (): void => stop.abort();
      signal.addEventListener('abort', onKey, { once: true });
      if (terminal) opts.input.on('keypress', onKey);
      try {
        await runStatus({ probe: () => Promise.all(members.map((m) => probeMember(m))), write: (t) => screen.out(t), signal: stop.signal, live: terminal });
      } finally {
        opts.input.off('keypress', onKey);
        signal.removeEventListener('abort', onKey);
        if (terminal) clearTypedLine();
      }
    });
  };

  /** One command's words (the line as typed, or one line a zkCli.sh habit became). */
  const runWords = async (words: readonly string[], line: string): Promise<void> => {
    const name = words[0]!;
    const parsed = parseArgs(name === 'help' ? [...words.slice(1), '--help'] : [...words]);
    const cmd = available.find((c) => c.name === parsed.command);
    if (cmd === undefined) {
      const other = opts.commands.find((c) => c.name === parsed.command);
      const typed = parsed.command ?? name;
      const guess = other === undefined ? nearest(typed, knownNames) : undefined;
      const why =
        other !== undefined ? `not available in the shell (run it as \`zkwire ${other.name}\`)` : guess !== undefined ? `unknown command; did you mean ${guess}?` : 'unknown command';
      screen.err(`zkwire shell: ${typed}: ${why} ("help" lists the commands)\n`);
      return;
    }
    if (parsed.help) return screen.out(shellUsage(cmd.usage));
    if (parsed.error !== undefined) return screen.err(`zkwire ${cmd.name}: ${parsed.error}\n`);
    const { json, ...given } = parsed.globals;
    if (Object.keys(given).length > 0) {
      const names = Object.keys(given).map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
      return screen.err(`zkwire ${cmd.name}: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} the shell's: give ${names.length === 1 ? 'it' : 'them'} to \`zkwire shell\`\n`);
    }
    const globals: GlobalOptions = { ...opts.globals, json, ...(OTHER_COMMANDS.has(cmd.name) ? { server: connectString } : {}) };
    if (SESSION_COMMANDS.has(cmd.name) && !connected(client.state)) {
      const message =
        client.state === 'closed'
          ? 'the session is closed; nothing was sent. "connect HOST:PORT" opens a new one'
          : `not connected (the session is ${client.state}); nothing was sent. The shell reconnects by itself: try again once the prompt says connected`;
      screen.err(json ? `${JSON.stringify({ error: { code: 'CONNECTIONLOSS', message } })}\n` : `zkwire ${cmd.name}: CONNECTIONLOSS: ${message}\n`);
      return;
    }
    if (cmd.name === 'watch') return startWatch(cmd, parsed.rest, globals, line.trim());
    await inForeground(cmd.name, (signal) => cmd.run(parsed.rest, commandIo(globals, signal)));
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
      case 'help': {
        if (words.length === 1) return help();
        const zkCliName = ZKCLI_NAMES.find((n) => n === words[1]);
        if (zkCliName !== undefined) return screen.out(`${ZKCLI_HELP[zkCliName]} (zkCli.sh's spelling)\n`);
        break; // help CMD: the command's usage, below
      }
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
      case 'status':
        return status(words.slice(1));
      case 'connect':
        return connectTo(words.slice(1));
      case 'close':
        if (client.state === 'closed') return screen.err('zkwire close: the session is closed already\n');
        await closeSession();
        screen.err(`closed the session; "connect HOST:PORT" opens a new one\n`);
        return;
    }
    if (!isZkCliLine(words)) return runWords(words, line);
    const rewritten = rewriteZkCli(words);
    if ('error' in rewritten) return screen.err(`zkwire shell: ${name}: ${rewritten.error}\n`);
    for (const each of rewritten.lines) await runWords(each, each.join(' '));
  };

  /** Forgets the text typed on the current line (Ctrl-E, Ctrl-U: to its end, then all of it). */
  function clearTypedLine(): void {
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
  }

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
      clearTypedLine();
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
