
  // $deadline$: the clock moved to its time, its job runs the transition.
  clock.set(new Date(t0.getTime() + $days$ * day));
  await application.backgroundJobs.runDue();
  assert.equal((await state())?.last, "$deadline$");