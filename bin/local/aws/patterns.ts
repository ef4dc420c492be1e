type Pattern = { [field: string]: Pattern | unknown[] };

type Matcher = (value: unknown, present: boolean) => boolean;

/** The content filters of EventBridge patterns that this stack's templates use; any other is refused when the pattern is read. */
const FILTERS: Record<string, (argument: unknown) => Matcher> = {
  prefix: (argument) => (value) => typeof value === 'string' && value.startsWith(String(argument)),
  suffix: (argument) => (value) => typeof value === 'string' && value.endsWith(String(argument)),
  'equals-ignore-case': (argument) => (value) => typeof value === 'string' && value.toLowerCase() === String(argument).toLowerCase(),
  'anything-but': (argument) => (value, present) => present && !(Array.isArray(argument) ? argument : [argument]).includes(value),
  exists: (argument) => (_value, present) => present === argument,
};

function matcherOf(element: unknown): Matcher {
  if (element === null || typeof element !== 'object') return (value) => value === element;
  const [name, argument] = Object.entries(element)[0] ?? [];
  const filter = FILTERS[name];
  if (!filter) throw new Error(`Event pattern filter "${name}" is not imitated locally`);
  return filter(argument);
}

function compile(pattern: Pattern): (event: unknown) => boolean {
  const fields = Object.entries(pattern).map(([field, expected]) => {
    if (Array.isArray(expected)) {
      const matchers = expected.map(matcherOf);
      return (event: Record<string, unknown>) => {
        const present = event !== null && typeof event === 'object' && field in event;
        const value = present ? event[field] : undefined;
        const values = Array.isArray(value) ? value : [value];
        return matchers.some((matcher) => values.some((each) => matcher(each, present)));
      };
    }
    const inner = compile(expected as Pattern);
    return (event: Record<string, unknown>) => event !== null && typeof event === 'object' && inner(event[field]);
  });
  return (event) => fields.every((field) => field(event as Record<string, unknown>));
}

/**
 * An EventBridge event pattern (also the syntax of Lambda event-source filter criteria): every
 * field of the pattern must match, a list matches when any of its values or filters does.
 */
export function eventPattern(pattern: unknown): (event: unknown) => boolean {
  return compile((typeof pattern === 'string' ? JSON.parse(pattern) : pattern) as Pattern);
}
