/**
 * ZooKeeper's admin server (Jetty, `admin.enableServer`, port `admin.serverPort`, 8080 by default): each command
 * is GET `/commands/<name>` and answers JSON with the command's fields plus `command` and `error`. Its names are
 * the long ones (`monitor`, `connections`, `voting_view`, ...) and, for most, the four-letter word too (`mntr`),
 * so a word the server's 4lw.commands.whitelist refuses can be asked here instead. What an answer holds differs by
 * version; it is passed on as the server gave it.
 */

import type { JsonValue } from '../protocol/index.js';
import { ToolError } from './shared/tool-error.js';

/** The admin server's port when zoo.cfg does not set admin.serverPort. */
export const DEFAULT_ADMIN_PORT = 8080;

/** The URL of command `name` from a base that is the server (`http://h:8080`) or its `/commands` path already. */
export function adminCommandUrl(base: string, name: string): string {
  const trimmed = base.replace(/\/+$/, '');
  const root = /\/commands$/.test(trimmed) ? trimmed : `${trimmed}/commands`;
  return `${root}/${encodeURIComponent(name)}`;
}

/** The admin base URL for a client address: same host, the admin server's default port. */
export function defaultAdminBase(host: string): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${DEFAULT_ADMIN_PORT}`;
}

/** The server's `error` of an answer as one line: the URL, the HTTP status unless 200, the message. */
export function adminErrorText(answer: AdminAnswer): string {
  return `${answer.url}: ${answer.status === 200 ? '' : `HTTP ${answer.status}: `}${answer.error ?? ''}`;
}

/** What one admin command answered. */
export interface AdminAnswer {
  readonly url: string;
  readonly status: number;
  /** The JSON the server sent. */
  readonly body: JsonValue;
  /** The server's own `error` field when it is set (an unknown command, a refused one). */
  readonly error: string | undefined;
}

/**
 * GETs one command. A connection that fails, a reply that is not JSON, or no answer within `signal` is a typed
 * error (ADMIN_UNREACHABLE, ADMIN_BAD_REPLY) naming the URL and what to check.
 */
export async function adminCommand(base: string, name: string, signal: AbortSignal): Promise<AdminAnswer> {
  const url = adminCommandUrl(base, name);
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
    throw new ToolError('ADMIN_UNREACHABLE', `no admin server answered at ${url} (${why}); it runs when zoo.cfg has admin.enableServer=true, on admin.serverPort (default ${DEFAULT_ADMIN_PORT})`);
  }
  const text = await response.text();
  let body: JsonValue;
  try {
    body = JSON.parse(text) as JsonValue;
  } catch {
    throw new ToolError('ADMIN_BAD_REPLY', `${url} answered HTTP ${response.status} with something that is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const error = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, JsonValue>)['error'] : undefined;
  return { url, status: response.status, body, error: typeof error === 'string' && error !== '' ? error : undefined };
}
