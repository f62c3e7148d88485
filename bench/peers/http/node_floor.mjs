// The Node runtime's floor: node:http answering GET /hello with a constant JSON body, nothing
// else (no router, no framework). A limit row of the HTTP side by side, beside Deno.serve's.
import { createServer } from "node:http";

const port = Number(process.argv[2]);
const body = JSON.stringify({ message: "hello" });
createServer((request, response) => {
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
}).listen(port, "127.0.0.1", () => console.log("ready"));
