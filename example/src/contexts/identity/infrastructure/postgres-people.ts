import { requireTenant } from "@kit/kernel";
import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import { tenantRows } from "../../../platform/database/tenant-rows.ts";
import type { People } from "../application/ports/people.ts";
import type { Invitation, Person } from "../domain/person.ts";

/**
 * People in `identity.people` and `identity.invitations`, each row with its practice (tenant):
 * reads see the tenants the work reaches, writes are for the work's tenant.
 */
export class PostgresPeople implements People {
  constructor(private readonly sql: Database) {}

  async find(id: string): Promise<Person | undefined> {
    const db = currentSql(this.sql);
    const [r] = await db`
      select * from identity.people where id = ${id} and ${tenantRows(db)}
      order by tenant_id limit 1`;
    return r === undefined
      ? undefined
      : { id: r.id, name: r.name, email: r.email, registeredAt: r.registered_at };
  }

  async register(p: Person): Promise<boolean> {
    const rows = await currentSql(this.sql)`
      insert into identity.people (id, tenant_id, name, email, registered_at)
      values (${p.id}, ${requireTenant()}, ${p.name}, ${p.email}, ${p.registeredAt})
      on conflict (tenant_id, id) do nothing returning id`;
    return rows.length === 1;
  }

  async invite(i: Invitation): Promise<boolean> {
    const rows = await currentSql(this.sql)`
      insert into identity.invitations (id, tenant_id, email, role, invited_by, invited_at)
      values (${i.id}, ${requireTenant()}, ${i.email}, ${i.role}, ${i.invitedBy}, ${i.invitedAt})
      on conflict (tenant_id, email) do nothing returning id`;
    return rows.length === 1;
  }

  async invitations(): Promise<Invitation[]> {
    const db = currentSql(this.sql);
    const rows = await db`
      select * from identity.invitations where ${tenantRows(db)}
      order by invited_at desc, id`;
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      role: r.role,
      invitedBy: r.invited_by,
      invitedAt: r.invited_at,
    }));
  }
}
