import net from 'node:net';
import { clearRealTimeout, setRealTimeout } from './real-timers.js';

/**
 * Four-letter words over a raw socket (zk-protocol.md §18): send the four ASCII bytes, read text until the server
 * closes. The harness uses them for readiness (`srvr`) and leader detection, so this is deliberately independent of
 * the client under test.
 */
export function fourLetterWord(host: string, port: number, command: string, timeoutMs = 5000): Promise<string> {
  if (!/^[a-z]{4}$/.test(command)) return Promise.reject(new Error(`not a four-letter word: ${JSON.stringify(command)}`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host, port });
    const timer = setRealTimeout(() => {
      socket.destroy();
      reject(new Error(`${command} to ${host}:${port}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.end(command));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearRealTimeout(timer);
      reject(error);
    });
    socket.on('close', (hadError) => {
      clearRealTimeout(timer);
      if (!hadError) resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

export type ServerMode = 'standalone' | 'leader' | 'follower' | 'observer' | 'read-only';

/**
 * The `Mode:` line of a `srvr`/`stat` answer, or null while the server is not serving (it then answers
 * "This ZooKeeper instance is not currently serving requests"). `ruok` is no readiness check: it says imok as soon as
 * the socket listens, before the database is loaded or a quorum exists.
 */
export function parseServerMode(srvr: string): ServerMode | null {
  const match = /^Mode: ([\w-]+)/m.exec(srvr);
  const mode = match?.[1];
  switch (mode) {
    case 'standalone':
    case 'leader':
    case 'follower':
    case 'observer':
    case 'read-only':
      return mode;
    default:
      return null;
  }
}

/** The mode of the server at host:port, or null when it does not answer or does not serve yet. */
export async function probeServerMode(host: string, port: number, timeoutMs = 2000): Promise<ServerMode | null> {
  try {
    return parseServerMode(await fourLetterWord(host, port, 'srvr', timeoutMs));
  } catch {
    return null;
  }
}
