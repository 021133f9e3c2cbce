/**
 * Loads a local HTML file in Debian's headless chromium and reports what a user would get: the rendered DOM,
 * every console error, uncaught exception or browser log error (a blocked resource, a CSP violation), and a
 * full-page screenshot. Talks the DevTools protocol over --remote-debugging-pipe (fd 3 in, fd 4 out, messages
 * separated by NUL), so no npm dependency is needed.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Readable, Writable } from 'node:stream';

export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

export interface LoadedPage {
  dom: string;
  consoleErrors: string[];
  screenshotBytes: number;
}

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

export async function loadInChromium(file: string, opts: { screenshot: string; width: number; height: number }): Promise<LoadedPage> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`chromium is not installed at ${CHROMIUM}: run \`sudo bash scripts/setup.sh\` (Debian: apt-get install chromium), or set CHROMIUM`);
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'zkwire-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--hide-scrollbars',
      `--user-data-dir=${profile}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    // its own process group: the helpers it starts (renderer, zygote, crash handler) join it, so they can be
    // stopped and waited for together
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const toChrome = child.stdio[3] as Writable;
  const fromChrome = child.stdio[4] as Readable;
  const waiting = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners: ((m: Message) => void)[] = [];
  let buffered = '';
  fromChrome.on('data', (d: Buffer) => {
    buffered += d.toString('utf8');
    for (let at = buffered.indexOf('\0'); at >= 0; at = buffered.indexOf('\0')) {
      const m = JSON.parse(buffered.slice(0, at)) as Message;
      buffered = buffered.slice(at + 1);
      if (m.id !== undefined) {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.error !== undefined) w?.reject(new Error(`chromium: ${m.error.message}`));
        else w?.resolve(m);
      } else for (const l of listeners) l(m);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const died = exited.then(() => {
    throw new Error(`chromium exited early: ${stderr.slice(-2000)}`);
  });
  let nextId = 1;
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Message> => {
    const id = nextId++;
    const p = new Promise<Message>((resolve, reject) => waiting.set(id, { resolve, reject }));
    toChrome.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    return Promise.race([p, died]);
  };
  const next = (pred: (m: Message) => boolean): Promise<Message> =>
    Promise.race([
      new Promise<Message>((resolve) => {
        const l = (m: Message): void => {
          if (pred(m)) {
            listeners.splice(listeners.indexOf(l), 1);
            resolve(m);
          }
        };
        listeners.push(l);
      }),
      died,
    ]);

  const consoleErrors: string[] = [];
  listeners.push((m) => {
    if (m.method === 'Runtime.consoleAPICalled' && (m.params?.['type'] === 'error' || m.params?.['type'] === 'assert')) {
      consoleErrors.push(`console.${String(m.params['type'])}: ${JSON.stringify(m.params['args'])}`);
    } else if (m.method === 'Runtime.exceptionThrown') {
      consoleErrors.push(`exception: ${JSON.stringify(m.params?.['exceptionDetails'])}`);
    } else if (m.method === 'Log.entryAdded') {
      const entry = m.params?.['entry'] as { level?: string; text?: string; url?: string } | undefined;
      if (entry?.level === 'error') consoleErrors.push(`log: ${entry.text ?? ''} ${entry.url ?? ''}`.trim());
    }
  });
  try {
    const targets = await send('Target.getTargets');
    const infos = (targets.result?.['targetInfos'] as { targetId: string; type: string }[]) ?? [];
    let targetId = infos.find((t) => t.type === 'page')?.targetId;
    if (targetId === undefined) targetId = String((await send('Target.createTarget', { url: 'about:blank' })).result?.['targetId']);
    const attached = await send('Target.attachToTarget', { targetId, flatten: true });
    const session = String(attached.result?.['sessionId']);
    await send('Runtime.enable', {}, session);
    await send('Log.enable', {}, session);
    await send('Page.enable', {}, session);
    await send('Emulation.setDeviceMetricsOverride', { width: opts.width, height: opts.height, deviceScaleFactor: 1, mobile: false }, session);
    const loaded = next((m) => m.method === 'Page.loadEventFired' && m.sessionId === session);
    await send('Page.navigate', { url: pathToFileURL(file).href }, session);
    await loaded;
    const dom = await send('Runtime.evaluate', { expression: 'document.documentElement.outerHTML', returnByValue: true }, session);
    const html = String((dom.result?.['result'] as { value?: unknown } | undefined)?.value ?? '');
    const metrics = await send('Page.getLayoutMetrics', {}, session);
    const size = (metrics.result?.['cssContentSize'] ?? metrics.result?.['contentSize']) as { height: number } | undefined;
    const height = Math.min(opts.height, Math.ceil(size?.height ?? opts.height));
    const shot = await send('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: opts.width, height, scale: 1 }, captureBeyondViewport: true }, session);
    const png = Buffer.from(String(shot.result?.['data'] ?? ''), 'base64');
    writeFileSync(opts.screenshot, png);
    await send('Browser.close').catch(() => undefined);
    return { dom: html, consoleErrors, screenshotBytes: png.length };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    // Chromium's helpers may outlive the browser process and still write into the profile: stop the whole group and
    // wait until none of it is left before removing the profile.
    if (child.pid !== undefined) await stopProcessGroup(child.pid);
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  }
}

/**
 * SIGKILLs every process of the group until the group is empty (ESRCH). Bounded: a process already dead but not yet
 * reaped by its new parent still counts as a member, yet writes nothing.
 */
async function stopProcessGroup(pgid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      return; // no process left in the group
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
