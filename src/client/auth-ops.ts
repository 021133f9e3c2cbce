/** Authentication calls: adding credentials to the session, and asking the server who we are. */

import { clientError } from '../errors.js';
import { guard, ok, type ClientContext } from './context.js';
import { toBytes } from './data.js';
import type { CallOptions, ClientIdentity, Data } from './types.js';

export function addAuth(ctx: ClientContext, scheme: string, auth: Data, options: CallOptions): Promise<void> {
  return guard(() => {
    if (typeof scheme !== 'string' || scheme === '') throw clientError('BAD_ARGUMENT', 'scheme must be a non-empty string', { op: 'addAuth' });
    if (options.signal?.aborted === true) throw clientError('ABORTED', 'aborted before sending', { op: 'addAuth' });
    return ctx.session.addAuth(scheme, toBytes(auth, 'addAuth'));
  });
}

export function whoAmI(ctx: ClientContext, options: CallOptions): Promise<ClientIdentity[]> {
  return guard(() =>
    ctx.send('whoAmI', undefined, 'whoAmI', undefined, options, (reply) => {
      ok(reply, 'whoAmI', undefined);
      const infos = reply.body.clientInfo ?? [];
      return infos.map((i) => ({ scheme: i.authScheme ?? '', user: i.user ?? '' }));
    }),
  );
}
