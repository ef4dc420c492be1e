import { EVENT_TYPES } from '../../../shared/domain/event-types';
import { matchesPattern, typePrefixes } from '../../../shared/domain/webhooks';
import { EVENT_PREFIX_INDEXES, eventEntity } from '../../../shared/db/entities';
import * as keys from '../../../shared/db/keys';
import { INDEXES } from '../../../shared/db/table';

const emittedTypes = EVENT_TYPES;

const itemOf = (type: string) =>
  eventEntity.item({ orgId: 'org_1', mode: 'test', type, envelope: { id: 'evt_1' } }, undefined);

test('every emitted type is shallow enough for the prefix indexes', () => {
  for (const type of emittedTypes) expect(type.split('.').length).toBeLessThanOrEqual(EVENT_PREFIX_INDEXES.length + 1);
});

test("an event is in the partition of every wildcard that matches it, and of no other", () => {
  const wildcards = [...new Set(emittedTypes.flatMap(typePrefixes))];
  for (const type of emittedTypes) {
    const item = itemOf(type);
    for (const prefix of wildcards) {
      const list = keys.eventPrefixList('org_1#test', prefix)!;
      const listed = list.partitions.includes(item[INDEXES[list.index].pk] as string);
      expect([type, prefix, listed]).toEqual([type, prefix, matchesPattern(`${prefix}*`, type)]);
    }
  }
});

test('a wildcard deeper than any type has no list', () => {
  expect(keys.eventPrefixList('org_1#test', 'a.b.c.d.')).toBeUndefined();
  expect(typePrefixes('a.b.c')).toEqual(['a.', 'a.b.']);
  expect(typePrefixes('a')).toEqual([]);
});
