/**
 * The one ZooKeeper server a vitest run shares, held by vitest's main process and handed to test files that ask.
 *
 * Why a broker in the main process: vitest runs every test file in a fresh worker module graph (pool forks, isolate),
 * so a server cached in a worker's memory served one file only, and every integration file paid for a JVM of its
 * own. The main process outlives every file; global-setup.ts starts this broker there and stops the server in its
 * teardown. Why lazy: the JVM starts when the first file asks, so a run of unit tests alone starts none and needs no
 * Java at all (globalSetup cannot see which files a run holds).
 *
 * The wire is one loopback TCP connection per question: the file connects, the broker answers one JSON line
 * (`{"connectString":…}` or `{"error":…}`) and closes. Plain sockets, not fetch, because test files fake the
 * runtime's timers and fetch runs on them.
 */
import net from 'node:net';
import type { ServerProcess } from '../../src/testing/local-server/server-process.js';

// global-setup.ts provides the broker's address to the test files under this key; sharedServer() injects it.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Where test files ask for the run's shared ZooKeeper (shared-server-broker.ts); absent when ZK_CONNECT is set. */
    zkwireSharedServerBroker?: string;
  }
}

/** The broker as global-setup.ts holds it. */
export interface SharedServerBroker {
  /** `127.0.0.1:port` of the broker itself (not of ZooKeeper): what test files are given to ask. */
  readonly address: string;
  /** The JVM's process id once a file has asked and it started; undefined before (and after a failed start). */
  readonly pid: number | undefined;
  /** Stops answering, then stops the server (waiting for a start under way); resolves once the JVM has exited. */
  close(): Promise<void>;
}

/** The answer on the wire. */
type Answer = { connectString: string } | { error: string };

/**
 * Listens on a free loopback port. `start` runs at the first question only; a failed start is not kept, so the next
 * question tries again (and the next file gets the same clear error if it fails again).
 */
export async function startSharedServerBroker(start: () => Promise<ServerProcess>): Promise<SharedServerBroker> {
  let started: Promise<ServerProcess> | undefined;
  let running: ServerProcess | undefined;
  const serverOnce = (): Promise<ServerProcess> => {
    if (started === undefined) {
      const attempt = start();
      started = attempt;
      attempt.then(
        (server) => (running = server),
        () => {
          if (started === attempt) started = undefined;
        },
      );
    }
    return started;
  };

  const listener = net.createServer((socket) => {
    // A file that gives up (its hook timed out) closes its end; nothing to report then.
    socket.on('error', () => {});
    serverOnce().then(
      (server): Answer => ({ connectString: server.connectString }),
      (error: unknown): Answer => ({ error: error instanceof Error ? error.message : String(error) }),
    ).then((answer) => socket.end(`${JSON.stringify(answer)}\n`));
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = listener.address() as net.AddressInfo;

  return {
    address: `127.0.0.1:${port}`,
    get pid() {
      return running?.pid;
    },
    async close() {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      const server = await started?.catch(() => undefined);
      await server?.stop();
    },
  };
}

/** Asks the broker at `address` for the shared server; resolves to its connect string, rejects with its start error. */
export function askSharedServerBroker(address: string): Promise<string> {
  const colon = address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect({ host: address.slice(0, colon), port: Number(address.slice(colon + 1)) });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (error) => reject(new Error(`the shared ZooKeeper's broker at ${address} did not answer: ${error.message}`)));
    socket.on('end', () => {
      let answer: Answer;
      try {
        answer = JSON.parse(text) as Answer;
      } catch {
        reject(new Error(`the shared ZooKeeper's broker at ${address} answered ${JSON.stringify(text)}`));
        return;
      }
      if ('connectString' in answer) resolve(answer.connectString);
      else reject(new Error(answer.error));
    });
  });
}
