/** The CLI dispatcher: global flags, then a command from the registry. Testable without a process. */

import { DEFAULT_MAX_FRAME_SIZE } from '../protocol/frame.js';
import { parseArgs } from './args.js';
import { VERSION } from './version.js';
import { loadCommand, loadCommands } from './commands/index.js';
import type { CliIo, Command } from './types.js';

async function mainUsage(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  const list = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `Usage: zkwire [global options] <command> [command options]

Commands:
${list}

Global options (before or after the command):
  --server HOSTS          connect string, host:port[,host:port...][/chroot]
  --session-timeout MS    requested session timeout in milliseconds (the server clamps it)
  --connect-timeout MS    give up connecting after MS ms (default: the session timeout)
  --auth SCHEME:CRED      credentials sent on connecting, e.g. digest:user:password (repeatable)
  --max-frame-size BYTES  largest reply frame accepted (default ${DEFAULT_MAX_FRAME_SIZE})
  --tls                   speak TLS (to a secureClientPort); implied by the --tls-* files
  --tls-ca FILE           PEM CA certificate(s) to trust instead of the system's
  --tls-cert FILE         PEM client certificate (with --tls-key), e.g. for x509 ACLs
  --tls-key FILE          PEM private key of --tls-cert
  --sasl digest:USER      SASL DIGEST-MD5 login; the password from --sasl-password-file,
                          else $ZKWIRE_SASL_PASSWORD, else a prompt (never from argv)
  --sasl gssapi           SASL Kerberos login as --principal P [--keytab FILE]
  --sasl-password-file F  the DIGEST-MD5 password (one trailing newline dropped)
  --config FILE           ZooKeeper client properties (zkCli.sh -client-configuration):
                          zookeeper.client.secure, PEM trust/key stores, the JAAS login
  --json                  machine-readable output; errors as {"error":{"code","message"}} on stderr
  --help, -h              help for zkwire or for a command
  --version               the zkwire version (without a command)
  --                      end of options: what follows is data, even if it starts with -
`;
}

export async function runCli(argv: readonly string[], io: Omit<CliIo, 'globals'>): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.version) {
    io.out(`zkwire ${VERSION}\n`);
    return 0;
  }
  const cmd: Command | undefined = parsed.command === undefined ? undefined : await loadCommand(parsed.command);
  if (parsed.command !== undefined && cmd === undefined) {
    io.err(`zkwire: unknown command ${parsed.command}\n\n${await mainUsage()}`);
    return 2;
  }
  if (parsed.help) {
    io.out(cmd === undefined ? await mainUsage() : cmd.usage);
    return 0;
  }
  if (parsed.error !== undefined) {
    io.err(`zkwire: ${parsed.error}\n`);
    return 2;
  }
  if (cmd === undefined) {
    io.err(await mainUsage());
    return 2;
  }
  return cmd.run(parsed.rest, { ...io, globals: parsed.globals });
}
