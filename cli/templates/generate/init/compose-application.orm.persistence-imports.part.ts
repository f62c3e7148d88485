import { type Orm, ormPersistence } from "./database/orm.ts";
