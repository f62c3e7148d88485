/**
 * The example scheduling application. Until its contexts land (the example issue), `deno task dev`
 * serves the kernel's composition root with no context: a health endpoint only.
 */
import { composeApplication } from "@kit/kernel";

const application = composeApplication({ modules: [] });
await application.start();

const port = Number(Deno.env.get("PORT") ?? 8000);
const server = Deno.serve({ port, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
  const url = new URL(request.url);
  if (url.pathname === "/health") return Response.json({ status: "ok" });
  return Response.json(
    { type: "about:blank", title: "Not Found", status: 404, code: "NOT_FOUND" },
    { status: 404, headers: { "content-type": "application/problem+json" } },
  );
});
console.log(`kit example listening on http://127.0.0.1:${server.addr.port} (GET /health)`);
Deno.addSignalListener("SIGINT", async () => {
  await server.shutdown();
  await application.stop();
  Deno.exit(0);
});
