/**
 * `zkwire register NAME --address A --port P`: registers one instance in a curator-x-discovery registry and keeps
 * it registered (again after a deletion or a session expiry) until interrupted, then deletes it: a sidecar that
 * makes a process which cannot embed a ZooKeeper client findable by Spring Cloud, Dubbo or Curator consumers.
 */

import { DUBBO_INSTANCE_CLASS, SPRING_CLOUD_INSTANCE_CLASS } from '../../recipes/discovery/payloads.js';
import { ServiceDiscovery } from '../../recipes/discovery/service-discovery.js';
import { SERVICE_TYPES, serviceInstance, type JavaObject, type ServiceInstance, type ServicePayload, type ServiceType } from '../../recipes/discovery/service-instance.js';
import { ZooKeeperError } from '../../errors.js';
import { onInterrupt, STEP_LIMIT_MS, type Interrupt } from '../interrupt.js';
import { connectForCli } from '../connect.js';
import { withServer } from '../../testing/local-server/with-server.js';
import type { CliIo, Command } from '../types.js';
import { describeError, integerOption, parseCommandArgs, printError, usageError } from './node-client.js';
import { instanceToJson } from './services.js';

const usage = `Usage: zkwire register NAME --address A --port P [--ssl-port P] [--id ID] [--type TYPE]
                      [--uri-spec SPEC] [--payload JSON] [--payload-class CLASS] [--base PATH] [--json] [--server HOSTS]

Registers an instance of service NAME under --base (default /services) as Curator's ServiceDiscovery does, so
Spring Cloud Zookeeper, Dubbo 3 and Curator consumers find it, and holds the registration (created again if it is
deleted or its session expires) until interrupted.

  --address A       the instance's address (default: this host's first non-loopback address)
  --port P          its port; --ssl-port P its TLS port
  --id ID           its id (default: a random UUID); the node is <base>/<NAME>/<ID>
  --type TYPE       DYNAMIC (default: an ephemeral node), STATIC or PERMANENT (persistent), DYNAMIC_SEQUENTIAL
  --uri-spec SPEC   Curator's URI template, e.g. '{scheme}://{address}:{port}'
  --payload JSON    the payload, a JSON object (or string, number, boolean)
  --payload-class C the Java class consumers deserialise the payload as: spring-cloud (Spring Cloud Zookeeper's
                    ZookeeperInstance), dubbo (Dubbo 3's), or a class name; needed for an object payload that
                    has no "@class" of its own
  --json            one JSON object per line instead of text

Prints {"registered":true,"path","instance"} once the node exists, {"event":"registrationLost"|"registered","path"}
when it goes and comes back, and {"unregistered":true} (or {"unregistered":false,"error"}) when interrupted.
SIGINT, SIGTERM or SIGHUP delete the registration, close the session and exit with 128 + the signal (130, 143,
129). Each step is waited for at most ${STEP_LIMIT_MS} ms, saying so on stderr; a second signal exits at once.

Exit status: 128 + signal after a clean interrupt, 1 failure (e.g. no server), 2 usage error.
`;

const CLASS_ALIASES: Readonly<Record<string, string>> = { 'spring-cloud': SPRING_CLOUD_INSTANCE_CLASS, dubbo: DUBBO_INSTANCE_CLASS };

interface RegisterArgs {
  instance: ServiceInstance;
  basePath: string;
  json: boolean;
}

type PayloadArg = { ok: true; payload: ServicePayload | null } | { ok: false; problem: string };

