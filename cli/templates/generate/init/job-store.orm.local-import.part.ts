import { contextJobStore, type Orm } from "../database/orm.ts";
import project from "../../../kit.config.json" with { type: "json" };
