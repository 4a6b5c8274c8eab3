import type { z } from 'zod';

// zod checks each field of an answer by handing its parser a fresh `{ value, issues: [] }`: two objects per field,
// some sixty fields per job, twenty jobs per list, on every command. For the plain schemas of the Delivery Service
// contract (objects, arrays, strings, numbers, integers, booleans, nullable, optional, default) this builds the
// same result (known keys in the schema's order, unknown keys left out, defaults filled) with one object per object.
// Any doubt (a kind of schema it does not know, a value that does not fit) returns null, and zod decides: zod's
// result and zod's issues are what the caller gets whenever this one is not sure.

const MISFIT = Symbol('misfit');
type Lean = (value: unknown) => unknown;
type Mode = 'required' | 'optional' | 'defaulted';

/** What zod's object parser does with a key the input lacks: fails, leaves it out, or fills the default. */
function modeOf(schema: z.ZodType): Mode {
  const { optin, optout } = schema._zod;
  if (optin === undefined) return 'required';
  if (optin === 'optional' && optout === 'optional') return 'optional';
  if (optin === 'defaulted') return 'defaulted';
  return 'required'; // another mix: not one this module reproduces (see compile)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function compileObject(def: { shape: Record<string, z.ZodType>; catchall?: unknown }): Lean | null {
  if (def.catchall !== undefined) return null;
  const keys = Object.keys(def.shape);
  const leans: Lean[] = [];
  const modes: Mode[] = [];
  for (const key of keys) {
    const field = def.shape[key] as z.ZodType;
    const { optin, optout } = field._zod;
    if (optin !== undefined && !(optin === 'optional' && optout === 'optional') && optin !== 'defaulted') return null;
    const lean = compile(field);
    if (!lean || key === '__proto__') return null;
    leans.push(lean);
    modes.push(modeOf(field));
  }
  return (value) => {
    if (!isObject(value)) return MISFIT;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const present = key in value;
      const mode = modes[i] as Mode;
      if (!present && mode === 'optional') continue;
      if (!present && mode === 'required') return MISFIT;
      const result = (leans[i] as Lean)(value[key]);
      if (result === MISFIT) return MISFIT;
      out[key] = result;
    }
    return out;
  };
}

/** A lean parser for the schema, or null when it uses anything but the plain kinds above. */
function compile(schema: z.ZodType): Lean | null {
  // zod's definitions are typed per kind; this reads the few fields of the kinds it knows.
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const checks = def.checks as unknown[] | undefined;
  if (checks && checks.length > 0) return null;
  if (def.coerce) return null;
  switch (def.type) {
    case 'string':
      return def.format === undefined ? (v) => (typeof v === 'string' ? v : MISFIT) : null;
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : MISFIT);
    case 'number':
      if (def.format === 'safeint') return (v) => (Number.isSafeInteger(v) ? v : MISFIT);
      if (def.format !== undefined) return null;
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : MISFIT);
    case 'nullable': {
      const inner = compile(def.innerType as z.ZodType);
      return inner && ((v) => (v === null ? null : inner(v)));
    }
    case 'optional': {
      const inner = compile(def.innerType as z.ZodType);
      return inner && ((v) => (v === undefined ? undefined : inner(v)));
    }
    case 'default': {
      const inner = compile(def.innerType as z.ZodType);
      const fallback = def.defaultValue;
      // An object default is cloned by zod on each use: not reproduced here.
      if (typeof fallback === 'object' && fallback !== null) return null;
      return inner && ((v) => (v === undefined ? fallback : inner(v)));
    }
    case 'array': {
      const item = compile(def.element as z.ZodType);
      if (!item) return null;
      return (v) => {
        if (!Array.isArray(v)) return MISFIT;
        const out = new Array(v.length);
        for (let i = 0; i < v.length; i++) {
          const r = item(v[i]);
          if (r === MISFIT) return MISFIT;
          out[i] = r;
        }
        return out;
      };
    }
    case 'object':
      return compileObject(def as unknown as { shape: Record<string, z.ZodType>; catchall?: unknown });
    default:
      return null;
  }
}

/** What `build` makes of a schema, built once per schema (null: the schema is left to zod). */
function perSchema<T>(build: (schema: z.ZodType) => T | null): (schema: z.ZodType) => T | null {
  const built = new WeakMap<z.ZodType, T | null>();
  return (schema) => {
    let made = built.get(schema);
    if (made === undefined) {
      made = build(schema);
      built.set(schema, made);
    }
    return made;
  };
}

const compiled = perSchema(compile);

/** The value zod would return for a valid answer, built without zod's per-field work; null when zod must decide. */
export function leanParse<S extends z.ZodType>(schema: S, value: unknown): { data: z.output<S> } | null {
  const lean = compiled(schema);
  if (!lean) return null;
  const data = lean(value);
  return data === MISFIT ? null : { data: data as z.output<S> };
}

