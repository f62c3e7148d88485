import { openOrm, type Orm } from "./database/orm.ts";
