/**
 * The job store of the project's queue (database), on the project's ORM (`orm.ts`): each context's
 * jobs in its own schema (`<context>.background_jobs`, which `migrate` makes), each job enqueued
 * in the ORM's transaction of its command, when the platform runs on a database; in memory
 * otherwise. The worker claims each context's queue from its schema; the registry of live workers
 * is kept in the first context's schema.
 */
export function openJobStore(
  db: Orm | undefined,
  _config: PlatformConfig,
  _logger?: Logger,
): OpenedJobStore {
  if (db === undefined) return inMemory();
  const store = new ContextRoutedJobStore({
    stores: Object.fromEntries(
      project.contexts.map(({ name }) => [name, contextJobStore(db, name.replaceAll("-", "_"))]),
    ),
  });
  return { store, name: "PostgreSQL", close: () => Promise.resolve() };
}