// A list the caller only reads field by field needs no copy at all: `checkInPlace` says whether zod would accept
// the value, without building anything, and on a yes fills the defaults into the value itself. Its keys are then
// the server's (unknown ones kept, in the server's order): only for callers that read the schema's fields and
// never copy, store or serialise the object whole. Any doubt is zod's again: no verdict, the caller parses.

type Check = (value: unknown) => boolean;
/** Fills the missing defaulted keys of a value the check accepted. */
type Fill = (value: unknown) => void;
interface Checker {
  check: Check;
  fill: Fill | null;
}

function checkerOfObject(def: { shape: Record<string, z.ZodType>; catchall?: unknown }): Checker | null {
  if (def.catchall !== undefined) return null;
  const keys = Object.keys(def.shape);
  const checks: Check[] = [];
  const required: boolean[] = [];
  const fills: { key: string; fill: Fill | null; defaulted: boolean; fallback: unknown }[] = [];
  for (const key of keys) {
    const field = def.shape[key] as z.ZodType;
    const mode = modeOf(field);
    const fieldDef = field._zod.def as unknown as { type: string; innerType?: z.ZodType; defaultValue?: unknown };
    const { optin, optout } = field._zod;
    if (optin !== undefined && !(optin === 'optional' && optout === 'optional') && optin !== 'defaulted') return null;
    // A default is filled by the object that holds it, so only one placed on the field itself is known here.
    const defaulted = mode === 'defaulted';
    if (defaulted && fieldDef.type !== 'default') return null;
    if (defaulted && typeof fieldDef.defaultValue === 'object' && fieldDef.defaultValue !== null) return null;
    const inner = checkerOf(defaulted ? (fieldDef.innerType as z.ZodType) : field);
    if (!inner || key === '__proto__') return null;
    checks.push(inner.check);
    required.push(mode === 'required');
    if (defaulted || inner.fill) fills.push({ key, fill: inner.fill, defaulted, fallback: fieldDef.defaultValue });
  }
  const check: Check = (value) => {
    if (!isObject(value)) return false;
    for (let i = 0; i < keys.length; i++) {
      const v = value[keys[i] as string];
      // Missing and `undefined` are one to zod: refused when required, else left as they are (or filled below).
      if (v === undefined) {
        if (required[i]) return false;
      } else if (!(checks[i] as Check)(v)) return false;
    }
    return true;
  };
  const fill: Fill | null =
    fills.length === 0
      ? null
      : (value) => {
          const o = value as Record<string, unknown>;
          for (const f of fills) {
            const v = o[f.key];
            if (v === undefined) {
              if (f.defaulted) o[f.key] = f.fallback;
            } else if (v !== null && f.fill) f.fill(v);
          }
        };
  return { check, fill };
}

/** A checker for the schema, or null when it uses anything but the plain kinds `compile` knows. */
function checkerOf(schema: z.ZodType): Checker | null {
  // Built from the same verdicts as `compile`: a value passes exactly when the lean parser would build one.
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const checks = def.checks as unknown[] | undefined;
  if (checks && checks.length > 0) return null;
  if (def.coerce) return null;
  switch (def.type) {
    case 'string':
      return def.format === undefined ? { check: (v) => typeof v === 'string', fill: null } : null;
    case 'boolean':
      return { check: (v) => typeof v === 'boolean', fill: null };
    case 'number':
      if (def.format === 'safeint') return { check: (v) => Number.isSafeInteger(v), fill: null };
      if (def.format !== undefined) return null;
      return { check: (v) => typeof v === 'number' && Number.isFinite(v), fill: null };
    case 'nullable': {
      const inner = checkerOf(def.innerType as z.ZodType);
      return inner && { check: (v) => v === null || inner.check(v), fill: inner.fill };
    }
    case 'optional': {
      const inner = checkerOf(def.innerType as z.ZodType);
      return inner && { check: (v) => v === undefined || inner.check(v), fill: inner.fill };
    }
    case 'array': {
      const item = checkerOf(def.element as z.ZodType);
      if (!item) return null;
      const itemFill = item.fill;
      return {
        check: (v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!item.check(v[i])) return false;
          return true;
        },
        fill:
          itemFill &&
          ((v) => {
            for (const x of v as unknown[]) if (x !== undefined && x !== null) itemFill(x);
          }),
      };
    }
    case 'object':
      return checkerOfObject(def as unknown as { shape: Record<string, z.ZodType>; catchall?: unknown });
    default:
      return null;
  }
}

const checkers = perSchema(checkerOf);

/**
 * The value itself, defaults filled in, when zod would accept it; null when zod must decide (the value is then as
 * it came). Unknown keys stay and keys keep the server's order: for values only read field by field.
 */
export function checkInPlace<S extends z.ZodType>(schema: S, value: unknown): { data: z.output<S> } | null {
  const checker = checkers(schema);
  if (!checker?.check(value)) return null;
  checker.fill?.(value);
  return { data: value as z.output<S> };
}
