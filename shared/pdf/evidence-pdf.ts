import { inflateSync } from 'node:zlib';
import { create, type Font } from 'fontkit';
import PDFDocument from 'pdfkit';
import type { DefenseRenderer, EvidenceStatement } from '../domain/dispute-documents';
import { evidenceFont } from './font';

/**
 * The PDFs the service sends the acquirer (docs/decisions.md 84), with pdfkit: the evidence
 * texts as a statement, and a PNG on a page of its own (Adyen takes no PNG). A4 pages, as the
 * schemes ask for. Loaded only by a live dispute's first need (shared/services/chargeback-answers.ts).
 *
 * The statement is laid out here, line by line, not by pdfkit's `text`: its wrapper measures a
 * word that does not fit a line character by character, each time from the start (five texts of
 * 20,000 characters without a space took 43 s). Each character's advance comes from the font,
 * once; a line breaks after its last space, or, in a word longer than the line, before the
 * character that would overflow.
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const WIDTH = A4.width - 2 * MARGIN;
const SIZES = { title: 16, facts: 9, heading: 12, body: 10 } as const;
const LEADING = 1.3;
const GREY = '#444444';

/** A character the font cannot draw, or a control character, is written as its code point. */
const codePoint = (value: number) => `U+${value.toString(16).toUpperCase().padStart(4, '0')}`;

export function evidencePdf(): DefenseRenderer {
  const fontBytes = evidenceFont();
  const font = create(fontBytes) as Font;
  const advances = new Map<number, number>();
  /** A character's advance at size 1, in points. */
  const advance = (value: number) => {
    let found = advances.get(value);
    if (found === undefined) {
      found = font.glyphForCodePoint(value).advanceWidth / font.unitsPerEm;
      advances.set(value, found);
    }
    return found;
  };
  const drawable = (value: number) => value >= 0x20 && !(value >= 0x7f && value < 0xa0) && !(value >= 0xd800 && value <= 0xdfff) && font.hasGlyphForCodePoint(value);

  /**
   * The text as drawn: line breaks as `\n`, a tab as four spaces, and each run of characters the
   * font cannot draw written as their code points in brackets (`[U+4E2D U+6587]`).
   */
  function drawn(text: string): { text: string; replaced: boolean } {
    let out = '';
    let run: string[] = [];
    let replaced = false;
    const flush = () => {
      if (run.length) out += `[${run.join(' ')}]`;
      run = [];
    };
    // Three line breaks or more are drawn as one blank line: a text of 20,000 of them would take 1,800 pages.
    for (const character of text.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n').replace(/\t/g, '    ')) {
      const value = character.codePointAt(0) ?? 0;
      if (value === 0x0a || drawable(value)) {
        flush();
        out += character;
      } else {
        run.push(codePoint(value));
        replaced = true;
      }
    }
    flush();
    return { text: out, replaced };
  }

  /** The lines of `text` at `size` within the page's width. */
  function wrap(text: string, size: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      const characters = [...paragraph];
      let start = 0;
      while (start < characters.length || (start === 0 && characters.length === 0)) {
        let width = 0;
        let end = start;
        let lastSpace = -1;
        while (end < characters.length && width + advance(characters[end].codePointAt(0) ?? 0) * size <= WIDTH) {
          width += advance(characters[end].codePointAt(0) ?? 0) * size;
          if (characters[end] === ' ') lastSpace = end;
          end++;
        }
        if (end < characters.length && lastSpace > start) end = lastSpace + 1;
        if (end === start) end = start + 1; // one character wider than the line: alone on it
        lines.push(characters.slice(start, end).join('').trimEnd());
        start = end;
        if (characters.length === 0) break;
      }
    }
    return lines;
  }

  /** The document as bytes, once pdfkit has written it. */
  function written(build: (document: PDFKit.PDFDocument) => void, options: PDFKit.PDFDocumentOptions): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const document = new PDFDocument({ size: 'A4', margin: MARGIN, compress: true, ...options });
      const chunks: Buffer[] = [];
      document.on('data', (chunk: Buffer) => chunks.push(chunk));
      document.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      document.on('error', reject);
      build(document);
      document.end();
    });
  }

  return {
    statementPdf(statement: EvidenceStatement) {
      const sections = statement.sections.map(({ heading, text }) => ({ heading, ...drawn(text) }));
      const blocks: { lines: string[]; size: number; color: string; before: number }[] = [
        { lines: wrap(statement.title, SIZES.title), size: SIZES.title, color: 'black', before: 0 },
        ...statement.facts.map((fact) => ({ lines: wrap(drawn(fact).text, SIZES.facts), size: SIZES.facts, color: GREY, before: 2 })),
      ];
      if (sections.some((section) => section.replaced)) {
        const note = 'Characters this document cannot draw are written as their Unicode code points in brackets, such as [U+4E2D]; the texts as the merchant wrote them are kept with the chargeback.';
        blocks.push({ lines: wrap(note, SIZES.facts), size: SIZES.facts, color: GREY, before: 6 });
      }
      for (const section of sections) {
        blocks.push({ lines: wrap(section.heading, SIZES.heading), size: SIZES.heading, color: 'black', before: 14 });
        blocks.push({ lines: wrap(section.text, SIZES.body), size: SIZES.body, color: 'black', before: 4 });
      }
      return written(
        (document) => {
          let y = MARGIN;
          for (const block of blocks) {
            y += block.before;
            document.fontSize(block.size).fillColor(block.color);
            for (const line of block.lines) {
              const height = block.size * LEADING;
              if (y + height > A4.height - MARGIN) {
                document.addPage();
                y = MARGIN;
              }
              if (line) document.text(line, MARGIN, y, { lineBreak: false });
              y += height;
            }
          }
        },
        { font: fontBytes as unknown as string, info: { Title: statement.title } },
      );
    },

    async pngPdf(png: Uint8Array) {
      if (!inflatesWhole(png)) return undefined;
      try {
        // No font: nothing is written but the image (pdfkit would load Helvetica's metrics otherwise).
        return await written(
          (document) => document.image(Buffer.from(png), MARGIN, MARGIN, { fit: [WIDTH, A4.height - 2 * MARGIN], align: 'center', valign: 'center' }),
          { font: null as unknown as string, info: { Title: 'Dispute evidence image' } },
        );
      } catch {
        return undefined;
      }
    },
  };
}

