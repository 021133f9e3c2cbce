/**
 * Bad input, the same raw bytes sent to a real ZooKeeper (over a socket) and to the in-memory one (over its
 * transport), with the same outcome asserted for both: which replies come back (xid and error code) and whether
 * the connection survives. After the bad bytes each case sends a ping: a connection that survived answers it.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryZooKeeper } from '../../src/testing/in-memory/server.js';
import type { ByteStream } from '../../src/transport/types.js';
import { connectRequestFrame, createFrame, pingFrame, readReplyHeader } from '../harness/hand-frames.js';
import { RawSocket } from '../harness/raw-socket.js';
import { sharedServer, type SharedServer } from '../harness/zookeeper.js';
import { zooKeeperVersionOf } from '../harness/zookeeper-versions.js';
import type { InMemoryZooKeeperVersion } from '../../src/testing/in-memory/version.js';

/** A raw connection: write bytes, read whole frames, learn that it closed. */
interface Raw {
  write(bytes: Uint8Array): Promise<void>;
  /** The next frame, or null once the connection has closed. */
  next(): Promise<Uint8Array | null>;
}

function rawOverSocket(socket: RawSocket): Raw {
  return {
    write: (bytes) => socket.write(bytes),
    next: () => socket.nextFrame(10_000).catch((e: Error) => (e.message.startsWith('socket closed') ? null : Promise.reject(e))),
  };
}

async function rawInMemory(server: InMemoryZooKeeper): Promise<Raw> {
  let buffered = new Uint8Array(0);
  let closed = false;
  let wake = (): void => {};
  const stream: ByteStream = await server.transport.connect(
    { host: server.host, port: server.port },
    {
      onData(chunk) {
        const grown = new Uint8Array(buffered.length + chunk.length);
        grown.set(buffered);
        grown.set(chunk, buffered.length);
        buffered = grown;
        wake();
      },
      onClose() {
        closed = true;
        wake();
      },
    },
    { signal: new AbortController().signal },
  );
  return {
    write: async (bytes) => stream.write(bytes),
    async next() {
      for (;;) {
        if (buffered.length >= 4) {
          const end = 4 + new DataView(buffered.buffer, buffered.byteOffset).getInt32(0);
          if (buffered.length >= end) {
            const frame = buffered.slice(0, end);
            buffered = buffered.slice(end);
            return frame;
          }
        }
        if (closed) return null;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

function frame(...ints: number[]): Uint8Array {
  const bytes = new Uint8Array(ints.length * 4);
  const view = new DataView(bytes.buffer);
  ints.forEach((v, i) => view.setInt32(i * 4, v));
  return bytes;
}

/** A ConnectRequest of a client that has seen zxid 2^40, far beyond any fresh server's. */
function aheadConnectRequest(): Uint8Array {
  const bytes = connectRequestFrame(30_000);
  new DataView(bytes.buffer, bytes.byteOffset).setBigInt64(8, 1n << 40n);
  return bytes;
}

interface Case {
  readonly name: string;
  /** Whether the bad bytes come after a handshake. */
  readonly afterHandshake: boolean;
  readonly bytes: Uint8Array;
}

const truncatedCreate = createFrame(1, '/x').slice(0, 20);
new DataView(truncatedCreate.buffer).setInt32(0, truncatedCreate.length - 4);

const CASES: readonly Case[] = [
  { name: 'a handshake that is not a ConnectRequest', afterHandshake: false, bytes: frame(4, 0x01020304) },
  { name: 'a negative length before the handshake', afterHandshake: false, bytes: frame(-1) },
  { name: 'a client that has seen a later zxid', afterHandshake: false, bytes: aheadConnectRequest() },
  { name: 'a negative length prefix', afterHandshake: true, bytes: frame(-16) },
  { name: 'a length over jute.maxbuffer', afterHandshake: true, bytes: frame(0x200000) },
  { name: 'a request header cut short', afterHandshake: true, bytes: frame(4, 7) },
  { name: 'an unknown opcode', afterHandshake: true, bytes: frame(8, 1, 77) },
  { name: 'a getData record cut short', afterHandshake: true, bytes: Uint8Array.of(0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 4, 0) },
  { name: 'a create record cut short', afterHandshake: true, bytes: truncatedCreate },
];

/** What a server did: the replies (xid and error), and whether the connection then answered a ping. */
async function outcome(raw: Raw, c: Case): Promise<string[]> {
  const seen: string[] = [];
  if (c.afterHandshake) {
    await raw.write(connectRequestFrame(30_000));
    if ((await raw.next()) === null) return ['handshake refused'];
  }
  await raw.write(c.bytes);
  await raw.write(pingFrame()).catch(() => {}); // the server may have closed already
  for (;;) {
    const f = await raw.next();
    if (f === null) return [...seen, 'closed'];
    if (f.length < 20) {
      seen.push(`frame of ${f.length} bytes`);
      continue;
    }
    const { xid, err } = readReplyHeader(f);
    if (xid === -2) return [...seen, 'open: answered the ping'];
    seen.push(xid === 0 && c.afterHandshake === false ? 'connect response' : `reply xid ${xid} err ${err}`);
  }
}

let real: SharedServer;
beforeAll(async () => {
  real = await sharedServer();
}, 60_000);

describe('a frame the server cannot parse: the in-memory server does as the real one of its version does', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const socket = await RawSocket.connect(real.port, real.host);
      let expected: string[];
      try {
        expected = await outcome(rawOverSocket(socket), c);
      } finally {
        socket.destroy();
      }
      // The suite's server runs 3.9 or 3.8 (scripts/test-matrix.sh): the in-memory server plays the same release.
      await using memory = new InMemoryZooKeeper({ version: (await zooKeeperVersionOf(real.connectString)) as InMemoryZooKeeperVersion });
      const got = await outcome(await rawInMemory(memory), c);
      if (c.name === 'an unknown opcode') {
        // ZooKeeper answers UNIMPLEMENTED and then closes the session's connection from another thread: a ping sent
        // right behind the request is answered or not depending on that race (3.9.3 was seen both ways), so only the
        // reply is compared; the in-memory server closes at once, which the summary below pins.
        expect(got[0]).toEqual(expected[0]);
        return;
      }
      expect(got).toEqual(expected);
    });
  }

  it('the outcomes are the ones measured', async () => {
    // A summary, so a change in either server's behaviour shows here by name.
    await using memory = new InMemoryZooKeeper();
    const got: Record<string, string[]> = {};
    for (const c of CASES) got[c.name] = await outcome(await rawInMemory(memory), c);
    expect(got).toEqual({
      'a handshake that is not a ConnectRequest': ['closed'],
      'a negative length before the handshake': ['closed'],
      'a client that has seen a later zxid': ['closed'],
      'a negative length prefix': ['closed'],
      'a length over jute.maxbuffer': ['closed'],
      'a request header cut short': ['closed'],
      'an unknown opcode': ['reply xid 1 err -6', 'closed'],
      'a getData record cut short': ['reply xid 1 err -5', 'open: answered the ping'],
      'a create record cut short': ['reply xid 1 err -5', 'open: answered the ping'],
    });
  });
});
