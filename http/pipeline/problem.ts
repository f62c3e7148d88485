/** One validation issue of a problem, with the JSON pointer of what failed. */
export interface ProblemIssue {
  /** A JSON pointer into the request: `/body/startsAt`, `/query/page`, `/params/id`. */
  readonly pointer: string;
  /** What is wrong. */
  readonly detail: string;
  /** The library's code, when it has one. */
  readonly code?: string;
}

/** An RFC 9457 problem document, with kit's `code`. */
export interface Problem {
  /** A URI reference naming the problem type. */
  readonly type: string;
  /** A short summary of the problem type. */
  readonly title: string;
  /** The HTTP status. */
  readonly status: number;
  /** What happened, for people. */
  readonly detail?: string;
  /** The request path. */
  readonly instance?: string;
  /** The stable error code (`VALIDATION_FAILED`, `SLOT_TAKEN`). */
  readonly code: string;
  /** The validation issues, for `VALIDATION_FAILED`. */
  readonly errors?: readonly ProblemIssue[];
}

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  500: "Internal Server Error",
};

/** The type URI of a code: `urn:kit:problem:<code in kebab-case>`. */
export function problemType(code: string): string {
  return `urn:kit:problem:${code.toLowerCase().replaceAll("_", "-")}`;
}

/** Builds a problem document. */
export function problem(
  status: number,
  code: string,
  detail: string | undefined,
  instance: string | undefined,
  errors?: readonly ProblemIssue[],
): Problem {
  return {
    type: problemType(code),
    title: titles[status] ?? "Error",
    status,
    ...(detail === undefined ? {} : { detail }),
    ...(instance === undefined ? {} : { instance }),
    code,
    ...(errors === undefined ? {} : { errors }),
  };
}

/** Escapes a path segment for a JSON pointer (RFC 6901). */
export function pointer(part: string, path: readonly (string | number)[]): string {
  let out = `/${part}`;
  for (const segment of path) {
    out += "/" + String(segment).replaceAll("~", "~0").replaceAll("/", "~1");
  }
  return out;
}
