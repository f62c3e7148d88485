

  await inTenant(() => application.events.publisher.publish($event$, $payload$));
  await application.events.relay.deliverDue();
  assert.equal((await state())?.last, "$event$", "$event$ moved the instance");