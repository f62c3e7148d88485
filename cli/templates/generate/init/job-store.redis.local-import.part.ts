import { openRedisJobs } from "./redis-job-store.ts";
