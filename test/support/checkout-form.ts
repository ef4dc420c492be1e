/** A new customer's checkout: the page opened as a browser opens it, with its cookie and open payment. */
export async function openCheckoutPage(baseUrl: string, linkId: string): Promise<{ cookie: string; paymentId: string }> {
  const opened = await fetch(`${baseUrl}/checkout/${linkId}`, { headers: { accept: 'text/html' } });
  const cookie = opened.headers.get('set-cookie')!.split(';')[0];
  const paymentId = /name="payment_id" value="([^"]+)"/.exec(await opened.text())![1];
  return { cookie, paymentId };
}

/** The checkout form posted as a browser posts it: its payment id and the outcome Pay, then `fields`. */
export async function postCheckoutForm(baseUrl: string, linkId: string, opened: { cookie: string; paymentId: string }, fields: Record<string, string>) {
  const response = await fetch(`${baseUrl}/checkout/${linkId}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: opened.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_id: opened.paymentId, outcome: 'paid', ...fields }).toString(),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), paymentId: opened.paymentId };
}
