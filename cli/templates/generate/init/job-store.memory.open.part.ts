/** The job store of the project's queue (memory): jobs are seen by this process only. */
export function openJobStore(
  _sql: Database | undefined,
  _config: PlatformConfig,
  _logger?: Logger,
): OpenedJobStore {
  return inMemory();
}
