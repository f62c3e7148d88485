/**
 * The secret a generated project signs and verifies its bearer tokens with when `JWT_SECRET` is
 * not set and its data is in memory (`deno task dev` without `DATABASE_URL`): known to everyone,
 * so never deployed. With a database and no `JWT_SECRET`, the API draws a random secret instead
 * and accepts no token.
 */
export const developmentSecret = "development-only-secret-never-deployed";
