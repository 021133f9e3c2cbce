/**
 * `client.checkServerFeatures()`, apart from the feature book (server-features.ts) so that the book, which the
 * session series holds, does not import the client context that holds the series.
 */

import { WatcherType } from '../protocol/index.js';
import type { ClientContext } from './context.js';
import type { ServerFeatures } from './server-features.js';
import type { CallOptions } from './types.js';

/**
 * `client.checkServerFeatures()`: when the 3.5 line is not known yet, one checkWatches on "/" — harmless, and
 * answered by every release (UNIMPLEMENTED by 3.4 on a connection it keeps, NOWATCHER or OK by 3.5+) — teaches it.
 */
export async function checkServerFeatures(ctx: ClientContext, options: CallOptions): Promise<ServerFeatures> {
  const book = ctx.sessions.features;
  if (book.snapshot(ctx.session.serverVersion).createWithStat === undefined) {
    await ctx.send('checkServerFeatures', '/', 'checkWatches', { path: ctx.serverPath('/', 'checkServerFeatures'), type: WatcherType.Any }, options, () => undefined);
  }
  return book.snapshot(ctx.session.serverVersion);
}
