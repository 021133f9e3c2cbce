/**
 * The hostile server on a real loopback socket (node:net), so the same lies also go through the Node transport:
 * socket buffering, coalescing and resets that the in-memory transport does not have.
 */

import { createServer, type Server, type Socket } from 'node:net';
import type { HostileServer } from './hostile-server.js';

export interface HostileNetServer {
  readonly port: number;
  readonly connectString: string;
  close(): Promise<void>;
}

export async function listenHostile(server: HostileServer): Promise<HostileNetServer> {
  const sockets = new Set<Socket>();
  const net: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const onBytes = server.accept({
      send: (bytes) => void socket.write(bytes),
      close: () => void socket.end(),
    });
    socket.on('data', (chunk: Buffer) => onBytes(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)));
  });
  await new Promise<void>((resolve) => net.listen(0, '127.0.0.1', resolve));
  const address = net.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    port: address.port,
    connectString: `127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        net.close(() => resolve());
      }),
  };
}
