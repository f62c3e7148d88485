import { InMemoryJobStore } from "../mod.ts";
import { jobStoreContract } from "../testing.ts";

jobStoreContract({
  name: "InMemoryJobStore",
  open: () => Promise.resolve({ store: new InMemoryJobStore(), close: () => Promise.resolve() }),
});
