import net from 'node:net';
import tls from 'node:tls';

/**
 * A minimal Redis connection (RESP2 over TCP/TLS) shaped like Bun's built-in
 * `RedisClient`, so BullMQ's own `createBunRedisClient` adapter can drive it.
 *
 * Why it exists: BullMQ 6 no longer depends on ioredis (it is an optional peer
 * and is not installed here), and BullMQ's ESM/CJS build only loads ioredis via
 * `require`. Rather than add a dependency from this folder, the adapter speaks
 * the protocol itself and lets BullMQ's maintained adapter handle scripts
 * (EVALSHA with NOSCRIPT fallback), MULTI/EXEC, reply normalisation and
 * reconnection. Swapping to ioredis later means replacing `createRedisClient`
 * in `bullmq-job-queue.ts` only.
 *
 * Contract expected by the Bun adapter (bullmq `BunRedisRawClient`):
 * - `connect()` calls `onconnect` before it resolves;
 * - `send()` resolves replies in request order; error replies reject, except
 *   inside arrays (EXEC results) where they are `Error` values;
 * - when the socket goes away every pending command rejects with a message
 *   starting with "Connection closed" (the adapter turns those into BullMQ's
 *   `ConnectionClosedError`, or null while it is closing on purpose), then
 *   `onclose` fires — but only for a connection that had been established;
 * - `duplicate()` yields an unconnected connection to the same server.
 */

export interface RedisTarget {
  host: string;
  port: number;
  tls: boolean;
  username?: string;
  password?: string;
  db?: number;
}

export function parseRedisUrl(url: string): RedisTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(`Unsupported Redis URL scheme "${parsed.protocol}" (expected redis: or rediss:)`);
  }
  const dbPath = parsed.pathname.replace(/^\//, '');
  const db = dbPath === '' ? undefined : Number(dbPath);
  if (db !== undefined && (!Number.isInteger(db) || db < 0)) {
    throw new Error(`Invalid Redis database "${dbPath}" in URL`);
  }
  return {
    // WHATWG URL keeps IPv6 brackets in hostname; net.connect wants them off.
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    tls: parsed.protocol === 'rediss:',
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db,
  };
}

/** An error reply from the server (`-ERR …`, `-NOSCRIPT …`). */
export class RedisReplyError extends Error {
  override name = 'RedisReplyError';
}

type Reply = string | number | null | RedisReplyError | Reply[];
type Arg = string | number | Buffer;

const CRLF = Buffer.from('\r\n');

export class RespConnection {
  connected = false;
  onconnect: (() => void) | null = null;
  onclose: ((error?: Error) => void) | null = null;
  onerror: ((error: Error) => void) | null = null;

