import { InMemoryOutbox } from "@kit/kernel";
import { InMemoryProcessStore } from "@kit/kernel/process";
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
