/**
 * Wraps every method of an adapter so that a rejected call is tried again, up to `attempts`
 * times in all; the last error is thrown. For idempotent operations only.
 */
export function retrying<T extends object>(inner: T, attempts = 3): T {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        let last: unknown;
        for (let attempt = 1; attempt <= attempts; attempt++) {
          try {
            return await value.apply(target, args);
          } catch (error) {
            last = error;
          }
        }
        throw last;
      };
    },
  });
}
