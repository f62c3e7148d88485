  /**
   * The project's ORM over that database (`orm.ts`, opened by `readEnvironment`): the
   * repositories, the unit of work (one ORM transaction per command), the outbox and the jobs are
   * written with it.
   */
  readonly orm?: Orm;
