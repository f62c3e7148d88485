import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { GetMe } from "../../application/queries/get-me/get-me.query.ts";
import { People } from "./people.routes.ts";

const me = z.object({
  id: z.string(),
  roles: z.array(z.string()),
  tenants: z.array(z.string()),
  registered: z.boolean(),
  name: z.string().optional(),
  email: z.string().optional(),
});

const route = controllerRoute({
  group: People,
  method: "GET",
  path: "/me",
  permissions: [GetMe],
  summary: "Who am I",
  response: { status: 200, description: "The caller", body: zodSchema(me, { io: "output" }) },
  errors: ["FORBIDDEN"],
});

/** GET /people/me: who the caller is (from the token) and their profile once registered. */
@Controller(route)
export class GetMeController {
  constructor(private readonly queries: QueryBus) {}

  async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    const found = await this.queries.execute(new GetMe(request.actor));
    return { ...found, roles: [...found.roles], tenants: [...found.tenants] };
  }
}
