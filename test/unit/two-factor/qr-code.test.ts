import { create } from 'qrcode';
import { qrCodeSvg } from '../../../shared/dashboard/qr-code';

describe('Function: qrCodeSvg', () => {
  const uri = 'otpauth://totp/Payment%20operations:ada%40example.com?issuer=Payment+operations&algorithm=SHA1&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&period=30&digits=6';

  test('inline SVG with a name for screen readers, the quiet zone, and nothing active in it', async () => {
    const svg = await qrCodeSvg(uri, 'QR code of your authenticator key');
    const modules = create(uri, { errorCorrectionLevel: 'M' }).modules.size;
    expect(svg).toMatch(/^<svg role="img" aria-label="QR code of your authenticator key" focusable="false" xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(`viewBox="0 0 ${modules + 8} ${modules + 8}"`);
    expect(svg).not.toMatch(/<script|on\w+=|href=/i);
    // The secret is drawn, never written as text or an attribute.
    expect(svg).not.toContain('GEZDGNBVGY3TQOJQ');
  });
});
