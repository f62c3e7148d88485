 * Brings the database up to date: the kernel's outbox and processed events, the jobs' outbox (relayed to Redis), then
