import * as z from '../zod';

/** The `links` object entries: `{href, type}`. */
export const jsonLink = (href: string) => ({ href, type: 'application/json' });
export const htmlLink = (href: string) => ({ href, type: 'text/html' });

/** One entry of a resource's `links` object (output). */
export const LinkSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({ href: z.withMeta(z.string(), { format: 'uri' }), type: z.withMeta(z.string(), { example: 'application/json' }) }),
    { id: 'Link', description: 'A named link: the URL and the media type it answers with.' },
  ))();
