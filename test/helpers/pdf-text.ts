/**
 * A PDF read back as a reader would (Mozilla's pdf.js): its page count and each page's text, the
 * text items of a page in the order the page draws them, one space between words.
 */
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfText {
  pages: string[];
  /** What each page draws: paths (lines, shapes: vectors) and images (pixels). */
  drawn: { paths: number; images: number }[];
  title: string | null;
  author: string | null;
}

export async function pdfText(bytes: Uint8Array): Promise<PdfText> {
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false });
  const document = await task.promise;
  try {
    const pages: string[] = [];
    const drawn: PdfText['drawn'] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const { fnArray } = await page.getOperatorList();
      const images = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);
      drawn.push({
        paths: fnArray.filter((op) => op === OPS.constructPath).length,
        images: fnArray.filter((op) => images.has(op)).length,
      });
      const content = await page.getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str : ''))
          .join(' ')
          // Items are words, runs and spaces as the page draws them: one space between words whatever they were.
          .replace(/\s+/g, ' ')
          .trim(),
      );
    }
    const { info } = (await document.getMetadata()) as { info: { Title?: string; Author?: string } };
    return { pages, drawn, title: info.Title ?? null, author: info.Author ?? null };
  } finally {
    await task.destroy();
  }
}