/** The payload from --payload and --payload-class, `@class` first as Jackson writes it. */
function payloadOf(text: string | undefined, javaClass: string | undefined): PayloadArg {
  if (text === undefined) return javaClass === undefined ? { ok: true, payload: null } : { ok: false, problem: '--payload-class needs --payload' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: `--payload is not JSON: ${text}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (javaClass !== undefined || Array.isArray(value)) return { ok: false, problem: '--payload-class goes with an object --payload, and a payload is not an array' };
    return { ok: true, payload: value as ServicePayload };
  }
  const { '@class': own, ...fields } = value as JavaObject;
  const named = javaClass === undefined ? own : (CLASS_ALIASES[javaClass] ?? javaClass);
  if (typeof named !== 'string' || named === '') {
    return { ok: false, problem: 'an object --payload needs "@class" or --payload-class (spring-cloud, dubbo, or a Java class name)' };
  }
  return { ok: true, payload: { '@class': named, ...fields } };
}

function parseRegisterArgs(args: string[], globalJson: boolean): RegisterArgs | string {
  const parsed = parseCommandArgs(args, {
    valued: ['--address', '--port', '--ssl-port', '--id', '--type', '--uri-spec', '--payload', '--payload-class', '--base'],
    flags: ['--json'],
    positionals: ['NAME'],
    required: 1,
  });
  if (typeof parsed === 'string') return parsed;
  const ports: Record<string, number | null> = { '--port': null, '--ssl-port': null };
  for (const name of ['--port', '--ssl-port']) {
    const value = parsed.values.get(name);
    if (value === undefined) continue;
    const n = integerOption(name, value, 0);
    if (typeof n === 'string') return n;
    if (n > 65535) return `${name} must be a port number (0-65535), got ${value}`;
    ports[name] = n;
  }
  const type = parsed.values.get('--type') ?? 'DYNAMIC';
  if (!SERVICE_TYPES.includes(type as ServiceType)) return `--type must be one of ${SERVICE_TYPES.join(', ')}`;
  const payload = payloadOf(parsed.values.get('--payload'), parsed.values.get('--payload-class'));
  if (!payload.ok) return payload.problem;
  const address = parsed.values.get('--address');
  const id = parsed.values.get('--id');
  const uriSpec = parsed.values.get('--uri-spec');
  try {
    const instance = serviceInstance({
      name: parsed.positionals[0]!,
      ...(id === undefined ? {} : { id }),
      ...(address === undefined ? {} : { address }),
      port: ports['--port'] ?? null,
      sslPort: ports['--ssl-port'] ?? null,
      payload: payload.payload,
      serviceType: type as ServiceType,
      ...(uriSpec === undefined ? {} : { uriSpec }),
    });
    return { instance, basePath: parsed.values.get('--base') ?? '/services', json: globalJson || parsed.flags.has('--json') };
  } catch (e) {
    return describeError(e);
  }
}

async function runRegister(a: RegisterArgs, connectString: string, io: CliIo, interrupt: Interrupt): Promise<number> {
  const print = (obj: Record<string, unknown>, text: string): void => io.out(a.json ? `${JSON.stringify(obj)}\n` : `${text}\n`);
  const client = await connectForCli('register', connectString, io, interrupt.signal);
  try {
    const discovery = new ServiceDiscovery(client, { basePath: a.basePath });
    await discovery.start();
    const path = discovery.pathForInstance(a.instance.name, a.instance.id);
    try {
      await discovery.registerService(a.instance, { signal: interrupt.signal });
    } catch (e) {
      const closed = await interrupt.step(`the registration ${path} to be deleted`, discovery.close());
      if (interrupt.received !== undefined) {
        print({ registered: false, interrupted: interrupt.received }, `interrupted by ${interrupt.received} before ${path} was created`);
        return interrupt.exitCode!;
      }
      if (!closed.done) printError(io, 'register', 'error' in closed ? closed.error : 'timed out', 'unregistering');
      throw e;
    }
    print({ registered: true, path, instance: instanceToJson(a.instance) }, `registered ${path}`);
    discovery.addListener((e) => {
      if (e.type === 'registered' || e.type === 'registrationLost') print({ event: e.type, path: e.path }, `${e.type === 'registered' ? 'registered again' : 'lost'} ${e.path}`);
    });
    await new Promise<void>((resolve) => interrupt.signal.addEventListener('abort', () => resolve(), { once: true }));
    const closed = await interrupt.step(`the registration ${path} to be deleted`, discovery.close());
    if (closed.done) print({ unregistered: true }, `unregistered ${path}`);
    else {
      const error = 'error' in closed ? closed.error : new ZooKeeperError('TIMEOUT', `no answer within ${STEP_LIMIT_MS} ms`);
      const code = error instanceof ZooKeeperError ? error.code : 'UNKNOWN_ERROR';
      print(
        { unregistered: false, error: { code, message: describeError(error) } },
        `NOT confirmed unregistered: ${path}: ${describeError(error)}${a.instance.serviceType === 'DYNAMIC' || a.instance.serviceType === 'DYNAMIC_SEQUENTIAL' ? '; the node goes when the session ends (closing it now)' : ''}`,
      );
    }
    return interrupt.exitCode ?? 0;
  } finally {
    await interrupt.step('the session to close', client.close());
  }
}

export const registerCommand: Command = {
  name: 'register',
  summary: 'register a service instance (Curator / Spring Cloud / Dubbo discovery) and hold it until interrupted',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseRegisterArgs(args, io.globals.json);
    if (typeof parsed === 'string') return usageError('register', parsed, usage, io);
    using interrupt = onInterrupt('register', io);
    try {
      return await withServer(io.globals, io, ({ connectString }) => runRegister(parsed, connectString, io, interrupt));
    } catch (e) {
      if (interrupt.exitCode !== undefined) return interrupt.exitCode;
      printError(io, 'register', e);
      return 1;
    }
  },
};
