import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LENT_BUFFER_MAX_BYTES, lentBuffer } from '../../src/modules/media/file-buffers.ts';

/** A response as a lent buffer sees it: `close` once it needs the buffer no more. */
class Response extends EventEmitter {
  closed = false;
  close(): void {
    this.closed = true;
    this.emit('close');
  }
}

const filled = (byte: number) => async (into: Buffer) => {
  into.fill(byte);
};

describe('buffers lent to responses', () => {
  it('lend a buffer to no other response until its response closes, then lend it again', async () => {
    const first = new Response();
    const a = await lentBuffer(1000, first, filled(0xaa));
    const second = new Response();
    const b = await lentBuffer(1000, second, filled(0xbb));
    expect(b.buffer).not.toBe(a.buffer);
    expect(a.every((byte) => byte === 0xaa)).toBe(true);

    first.close();
    const c = await lentBuffer(700, new Response(), filled(0xcc));
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(700);
    // The second response is still open: its bytes are as it was given them.
    expect(b.every((byte) => byte === 0xbb)).toBe(true);
  });

  it('never lend again the buffer of a response that closed before its bytes were read', async () => {
    const gone = new Response();
    gone.close();
    const a = await lentBuffer(2000, gone, filled(1));
    const b = await lentBuffer(2000, new Response(), filled(2));
    expect(b.buffer).not.toBe(a.buffer);
  });

  it('take a buffer back at once when filling it fails', async () => {
    const failing = lentBuffer(3000, new Response(), async () => {
      throw new Error('the file cannot be read');
    });
    await expect(failing).rejects.toThrow('the file cannot be read');
    const open = new Response();
    const a = await lentBuffer(3000, open, filled(3));
    const b = await lentBuffer(3000, new Response(), filled(4));
    // One of the two is the buffer the failed read gave back; neither is lent twice.
    expect(b.buffer).not.toBe(a.buffer);
  });

  it('lend at most 8 MiB', async () => {
    expect(LENT_BUFFER_MAX_BYTES).toBe(8 * 1024 * 1024);
    const whole = await lentBuffer(8 * 1024 * 1024, new Response(), filled(5));
    expect(whole.length).toBe(8 * 1024 * 1024);
    await expect(lentBuffer(8 * 1024 * 1024 + 1, new Response(), filled(6))).rejects.toThrow(RangeError);
  });
});
