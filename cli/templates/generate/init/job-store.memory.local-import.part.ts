import type { Database } from "../database/database.ts";
