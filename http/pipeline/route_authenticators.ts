import type { Authenticator } from "./authenticator.ts";

/** The schemes the document defines by itself when `securitySchemes` does not. */
const defaultSchemes: ReadonlySet<string> = new Set(["apiKey", "bearer"]);

/**
 * The authenticators run for a route: none for a route open to anyone (it reads no credential);
 * for a closed one, those of the schemes it requires and those naming no scheme, or all when it
 * names none. A caller identified by another scheme is, for that route, no caller. A route that
 * requires a scheme no authenticator reads relies on its guards to authenticate (an API key
 * guard). A scheme neither `securitySchemes` defines nor kit knows (`bearer`, `apiKey`) is
 * refused, naming the route: a misspelt scheme would otherwise close the route to every caller
 * and document a scheme nobody defined.
 *
 * @param all The plugin's authenticators, in order.
 * @param defined The schemes `httpPlugin({ securitySchemes })` defines.
 * @param route The route, for messages (`Controller 'BookAppointment'`).
 * @param schemes The schemes it requires (empty: any).
 * @param open Whether it is open to anyone (`Public`, `security: []`).
 */
export function authenticatorsFor(
  all: readonly Authenticator[],
  defined: ReadonlySet<string>,
  route: string,
  schemes: readonly string[],
  open: boolean,
): readonly Authenticator[] {
  if (open) return [];
  for (const scheme of schemes) {
    if (!defined.has(scheme) && !defaultSchemes.has(scheme)) {
      throw new Error(
        `${route} requires the security scheme '${scheme}', which httpPlugin({ securitySchemes }) does not define (defined: ${
          [...new Set([...defined, ...defaultSchemes])].sort().join(", ")
        })`,
      );
    }
  }
  if (schemes.length === 0) return all;
  return all.filter((a) => a.scheme === undefined || schemes.includes(a.scheme));
}
