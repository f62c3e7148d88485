import { currentSql } from "@kit/kernel/postgres";
import type { Database } from "../../../platform/database/database.ts";
import type { People } from "../application/ports/people.ts";
import type { Invitation, Person } from "../domain/person.ts";

/** People in `identity.people` and `identity.invitations`. */
export class PostgresPeople implements People {
  constructor(private readonly sql: Database) {}

  async find(id: string): Promise<Person | undefined> {
    const [r] = await currentSql(this.sql)`select * from identity.people where id = ${id}`;
    return r === undefined ? undefined : {
      id: r.id,
      ...(r.tenant_id === null ? {} : { tenantId: r.tenant_id }),
      name: r.name,
      email: r.email,
      registeredAt: r.registered_at,
    };
  }

  async register(p: Person): Promise<boolean> {
    const rows = await currentSql(this.sql)`
      insert into identity.people (id, tenant_id, name, email, registered_at)
      values (${p.id}, ${p.tenantId ?? null}, ${p.name}, ${p.email}, ${p.registeredAt})
      on conflict (id) do nothing returning id`;
    return rows.length === 1;
  }

  async invite(i: Invitation): Promise<boolean> {
    const rows = await currentSql(this.sql)`
      insert into identity.invitations (id, tenant_id, email, role, invited_by, invited_at)
      values (${i.id}, ${i.tenantId ?? null}, ${i.email}, ${i.role}, ${i.invitedBy}, ${i.invitedAt})
      on conflict (tenant_id, email) do nothing returning id`;
    return rows.length === 1;
  }

  async invitations(tenantId: string | undefined): Promise<Invitation[]> {
    const t = tenantId ?? null;
    const rows = await currentSql(this.sql)`
      select * from identity.invitations
      where ${t}::text is null or tenant_id = ${t}
      order by invited_at desc, id`;
    return rows.map((r) => ({
      id: r.id,
      ...(r.tenant_id === null ? {} : { tenantId: r.tenant_id }),
      email: r.email,
      role: r.role,
      invitedBy: r.invited_by,
      invitedAt: r.invited_at,
    }));
  }
}
