import { readFileSync } from 'node:fs';

/**
 * The font of the PDFs the service makes for the acquirer (shared/pdf/evidence-pdf.ts): DejaVu
 * Sans, from the `dejavu-fonts-ttf` package, for its coverage (Latin with Vietnamese, Greek,
 * Cyrillic, Armenian, Georgian, Hebrew, Arabic, IPA and many symbols; docs/decisions.md 84).
 * Locally it is read from node_modules; in Lambda the dispute functions' bundles carry a copy
 * under node_modules/ (their route's `files`), so the same resolution finds it. A module of its
 * own, without the PDF library: the route declarations name its files.
 */
const PACKAGE = 'dejavu-fonts-ttf';
const FONT = 'ttf/DejaVuSans.ttf';

/** What a bundle that makes the PDFs carries: the font, and the package's manifest and licence. */
export const EVIDENCE_FONT_FILES = ['package.json', 'LICENSE', FONT].map((file) => `node_modules/${PACKAGE}/${file}`);

let bytes: Buffer | undefined;

/** The font file's bytes, read once per cold start. */
export function evidenceFont(): Buffer {
  bytes ??= readFileSync(require.resolve(`${PACKAGE}/${FONT}`));
  return bytes;
}
