import postgres from "postgres";
import { migrate } from "../src/platform/database/migrate.ts";
const base = "postgres://postgres@127.0.0.1:5432/test";
const admin = postgres(base, { max: 1, onnotice: () => {} });
const names: string[] = [];
for (let i = 0; i < 10; i++) { const n = `mig_${i}_${Date.now()}`; names.push(n); await admin.unsafe(`create database ${n}`); }
const stat = () => Deno.readTextFileSync("/proc/stat").split("\n")[0].split(/\s+/).slice(1,4).reduce((a,b)=>a+Number(b),0);
let count = 0;
const b = stat(); const t = performance.now();
for (const n of names) {
  const sql = postgres(`postgres://postgres@127.0.0.1:5432/${n}`, { max: 8, onnotice: () => {}, debug: () => { count++; } });
  await migrate(sql);
  await sql.end();
}
console.log("migrate x10: wall", (performance.now()-t).toFixed(0), "ms cpu", (stat()-b)*10, "ms queries", count);
const b2 = stat(); const t2 = performance.now();
for (const n of names) await admin.unsafe(`drop database ${n} with (force)`);
console.log("drop x10: wall", (performance.now()-t2).toFixed(0), "cpu", (stat()-b2)*10);
const b3 = stat(); const t3 = performance.now();
for (const n of names) await admin.unsafe(`create database ${n}`);
console.log("create x10: wall", (performance.now()-t3).toFixed(0), "cpu", (stat()-b3)*10);
for (const n of names) await admin.unsafe(`drop database ${n} with (force)`);
await admin.end();
