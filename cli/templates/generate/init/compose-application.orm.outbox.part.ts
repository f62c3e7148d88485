        outbox: onOrm?.outbox ?? new InMemoryOutbox(),
        processedEvents: onOrm?.processedEvents ?? new InMemoryProcessedEvents(),
