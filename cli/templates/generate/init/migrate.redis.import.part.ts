import { migrateJobOutbox } from "@kit/jobs/outbox";
