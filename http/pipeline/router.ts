/** What a match answers: the route and its path parameters. */
export interface RouteMatch<T> {
  /** The route's value. */
  readonly value: T;
  /** Path parameters by name. */
  readonly params: Record<string, string>;
  /**
   * The parameters whose segment is not valid percent-encoded UTF-8 (`%ED%A0%80`, `%E0%A4%A`),
   * kept as they were sent; absent when every segment decoded.
   */
  readonly undecodable?: readonly string[];
}

interface Node<T> {
  readonly statics: Map<string, Node<T>>;
  /** The same, as a list: a path's segment compared in place with each (no slice of it). */
  readonly staticList: [string, Node<T>][];
  param?: { readonly name: string; readonly node: Node<T> };
  readonly routes: Map<string, T>;
  /** The template of the routes here (`/calendars/:calendarId`), once a route is added. */
  template?: string;
}

const node = <T>(): Node<T> => ({ statics: new Map(), staticList: [], routes: new Map() });

/** Up to this many static children, a segment is compared in place with each. */
const inPlace = 8;

/**
 * A segment trie over paths: static segments first, then one parameter per position. Built once
 * at start-up; a match walks the path once.
 */
export class Router<T> {
  readonly #root: Node<T> = node();
  /** The node of each path without parameters, by its path (`/a/b`): found without a walk. */
  readonly #exact = new Map<string, Node<T>>();

  /** Adds a route; refuses one that is there already, or a parameter named two ways. */
  add(method: string, path: string, value: T): void {
    let current = this.#root;
    for (const segment of split(path)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (current.param === undefined) current.param = { name, node: node() };
        else if (current.param.name !== name) {
          throw new Error(
            `Route '${method} ${path}' names parameter ':${name}' where another route names ':${current.param.name}'`,
          );
        }
        current = current.param.node;
      } else {
        let next = current.statics.get(segment);
        if (next === undefined) {
          current.statics.set(segment, next = node());
          current.staticList.push([segment, next]);
        }
        current = next;
      }
    }
    if (current.routes.has(method)) throw new Error(`Route '${method} ${path}' is declared twice`);
    current.routes.set(method, value);
    current.template ??= path;
    const segments = split(path);
    if (!segments.some((segment) => segment.startsWith(":"))) {
      this.#exact.set(`/${segments.join("/")}`, current);
    }
  }

  /**
   * The route of the method and path; when none matches, `allowed` lists the methods of the path
   * and `template` is their routes' path template.
   */
  match(
    method: string,
    path: string,
  ):
    | RouteMatch<T>
    | { readonly allowed: readonly string[]; readonly template: string }
    | undefined {
    const params: Record<string, string> = {};
    // A path sent as a route without parameters names it: the walk would end on the same node,
    // since a static segment is tried before a parameter.
    const exact = this.#exact.get(path);
    if (exact !== undefined) return routeOf(exact, method, params, undefined);
    let undecodable: string[] | undefined;
    let current: Node<T> | undefined = this.#root;
    let start = 1;
    while (current !== undefined && start <= path.length) {
      let end = path.indexOf("/", start);
      if (end === -1) end = path.length;
      if (end === start) {
        start = end + 1;
        continue;
      }
      const next: Node<T> | undefined = staticChild(current, path, start, end);
      if (next !== undefined) current = next;
      else if (current.param !== undefined) {
        let value = path.slice(start, end);
        if (value.includes("%")) {
          try {
            value = decodeURIComponent(value);
          } catch {
            // Matched all the same, so that the pipeline names the parameter in a 422.
            (undecodable ??= []).push(current.param.name);
          }
        }
        params[current.param.name] = value;
        current = current.param.node;
      } else return undefined;
      start = end + 1;
    }
    if (current === undefined) return undefined;
    return routeOf(current, method, params, undecodable);
  }
}

/** The route of `method` at `node` (HEAD answered by GET); else the methods there, if any. */
function routeOf<T>(
  node: Node<T>,
  method: string,
  params: Record<string, string>,
  undecodable: string[] | undefined,
):
  | RouteMatch<T>
  | { readonly allowed: readonly string[]; readonly template: string }
  | undefined {
  if (node.routes.size === 0) return undefined;
  const value = node.routes.get(method) ?? (method === "HEAD" ? node.routes.get("GET") : undefined);
  if (value === undefined) {
    return { allowed: [...node.routes.keys()].sort(), template: node.template! };
  }
  return undecodable === undefined ? { value, params } : { value, params, undecodable };
}

/** The static child of `current` named by `path` from `start` to `end`, if any. */
function staticChild<T>(
  current: Node<T>,
  path: string,
  start: number,
  end: number,
): Node<T> | undefined {
  const list = current.staticList;
  if (list.length > inPlace) return current.statics.get(path.slice(start, end));
  const length = end - start;
  for (let i = 0; i < list.length; i++) {
    const [segment, child] = list[i]!;
    if (segment.length === length && path.startsWith(segment, start)) return child;
  }
  return undefined;
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}
