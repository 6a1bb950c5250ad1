/**
 * The owner's logo, shown on its client reports: taken as PNG, JPEG or WebP, decoded and
 * written again as a PNG of at most 512 by 512 (nothing of the upload is kept as sent: no
 * metadata, no second image hidden in its bytes), in the owner's connect settings row.
 */
import { eq } from 'drizzle-orm';
import sharp, { type OutputInfo } from 'sharp';
import { now } from '../../clock.ts';
import type { Db, Queryable } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { connectSettings } from './tables.ts';

/** The image types a logo may be sent as, and the format sharp reads in each. */
const FORMATS = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const;
export type LogoType = keyof typeof FORMATS;
export const LOGO_TYPES = Object.keys(FORMATS) as LogoType[];
/** The largest upload taken, in bytes. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
/** The stored logo's largest width and height, in pixels. */
const LOGO_SIDE = 512;
/** An image larger than this many pixels is refused before it is decoded (a few bytes can claim a huge one). */
const MAX_INPUT_PIXELS = 25_000_000;

/**
 * The owner's logo as a PNG of at most 512 by 512; 422 `invalid_image` for bytes that are no PNG,
 * JPEG or WebP image. The bytes' own format decides (a JPEG named `.png` is still taken), and it
 * must be one of those three: sharp reads many more (SVG, GIF, TIFF...), and none of their
 * decoders is offered to what anyone uploads.
 */
export async function setLogo(db: Db, scope: Scope, bytes: Buffer): Promise<void> {
  let png: { data: Buffer; info: OutputInfo };
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const { format } = await image.metadata();
    if (!(Object.values(FORMATS) as string[]).includes(format)) throw new Error(`a ${format} image`);
    png = await image
      .rotate()
      .resize({ width: LOGO_SIDE, height: LOGO_SIDE, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ApiError(
      422,
      'invalid_image',
      `The body is not a PNG, JPEG or WebP image this service can read (at most ${MAX_INPUT_PIXELS.toLocaleString('en-US')} pixels).`,
    );
  }
  const at = now();
  const logo = { logoPng: png.data, logoWidth: png.info.width, logoHeight: png.info.height, logoUpdatedAt: at };
  await db
    .insert(connectSettings)
    .values({ ownerId: scope.ownerId, ...logo, updatedAt: at })
    .onConflictDoUpdate({ target: connectSettings.ownerId, set: { ...logo, updatedAt: at } });
}

export async function deleteLogo(db: Db, scope: Scope): Promise<void> {
  const at = now();
  await db
    .update(connectSettings)
    .set({ logoPng: null, logoWidth: null, logoHeight: null, logoUpdatedAt: null, updatedAt: at })
    .where(eq(connectSettings.ownerId, scope.ownerId));
}

/** The owner's logo (PNG), or null when it has none. */
export async function logoOf(db: Queryable, ownerId: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ png: connectSettings.logoPng })
    .from(connectSettings)
    .where(eq(connectSettings.ownerId, ownerId));
  return row?.png ?? null;
}
