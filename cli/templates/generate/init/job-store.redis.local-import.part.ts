import type { Database } from "../database/database.ts";
import { openRedisJobs } from "./redis-job-store.ts";
