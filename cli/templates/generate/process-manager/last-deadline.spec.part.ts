
  // $deadline$: the clock moved to its time, its job runs the transition, which ends the instance.
  clock.set(new Date(t0.getTime() + $days$ * day));
  await application.backgroundJobs.runDue();
  assert.equal((await instance())?.status, "completed");