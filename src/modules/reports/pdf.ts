/**
 * A report as the PDF a client receives (pdfkit, on the server, no browser): the agency's logo
 * and brand name, the profile's headline figures beside the previous period, a chart per figure
 * drawn as vectors with a line per account, each account's figures, and the best posts. Text is
 * set in DejaVu Sans, embedded, so names in most scripts print as written.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { platformInfo } from '../../platforms/index.ts';
import { chartHeight, drawLineChart } from './pdf-chart.ts';
import type { ProfileReport } from './service.ts';
import {
  accountName,
  changeText,
  figureText,
  longDate,
  periodText,
  REPORT_COLOURS,
  REPORT_FIGURES,
  reportTitle,
} from './words.ts';

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;

/** The fonts' files, read at the first report and kept: each is about 700 KB. */
function fontFiles(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

const INK = '#1d2230';
const MUTED = '#5b6275';
const MARGIN = 48;

/** What the report is branded with: the owner's brand name and, if it uploaded one, its logo (PNG). */
export interface ReportBrand {
  name: string;
  logoPng: Buffer | null;
}

/** The most lines a chart draws: past that, the accounts with the largest figures, and a line saying how many more. */
const MOST_LINES = 10;

/** The report as a PDF document's bytes. */
export async function reportPdf(report: ProfileReport, brand: ReportBrand): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: reportTitle(report),
      Author: brand.name,
      Creator: 'Switchboard',
      CreationDate: report.generatedAt,
    },
  });
  doc.registerFont('regular', fontFiles().regular);
  doc.registerFont('bold', fontFiles().bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  header(doc, report, brand);
  headlines(doc, report);
  charts(doc, report);
  doc.addPage();
  accountsTable(doc, report);
  bestPosts(doc, report);
  footers(doc, report, brand);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

function header(doc: PDFKit.PDFDocument, report: ProfileReport, brand: ReportBrand): void {
  const top = doc.y;
  let textX = MARGIN;
  if (brand.logoPng !== null) {
    doc.image(brand.logoPng, MARGIN, top, { fit: [96, 48] });
    textX = MARGIN + 108;
  }
  const width = doc.page.width - MARGIN - textX;
  doc.font('bold').fontSize(11).fillColor(MUTED).text(brand.name, textX, top, { width });
  doc
    .font('bold')
    .fontSize(20)
    .fillColor(INK)
    .text(report.profile.name, textX, doc.y + 2, { width });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(MUTED)
    .text(
      `${periodText(report.from, report.to)}, compared with ${longDate(report.previous.from)} to ${longDate(report.previous.to)} (UTC days)`,
      textX,
      doc.y + 4,
      { width },
    );
  doc.y = Math.max(doc.y, top + 52) + 14;
}

function headlines(doc: PDFKit.PDFDocument, report: ProfileReport): void {
  const top = doc.y;
  const width = (doc.page.width - 2 * MARGIN - 3 * 10) / 4;
  for (const [i, { key, title }] of REPORT_FIGURES.entries()) {
    const figure = report.totals[key];
    const x = MARGIN + i * (width + 10);
    doc.roundedRect(x, top, width, 74, 4).lineWidth(0.75).strokeColor('#d9dce3').stroke();
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(title, x + 8, top + 8, { width: width - 16 });
    doc
      .font('bold')
      .fontSize(16)
      .fillColor(INK)
      .text(figureText(figure.value), x + 8, top + 20, { width: width - 16 });
    doc.font('regular').fontSize(7.5).fillColor(MUTED);
    doc.text(`before: ${figureText(figure.previous)}`, x + 8, top + 44, { width: width - 16 });
    doc.text(changeText(figure), x + 8, top + 56, { width: width - 16 });
  }
  doc.y = top + 74 + 18;
}

function charts(doc: PDFKit.PDFDocument, report: ProfileReport): void {
  const width = doc.page.width - 2 * MARGIN;
  for (const { key, title } of REPORT_FIGURES) {
    // An account without a figure that day or any other draws no line, and takes no place in the
    // legend; nor does one that published nothing (its posts are counted, never null).
    const withData = report.accounts
      .map((a, i) => ({
        account: a,
        colour: REPORT_COLOURS[i % REPORT_COLOURS.length] as string,
        values: a.days.map((d) => d[key]),
      }))
      .filter((s) => s.values.some((v) => v !== null && (key !== 'postsPublished' || v > 0)));
    const total = (values: readonly (number | null)[]) => values.reduce<number>((n, v) => n + (v ?? 0), 0);
    const drawn =
      withData.length <= MOST_LINES
        ? withData
        : [...withData].sort((x, y) => total(y.values) - total(x.values)).slice(0, MOST_LINES);
    const more = withData.length - drawn.length;
    const height = drawn.length === 0 ? 14 : chartHeight(drawn.length) + (more > 0 ? 12 : 0);
    if (doc.y + 16 + height > doc.page.height - MARGIN) doc.addPage();
    doc.font('bold').fontSize(11).fillColor(INK).text(`${title} by day`, MARGIN, doc.y);
    const top = doc.y + 4;
    if (drawn.length === 0) {
      const none = key === 'postsPublished' ? 'No post was published in this period.' : 'No data in this period.';
      doc.font('regular').fontSize(8).fillColor(MUTED).text(none, MARGIN, top);
    } else {
      drawLineChart(
        doc,
        { x: MARGIN, y: top, width },
        report.dates,
        drawn.map((s) => ({ label: accountName(s.account), colour: s.colour, values: s.values })),
        { regular: 'regular' },
      );
      if (more > 0) {
        doc
          .font('regular')
          .fontSize(7)
          .fillColor(MUTED)
          .text(
            `and ${more} more account${more === 1 ? '' : 's'} (in the table of accounts)`,
            MARGIN + 44,
            top + height - 12,
          );
      }
    }
    doc.y = top + height + 12;
  }
}

function accountsTable(doc: PDFKit.PDFDocument, report: ProfileReport): void {
  doc.font('bold').fontSize(13).fillColor(INK).text('Accounts', MARGIN, doc.y);
  doc.moveDown(0.5);
  const columns = [170, 82, 82, 82, 83];
  const row = (cells: string[], font: 'regular' | 'bold', size: number) => {
    const top = doc.y;
    let x = MARGIN;
    let bottom = top;
    for (const [i, cell] of cells.entries()) {
      doc
        .font(font)
        .fontSize(size)
        .fillColor(INK)
        .text(cell, x, top, { width: (columns[i] as number) - 6 });
      bottom = Math.max(bottom, doc.y);
      x += columns[i] as number;
    }
    doc.y = bottom + 6;
    doc
      .moveTo(MARGIN, doc.y - 3)
      .lineTo(doc.page.width - MARGIN, doc.y - 3)
      .lineWidth(0.5)
      .strokeColor('#e4e6eb')
      .stroke();
  };
  row(['Account', ...REPORT_FIGURES.map((f) => f.title)], 'bold', 8.5);
  if (report.accounts.length === 0) {
    doc.font('regular').fontSize(9).fillColor(MUTED).text('This profile has no account yet.', MARGIN, doc.y);
  }
  for (const a of report.accounts) {
    if (doc.y > doc.page.height - MARGIN - 60) doc.addPage();
    const cells = REPORT_FIGURES.map(({ key }) => {
      if (key !== 'postsPublished' && a.notOffered.includes(key)) return 'not offered';
      const figure = a[key];
      const value =
        key === 'followers' && a.followers.start !== null && a.followers.value !== null
          ? `${figureText(a.followers.start)} → ${figureText(a.followers.value)}`
          : figureText(figure.value);
      return `${value}\n${changeText(figure)}`;
    });
    const note =
      a.missingPermission !== null
        ? `\nfigures not granted (${a.missingPermission})`
        : a.account.status !== 'connected'
          ? `\n${a.account.status}`
          : '';
    row([`${accountName(a)}${note}`, ...cells], 'regular', 8);
  }
  doc.moveDown(1);
}

function bestPosts(doc: PDFKit.PDFDocument, report: ProfileReport): void {
  if (doc.y > doc.page.height - MARGIN - 120) doc.addPage();
  doc.font('bold').fontSize(13).fillColor(INK).text('Best posts', MARGIN, doc.y);
  doc.moveDown(0.5);
  if (report.topPosts.length === 0) {
    doc.font('regular').fontSize(9).fillColor(MUTED).text('No post of the period has figures yet.');
    return;
  }
  const names = new Map(report.accounts.map((a) => [a.account.id, accountName(a)]));
  const width = doc.page.width - 2 * MARGIN;
  for (const [i, post] of report.topPosts.entries()) {
    if (doc.y > doc.page.height - MARGIN - 70) doc.addPage();
    const text = post.text === null ? '(no text)' : post.text.length > 280 ? `${post.text.slice(0, 279)}…` : post.text;
    doc
      .font('bold')
      .fontSize(9)
      .fillColor(INK)
      .text(`${i + 1}. ${text}`, MARGIN, doc.y, { width });
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        `${names.get(post.accountId) ?? platformInfo(post.platform).label}, ${longDate(post.publishedAt.toISOString().slice(0, 10))}: ${post.engagement.toLocaleString('en-US')} engagement`,
        { width },
      );
    // A link only to a web page: a platform's permalink is its answer, and a PDF reader follows any scheme.
    if (post.permalink !== null && /^https?:\/\//i.test(post.permalink)) {
      doc.fillColor('#2446c7').text(post.permalink, { width, link: post.permalink, underline: true });
    }
    doc.moveDown(0.6);
  }
}

function footers(doc: PDFKit.PDFDocument, report: ProfileReport, brand: ReportBrand): void {
  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    // Written inside the bottom margin: without it pdfkit would start a new page for the line.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(7)
      .fillColor(MUTED)
      .text(
        `${brand.name} · made ${report.generatedAt.toISOString().slice(0, 10)} from the figures last read from each platform · page ${page - start + 1} of ${count}`,
        MARGIN,
        doc.page.height - 30,
        { width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false },
      );
    doc.page.margins.bottom = bottom;
  }
}
