// Derived from kit.config.json by `kit depcruise-config --write`: regenerate, never edit by hand.
// Run by `deno task verify` (dependency-cruiser, with TypeScript preloaded).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "context-through-published-language",
      comment:
        "A context imports another context only from that context's published-language/ (and its gateways translate it)",
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
        "The domain does not know how it is stored or reached: ports in application/, adapters in infrastructure/",
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
      comment: "The domain imports no platform code and no package that does I/O",
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
      comment: "The domain does not know how it is presented",
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
        "A gateway of analytics reads only its declared upstream contexts (none): declare one with 'kit generate gateway analytics <upstream>'",
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
        "A gateway of availability reads only its declared upstream contexts (scheduling): declare one with 'kit generate gateway availability <upstream>'",
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
        "A gateway of identity reads only its declared upstream contexts (none): declare one with 'kit generate gateway identity <upstream>'",
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
        "A gateway of notifications reads only its declared upstream contexts (none): declare one with 'kit generate gateway notifications <upstream>'",
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
        "A gateway of scheduling reads only its declared upstream contexts (availability): declare one with 'kit generate gateway scheduling <upstream>'",
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
      comment: "Presentation reaches infrastructure only through the command and query buses",
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
