import fc from 'fast-check';
import type { z } from 'zod';
import { hostilePath } from './hostilePaths';

/** The zod definition fields this generator reads; zod 4 keeps them on `_zod.def`. */
interface ZodDefinition {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly options?: readonly z.ZodType[];
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly valueType?: z.ZodType;
  readonly left?: z.ZodType;
  readonly getter?: () => z.ZodType;
}

function definitionOf(schema: z.ZodType): ZodDefinition {
  return (schema as unknown as { _zod: { def: ZodDefinition } })._zod.def;
}

/** Numbers that break arithmetic, offsets and indexes. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, NaN, Infinity, -Infinity, 1e308, 0.5),
  fc.integer(),
  fc.double(),
);

/** Values of the wrong kind altogether, including ones structured clone carries over IPC (Map, Date, typed arrays). */
export const hostileValue: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 3,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withDate: true,
  withTypedArray: true,
  withNullPrototype: true,
  withBigInt: true,
  withSparseArray: true,
});

export interface PayloadPools {
  /** Real names from the scenario (config roots, slugs, file names, ids), so some payloads reach the handlers. */
  readonly realStrings: readonly string[];
  /** What a value of the wrong kind is; any value by default. */
  readonly wrongKind?: fc.Arbitrary<unknown>;
}

/**
 * Payloads shaped like a request's schema (its keys, its nesting) but filled with hostile values, mixed with
 * payloads of any shape at all. Shaped payloads get past the first checks and reach the handlers.
 */
export function payloadArbitrary(schema: z.ZodType, pools: PayloadPools): fc.Arbitrary<unknown> {
  const strings = fc.oneof(
    { arbitrary: fc.constantFrom(...pools.realStrings), weight: 3 },
    { arbitrary: hostilePath(pools.realStrings), weight: 3 },
    { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
    { arbitrary: fc.constantFrom('x'.repeat(100_000), '', ' ', '\u0000', '<img src=x onerror=alert(1)>'), weight: 1 },
  );
  const wrongKind = pools.wrongKind ?? hostileValue;
  const shaped = shapedArbitrary(schema, strings, wrongKind, 0);
  return fc.oneof({ arbitrary: shaped, weight: 4 }, { arbitrary: wrongKind, weight: 1 });
}

function shapedArbitrary(
  schema: z.ZodType,
  strings: fc.Arbitrary<string>,
  hostileValue: fc.Arbitrary<unknown>,
  depth: number,
): fc.Arbitrary<unknown> {
  const def = definitionOf(schema);
  const inner = (next: z.ZodType | undefined): fc.Arbitrary<unknown> =>
    next && depth < 6 ? shapedArbitrary(next, strings, hostileValue, depth + 1) : hostileValue;
  // Now and then a value of the wrong kind, at any depth.
  const wrong = (arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
    fc.oneof({ arbitrary, weight: 8 }, { arbitrary: hostileValue, weight: 1 });
  switch (def.type) {
    case 'string':
      return wrong(strings);
    case 'number':
    case 'int':
      return wrong(hostileNumber);
    case 'bigint':
      return wrong(fc.bigInt());
    case 'boolean':
      return wrong(fc.boolean());
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return wrong(fc.constantFrom(...(def.values ?? [null])));
    case 'enum':
      return wrong(fc.constantFrom(...Object.values(def.entries ?? { none: 'none' })));
    case 'optional':
      return fc.oneof(fc.constant(undefined), inner(def.innerType));
    case 'nullable':
      return fc.oneof(fc.constant(null), inner(def.innerType));
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return inner(def.getter?.());
    case 'array':
    case 'set':
      return wrong(fc.array(inner(def.element), { maxLength: 4 }));
    case 'tuple':
      return wrong(fc.tuple(...(def.items ?? []).map((item) => inner(item))));
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => inner(option)));
    case 'intersection':
      return inner(def.left);
    case 'record':
      return wrong(fc.dictionary(strings, inner(def.valueType), { maxKeys: 4 }));
    case 'object': {
      const fields = Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, field]) => [key, inner(field)]));
      const record = fc.record(fields, { requiredKeys: [] });
      // Strict schemas must refuse unknown keys, including ones that poison prototypes.
      const withExtra = fc
        .tuple(record, fc.constantFrom('extra', '__proto__', 'constructor', 'then'), hostileValue)
        .map(([value, key, extra]) => Object.defineProperty({ ...value }, key, { value: extra, enumerable: true }));
      return fc.oneof({ arbitrary: record, weight: 6 }, { arbitrary: withExtra, weight: 1 }, { arbitrary: hostileValue, weight: 1 });
    }
    default:
      return hostileValue;
  }
}
