/**
 * The checksum a migration ledger records: SHA-256 (Web Crypto) of the migration's SQL, in lower-case
 * hex, its line endings read as `\n` (a checkout with CRLF line endings keeps its checksums).
 */
export async function migrationChecksum(sql: string): Promise<string> {
  const bytes = new TextEncoder().encode(sql.replaceAll("\r\n", "\n"));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
