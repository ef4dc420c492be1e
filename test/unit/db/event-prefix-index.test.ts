import { EVENT_TYPES } from '../../../shared/domain/event-types';
import { matchesPattern, typePrefixes } from '../../../shared/domain/webhooks';
import { EVENT_PREFIX_INDEXES, EVENT_PREFIX_LISTS, eventEntity } from '../../../shared/db/entities';
import * as keys from '../../../shared/db/keys';
import { INDEXES } from '../../../shared/db/table';

const emittedTypes = EVENT_TYPES;
const wildcards = [...new Set(emittedTypes.flatMap(typePrefixes))];
/** A page of all events reads this many partitions; no wildcard's page reads more. */
const allEventsPartitions = keys.eventList('org_1#test').length;

const itemOf = (type: string) =>
  eventEntity.item({ orgId: 'org_1', mode: 'test', type, envelope: { id: 'evt_1' } }, undefined);

test('every emitted type is shallow enough for the prefix indexes', () => {
  for (const type of emittedTypes) expect(type.split('.').length).toBeLessThanOrEqual(EVENT_PREFIX_INDEXES.length + 1);
});

test('an event is in the list of every wildcard that matches it, and of no other', () => {
  for (const type of emittedTypes) {
    const item = itemOf(type);
    for (const prefix of wildcards) {
      const list = keys.eventPrefixList('org_1#test', prefix, emittedTypes)!;
      const listed = list.partitions.includes(item[INDEXES[list.index].pk] as string);
      expect([type, prefix, listed]).toEqual([type, prefix, matchesPattern(`${prefix}*`, type)]);
    }
  }
});

test('no wildcard page reads more partitions than a page of all events, and a wildcard has its own list only when it would', () => {
  const merged = (prefix: string) => emittedTypes.filter((type) => type.startsWith(prefix)).length * keys.eventTypeList('org_1#test', 'x').length;
  for (const prefix of wildcards) {
    expect([prefix, keys.eventPrefixList('org_1#test', prefix, emittedTypes)!.partitions.length <= allEventsPartitions]).toEqual([prefix, true]);
    const needsOwnList = merged(prefix) > allEventsPartitions && emittedTypes.some((type) => !type.startsWith(prefix));
    expect([prefix, EVENT_PREFIX_LISTS.includes(prefix)]).toEqual([prefix, needsOwnList]);
  }
  // So an event is written to the indexes of its own wildcards only: a paid payment's three events to 8 lists.
  const written = (type: string) => Object.keys(INDEXES).filter((index) => itemOf(type)[INDEXES[index as keyof typeof INDEXES].pk] !== undefined);
  expect(written('transactions.payment_link.checkout.requested')).toEqual(['gsi1', 'gsi2', 'gsi4']);
  expect(written('transactions.payment.paid')).toEqual(['gsi1', 'gsi2']);
});

test('a wildcard below which no type is has no list', () => {
  expect(keys.eventPrefixList('org_1#test', 'a.b.c.d.', emittedTypes)).toBeUndefined();
  expect(keys.eventPrefixList('org_1#test', 'transactions.payment.paid.', emittedTypes)).toBeUndefined();
  expect(typePrefixes('a.b.c')).toEqual(['a.', 'a.b.']);
  expect(typePrefixes('a')).toEqual([]);
});
