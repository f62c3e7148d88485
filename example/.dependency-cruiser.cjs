// Derived from kit.config.json by `kit depcruise-config --write`: regenerate, never edit by hand.
// Run by `deno task verify` (dependency-cruiser, with TypeScript preloaded).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "context-through-published-language",
      comment:
        "A context imports another context only from that context's published-language/ (and its gateways translate it). Fix: import the other context's event or contract from its published-language/ (kit generate integration-event), or call it through a gateway (kit generate gateway <context> <upstream>); a spec is held to the same rule",
      severity: "error",
      from: {
        path: "^src/contexts/([^/]+)/",
      },
      to: {
        path: "^src/contexts/",
        pathNot: "^src/contexts/($1|[^/]+/published-language)/",
      },
    },
    {
      name: "domain-imports-no-infrastructure",
      comment:
        "The domain does not know how it is stored or reached: ports in application/, adapters in infrastructure/. Fix: declare a port in application/ports/ (kit generate port) and implement it in infrastructure/; a spec that needs an adapter (an in-memory repository) goes in application/, beside the handler it tests",
      severity: "error",
      from: {
        path: "^src/contexts/[^/]+/domain/",
      },
      to: {
        path: "^src/contexts/[^/]+/infrastructure/",
      },
    },
    {
      name: "domain-imports-no-platform",
      comment:
        "The domain imports no platform code and no package that does I/O. Fix: keep the domain to plain TypeScript and @kit/kernel; move the code that needs the platform or I/O to application/ (behind a port) or infrastructure/; a spec that needs testApplication goes in application/, beside the handler it tests",
      severity: "error",
      from: {
        path: "^src/contexts/[^/]+/domain/",
      },
      to: {
        path: "^src/platform/|^(@kit/http|@kit/jobs|postgres|@upstash/redis|hono)(/|$)",
      },
    },
    {
      name: "domain-imports-no-presentation",
      comment:
        "The domain does not know how it is presented. Fix: move what both need into the domain and let presentation/ import it from there",
      severity: "error",
      from: {
        path: "^src/contexts/[^/]+/domain/",
      },
      to: {
        path: "^src/contexts/[^/]+/presentation/",
      },
    },
    {
      name: "gateway-of-declared-relationship",
      comment:
        "A gateway of analytics reads only its declared upstream contexts (none). Fix: declare the upstream with 'kit generate gateway analytics <upstream>', or read a context already declared",
      severity: "error",
      from: {
        path: "^src/contexts/analytics/infrastructure/[^/]+\\.gateway\\.ts$",
      },
      to: {
        path: "^src/contexts/",
        pathNot: "^src/contexts/(analytics)/",
      },
    },
    {
      name: "gateway-of-declared-relationship",
      comment:
        "A gateway of availability reads only its declared upstream contexts (scheduling). Fix: declare the upstream with 'kit generate gateway availability <upstream>', or read a context already declared",
      severity: "error",
      from: {
        path: "^src/contexts/availability/infrastructure/[^/]+\\.gateway\\.ts$",
      },
      to: {
        path: "^src/contexts/",
        pathNot: "^src/contexts/(availability|scheduling)/",
      },
    },
    {
      name: "gateway-of-declared-relationship",
      comment:
        "A gateway of identity reads only its declared upstream contexts (none). Fix: declare the upstream with 'kit generate gateway identity <upstream>', or read a context already declared",
      severity: "error",
      from: {
        path: "^src/contexts/identity/infrastructure/[^/]+\\.gateway\\.ts$",
      },
      to: {
        path: "^src/contexts/",
        pathNot: "^src/contexts/(identity)/",
      },
    },
    {
      name: "gateway-of-declared-relationship",
      comment:
        "A gateway of notifications reads only its declared upstream contexts (none). Fix: declare the upstream with 'kit generate gateway notifications <upstream>', or read a context already declared",
      severity: "error",
      from: {
        path: "^src/contexts/notifications/infrastructure/[^/]+\\.gateway\\.ts$",
      },
      to: {
        path: "^src/contexts/",
        pathNot: "^src/contexts/(notifications)/",
      },
    },
    {
      name: "gateway-of-declared-relationship",
      comment:
        "A gateway of scheduling reads only its declared upstream contexts (availability). Fix: declare the upstream with 'kit generate gateway scheduling <upstream>', or read a context already declared",
      severity: "error",
      from: {
        path: "^src/contexts/scheduling/infrastructure/[^/]+\\.gateway\\.ts$",
      },
      to: {
        path: "^src/contexts/",
        pathNot: "^src/contexts/(scheduling|availability)/",
      },
    },
    {
      name: "presentation-imports-no-infrastructure",
      comment:
        "Presentation reaches infrastructure only through the command and query buses. Fix: send a command or query from the route (kit generate command|query, then kit generate route); a route's spec lets testApplication (src/platform/platform-test.module.ts) provide the adapters instead of importing infrastructure/",
      severity: "error",
      from: {
        path: "^src/contexts/[^/]+/presentation/",
      },
      to: {
        path: "^src/contexts/[^/]+/infrastructure/",
      },
    },
  ],
  options: {
    doNotFollow: {
      path: "node_modules",
    },
    exclude: {
      path: "^(npm|jsr|node|https?):",
    },
    tsPreCompilationDeps: true,
  },
};
