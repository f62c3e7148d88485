import { $aggregate$ } from "./$kebab$.ts";

/**
 * The arguments of `$aggregate$.create` for a valid new $aggregate$ of this id: the one place
 * specs take them from. When `$aggregate$.create` takes a new field, give it a valid value here,
 * and every generated spec follows (the $aggregate$'s own, its repository's, its commands' and
 * queries'). kit writes this file once, when a generator first needs it: it is yours to edit.
 */
export function $arguments$(id: string): Parameters<typeof $aggregate$.create> {
  return [$values$];
}

/** A new $aggregate$ of this id, for specs: `$aggregate$.create` given `$arguments$`. */
export function $instance$(id: string): $aggregate$ {
  return $aggregate$.create(...$arguments$(id));
}
