/** The client's `tls` option in node:tls's words, for the tools' own sockets (the bench floor, the trace proxy). */

import type * as tls from 'node:tls';
import type { TlsOptions } from '../../transport/types.js';

/** node:tls connect options for `secure` (`true`: the runtime's trusted roots, nothing else). */
export function nodeTlsOptions(secure: true | TlsOptions): tls.ConnectionOptions {
  if (secure === true) return {};
  const { ca, ...rest } = secure;
  return { ...rest, ...(ca === undefined ? {} : { ca: [ca].flat() }) };
}
