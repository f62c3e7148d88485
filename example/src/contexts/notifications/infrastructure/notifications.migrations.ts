import type { Migration } from "@kit/kernel/postgres";

/** The notifications schema, in order. */
export const notificationsMigrations: readonly Migration[] = [];
