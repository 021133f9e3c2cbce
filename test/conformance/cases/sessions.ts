/**
 * Sessions: ephemeral nodes going with their session (close, expiry, timeout), what an expiry looks like to the
 * client, resuming a session, and watches restored after a reconnect (setWatches).
 */

import { expect } from 'vitest';
import { codeOf } from '../../client/helpers.js';
import type { StateChange } from '../../../src/node.js';
import type { Topic } from '../suite.js';
import { event } from '../watch-event.js';

export const sessionCases: Topic = {
  title: 'sessions',
  define(c) {
    c('sessions get distinct ids and 16-byte passwords, and the requested timeout when the server allows it', async (t) => {
      const [a, b] = [await t.client({ sessionTimeoutMs: 5000 }), await t.client()];
      expect(a.sessionId).not.toBe(b.sessionId);
      expect(a.sessionId).not.toBe(0n);
      expect(a.sessionPassword.length).toBe(16);
      expect(a.negotiatedTimeoutMs).toBe(5000);
    });

    c('ephemerals go when their session closes, and other sessions watching them see NodeDeleted', async (t) => {
      const [owner, watcher] = [await t.client(), await t.client()];
      const path = t.path();
      await owner.create(path, null, { mode: 'ephemeral' });
      const { watch } = await watcher.exists(path, { watch: true });
      const parent = t.path();
      await watcher.create(parent);
      await owner.create(`${parent}/e-`, null, { mode: 'ephemeral-sequential' });
      const kids = await watcher.getChildren(parent, { watch: true });
      await owner.close();
      expect(await watcher.exists(path)).toBeNull();
      expect(await watch).toEqual(event('NodeDeleted', path));
      expect(await kids.watch).toEqual(event('NodeChildrenChanged', parent));
      expect(await watcher.getChildren(parent)).toEqual([]);
    });

    c('an expired session: the client sees LOST, then a new session (RECONNECTED, newSession) with a new id', async (t) => {
      const zk = await t.client();
      const old = zk.sessionId;
      const changes: StateChange[] = [];
      zk.onStateChange((change) => changes.push(change));
      await t.target.expire(zk);
      await zk.waitConnected();
      // (a SUSPENDED may come first, when the server drops the connection before the client hears of the expiry)
      expect(changes.map((change) => change.event).filter((e) => e !== undefined && e !== 'SUSPENDED')).toEqual(['LOST', 'RECONNECTED']);
      expect(changes.find((change) => change.event === 'LOST')?.reason).toMatchObject({ code: 'SESSIONEXPIRED' });
      expect(changes.at(-1)?.newSession).toBe(true);
      expect(zk.sessionId).not.toBe(old);
      expect(zk.sessionRenewals).toBe(1);
    });

    c('ephemerals go with an expired session and watchers see NodeDeleted; the new session owns none', async (t) => {
      const [owner, watcher] = [await t.client(), await t.client()];
      const path = t.path();
      await owner.create(path, null, { mode: 'ephemeral' });
      const { watch } = await watcher.getData(path, { watch: true });
      await t.target.expire(owner);
      expect(await watch).toEqual(event('NodeDeleted', path));
      await owner.waitConnected();
      expect(await owner.exists(path)).toBeNull();
      expect(await owner.getEphemerals()).toEqual([]);
      await owner.create(path, null, { mode: 'ephemeral' });
      expect((await watcher.exists(path))?.ephemeralOwner).toBe(owner.sessionId);
    });

    c("the expired session's one-shot watches end with a None/Expired event; its persistent watches go on", async (t) => {
      const [zk, other] = [await t.client(), await t.client()];
      const path = t.path();
      await other.create(path);
      const oneShot = await zk.getData(path, { watch: true });
      const persistent = await zk.addWatch(path);
      await t.target.expire(zk);
      expect(await oneShot.watch).toEqual({ type: 'None', state: 'Expired', path: undefined });
      expect(await persistent.next()).toEqual({ type: 'None', state: 'Expired', path: undefined });
      await zk.waitConnected();
      await zk.sync(path); // the watch is re-added before any later request is answered
      await other.setData(path, 'after');
      expect(await persistent.next()).toEqual(event('NodeDataChanged', path));
      await persistent.close();
    });

    c('a second client can resume a session with its id and password and owns its ephemerals', async (t) => {
      const zk = await t.client();
      const path = t.path();
      await zk.create(path, null, { mode: 'ephemeral' });
      const twin = await t.client({ sessionId: zk.sessionId, sessionPassword: zk.sessionPassword, renewSession: false });
      expect(twin.sessionId).toBe(zk.sessionId);
      expect(await twin.getEphemerals()).toContain(path);
    });

    c('resuming with a wrong password, or a closed session, is refused as SESSIONEXPIRED', async (t) => {
      const zk = await t.client();
      const wrong = new Uint8Array(16).fill(1);
      expect(await codeOf(t.client({ sessionId: zk.sessionId, sessionPassword: wrong, renewSession: false }))).toBe('SESSIONEXPIRED');
      const closed = await t.client();
      const { sessionId, sessionPassword } = closed;
      await closed.close();
      expect(await codeOf(t.client({ sessionId, sessionPassword, renewSession: false }))).toBe('SESSIONEXPIRED');
    });

    c('a reconnect within the session timeout keeps the session and its ephemerals', async (t) => {
      const zk = await t.client({ severable: true });
      const other = await t.client();
      const path = t.path();
      await zk.create(path, null, { mode: 'ephemeral' });
      const id = zk.sessionId;
      const reconnect = await t.target.disconnect(zk);
      expect((await other.exists(path))?.ephemeralOwner).toBe(id);
      await reconnect();
      expect(zk.sessionId).toBe(id);
      expect(zk.sessionRenewals).toBe(0);
      expect((await zk.exists(path))?.ephemeralOwner).toBe(id);
    });

    c('watches are restored on reconnect: changes made while disconnected fire then, each with its event', async (t) => {
      const zk = await t.client({ severable: true });
      const other = await t.client();
      const root = t.path();
      await other.create(root);
      for (const n of ['data', 'kids', 'gone', 'quiet']) await other.create(`${root}/${n}`);
      const data = await zk.getData(`${root}/data`, { watch: true });
      const born = await zk.exists(`${root}/born`, { watch: true });
      const kids = await zk.getChildren(`${root}/kids`, { watch: true });
      const gone = await zk.getData(`${root}/gone`, { watch: true });
      const quiet = await zk.getData(`${root}/quiet`, { watch: true });
      const reconnect = await t.target.disconnect(zk);
      await other.setData(`${root}/data`, 'x');
      await other.create(`${root}/born`);
      await other.create(`${root}/kids/k`);
      await other.delete(`${root}/gone`);
      await reconnect();
      expect(await data.watch).toEqual(event('NodeDataChanged', `${root}/data`));
      expect(await born.watch).toEqual(event('NodeCreated', `${root}/born`));
      expect(await kids.watch).toEqual(event('NodeChildrenChanged', `${root}/kids`));
      expect(await gone.watch).toEqual(event('NodeDeleted', `${root}/gone`));
      // the unchanged node's watch is set again on the server and fires on the next change
      expect(await zk.checkWatches(`${root}/quiet`, 'data')).toBe(true);
      await other.setData(`${root}/quiet`, 'now');
      expect(await quiet.watch).toEqual(event('NodeDataChanged', `${root}/quiet`));
    });

    c('a persistent watch is restored on reconnect without replaying what it missed while disconnected', async (t) => {
      const zk = await t.client({ severable: true });
      const other = await t.client();
      const root = t.path();
      await other.create(root);
      const watch = await zk.addWatch(root, { mode: 'persistent-recursive' });
      const reconnect = await t.target.disconnect(zk);
      await other.create(`${root}/during`);
      await reconnect();
      // The watch is set again (setWatches) before the reply to the first request on the new connection.
      await zk.sync(root);
      await other.create(`${root}/after`);
      // Unlike one-shot watches, persistent ones get no event for a change made while the client was away.
      expect(await watch.next()).toEqual(event('NodeCreated', `${root}/after`));
      await watch.close();
    });

    c('a session whose client stays away past its timeout expires on the server: ephemerals go, the client sees LOST', async (t) => {
      const zk = await t.client({ severable: true, sessionTimeoutMs: 1000 });
      const other = await t.client();
      const path = t.path();
      await zk.create(path, null, { mode: 'ephemeral' });
      const old = zk.sessionId;
      const events: string[] = [];
      zk.onStateChange((change) => change.event && events.push(change.event));
      const reconnect = await t.target.disconnect(zk);
      await t.target.until(async () => (await other.exists(path)) === null, 'the silent session to expire');
      await reconnect();
      expect(events).toContain('LOST');
      expect(zk.sessionId).not.toBe(old);
      expect(await zk.exists(path)).toBeNull();
    });
  },
};
