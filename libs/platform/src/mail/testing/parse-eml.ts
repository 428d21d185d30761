/**
 * Just enough of RFC 5322 / MIME to read back what nodemailer writes, so tests
 * check the decoded headers and bodies a mail client would show: unfolded
 * headers, encoded words, quoted-printable and base64, multipart/alternative.
 */
export interface ParsedMail {
  /** Lower-cased names; a repeated header keeps its first value. */
  headers: Map<string, string>;
  text?: string;
  html?: string;
}

export function parseEml(raw: string | Buffer): ParsedMail {
  const mail: ParsedMail = { headers: new Map() };
  parsePart(typeof raw === 'string' ? raw : raw.toString('latin1'), mail, true);
  return mail;
}

function parsePart(raw: string, mail: ParsedMail, top: boolean): void {
  const split = /\r?\n\r?\n/.exec(raw);
  const head = split ? raw.slice(0, split.index) : raw;
  const body = split ? raw.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(head);
  if (top) mail.headers = headers;

  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) throw new Error('multipart without boundary');
    const sections = body.split(new RegExp(`\\r?\\n?--${escapeRegExp(boundary)}(?:--)?\\r?\\n?`));
    for (const section of sections.slice(1)) if (section.trim()) parsePart(section, mail, false);
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit');
  if (type === 'text/plain' && mail.text === undefined) mail.text = decoded;
  if (type === 'text/html' && mail.html === undefined) mail.html = decoded;
}

function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = head.replace(/\r?\n(?=[ \t])/g, '');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return qpBytes(body.replace(/=\r?\n/g, '')).toString('utf8');
    default:
      return Buffer.from(body, 'latin1').toString('utf8');
  }
}

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words; whitespace between two of them is not part of the text. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : qpBytes(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
