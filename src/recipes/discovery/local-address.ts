/**
 * This host's address for an instance registered without one, as Curator's ServiceInstance.builder() finds it: the
 * first address that is not loopback and not link-local. Java lists interfaces in its own order; here IPv4 comes
 * before IPv6, the address other services can most often reach.
 *
 * The recipes compile without Node's types and run where there is no `node:os`, so the interface list is reached
 * through `process.getBuiltinModule('node:os')` (Node 20.16+, Deno 2, Bun) when the runtime has it; elsewhere
 * (browsers, Workers) there is no answer and the caller must name the address.
 */

interface InterfaceAddress {
  readonly address: string;
  readonly family: string | number;
  readonly internal: boolean;
}

type NetworkInterfaces = () => Record<string, readonly InterfaceAddress[] | undefined>;

function networkInterfaces(): NetworkInterfaces | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const os = process?.getBuiltinModule?.('node:os') as { networkInterfaces?: NetworkInterfaces } | undefined;
    return typeof os?.networkInterfaces === 'function' ? os.networkInterfaces.bind(os) : undefined;
  } catch {
    return undefined;
  }
}

function isLinkLocal(a: InterfaceAddress): boolean {
  return a.address.startsWith('169.254.') || /^fe[89ab][0-9a-f]:/i.test(a.address);
}

/** The first usable address of this host (null when it has none), or undefined when the runtime cannot tell. */
export function localAddress(): string | null | undefined {
  return localAddressFrom(networkInterfaces());
}

/** The first usable address in an interface list (Node's os.networkInterfaces), undefined when there is no list. */
export function localAddressFrom(list: NetworkInterfaces | undefined): string | null | undefined {
  if (list === undefined) return undefined;
  const usable: InterfaceAddress[] = [];
  for (const addresses of Object.values(list())) for (const a of addresses ?? []) if (!a.internal && !isLinkLocal(a)) usable.push(a);
  const v4 = usable.find((a) => a.family === 'IPv4' || a.family === 4);
  return (v4 ?? usable[0])?.address ?? null;
}
