import { InMemoryOutbox, InMemoryProcessStore } from "@kit/kernel";
import { InMemoryJobStore } from "../store/in_memory_job_store.ts";
import { processManagerContract } from "../testing/process_manager_contract.ts";

processManagerContract({
  name: "InMemoryProcessStore",
  open: () =>
    Promise.resolve({
      store: new InMemoryProcessStore(),
      jobs: new InMemoryJobStore(),
      outbox: new InMemoryOutbox(),
      close: () => Promise.resolve(),
    }),
});
