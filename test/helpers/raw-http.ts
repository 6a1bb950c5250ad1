import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lowercase; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** Everything the server wrote, as latin1 text. */
  raw: string;
}

/** Parses the first HTTP/1.1 response in `raw` (a Content-Length body). */
export function parseResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response head in ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = Buffer.from(raw.slice(end + 4), 'latin1')
    .subarray(0, length)
    .toString('utf8');
  return { status, headers, body, raw };
}

/** A connection to 127.0.0.1:`port` that collects what the server writes until it closes. */
export function openConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<string>((resolve) => {
    // A reset after the answer (the server closing with bytes unread) still leaves the answer.
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    socket,
    connected,
    /** Writes raw bytes (latin1: each char one byte). */
    write: (bytes: string) => socket.write(Buffer.from(bytes, 'latin1')),
    /** Resolves with the server's answer once the server has closed the connection. */
    response: async (): Promise<RawResponse> => parseResponse(await closed),
  };
}

/** Sends `bytes` on a new connection and resolves with the answer once the server closes it. */
export async function exchange(port: number, bytes: string): Promise<RawResponse> {
  const connection = openConnection(port);
  connection.write(bytes);
  return await connection.response();
}
