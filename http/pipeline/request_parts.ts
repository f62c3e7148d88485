/**
 * The query and the headers of a request as the records the schemas validate. Internal to the
 * pipeline.
 *
 * @module
 */

/**
 * The query's pairs by name, a repeated name as an array of its values, decoded as
 * `URLSearchParams` decodes them.
 */
export function parseQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (query.length === 0) return out;
  if (query.includes("%") || query.includes("+")) {
    for (const [key, value] of new URLSearchParams(query)) add(out, key, value);
    return out;
  }
  // Nothing to decode: the pairs as URLSearchParams reads them, without building one (nor an
  // array of them).
  for (let start = 0; start <= query.length;) {
    let end = query.indexOf("&", start);
    if (end === -1) end = query.length;
    if (end > start) {
      const equals = query.indexOf("=", start);
      if (equals === -1 || equals > end) add(out, query.slice(start, end), "");
      else add(out, query.slice(start, equals), query.slice(equals + 1, end));
    }
    start = end + 1;
  }
  return out;
}

/** Adds a pair to a parsed query: a repeated name's values become an array. */
function add(out: Record<string, string | string[]>, key: string, value: string): void {
  const existing = Object.hasOwn(out, key) ? out[key] : undefined;
  if (existing === undefined) setOwn(out, key, value);
  else if (Array.isArray(existing)) existing.push(value);
  else setOwn(out, key, [existing, value]);
}

/**
 * The headers as a record by lower-case name, as `Object.fromEntries(headers)` builds it
 * (`forEach` is cheaper than the iterator on Deno and Node); given the only keys a schema reads,
 * just those of them the request has.
 */
export function headerRecord(
  headers: Headers,
  readsOnly?: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  if (readsOnly !== undefined && allPlain(readsOnly)) {
    // Only the keys the schema reads: on Node, iterating the headers builds undici Headers.
    for (let i = 0; i < readsOnly.length; i++) {
      const name = readsOnly[i]!;
      const value = headers.get(name);
      if (value !== null) out[name] = value;
    }
    return out;
  }
  headers.forEach((value, name) => {
    if (name === "__proto__") {
      Object.defineProperty(out, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[name] = value;
  });
  return out;
}

/** The headers as a read-only record by lower-case name, each read from `headers` when asked. */
export function lazyHeaders(headers: Headers): Readonly<Record<string, string>> {
  return new Proxy({}, {
    get: (_, name) => (typeof name === "string" ? headers.get(name) ?? undefined : undefined),
    has: (_, name) => typeof name === "string" && headers.has(name),
    ownKeys: () => [...headers.keys()],
    getOwnPropertyDescriptor: (_, name) =>
      typeof name === "string" && headers.has(name)
        ? { value: headers.get(name), enumerable: true, configurable: true }
        : undefined,
  });
}

/** Whether each of a schema's keys is a plain header name, decided once per list of keys. */
function allPlain(names: readonly string[]): boolean {
  let plain = plainLists.get(names);
  if (plain === undefined) plainLists.set(names, plain = names.every(isPlainHeaderName));
  return plain;
}

const plainLists = new WeakMap<readonly string[], boolean>();

/** A name `Object.fromEntries(headers)` would have as one key with the value `get` answers. */
function isPlainHeaderName(name: string): boolean {
  return name === name.toLowerCase() && name !== "set-cookie" && name !== "__proto__";
}

/** Sets an own, enumerable property, `__proto__` included (never the record's prototype). */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") {
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else record[key] = value;
}
