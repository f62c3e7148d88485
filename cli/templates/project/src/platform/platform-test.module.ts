import {
  accessPolicy,
  composeApplication,
  eventsPlugin,
  InMemoryOutbox,
  InMemoryProcessedEvents,
  type Module,
  type Registration,
  type RoleGrants,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { InMemoryJobStore, jobsPlugin } from "@kit/jobs";
import { signToken, type TokenClaims } from "./auth/tokens.ts";
import { memoryRepositories, platformHttp, providers } from "./compose-application.ts";
import { swaggerUiAssets } from "./http/api-docs.ts";

/** The secret of the specs' tokens (a new one each run). */
const testSecret = crypto.getRandomValues(new Uint8Array(32));

/**
 * A bearer token the test application's HTTP pipeline accepts: `application.http.fetch` with
 * `authorization: Bearer <token>` calls the routes as that caller.
 */
export function testToken(claims: TokenClaims): Promise<string> {
  return signToken(testSecret, claims);
}

/**
 * An application for specs: the modules given; the platform's providers and in-memory
 * repositories, where the providers given (fakes of ports) replace those of the same port;
 * in-memory events and jobs; a test clock; the platform's HTTP pipeline, taking the tokens of
 * `testToken` and answering 500 for an error code a route does not declare.
 */
export function testApplication(
  modules: readonly Module[],
  options: { grants?: RoleGrants; clock?: TestClock; providers?: readonly Registration[] } = {},
) {
  const given = options.providers ?? [];
  const replaced = new Set(given.map((registration) => registration.provide));
  return composeApplication({
    modules,
    providers: [
      ...[...providers, ...memoryRepositories].filter((registration) =>
        !replaced.has(registration.provide)
      ),
      ...given,
    ],
    clock: options.clock ?? new TestClock(),
    accessPolicy: accessPolicy({ grants: options.grants ?? {} }),
    plugins: {
      events: eventsPlugin({
        outbox: new InMemoryOutbox(),
        processedEvents: new InMemoryProcessedEvents(),
        start: false,
      }),
      backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }),
      http: platformHttp({
        jwtSecret: testSecret,
        undeclaredErrors: "refuse",
        docs: swaggerUiAssets,
      }),
    },
  });
}