const CHANNELS: Partial<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Partial<Record<number, number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7's passes: first column and row, then the steps between them. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/**
 * Whether the PNG's image data inflates to exactly the rows its header announces, each with a
 * known filter. pdfkit's PNG reader (png-js) inflates asynchronously and throws from the
 * callback on a corrupt stream or filter, which no caller can catch: it would end the process,
 * so a file that would fail there is refused here first. The signature and the header's size
 * within LIMITS.evidence.pngPixels are checked before (`requireContentOf`).
 */
function inflatesWhole(png: Uint8Array): boolean {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const [width, height, depth, colorType, interlace] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20), bytes[24], bytes[25], bytes[28]];
  const channels = CHANNELS[colorType];
  if (!channels || !DEPTHS[colorType]?.includes(depth) || interlace > 1 || width === 0 || height === 0) return false;
  const rows = (interlace === 1 ? ADAM7 : [[0, 0, 1, 1]])
    .map(([column, row, columnStep, rowStep]) => ({ columns: Math.ceil((width - column) / columnStep), count: Math.ceil((height - row) / rowStep) }))
    .filter(({ columns, count }) => columns > 0 && count > 0)
    .map(({ columns, count }) => ({ length: 1 + Math.ceil((columns * channels * depth) / 8), count }));
  const expected = rows.reduce((sum, { length, count }) => sum + length * count, 0);
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') data.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 });
  } catch {
    return false;
  }
  if (pixels.length !== expected) return false;
  let at = 0;
  for (const { length, count } of rows) {
    for (let row = 0; row < count; row++, at += length) if (pixels[at] > 4) return false;
  }
  return true;
}
