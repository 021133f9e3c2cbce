import net from 'node:net';

/**
 * A fault-injection front for a real ZooKeeper server that lies about its version: four-letter words are answered
 * here with the given texts (a word without a text gets the server's own "not in the whitelist" refusal), every other
 * connection is piped byte for byte to the real server. It lets a test see what a client does with an older server's
 * version without one: the ops still reach a real 3.8 server, so the test proves what the client refuses to send,
 * not how an old server would have answered.
 */
export interface VersionFront {
  readonly connectString: string;
  /** Four-letter words answered so far, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

export async function startVersionFront(upstream: { host: string; port: number }, answers: Record<string, string>): Promise<VersionFront> {
  const asked: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.once('readable', () => {
      const head: Buffer | null = client.read(4) ?? client.read();
      if (head === null) return;
      const word = head.toString('latin1');
      if (/^[a-z]{4}$/.test(word)) {
        asked.push(word);
        client.end(answers[word] ?? `${word} is not executed because it is not in the whitelist.\n`);
        return;
      }
      const up = net.connect(upstream);
      sockets.add(up);
      up.once('close', () => sockets.delete(up));
      up.write(head);
      client.pipe(up);
      up.pipe(client);
      up.on('error', () => client.destroy());
      client.on('error', () => up.destroy());
      up.on('close', () => client.destroy());
      client.on('close', () => up.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const address = server.address() as net.AddressInfo;
  return {
    connectString: `127.0.0.1:${address.port}`,
    asked,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
