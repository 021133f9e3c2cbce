/** The members' client addresses read from /zookeeper/config text (what the ensemble tracker follows). */

import { describe, expect, it } from 'vitest';
import { configuredMembers } from '../../src/client/ensemble-config.js';

describe('configuredMembers', () => {
  const cases: [string, string, string[]][] = [
    ['3.5 format with roles and explicit client hosts', 'server.1=10.0.0.1:2888:3888:participant;10.0.0.1:2181\nserver.2=10.0.0.2:2888:3888:observer;10.0.0.2:2182\nversion=100000000', ['10.0.0.1:2181', '10.0.0.2:2182']],
    ['a port alone takes the quorum host', 'server.3=zk3.example:2888:3888;2181', ['zk3.example:2181']],
    ['wildcard client hosts take the quorum host', 'server.1=zk1:1:2;0.0.0.0:2181\nserver.2=[fd00::2]:1:2;[::]:2182\nserver.3=zk3:1:2;0:0:0:0:0:0:0:0:2183', ['zk1:2181', 'fd00::2:2182', 'zk3:2183']],
    ['IPv6 client address', 'server.7=[fd00::7]:2888:3888:participant;[fd00::7]:2181', ['fd00::7:2181']],
    ['several quorum addresses (3.6+): the first names the host', 'server.1=a1:1:2|b1:1:2;0.0.0.0:2181', ['a1:2181']],
    ['sorted by id; members without a client address left out', 'server.10=z:1:2;z:10\nserver.2=b:1:2;b:2\nserver.3=c:1:2:participant', ['b:2', 'z:10']],
    ['empty (a standalone server)', '', []],
    ['bad ports and wildcards with no host to stand in are skipped', 'server.1=a:1:2;a:99999\nserver.2=a:1:2;a:x\nserver.3=0.0.0.0:1:2;2181', []],
    ['CRLF and spaces tolerated', 'server.1=a:1:2;a:2181\r\n  server.2=b:1:2;b:2182  \n', ['a:2181', 'b:2182']],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(configuredMembers(text).map((e) => `${e.host}:${e.port}`)).toEqual(expected);
  });
});
