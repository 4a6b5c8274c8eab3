/** A request parameter as resource functions hand it over; `undefined` and `null` mean "leave it out". */
export type ParamValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Params = Readonly<Record<string, ParamValue>>;

function encodeName(name: string): string {
  return encodeURIComponent(name);
}

/** Form encoding (WHATWG `application/x-www-form-urlencoded`): a space is `+`, as the contract writes `No+Label`. */
function encodeValue(value: string | number | boolean): string {
  return encodeURIComponent(String(value)).replace(/%20/g, '+');
}

/**
 * The wire form shared by query strings and `application/x-www-form-urlencoded` bodies:
 * arrays as `name[]=a&name[]=b` (brackets left readable, as the contract writes them),
 * booleans as `true`/`false`, undefined and null omitted. Empty arrays send nothing.
 */
export function encodeParams(params: Params | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number)[]) {
        parts.push(`${encodeName(name)}[]=${encodeValue(item)}`);
      }
      continue;
    }
    parts.push(`${encodeName(name)}=${encodeValue(value as string | number | boolean)}`);
  }
  return parts.join('&');
}

/** GitLab takes label lists as one comma-separated value (`labels=bug,ui`). */
export function joinList(value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(',');
}
