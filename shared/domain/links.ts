import * as z from 'zod';

/** The `links` object entries: `{href, type}`. */
export const jsonLink = (href: string) => ({ href, type: 'application/json' });
export const htmlLink = (href: string) => ({ href, type: 'text/html' });

/** One entry of a resource's `links` object (output). */
export const LinkSchema = z
  .strictObject({ href: z.string().meta({ format: 'uri' }), type: z.string().meta({ example: 'application/json' }) })
  .meta({ id: 'Link', description: 'A named link: the URL and the media type it answers with.' });
