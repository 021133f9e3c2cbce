/** The one workerd module the workerd smoke worker imports, typed as the stream-socket transport sees it. */
declare module 'cloudflare:sockets' {
  import type { StreamSocketConnect } from '../../src/transport/web.js';
  export const connect: StreamSocketConnect;
}
