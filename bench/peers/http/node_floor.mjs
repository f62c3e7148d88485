// The Node runtime's floor: node:http with no router and no framework. GET answers a constant JSON
// body (the limit row beside Deno.serve's); POST (the schema route's request) reads the
// Authorization header and the JSON body, parses it, and answers a constant 202: the least any
// server on Node does for that request.
import { createServer } from "node:http";

const port = Number(process.argv[2]);
const hello = JSON.stringify({ message: "hello" });
const accepted = JSON.stringify({ id: "cal-1:3" });
createServer((request, response) => {
  if (request.method !== "POST") {
    response.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(hello),
    });
    response.end(hello);
    return;
  }
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const status = request.headers.authorization === undefined
      ? 401
      : Array.isArray(parsed.appointmentIds)
      ? 202
      : 422;
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(accepted),
    });
    response.end(accepted);
  });
}).listen(port, "127.0.0.1", () => console.log("ready"));
