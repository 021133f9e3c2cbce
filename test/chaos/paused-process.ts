/**
 * The parent's side of the worker process (worker-process.ts): starts it on the built package, reads what it
 * does, and stops (SIGSTOP) and resumes (SIGCONT) it for the expiry lane.
 *
 * Its lock holder and its leader enter the run's fenced resources through its stdout lines: `enter` is an entry
 * with the lease's (or the leadership's) fencing token, `write` a write, `exit` the exit. So "mutual exclusion
 * violations", "two leaders at once" and the fencing figures count it like any slot. A stopped process does nothing
 * while stopped: from SIGSTOP on its holders no longer count as inside (FencedResource.suspend), and whatever its
 * holder writes after SIGCONT, before it has noticed that its session is gone, is checked against its fencing token
 * and refused once a newer holder has come in ("stale writes refused"). That is the fencing a paused holder needs;
 * the lock cannot give more.
 *
 * Its member and its cache are checked at quiescence through `report`. It is killed on every exit path: stop()
 * asks it to leave the group and close its client, and SIGKILLs it if it does not exit in time; the run's finally
 * calls kill(); and the harness's exit hook (trackChild) SIGKILLs it when this process ends, on SIGINT included.
 * It also stops by itself when its stdin ends, so it never outlives the run.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { trackChild, trackDir, untrackDir } from '../harness/exit-cleanup.js';
import type { TreeImage } from '../recipes/cache-helpers.js';
import type { PausableProcess } from './faults.js';
import type { FencedResource } from './fenced-resource.js';
import type { MemberView } from './group.js';

export interface WorkerProcessOptions {
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  readonly memberId: string;
  readonly groupPath: string;
  readonly electionPath: string;
  readonly cacheRoot: string;
  readonly mutexPath: string;
  /** The lock slots' resource, and the election's. */
  readonly locks: FencedResource;
  readonly election: FencedResource;
}

export interface WorkerProcessFigures {
  /** Times it was stopped (SIGSTOP) and resumed. */
  pauses: number;
  /** Sessions its client renewed after an expiry (RECONNECTED with newSession). */
  renewals: number;
  locks: number;
  leaderships: number;
  /** Its own failures by code (UNTYPED: not a ZooKeeperError, which must not happen). */
  failures: Record<string, number>;
  /** It left the group, closed its client and exited 0 when asked. */
  exitedCleanly: boolean;
  notes: string[];
}

interface Report {
  readonly session: string;
  readonly state: string;
  readonly members: string[] | undefined;
  readonly tree: [string, string][];
}

type Line = { t: string; [key: string]: unknown };

export class WorkerProcess implements PausableProcess {
  readonly figures: WorkerProcessFigures = { pauses: 0, renewals: 0, locks: 0, leaderships: 0, failures: {}, exitedCleanly: false, notes: [] };
  readonly #child: ChildProcess;
  readonly #dir: string;
  readonly #options: WorkerProcessOptions;
  readonly #exited: Promise<number | null>;
  /** Its holders now: its id → the resource and the id there. */
  readonly #holders = new Map<number, { resource: FencedResource; id: number }>();
  readonly #waiting = new Map<string, ((line: Line) => void)[]>();
  #session: string | undefined;
  #stopped = false;
  #stderr = '';

