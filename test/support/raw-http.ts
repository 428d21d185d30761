import net from 'node:net';

/** What came back on a raw socket: the status line's code, the headers, the body, and when the socket closed. */
export interface RawAnswer {
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connect until the server closed the socket (undefined: still open at the deadline). */
  closedAfterMs: number | undefined;
}

/**
 * Talks HTTP/1.1 over a bare socket, for what `fetch` cannot send (malformed
 * requests, oversized headers, a body trickled byte by byte). `chunks` are
 * written `intervalMs` apart; the answer is read until the server closes the
 * socket or `deadlineMs` passes.
 */
export function rawExchange(url: string, chunks: string[], options: { intervalMs?: number; deadlineMs?: number } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const { intervalMs = 0, deadlineMs = 5000 } = options;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let closedAfterMs: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ ...parseAnswer(Buffer.concat(received).toString('utf8')), closedAfterMs });
    };
    const deadline = setTimeout(finish, deadlineMs);
    socket.on('data', (data) => received.push(data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closedAfterMs = Date.now() - started;
      finish();
    });
    let next = 0;
    const writeNext = () => {
      if (next >= chunks.length || socket.destroyed) return;
      socket.write(chunks[next++], () => undefined);
      timer = setTimeout(writeNext, intervalMs);
    };
    socket.on('connect', writeNext);
  });
}

function parseAnswer(text: string): Omit<RawAnswer, 'closedAfterMs'> {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  return { status: status ? Number(status) : undefined, headers, body: split === -1 ? '' : text.slice(split + 4) };
}
