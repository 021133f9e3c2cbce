/** `zkwire config`: the ensemble's dynamic configuration (getConfig, the node /zookeeper/config). */

import { utf8Decode } from '../../protocol/utf8.js';
import type { NodeData } from '../../node.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, statToJson, usageError, type StatJson } from './node-client.js';

const usage = `Usage: zkwire config [--server HOSTS] [--auth SCHEME:CRED] [--json]

Prints the ensemble's configuration as the server holds it in /zookeeper/config: one
"server.ID=host:quorumPort:electionPort[:role];clientHost:clientPort" line per member, then "version=V"
(hex; the value reconfig --from-config takes).
With --json: {"members": [{"id", "spec"}...], "version", "text", "stat": {...}}.
With no --server, a throwaway local ZooKeeper is started and stopped (a standalone server shows no members).

Exit status: 0 read, 1 error, 2 usage error.
`;

/** One member of the configuration: its id and its whole `server.ID=…` line. */
export interface ConfigMember {
  readonly id: string;
  readonly spec: string;
}

/** The configuration as JSON: the members, the version, the text as the server holds it, and the node's Stat. */
export interface ConfigJson {
  readonly members: ConfigMember[];
  /** The `version=` value, hex; '' when the configuration has none. */
  readonly version: string;
  readonly text: string;
  readonly stat: StatJson;
}

/** The configuration data (from getConfig or reconfig) as JSON. */
export function configToJson(config: NodeData): ConfigJson {
  const text = utf8Decode(config.data);
  const members: ConfigMember[] = [];
  let version = '';
  for (const line of text.split('\n')) {
    const member = /^server\.(\d+)=/.exec(line);
    if (member !== null) members.push({ id: member[1]!, spec: line });
    const v = /^version=([0-9a-fA-F]+)$/.exec(line);
    if (v !== null) version = v[1]!;
  }
  return { members, version, text, stat: statToJson(config.stat) };
}

/** Prints a configuration: its text as the server holds it, or ConfigJson with --json. */
export function printConfig(io: CliIo, config: NodeData): void {
  const json = configToJson(config);
  print(io, json, () => json.text.replace(/\n+$/, ''));
}

const spec: ArgSpec = { positionals: [], required: 0 };

export const configCommand: Command = {
  name: 'config',
  summary: "print the ensemble's dynamic configuration (members and version)",
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('config', parsed, usage, io);
    return runWithClient('config', io, async (client, signal) => {
      printConfig(io, await client.getConfig({ signal }));
      return 0;
    });
  },
};