  private socket: net.Socket | undefined;
  private connecting: Promise<void> | undefined;
  private readonly pending: Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }> = [];
  private readonly parser = new RespParser();
  private closedOnPurpose = false;

  constructor(readonly target: RedisTarget) {}

  static fromUrl(url: string): RespConnection {
    return new RespConnection(parseRedisUrl(url));
  }

  get url(): string {
    return `${this.target.tls ? 'rediss' : 'redis'}://${this.target.host}:${this.target.port}`;
  }

  connect(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  async duplicate(): Promise<RespConnection> {
    return new RespConnection(this.target);
  }

  /** Generic only to match Bun's signature; the reply is whatever the command answers. */
  send<T = Reply>(command: string, args: Arg[] = []): Promise<T> {
    if (!this.connected) return Promise.reject(new Error('Connection closed'));
    return this.write(command, args) as Promise<T>;
  }

  /** Destroys the socket at once; pending commands reject (as Bun's close() does). */
  close(): void {
    this.closedOnPurpose = true;
    this.socket?.destroy();
  }

  get(key: string): Promise<string | null> {
    return this.send<string | null>('GET', [key]);
  }

  smembers(key: string): Promise<unknown[]> {
    return this.send<unknown[]>('SMEMBERS', [key]);
  }

  incr(key: string): Promise<number> {
    return this.send<number>('INCR', [key]);
  }

  private open(): Promise<void> {
    this.closedOnPurpose = false;
    return new Promise<void>((resolve, reject) => {
      const { host, port } = this.target;
      const socket = this.target.tls ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
      let failure: Error | undefined;
      let established = false;
      socket.setNoDelay(true);
      socket.setKeepAlive(true);
      socket.on('data', (chunk) => this.receive(chunk));
      socket.on('error', (error) => {
        failure = error;
        if (established) this.onerror?.(error);
      });
      socket.on('close', () => {
        this.socket = undefined;
        const wasConnected = this.connected;
        this.connected = false;
        this.parser.reset();
        const reason = new Error(
          this.closedOnPurpose ? 'Connection closed' : `Connection closed unexpectedly${failure ? `: ${failure.message}` : ''}`,
        );
        for (const waiter of this.pending.splice(0)) waiter.reject(reason);
        if (!established) {
          reject(failure ?? reason);
          return;
        }
        if (wasConnected) this.onclose?.(this.closedOnPurpose ? undefined : reason);
      });
      socket.once(this.target.tls ? 'secureConnect' : 'connect', () => {
        this.socket = socket;
        this.handshake().then(
          () => {
            established = true;
            this.connected = true;
            this.onconnect?.();
            resolve();
          },
          (error: Error) => {
            failure = error;
            socket.destroy();
          },
        );
      });
    });
  }

  private async handshake(): Promise<void> {
    const { username, password, db } = this.target;
    if (password !== undefined) {
      await this.write('AUTH', username !== undefined ? [username, password] : [password]);
    }
    if (db !== undefined && db !== 0) await this.write('SELECT', [db]);
  }

  private write(command: string, args: Arg[]): Promise<Reply> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error('Connection closed'));
    return new Promise<Reply>((resolve, reject) => {
      this.pending.push({
        resolve: (reply) => (reply instanceof RedisReplyError ? reject(reply) : resolve(reply)),
        reject,
      });
      socket.write(encodeCommand(command, args));
    });
  }

  private receive(chunk: Buffer): void {
    this.parser.push(chunk);
    for (;;) {
      let parsed: { value: Reply } | undefined;
      try {
        parsed = this.parser.next();
      } catch (error) {
        this.socket?.destroy(error as Error);
        return;
      }
      if (parsed === undefined) return;
      const waiter = this.pending.shift();
      // A reply nobody asked for means the stream is out of step: replies
      // would reach the wrong callers from here on, so drop the connection.
      if (!waiter) {
        this.socket?.destroy(new Error('Unexpected reply from Redis'));
        return;
      }
      waiter.resolve(parsed.value);
    }
  }
}

export function encodeCommand(command: string, args: Arg[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length + 1}\r\n`)];
  for (const arg of [command, ...args]) {
    const bytes = Buffer.isBuffer(arg) ? arg : Buffer.from(String(arg), 'utf8');
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, CRLF);
  }
  return Buffer.concat(parts);
}

/** Incremental RESP2 reply parser; `next()` answers undefined until a whole reply has arrived. */
export class RespParser {
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;

  push(chunk: Buffer): void {
    this.buffer = this.offset < this.buffer.length ? Buffer.concat([this.buffer.subarray(this.offset), chunk]) : chunk;
    this.offset = 0;
  }

  reset(): void {
    this.buffer = Buffer.alloc(0);
    this.offset = 0;
  }

  next(): { value: Reply } | undefined {
    const parsed = this.parse(this.offset);
    if (parsed === undefined) return undefined;
    this.offset = parsed.end;
    return { value: parsed.value };
  }

  private parse(start: number): { value: Reply; end: number } | undefined {
    const lineEnd = this.buffer.indexOf(CRLF, start);
    if (lineEnd === -1) return undefined;
    const type = String.fromCharCode(this.buffer[start]);
    const line = this.buffer.toString('utf8', start + 1, lineEnd);
    const afterLine = lineEnd + 2;
    switch (type) {
      case '+':
        return { value: line, end: afterLine };
      case '-':
        return { value: new RedisReplyError(line), end: afterLine };
      case ':':
        return { value: Number(line), end: afterLine };
      case '$': {
        const length = Number(line);
        if (length < 0) return { value: null, end: afterLine };
        const end = afterLine + length;
        if (this.buffer.length < end + 2) return undefined;
        return { value: this.buffer.toString('utf8', afterLine, end), end: end + 2 };
      }
      case '*': {
        const count = Number(line);
        if (count < 0) return { value: null, end: afterLine };
        const items: Reply[] = [];
        let position = afterLine;
        for (let i = 0; i < count; i++) {
          const item = this.parse(position);
          if (item === undefined) return undefined;
          items.push(item.value);
          position = item.end;
        }
        return { value: items, end: position };
      }
      default:
        throw new Error(`Unexpected RESP type byte "${type}"`);
    }
  }
}
