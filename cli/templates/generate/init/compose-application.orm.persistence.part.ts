  const { sql, orm } = options;
  // The unit of work, the outbox and the processed events on the ORM: a command's rows, its events
  // and its jobs commit in one ORM transaction.
  const onOrm = orm ? ormPersistence(orm) : undefined;
