/**
 * The byte-stream interface between the session and a runtime's sockets.
 *
 * The session knows nothing of sockets: it asks a Transport for a connection to one endpoint and then
 * only writes bytes, receives bytes and learns that the stream ended. Each runtime gets one small
 * adapter (node:net/node:tls, Deno.connect, web-stream sockets); tests can pass their own.
 * Callbacks rather than an async iterator on the receive side: the session is event-driven, and a
 * callback per chunk costs nothing where an iterator costs a promise per chunk.
 */

export interface Endpoint {
  /** Hostname or IP literal (IPv6 without brackets), as the connect string gives it. */
  readonly host: string;
  readonly port: number;
  /**
   * The address to dial when the client resolved `host` itself (the `resolver` option): transports connect to it
   * and keep `host` for what names the server (TLS server name and certificate check, descriptions).
   */
  readonly address?: string;
}

/** What a ByteStream calls as bytes arrive and when it ends. */
export interface ByteStreamHandlers {
  /** Bytes arrived. The chunk is owned by the receiver from now on. */
  onData(chunk: Uint8Array): void;
  /** The stream ended: by the peer (no error), by an error, or after `close()`. Called exactly once. */
  onClose(error?: Error): void;
}

/** An open connection to one server, as the session uses it. */
export interface ByteStream {
  /**
   * Queues bytes for sending. Never throws for a closed stream (the close is reported through onClose);
   * the session coalesces its frames so it calls this about once per event-loop turn.
   */
  write(chunk: Uint8Array): void;
  /** Closes the stream; onClose follows (once). Safe to call more than once. */
  close(): void;
  /** A short description for traces and errors, e.g. "127.0.0.1:2181 (tls)". */
  readonly description?: string;
}

/** Options of `Transport.connect`. */
export interface ConnectOptions {
  /** Aborted when the connect attempt's deadline passes or the client closes. */
  readonly signal: AbortSignal;
}

/**
 * Resolves a host name to the addresses to dial (IP literals, or any name the transport can dial). Asked before
 * every connect attempt; `signal` fires when the attempt is abandoned. An empty list dials the name as it is.
 */
export type Resolver = (host: string, options: { readonly signal: AbortSignal }) => Promise<readonly string[]> | readonly string[];

/**
 * TLS as the client options' `tls` takes it: the part every runtime can express, PEM text only (no runtime's
 * certificate objects), so one options object works on Node, Deno, Bun and workerd alike. What each runtime
 * supports of it is said at each transport's `withTls`.
 */
export interface TlsOptions {
  /** PEM certificate(s) of the CA(s) to trust for the server's certificate, instead of the runtime's defaults. */
  readonly ca?: string | readonly string[];
  /** PEM client certificate (chain), for servers that want one (`ssl.clientAuth=need`, x509 authentication). */
  readonly cert?: string;
  /** PEM private key of `cert`. */
  readonly key?: string;
  /** The name the server's certificate must carry, when it is not the host of the connect string. */
  readonly servername?: string;
}

/** Opens byte streams. Passed in the client options, so two transports can live in one process. */
export interface Transport {
  /**
   * How this transport's host names are resolved before each connect attempt when the client's options give no
   * `resolver` (nodeTransport: node:dns). None: the transport is handed the name as it is.
   */
  readonly resolver?: Resolver;
  /** Resolves once the stream is open (TLS handshake done); rejects with an Error if it cannot be. */
  connect(endpoint: Endpoint, handlers: ByteStreamHandlers, options: ConnectOptions): Promise<ByteStream>;
  /**
   * The same transport speaking TLS with these options: what the client options' `tls` is applied through. Throws a
   * BAD_ARGUMENT ZooKeeperError for an option the runtime cannot honour. A transport without it cannot take `tls`.
   */
  withTls?(tls: true | TlsOptions): Transport;
}
