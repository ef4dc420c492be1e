import { deflateSync } from 'node:zlib';
import { evidencePdf } from '../../../shared/pdf/evidence-pdf';
import { pdfPages, pngOf } from '../../support/pdf';

/**
 * The PDFs a live dispute sends the acquirer (shared/pdf/evidence-pdf.ts), read back as a reader
 * reads them (PDF.js): the texts' statement, and a PNG on a page of its own.
 */
const renderer = evidencePdf();
const A4 = { width: 595.28, height: 841.89 };
const statement = (sections: { heading: string; text: string }[]) => ({ title: 'Dispute evidence', facts: ['Dispute DSP1 (case PSP1) of 10.00 EUR, reason 10.4'], sections });
/** A page's text without the line breaks the layout put in. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('the statement: the evidence texts as a PDF', () => {
  test('every text under its heading, on A4 pages, readable as text; long texts flow onto further pages, words kept whole', async () => {
    // Prepare
    const policy = 'Refunds within 30 days of purchase. '.repeat(400);
    // Act
    const pages = pdfPages(await renderer.statementPdf(statement([{ heading: 'Refund policy', text: policy }, { heading: 'Shipping tracking number', text: 'JJD000390007827763' }])));
    // Assess
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect([page.width, page.height]).toEqual([A4.width, A4.height].map((side) => expect.closeTo(side, 0)));
    const text = flat(pages.map((page) => page.text).join(' '));
    expect(text).toContain('Dispute evidence Dispute DSP1 (case PSP1) of 10.00 EUR, reason 10.4 Refund policy Refunds within 30 days');
    expect(text.match(/Refunds within 30 days of purchase\./g)).toHaveLength(400);
    expect(text).toContain('Shipping tracking number JJD000390007827763');
  });

  test('what its font draws (Latin, Greek, Cyrillic, Hebrew) is written; other characters (CJK, emoji, controls) as their code points in brackets, with a note saying so', async () => {
    // Act
    const [page] = pdfPages(await renderer.statementPdf(statement([{ heading: 'Other information', text: 'Straße Ελλάδα Москва שלום Sent to 東京 📦\u0007 ok' }])));
    // Assess
    expect(page.text).toContain('Straße Ελλάδα Москва');
    expect(page.text).toContain('Sent to [U+6771 U+4EAC] [U+1F4E6 U+0007] ok');
    expect(flat(page.text)).toContain('Characters this document cannot draw are written as their Unicode code points in brackets');
  });

  test('no note when every character is drawn; a text without spaces wider than the page is cut where it overflows, nothing lost', async () => {
    // Act
    const [page] = pdfPages(await renderer.statementPdf(statement([{ heading: 'Product or service', text: 'x'.repeat(500) }])));
    // Assess
    expect(page.text).not.toContain('cannot draw');
    expect(page.text.replace(/[^x]/g, '')).toHaveLength(500);
    expect(page.text.split('\n').filter((line) => /^x+$/.test(line)).length).toBeGreaterThan(1);
  });

  test('blank lines: three or more breaks are drawn as one blank line (20,000 breaks make one page, not 1,800)', async () => {
    const pages = pdfPages(await renderer.statementPdf(statement([{ heading: 'Communication with the customer', text: `Hello${'\n'.repeat(20_000)}Bye` }])));
    expect(pages).toHaveLength(1);
    expect(pages[0].text).toContain('Bye');
  });
});

describe('a PNG as a PDF (Adyen takes no PNG)', () => {
  test.each([
    ['RGB', pngOf(300, 200)],
    ['RGBA (its transparency decoded into a mask)', pngOf(300, 200, { channels: 4, pixel: (x) => [255, 0, 0, x % 256] })],
  ])('%s: one A4 page that paints the image', async (_kind, png) => {
    const pdf = await renderer.pngPdf(png);
    expect(Buffer.from(pdf!.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(pdfPages(pdf!)).toEqual([{ width: expect.closeTo(A4.width, 0), height: expect.closeTo(A4.height, 0), text: '', images: 1 }]);
  });

  test.each([
    ['image data that does not inflate', pngOf(20, 20, { channels: 4, imageData: Buffer.from('not zlib at all') })],
    ['image data shorter than its header says', pngOf(20, 20, { channels: 4, imageData: deflateSync(Buffer.alloc(10)) })],
    ['a row with an unknown filter', pngOf(2, 2, { channels: 4, imageData: deflateSync(Buffer.from([9, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0])) })],
  ])('%s: undefined (the PNG reader would throw where no caller can catch it), and the process goes on', async (_case, png) => {
    expect(await renderer.pngPdf(png)).toBeUndefined();
  });
});
