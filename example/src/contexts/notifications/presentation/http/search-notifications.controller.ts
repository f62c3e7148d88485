import { Controller, controllerRoute, type RequestOf, type ResponseOf, zodSchema } from "@kit/http";
import type { QueryBus } from "@kit/kernel";
import { z } from "zod";
import { SearchNotifications } from "../../application/queries/search-notifications/search-notifications.query.ts";
import { notificationKinds } from "../../domain/notification.ts";
import { Notifications } from "./notifications.routes.ts";

const searchQuery = z.object({
  kind: z.enum(notificationKinds).optional(),
  unread: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

const page = z.object({
  items: z.array(z.object({
    id: z.string(),
    kind: z.enum(notificationKinds),
    title: z.string(),
    body: z.string(),
    relatedId: z.string().optional(),
    createdAt: z.iso.datetime(),
    read: z.boolean(),
  })),
  total: z.int(),
  page: z.int(),
  pageSize: z.int(),
});

const route = controllerRoute({
  group: Notifications,
  method: "GET",
  path: "/",
  permissions: [SearchNotifications],
  summary: "Search my notifications",
  query: zodSchema(searchQuery),
  response: { status: 200, description: "One page", body: zodSchema(page, { io: "output" }) },
  errors: ["FORBIDDEN"],
});

/**
 * GET /notifications?kind=&unread=&page=&pageSize=: the caller's notifications, newest first.
 * The serializer turns instants into ISO text and the read instant into a flag.
 */
@Controller(route)
export class SearchNotificationsController {
  constructor(private readonly queries: QueryBus) {}

  async handle(request: RequestOf<typeof route>): Promise<ResponseOf<typeof route>> {
    const { kind, unread, page: number, pageSize } = request.query;
    const found = await this.queries.execute(
      new SearchNotifications(request.actor, {
        ...(kind === undefined ? {} : { kind }),
        ...(unread === undefined ? {} : { unread }),
        page: number,
        pageSize,
      }),
    );
    return {
      total: found.total,
      page: found.page,
      pageSize: found.pageSize,
      items: found.items.map((n) => ({
        id: n.id,
        kind: n.kind,
        title: n.title,
        body: n.body,
        ...(n.relatedId === undefined ? {} : { relatedId: n.relatedId }),
        createdAt: n.createdAt.toISOString(),
        read: n.readAt !== undefined,
      })),
    };
  }
}
