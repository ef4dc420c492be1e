/** The `links` object entries: `{href, type}`. */
export const jsonLink = (href: string) => ({ href, type: 'application/json' });
export const htmlLink = (href: string) => ({ href, type: 'text/html' });
