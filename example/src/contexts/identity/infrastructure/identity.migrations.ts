import type { Migration } from "@kit/kernel/postgres";

/** The identity schema, in order. */
export const identityMigrations: readonly Migration[] = [];
