import type { Api } from './stack';

type Page = { data: { id: string }[]; has_more: boolean };

const withQuery = (path: string) => `${path}${path.includes('?') ? '&' : '?'}`;

/** Every item of `path`, `limit` a page, from the newest with `starting_after`; the pages' sizes. */
export async function forwards(api: Api, path: string, limit: number) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor = '';
  for (;;) {
    const page = await api.get(`${withQuery(path)}limit=${limit}${cursor}`);
    expect([path, page.status]).toEqual([path, 200]);
    const body = page.body as Page;
    ids.push(...body.data.map((item) => item.id));
    sizes.push(body.data.length);
    if (!body.has_more) return { ids, sizes };
    cursor = `&starting_after=${ids.at(-1)}`;
  }
}

/** Every item of `path` newer than `oldest`, `limit` a page, with `ending_before`, put back newest first. */
export async function backwards(api: Api, path: string, limit: number, oldest: string) {
  const pages: string[][] = [];
  let cursor = oldest;
  for (;;) {
    const page = await api.get(`${withQuery(path)}limit=${limit}&ending_before=${cursor}`);
    expect([path, page.status]).toEqual([path, 200]);
    const body = page.body as Page;
    pages.unshift(body.data.map((item) => item.id));
    if (!body.has_more) return pages.flat();
    cursor = body.data[0].id;
  }
}

export const newestFirst = (ids: string[]) => [...ids].sort().reverse();

/**
 * A list read whole, then page by page both ways (product-decisions §2): the same items in the
 * same order, newest first, each once, full pages but the last. Its ids.
 */
export async function expectPagedAlike(api: Api, path: string, limit: number) {
  const whole = await forwards(api, path, 100);
  expect(whole.ids).toEqual(newestFirst(whole.ids));
  expect(new Set(whole.ids).size).toBe(whole.ids.length);
  const paged = await forwards(api, path, limit);
  expect(paged.ids).toEqual(whole.ids);
  expect(paged.sizes.slice(0, -1).every((size) => size === limit)).toBe(true);
  if (whole.ids.length > 0) expect(await backwards(api, path, limit, whole.ids.at(-1)!)).toEqual(whole.ids.slice(0, -1));
  return whole.ids;
}
