import { toString as qrToString } from 'qrcode';
import { escapeHtml } from '../http/page';

/**
 * A QR code as inline SVG, drawn on the server by `qrcode` (no script, no image request: the
 * pages' Content-Security-Policy needs no source for it), with its quiet zone and dark modules
 * on white whatever the page's colours, so that a phone's camera reads it. `label` names it for
 * screen readers; the data itself (an otpauth URI holds the secret) is never put in an attribute.
 */
export async function qrCodeSvg(data: string, label: string): Promise<string> {
  const svg = await qrToString(data, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } });
  return svg.trim().replace('<svg ', `<svg role="img" aria-label="${escapeHtml(label)}" focusable="false" `);
}
