import { sharedPerBatch, type AttemptSlots } from '../../../shared/domain/webhook-delivery';

/** A tenant's slots as the table keeps them: `free` of them, each taken and given back as it says. */
function tableSlots(free: Record<string, number>) {
  const log: string[] = [];
  const slots: AttemptSlots = {
    async take(tenant) {
      await Promise.resolve();
      if ((free[tenant] ?? 0) === 0) {
        log.push(`${tenant} busy`);
        return undefined;
      }
      free[tenant]--;
      log.push(`${tenant} taken`);
      return async () => {
        free[tenant]++;
        log.push(`${tenant} given back`);
      };
    },
  };
  return { slots, log, free };
}

describe('sharedPerBatch: the attempts of one batch share their tenant slot', () => {
  test.each<{ case: string; tenants: string[]; free: Record<string, number>; taken: Record<string, number>; busy: number }>([
    { case: 'three attempts of one tenant at once take one slot, given back after the last', tenants: ['a', 'a', 'a'], free: { a: 2 }, taken: { a: 1 }, busy: 0 },
    { case: 'two tenants take a slot each', tenants: ['a', 'b', 'a', 'b'], free: { a: 1, b: 1 }, taken: { a: 1, b: 1 }, busy: 0 },
    { case: 'a tenant without a free slot: all its attempts of the batch are busy, the others go on', tenants: ['a', 'a', 'b'], free: { a: 0, b: 1 }, taken: { b: 1 }, busy: 2 },
  ])('$case', async ({ tenants, free, taken, busy }) => {
    // Prepare
    const table = tableSlots({ ...free });
    const batch = sharedPerBatch(table.slots);

    // Act: every attempt takes its slot before any gives it back, as the batch's attempts run at once
    const releases = await Promise.all(tenants.map((tenant) => batch.take(tenant, 15_000)));
    const held = { ...table.free };
    await Promise.all(releases.map((release) => release?.()));

    // Assess
    expect(releases.filter((release) => release === undefined)).toHaveLength(busy);
    for (const [tenant, count] of Object.entries(taken)) {
      expect(table.log.filter((line) => line === `${tenant} taken`)).toHaveLength(count);
      expect(held[tenant]).toBe(free[tenant] - count);
    }
    expect(table.free).toEqual(free);
  });

  test('given back by the last holder only: a slot taken by the batch stays held while one of its attempts runs', async () => {
    // Prepare
    const table = tableSlots({ a: 1 });
    const batch = sharedPerBatch(table.slots);
    const [first, second] = await Promise.all([batch.take('a', 15_000), batch.take('a', 15_000)]);

    // Act
    await first!();
    const whileSecondRuns = table.free.a;
    await second!();

    // Assess
    expect(whileSecondRuns).toBe(0);
    expect(table.free.a).toBe(1);
    expect(table.log).toEqual(['a taken', 'a given back']);
  });

  test('a later attempt of the batch, after the slot was given back, takes a slot again', async () => {
    // Prepare
    const table = tableSlots({ a: 1 });
    const batch = sharedPerBatch(table.slots);
    await (await batch.take('a', 15_000))!();

    // Act
    const again = await batch.take('a', 15_000);
    await again!();

    // Assess
    expect(table.log).toEqual(['a taken', 'a given back', 'a taken', 'a given back']);
  });
});
