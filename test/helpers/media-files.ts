/**
 * Real media files for tests, made here (no ffmpeg on the machine): images with sharp, MP4 and
 * MOV videos with mediabunny's muxer over made-up H.264 packets. The containers are valid and
 * carry the size and length asked for; the frames are not decodable pictures, which no
 * metadata reader (and no test) looks at.
 */
import {
  BufferTarget,
  EncodedPacket,
  EncodedVideoPacketSource,
  MovOutputFormat,
  Mp4OutputFormat,
  Output,
} from 'mediabunny';
import sharp from 'sharp';

export interface ImageOptions {
  width?: number;
  height?: number;
  /** Makes a PNG or WebP with an alpha channel. */
  transparent?: boolean;
}

/** A `width` x `height` image (64 x 48 by default) of one colour. */
export async function imageFile(format: 'jpeg' | 'png' | 'webp' | 'gif', options: ImageOptions = {}): Promise<Buffer> {
  const { width = 64, height = 48, transparent = false } = options;
  const image = sharp({
    create: {
      width,
      height,
      channels: transparent ? 4 : 3,
      background: transparent ? { r: 200, g: 40, b: 40, alpha: 0.5 } : { r: 200, g: 40, b: 40 },
    },
  });
  return await image.toFormat(format).toBuffer();
}

export interface VideoOptions {
  width?: number;
  height?: number;
  /** Whole seconds; one frame a second. */
  seconds?: number;
}

/** An H.264 MP4 or MOV of `width` x `height` (320 x 240 by default) lasting `seconds` (3 by default). */
export async function videoFile(format: 'mp4' | 'mov', options: VideoOptions = {}): Promise<Buffer> {
  const { width = 320, height = 240, seconds = 3 } = options;
  const target = new BufferTarget();
  const output = new Output({
    format:
      format === 'mp4'
        ? new Mp4OutputFormat({ fastStart: 'in-memory' })
        : new MovOutputFormat({ fastStart: 'in-memory' }),
    target,
  });
  const source = new EncodedVideoPacketSource('avc');
  output.addVideoTrack(source, { frameRate: 1 });
  await output.start();
  // An AVCDecoderConfigurationRecord (Baseline profile, level 3.0) without parameter sets: enough for a valid sample entry.
  const avcC = new Uint8Array([1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0x00]);
  for (let second = 0; second < seconds; second += 1) {
    const packet = new EncodedPacket(
      new Uint8Array([0, 0, 0, 2, 0x65, 0x88]),
      second === 0 ? 'key' : 'delta',
      second,
      1,
    );
    await source.add(
      packet,
      second === 0
        ? { decoderConfig: { codec: 'avc1.42c01e', codedWidth: width, codedHeight: height, description: avcC } }
        : undefined,
    );
  }
  await output.finalize();
  if (!target.buffer) throw new Error('the muxer wrote nothing');
  return Buffer.from(target.buffer);
}

/** A multipart/form-data body with one file part, for `app.inject` or fetch. */
export function multipartUpload(
  file: Buffer,
  options: { field?: string; filename?: string; contentType?: string } = {},
): { payload: Buffer<ArrayBuffer>; headers: Record<string, string> } {
  const { field = 'file', filename = 'upload.bin', contentType = 'application/octet-stream' } = options;
  const boundary = `----switchboard-test-${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
