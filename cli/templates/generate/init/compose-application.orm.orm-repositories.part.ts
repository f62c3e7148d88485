
/** A repository on the project's ORM: its registration, built on the ORM's database (`orm.ts`). */
export type OrmRepository = (db: Orm) => Registration;

/** The repositories on the project's ORM, sorted. */
export const ormRepositories: readonly OrmRepository[] = [
  // kit:begin orm-repositories
  // kit:end
];
