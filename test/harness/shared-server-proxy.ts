/** A fault proxy in front of the shared test server, for the tests of one describe block or file. */

import { afterAll, beforeAll } from 'vitest';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { sharedServer } from './zookeeper.js';

export interface SharedServerProxy {
  /** The proxy; clients made through `proxy.connectString` suffer its faults. */
  proxy: FaultProxy;
  /** The shared server's own connect string. */
  connectString: string;
}

/** Starts the proxy before the enclosing block's tests and closes it after them; read the fields inside tests. */
export function useSharedServerProxy(): SharedServerProxy {
  const fx = {} as SharedServerProxy;
  beforeAll(async () => {
    const { connectString, host, port } = await sharedServer();
    fx.connectString = connectString;
    fx.proxy = await startFaultProxy({ host, port });
  });
  afterAll(async () => {
    await fx.proxy?.close();
  });
  return fx;
}
