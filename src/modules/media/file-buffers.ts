/**
 * Buffers that media files are read into to be served, each lent to one response until that
 * response has closed, then lent again. A file streamed from disk allocates a new buffer for every
 * chunk, and the churn of that memory outside the JavaScript heap makes V8 run a full collection
 * every few hundred milliseconds while platforms fetch a burst of posts' media: in a publishing
 * burst, full collections took a third of the API process's CPU, half of them for the files it
 * served (bench/README.md, Publishing). A file read into a buffer that later responses reuse
 * allocates nothing.
 */

/** Files (or byte ranges of them) up to this long are served from a lent buffer; longer ones are streamed. */
export const LENT_BUFFER_MAX_BYTES = 8 * 1024 * 1024;
const SMALLEST_BUFFER_BYTES = 64 * 1024;
/** At most this much is kept between responses; a buffer given back beyond it is left to the collector. */
const IDLE_MAX_BYTES = 32 * 1024 * 1024;

/** What a buffer is lent to: a response, which emits `close` once it needs the buffer no more. */
export interface Borrower {
  readonly closed: boolean;
  once(event: 'close', listener: () => void): unknown;
}

/** Idle buffers by size (powers of two), and their bytes in all. */
const idle = new Map<number, Buffer[]>();
let idleBytes = 0;

function sizeFor(length: number): number {
  let size = SMALLEST_BUFFER_BYTES;
  while (size < length) size *= 2;
  return size;
}

function take(size: number): Buffer {
  const buffer = idle.get(size)?.pop();
  if (buffer === undefined) return Buffer.allocUnsafeSlow(size);
  idleBytes -= size;
  return buffer;
}

function giveBack(buffer: Buffer): void {
  if (idleBytes + buffer.length > IDLE_MAX_BYTES) return;
  const list = idle.get(buffer.length) ?? [];
  list.push(buffer);
  idle.set(buffer.length, list);
  idleBytes += buffer.length;
}

/**
 * `length` bytes (at most LENT_BUFFER_MAX_BYTES) that `fill` writes, in a buffer lent to
 * `borrower`: no one else gets it before the borrower closes. A response closes after `finish`,
 * when its last byte is the operating system's, or when its connection ends (the socket's writes
 * are done with or cancelled by then), so the bytes it sends are never overwritten. A borrower
 * already closed when the bytes are read never gives its buffer back: it is left to the collector.
 */
export async function lentBuffer(
  length: number,
  borrower: Borrower,
  fill: (into: Buffer) => Promise<void>,
): Promise<Buffer> {
  if (length > LENT_BUFFER_MAX_BYTES) throw new RangeError(`${length} bytes is more than a lent buffer holds`);
  const buffer = take(sizeFor(length));
  const lent = buffer.subarray(0, length);
  try {
    await fill(lent);
  } catch (error) {
    giveBack(buffer);
    throw error;
  }
  if (!borrower.closed) borrower.once('close', () => giveBack(buffer));
  return lent;
}
