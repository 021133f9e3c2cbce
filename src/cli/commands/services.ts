/**
 * `zkwire services [NAME]`: what is registered in a curator-x-discovery registry (Spring Cloud Zookeeper's, Dubbo
 * 3's, Curator's): every service and its instances, or one service's. Nodes that hold no instance are reported
 * apart, never a failure: the listing is what an operator looks at when a consumer finds nothing.
 */

import { ServiceDiscovery } from '../../recipes/discovery/service-discovery.js';
import type { ServiceInstance } from '../../recipes/discovery/service-instance.js';
import { buildUriSpec } from '../../recipes/discovery/uri-spec.js';
import type { CliIo, Command } from '../types.js';
import { describeError, parseCommandArgs, runWithClient, usageError } from './node-client.js';

const usage = `Usage: zkwire services [NAME] [--base PATH] [--json] [--server HOSTS]

Lists the services registered under --base (default /services, Spring Cloud Zookeeper's and Dubbo's) with their
instances, as Curator's ServiceDiscovery reads them; with NAME, that service's instances only.
Text: one line per service, then one per instance: id, address:port (ssl port), type, URI, payload.
With --json: {"basePath","services":[{"name","instances":[{name,id,address,port,sslPort,payload,
registrationTimeUTC,serviceType,uriSpec,enabled,uri}]}],"skipped":[{"path","error"}]}.
A node that is not Curator's instance JSON is listed under "skipped" (text: on stderr) and does not fail the command.
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 listed (also when there is nothing), 1 error, 2 usage error.
`;

/** An instance as the CLI shows it: its fields and the URI its uriSpec builds. */
export function instanceToJson(i: ServiceInstance): Record<string, unknown> {
  return { ...i, uri: buildUriSpec(i) };
}

function instanceLine(i: ServiceInstance): string {
  const where = `${i.address ?? '-'}:${i.port ?? '-'}${i.sslPort === null ? '' : ` (ssl ${i.sslPort})`}`;
  const uri = buildUriSpec(i);
  const payload = i.payload === null ? '' : ` payload=${JSON.stringify(i.payload)}`;
  return `  ${i.id} ${where} ${i.serviceType}${i.enabled ? '' : ' disabled'}${uri === '' ? '' : ` ${uri}`}${payload}`;
}

export const servicesCommand: Command = {
  name: 'services',
  summary: 'list the services and instances of a Curator / Spring Cloud / Dubbo discovery registry',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, { positionals: ['NAME'], required: 0, valued: ['--base'], flags: ['--json'] });
    if (typeof parsed === 'string') return usageError('services', parsed, usage, io);
    const json = io.globals.json || parsed.flags.has('--json');
    const basePath = parsed.values.get('--base') ?? '/services';
    const only = parsed.positionals[0];
    return runWithClient('services', io, async (client) => {
      const discovery = new ServiceDiscovery(client, { basePath });
      const skipped: { path: string; error: string }[] = [];
      discovery.addListener((e) => {
        if (e.type === 'instanceSkipped') skipped.push({ path: e.path, error: describeError(e.error) });
      });
      await discovery.start();
      try {
        const names = only !== undefined ? [only] : (await discovery.queryForNames()).sort();
        const services = [];
        for (const name of names) {
          const instances = (await discovery.queryForInstances(name)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          services.push({ name, instances });
        }
        if (json) {
          io.out(`${JSON.stringify({ basePath, services: services.map((s) => ({ name: s.name, instances: s.instances.map(instanceToJson) })), skipped })}\n`);
        } else {
          for (const s of services) io.out(`${s.name}\n${s.instances.map((i) => `${instanceLine(i)}\n`).join('')}`);
          for (const s of skipped) io.err(`zkwire services: skipped ${s.path}: ${s.error}\n`);
        }
        return 0;
      } finally {
        await discovery.close();
      }
    });
  },
};