  private constructor(child: ChildProcess, dir: string, options: WorkerProcessOptions) {
    this.#child = child;
    this.#dir = dir;
    this.#options = options;
    this.#exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    void this.#exited.then(() => this.#leaveAll());
    child.stderr?.on('data', (d: Buffer) => (this.#stderr = (this.#stderr + d.toString()).slice(-2000)));
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        this.#note(`unparsable line: ${text.slice(0, 200)}`);
        return;
      }
      this.#onLine(line);
    });
  }

  /** Transpiles worker-process.ts onto dist/ (which must be built) and starts it. */
  static start(options: WorkerProcessOptions): WorkerProcess {
    const root = repoRoot();
    const dist = path.join(root, 'dist', 'node.js');
    if (!fs.existsSync(dist)) throw new Error(`${dist} is missing: run \`npm run build\` first (npm test does)`);
    const source = fs.readFileSync(path.join(root, 'test', 'chaos', 'worker-process.ts'), 'utf8');
    // Each of the worker's imports of src/ points at the built entry: the root, and the recipes since they moved to
    // zkwire/recipes. An import left pointing into src/ would crash the worker at start, seen only as a worker that
    // did nothing, so it is refused here by name.
    const js = ts
      .transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
      .outputText.replace(`'../../src/node.js'`, JSON.stringify(pathToFileURL(dist).href))
      .replace(`'../../src/recipes/index.js'`, JSON.stringify(pathToFileURL(path.join(root, 'dist', 'recipes', 'index.js')).href));
    const unresolved = /from '(\.\.\/\.\.\/src\/[^']*)'/.exec(js);
    if (unresolved !== null) throw new Error(`worker-process.ts imports ${unresolved[1]}, which paused-process.ts does not point at dist/`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-chaos-worker-'));
    trackDir(dir);
    const file = path.join(dir, 'worker.mjs');
    fs.writeFileSync(file, js);
    const { locks: _l, election: _e, ...config } = options;
    const child = spawn(process.execPath, [file, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
    trackChild(child);
    return new WorkerProcess(child, dir, options);
  }

  /** Its client's session while connected (0x… lower case). */
  session(): string | undefined {
    return this.#stopped ? undefined : this.#session;
  }

  /** SIGSTOP: from now on its holders do not count as inside (see the module comment). */
  stop(): void {
    if (this.#stopped || this.#child.exitCode !== null) return;
    this.#child.kill('SIGSTOP');
    this.#stopped = true;
    this.figures.pauses++;
    for (const holder of this.#holders.values()) holder.resource.suspend(holder.id);
  }

  resume(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#child.kill('SIGCONT');
  }

  /** Ends its lock loop and candidacy; resolves once it has (false if it did not within `ms`). */
  async quiet(ms: number): Promise<boolean> {
    const line = await this.#ask('quiet', 'quiet', ms);
    if (line === undefined) return false;
    this.figures.locks = Number(line['locks']);
    this.figures.leaderships = Number(line['leaderships']);
    this.figures.failures = line['failures'] as Record<string, number>;
    return true;
  }

  /**
   * Whether it leads: its leader has entered the election's resource and not left. A stopped leader still counts:
   * its latch node is first until the server expires its session, so nobody else can lead meanwhile either.
   */
  leads(): boolean {
    return [...this.#holders.values()].some((h) => h.resource === this.#options.election);
  }

  /** Its member, for the group's check at quiescence. */
  memberView(): MemberView {
    return {
      id: this.#options.memberId,
      view: async () => {
        const report = await this.#report();
        if (report === undefined) return { unavailable: 'the worker process did not answer' };
        if (report.state !== 'connected') return { unavailable: `its client is ${report.state}` };
        if (report.members === undefined) return { unavailable: 'its member has no view of the group' };
        return { session: report.session, members: report.members };
      },
    };
  }

  /** What its cache holds now, for the caches' check at quiescence. */
  async cacheImage(): Promise<TreeImage | undefined> {
    const report = await this.#report();
    return report === undefined ? undefined : new Map(report.tree);
  }

  /** Asks it to leave the group, close its client and exit; SIGKILL if it has not within `ms`. */
  async close(ms: number): Promise<void> {
    this.resume();
    if (this.#child.exitCode === null) {
      this.#child.stdin?.write('stop\n');
      const code = await Promise.race([this.#exited, sleep(ms).then(() => 'late' as const)]);
      this.figures.exitedCleanly = code === 0;
      if (code !== 0) this.#note(`did not exit cleanly when asked (${code}); stderr: ${this.#stderr.slice(-500)}`);
    }
    this.kill();
  }

  /** SIGKILL now (every other exit path); its nodes go with its session. */
  kill(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      this.#child.kill('SIGCONT');
      this.#child.kill('SIGKILL');
    }
    fs.rmSync(this.#dir, { recursive: true, force: true });
    untrackDir(this.#dir);
  }

  #onLine(line: Line): void {
    const { locks, election } = this.#options;
    switch (line.t) {
      case 'state':
        this.#session = line['to'] === 'connected' ? String(line['session']) : undefined;
        if (line['event'] === 'RECONNECTED' && line['newSession'] === true) this.figures.renewals++;
        return;
      case 'enter': {
        const resource = line['resource'] === 'election' ? election : locks;
        const id = resource.enter(String(line['lock']), 'write', BigInt(String(line['token'])), 'worker process');
        if (id === undefined) return;
        this.#holders.set(Number(line['id']), { resource, id });
        // a line written just before SIGSTOP and read after it: the holder is stopped like the rest
        if (this.#stopped) resource.suspend(id);
        return;
      }
      case 'write': {
        const holder = this.#holders.get(Number(line['id']));
        holder?.resource.write(holder.id);
        return;
      }
      case 'exit': {
        const holder = this.#holders.get(Number(line['id']));
        this.#holders.delete(Number(line['id']));
        holder?.resource.exit(holder.id);
        return;
      }
      default: {
        const waiters = this.#waiting.get(line.t) ?? [];
        this.#waiting.delete(line.t);
        for (const waiter of waiters) waiter(line);
      }
    }
  }

  async #report(): Promise<Report | undefined> {
    return (await this.#ask('report', 'report', 5000)) as unknown as Report | undefined;
  }

  /** Sends `command` and waits (at most `ms`) for its answer line. */
  #ask(command: string, answer: string, ms: number): Promise<Line | undefined> {
    if (this.#child.exitCode !== null || this.#stopped) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ms);
      const list = this.#waiting.get(answer) ?? [];
      list.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
      this.#waiting.set(answer, list);
      this.#child.stdin?.write(`${command}\n`);
    });
  }

  #leaveAll(): void {
    for (const holder of this.#holders.values()) holder.resource.exit(holder.id);
    this.#holders.clear();
  }

  #note(text: string): void {
    if (this.figures.notes.length < 10) this.figures.notes.push(text);
  }
}

/** The repository's root, from here or from the compiled copy under .build/ (npm run chaos). */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'test', 'chaos', 'worker-process.ts'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root (test/chaos/worker-process.ts)');
    dir = up;
  }
  return dir;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
