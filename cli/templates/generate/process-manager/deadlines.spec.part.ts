
  assert.deepEqual(Object.keys(started?.deadlines ?? {}).sort(), $deadlines$);
  // Before its time a deadline does not run (the context's scheduled jobs may: their first tick).
  await application.backgroundJobs.runDue();
  assert.equal((await state())?.last, "$startEvent$", "no deadline ran before its time");