import { createHash } from 'node:crypto';
import { realpathSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * An exclusive, process-wide hold on a data directory that the kernel lets go
 * of when the holding process dies, however it dies (docs/adr/0006).
 *
 * Node has no flock(2). What it has, and what the kernel also releases with
 * the last descriptor, is a listening socket: the holder binds a socket whose
 * name is derived from the directory, and a second bind of that name fails
 * with EADDRINUSE while the holder's socket is open. Closing happens in the
 * kernel's exit path, before the dead process is even a zombie, so a process
 * that was SIGKILLed, is still being reaped, or whose pid now belongs to
 * someone else holds nothing — the faults of a recorded-pid check.
 *
 * - Linux: an abstract unix socket (`\0location-api-lock:<dev>:<inode>`):
 *   nothing on disk, nothing stale to clean up. The name is the directory's
 *   device and inode, so every path to it (symlink, bind mount) is one lock.
 *   Abstract names are per network namespace: containers sharing a volume
 *   but not a network are not kept apart (they never were: the pid check
 *   presumed an owner on another host gone).
 * - Windows: a named pipe, which the system also closes with its process.
 * - Elsewhere (macOS): a socket file in /tmp named after the directory's
 *   device and inode (in /tmp, as a socket path is limited to 104 bytes). A
 *   crashed holder leaves the file behind; a bind that finds it and a connect
 *   that is refused mean nobody listens, so the file is replaced. Two openers
 *   racing over the same stale file could both win; that platform is for
 *   development only.
 *
 * Node opens sockets close-on-exec, so a child process never inherits the hold.
 * Whoever connects is told the holder's pid, which the refusal then names: a
 * holder that answers is alive and running, and is refused at once. One that
 * holds the name but cannot answer is being killed (its socket closes when its
 * exit completes) or is stopped; it is waited for, up to `waitMs`.
 */
export class DirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    /** The holder's pid, when it answered. */
    readonly pid: number | undefined,
    what = 'Directory',
  ) {
    super(`${what} ${dir} is in use by ${pid === undefined ? 'another process' : `process ${pid}`}`);
    this.name = 'DirectoryInUseError';
  }
}

export interface DirectoryLockOptions {
  /** Refused directories name this ('Job queue directory'); default 'Directory'. */
  what?: string;
  /**
   * How long to wait for a holder that holds the socket but does not answer:
   * a process being killed (its socket closes once its exit completes, which
   * took 1–2 s under disk load) or a stopped one. Default 5000 ms. A holder
   * that answers is alive and running: it is refused at once.
   */
  waitMs?: number;
  /** The kind of socket; tests pass another platform to run each kind here. */
  platform?: NodeJS.Platform;
}

/** How long a holder has to say who it is. */
const ASK_TIMEOUT_MS = 1000;
/** Pause between binds while a silent holder goes away. */
const RETRY_MS = 100;
/** Binds retried at once after finding nobody listening: only a racing opener takes the name again each time. */
const MAX_UNHELD = 5;

export class DirectoryLock {
  private released?: Promise<void>;

  private constructor(private readonly server: net.Server) {}

  /** Takes the directory (which must exist) or fails with DirectoryInUseError. */
  static async acquire(dir: string, options: DirectoryLockOptions = {}): Promise<DirectoryLock> {
    const resolved = realpathSync(dir);
    const address = lockAddress(resolved, options.platform);
    const deadline = Date.now() + (options.waitMs ?? 5000);
    // Nobody listening although the bind failed: the holder closed meanwhile, or (socket file) crashed.
    let unheld = 0;
    for (;;) {
      const server = await bind(address.path);
      if (server) return new DirectoryLock(server);
      const holder = await askHolder(address.path);
      if (holder.pid !== undefined) throw new DirectoryInUseError(resolved, holder.pid, options.what);
      if (holder.listening) {
        if (Date.now() >= deadline) throw new DirectoryInUseError(resolved, undefined, options.what);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      } else {
        if (++unheld > MAX_UNHELD) throw new DirectoryInUseError(resolved, undefined, options.what);
        if (address.file) rmSync(address.path, { force: true });
      }
    }
  }

  release(): Promise<void> {
    this.released ??= new Promise<void>((resolve) => {
      this.server.close(() => resolve());
    });
    return this.released;
  }
}

/** Where the holder of `dir` listens. */
export function lockAddress(dir: string, platform: NodeJS.Platform = process.platform): { path: string; file: boolean } {
  if (platform === 'win32') {
    const digest = createHash('sha256').update(dir.toLowerCase()).digest('hex').slice(0, 32);
    return { path: `\\\\?\\pipe\\location-api-lock-${digest}`, file: false };
  }
  const { dev, ino } = statSync(dir, { bigint: true });
  if (platform === 'linux') return { path: `\0location-api-lock:${dev}:${ino}`, file: false };
  return { path: path.join('/tmp', `location-api-lock-${dev}-${ino}.sock`), file: true };
}

/** The listening server, or undefined when the address is taken. */
function bind(address: string): Promise<net.Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((connection) => {
      connection.on('error', () => undefined); // a prober that hangs up early
      connection.end(`${process.pid}\n`);
    });
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(undefined);
      else reject(error);
    });
    server.listen({ path: address }, () => {
      // The hold must not keep an otherwise finished process alive.
      server.unref();
      resolve(server);
    });
  });
}

/** Whether someone listens at `address`, and its pid if it says so in time. */
function askHolder(address: string): Promise<{ listening: boolean; pid?: number }> {
  return new Promise((resolve) => {
    let reply = '';
    let connected = false;
    const socket = net.connect({ path: address });
    const done = (result: { listening: boolean; pid?: number }) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done({ listening: true }), ASK_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
    });
    socket.on('data', (chunk: string) => {
      reply += chunk;
    });
    socket.on('end', () => {
      const pid = Number(reply.trim());
      done({ listening: true, pid: Number.isSafeInteger(pid) && pid > 0 ? pid : undefined });
    });
    // Refused or gone: nobody listens. A reset after connecting: the holder died meanwhile.
    socket.on('error', () => done({ listening: false }));
    socket.on('close', () => {
      if (!connected) done({ listening: false });
    });
  });
}
