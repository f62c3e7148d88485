/**
 * Tokens are judged whole, over HTTP on PostgreSQL: a token signed with the API's own secret but
 * living far too long (`exp: 1e300`), or whose claims are malformed (`tenants` a string, `roles`
 * not strings, `sub` not a string), is refused with 401 and a detail that says what was wrong,
 * never read as a caller with no tenants or no roles.
 */
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { readConfig } from "../../src/platform/config.ts";
import { testJwtSecret } from "../../src/platform/platform-test.module.ts";
import { assertProblem, e2e } from "./e2e.ts";

e2e(
  "a signed token living over 24 hours, or with malformed claims, is refused with 401",
  async (app) => {
    const { client, clock } = app;
    const config = readConfig({});
    const iat = Math.floor(clock.now().getTime() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({
        sub: "pat-1",
        roles: ["patient"],
        tenants: ["practice-1"],
        iss: config.tokenIssuer,
        aud: config.tokenAudience,
        iat,
        exp: iat + 600,
        ...claims,
      }).setProtectedHeader({ alg: "HS256" }).sign(testJwtSecret);
    const me = (token: string) =>
      client.fetch("/people/me", {
        headers: { authorization: `Bearer ${token}`, "x-tenant-id": "practice-1" },
      });

    assert.equal((await me(await sign({}))).status, 200, "the well-formed token");
    for (
      const [claims, detail] of [
        [{ exp: 1e300 }, /lives longer than the 86400 s allowed/],
        [{ exp: iat + 86_401 }, /lives longer than the 86400 s allowed/],
        [{ tenants: "practice-1" }, /tenants claim is not a list of strings/],
        [{ roles: "practitioner" }, /roles claim is not a list of strings/],
        [{ roles: [["practitioner"]] }, /roles claim is not a list of strings/],
        [{ sub: 7 }, /subject \(sub\) is not a string/],
      ] as const
    ) {
      const answer = await me(await sign(claims));
      const text = await answer.text();
      const what = JSON.stringify(claims);
      assert.equal(answer.status, 401, `${what}: ${text}`);
      const body = JSON.parse(text);
      assert.equal(
        assertProblem({ status: answer.status, headers: answer.headers, body, text }, what),
        "UNAUTHORIZED",
      );
      assert.match(body.detail, detail, what);
      assert.match(answer.headers.get("www-authenticate") ?? "", /error="invalid_token"/, what);
    }
  },
);
