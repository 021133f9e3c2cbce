import net from 'node:net';

/**
 * Free TCP ports on 127.0.0.1, picked by the kernel (listen on port 0).
 *
 * All listeners are held open until every port is known, so the ports of one call are distinct — an ensemble needs
 * nine at once. There is an unavoidable window between closing the probe and the JVM binding the port; callers that
 * can retry with fresh ports on "Address already in use" do so (see standalone.ts).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      ports.push(await listenOnEphemeral(server));
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('freePorts(1) returned nothing');
  return port;
}

function listenOnEphemeral(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('listening socket has no TCP address'));
      else resolve(address.port);
    });
  });
}
