  // The project's ORM over the database (orm.ts): the repositories, the unit of work, the outbox
  // and the jobs are written with it, in one transaction per command.
  const orm = url && sql ? openOrm(url, sql, config.database) : undefined;
  const jobs = await openJobStore(orm?.db, config, logger);
