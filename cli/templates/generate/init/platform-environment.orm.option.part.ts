    /** The project's ORM over the database (`orm.ts`): its repositories, unit of work and outbox. */
    readonly orm?: Orm;
