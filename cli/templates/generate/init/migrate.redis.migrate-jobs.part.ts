  await migrateJobOutbox(sql);
