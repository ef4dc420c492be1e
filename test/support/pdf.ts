import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

/**
 * PDFs and PNGs for the tests of what the service sends the acquirer. A PDF is read back with
 * Mozilla's PDF.js (`pdfjs-dist`, an ES module, so in a node process of its own): its page count
 * and each page's text as a reader extracts it.
 */
const PDFJS = join(__dirname, '..', '..', 'node_modules', 'pdfjs-dist', 'legacy', 'build', 'pdf.mjs');
const READER = `
const { getDocument } = await import(process.argv[1]);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const document = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), verbosity: 0 }).promise;
const pages = [];
for (let number = 1; number <= document.numPages; number++) {
  const page = await document.getPage(number);
  const { width, height } = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const operators = await page.getOperatorList();
  pages.push({ width, height, text: content.items.map((item) => item.str + (item.hasEOL ? '\\n' : '')).join(''), images: operators.fnArray.filter((fn) => fn === 85).length });
}
process.stdout.write(JSON.stringify(pages));
`;

export interface PdfPage {
  width: number;
  height: number;
  text: string;
  /** How many images the page paints. */
  images: number;
}

export function pdfPages(pdf: Uint8Array): PdfPage[] {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', READER, PDFJS], { input: pdf, maxBuffer: 64 * 1024 * 1024, stdio: ['pipe', 'pipe', 'ignore'] });
  return JSON.parse(out.toString('utf8')) as PdfPage[];
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of `width`×`height` 8-bit pixels of `channels` (3: RGB, 4: RGBA), every row unfiltered,
 * each pixel from `pixel(x, y)`; `imageData` replaces the compressed rows (a corrupt file).
 */
export function pngOf(width: number, height: number, options: { channels?: 3 | 4; pixel?: (x: number, y: number) => number[]; imageData?: Buffer } = {}): Buffer {
  const channels = options.channels ?? 3;
  const pixel = options.pixel ?? ((x, y) => [x % 256, y % 256, 128, 255].slice(0, channels));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * channels));
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows.set(pixel(x, y), y * (1 + width * channels) + 1 + x * channels);
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', header),
    chunk('IDAT', options.imageData ?? deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
