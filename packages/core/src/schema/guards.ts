// Hand-written guards, the one validation style of hooks and CLI alike: zod/mini would weigh more in every
// hook's bundle than the few fields a payload is checked for.

export type Path = string[];

/** Accepts `value` or pushes the path of each refused part onto `issues`, in shape order. */
export type Guard<T> = (value: unknown, path: Path, issues: Path[]) => value is T;

declare const optionalKey: unique symbol;
/** Type-only mark: a loose object's key whose guard is optional may be absent. */
type Optional<T> = Guard<T | undefined> & { readonly [optionalKey]: true };

export type Infer<G> = G extends Guard<infer T> ? T : never;

type Shape = Record<string, Guard<unknown>>;
type Prettify<T> = { [K in keyof T]: T[K] } & {};
type LooseObject<S extends Shape> = Prettify<
  { -readonly [K in keyof S as S[K] extends Optional<unknown> ? never : K]: Infer<S[K]> } & {
    -readonly [K in keyof S as S[K] extends Optional<unknown> ? K : never]?: Infer<S[K]>;
  } & { [key: string]: unknown }
>;

function leaf<T>(test: (value: unknown) => boolean): Guard<T> {
  return (value, path, issues): value is T => test(value) || (issues.push(path), false);
}

export function string({ pattern, minLength = 0 }: { pattern?: RegExp; minLength?: number } = {}): Guard<string> {
  return leaf((value) => typeof value === "string" && value.length >= minLength && (!pattern || pattern.test(value)));
}

export function number({ min = -Infinity, integer = false }: { min?: number; integer?: boolean } = {}): Guard<number> {
  return leaf((value) => Number.isFinite(value) && (value as number) >= min && (!integer || Number.isInteger(value)));
}

export const boolean = (): Guard<boolean> => leaf((value) => typeof value === "boolean");

export const unknown = (): Guard<unknown> => leaf(() => true);

export const literal = <const V extends string | number | boolean>(expected: V): Guard<V> =>
  leaf((value) => value === expected);

export const oneOf = <const V extends readonly (string | number | boolean)[]>(values: V): Guard<V[number]> =>
  leaf((value) => values.includes(value as V[number]));

export const optional = <T>(guard: Guard<T>) =>
  ((value, path, issues) => value === undefined || guard(value, path, issues)) as Optional<T>;

export const nullable =
  <T>(guard: Guard<T>): Guard<T | null> =>
  (value, path, issues) =>
    value === null || guard(value, path, issues);

/** An object with these keys checked; other keys are kept, as Claude Code adds fields between versions. */
export function looseObject<S extends Shape>(shape: S): Guard<LooseObject<S>> {
  return (value, path, issues): value is LooseObject<S> => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return (issues.push(path), false);
    let ok = true;
    for (const key in shape) ok = shape[key]!((value as Record<string, unknown>)[key], [...path, key], issues) && ok;
    return ok;
  };
}

/** A list whose every item `item` accepts. */
export function array<T>(item: Guard<T>): Guard<T[]> {
  return (value, path, issues): value is T[] => {
    if (!Array.isArray(value)) return (issues.push(path), false);
    let ok = true;
    for (const [index, one] of value.entries()) ok = item(one, [...path, String(index)], issues) && ok;
    return ok;
  };
}

/** An object used as a map: any keys, every value accepted by `item`. */
export function record<T>(item: Guard<T>): Guard<Record<string, T>> {
  return (value, path, issues): value is Record<string, T> => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return (issues.push(path), false);
    let ok = true;
    for (const [key, one] of Object.entries(value)) ok = item(one, [...path, key], issues) && ok;
    return ok;
  };
}

/** The paths `guard` refuses in `value`; none when it accepts. */
export function issuesOf(guard: Guard<unknown>, value: unknown): Path[] {
  const issues: Path[] = [];
  guard(value, [], issues);
  return issues;
}
